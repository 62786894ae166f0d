"""The two database engines behind the store: SQLite (embedded, the default) and PostgreSQL
(shared by several bot processes). The store's queries are written once (`core.store`); what
differs between engines (connecting, transactions, locking, placeholders, migrations) is here.
"""

from __future__ import annotations

from .base import Conflict, Conn, Database, is_postgres_url, redact

__all__ = ["Conflict", "Conn", "Database", "is_postgres_url", "redact"]
