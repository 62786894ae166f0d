"""PostgreSQL's refusals said in one line, with what to do, and never with the password.

The bot, `health`, `verify-db` and `port-db` meet the same few at start: a server that is not
there, a password it refuses, a role or database that does not exist, and a role that lacks a
right (to connect, to create the tables, to use them). asyncpg's own messages are right but
terse, sometimes span lines (`DETAIL:`), and a malformed address can make it quote pieces of
the password, so each becomes a `DatabaseError` the callers print as it is (`run`: exit 6).
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

import asyncpg

from ..errors import DatabaseError, DatabaseUnreachable
from .base import redact

#: what a malformed address gets instead of the driver's words, which may quote the password
_BAD_ADDRESS = (
    "is not a valid PostgreSQL address (postgresql://user@host:port/dbname); a password "
    "holding @ / : % # ? must be percent-encoded in it, or given in ALHAMBRA_DB_PASSWORD"
)


#: what a server that is away for a moment (starting, restarting, a network blip) raises
_AWAY: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset, unreachable, a timeout
    asyncpg.CannotConnectNowError,  # "the database system is starting up"
    asyncpg.TooManyConnectionsError,
    asyncpg.ConnectionDoesNotExistError,  # the connection dropped in the middle
    asyncpg.AdminShutdownError,
)


def _names(url: str) -> tuple[str, str]:
    """The role and the database an address names (as PostgreSQL's defaults would, roughly)."""
    try:
        parts = urlsplit(url)
        role = unquote(parts.username or "") or "(the default role)"
        database = unquote(parts.path.lstrip("/")) or role
    except ValueError:
        return "(the role)", "(the database)"
    return role, database


def _first_line(exc: BaseException) -> str:
    text = getattr(exc, "message", None) if isinstance(exc, asyncpg.PostgresError) else None
    text = text or str(exc)
    return (text.splitlines() or [type(exc).__name__])[0]


def unusable_postgres(url: str, exc: BaseException, *, connecting: bool = False) -> DatabaseError:
    """`exc`, met while connecting to (`connecting`) or using the database at `url`, as one line
    saying what is wrong and what to do."""
    where = redact(url)
    role, database = _names(url)
    reason = redact(_first_line(exc))
    if connecting and isinstance(exc, ValueError):  # asyncpg's ClientConfigurationError too
        return DatabaseError(f"{where} {_BAD_ADDRESS}")
    if isinstance(exc, asyncpg.InvalidPasswordError):
        return DatabaseError(
            f"cannot connect to {where}: PostgreSQL refused the password of role {role}: set "
            "the right one in ALHAMBRA_DB_PASSWORD (or in the address)"
        )
    if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        return DatabaseError(
            f"cannot connect to {where}: {reason}: check the role's name in the address, and "
            "that the server's pg_hba.conf lets it in from here"
        )
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return DatabaseError(
            f"cannot connect to {where}: {reason}: create it (CREATE DATABASE {database} "
            f"OWNER {role}) or correct the name in the address"
        )
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return DatabaseError(_privilege(where, role, database, reason, connecting))
    if isinstance(exc, _AWAY):
        return DatabaseUnreachable(
            f"cannot {'connect to' if connecting else 'use'} {where}: {reason}: check that "
            "the server is running and reachable from here, at the host and port of the address"
        )
    if connecting and isinstance(exc, OSError):
        return DatabaseError(
            f"cannot connect to {where}: {reason}: check that the server is running and "
            "reachable from here, at the host and port of the address"
        )
    if isinstance(exc, (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)):
        prefix = "cannot connect to" if connecting else "cannot use"
        return DatabaseError(f"{prefix} {where}: {reason}")
    return DatabaseError(f"cannot use {where}: {type(exc).__name__}: {reason}")


def _privilege(where: str, role: str, database: str, reason: str, connecting: bool) -> str:
    if connecting:
        return (
            f"cannot connect to {where}: {reason}: role {role} needs the right to connect "
            f"(GRANT CONNECT ON DATABASE {database} TO {role})"
        )
    if "for schema " in reason:  # not a table (schema_migrations)
        return (
            f"cannot use {where}: {reason}: role {role} may not create the bot's tables; make "
            f"it the database's owner (ALTER DATABASE {database} OWNER TO {role}) or let it "
            f"create them (GRANT CREATE, USAGE ON SCHEMA public TO {role})"
        )
    return (
        f"cannot use {where}: {reason}: role {role} needs to read and write the bot's tables "
        f"(GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}; "
        f"GRANT USAGE, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {role}), or use the role that "
        "created them"
    )
