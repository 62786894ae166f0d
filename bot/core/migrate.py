"""Numbered SQL schema steps (`migrations/NNNN_name.sql`), applied in order and recorded.

A step is one file for both engines, or, where the dialects differ, `NNNN_name.sqlite.sql` and
`NNNN_name.postgres.sql` (an engine's own file wins over the shared one). Both engines record the
same step names, so a database can move between them (`port-db`).

On SQLite each step runs in its own `BEGIN IMMEDIATE` transaction together with its record in
`schema_migrations` (and `PRAGMA user_version`), so a crash leaves the database at a step
boundary and two processes starting together apply each step once. A database recorded at a
step this code does not know was written by a newer bot: it is refused rather than guessed at.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from .errors import DatabaseError, DatabaseTooNew

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)(?:\.(sqlite|postgres))?\.sql$")
ENGINES = ("sqlite", "postgres")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


def migrations_dir() -> Path:
    """`migrations/` sits at the project root, next to `bot/` (this file is bot/core/migrate.py)."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parents[1] / "migrations", here / "migrations"):
        if candidate.is_dir():
            return candidate
    raise DatabaseError(f"cannot find the migrations folder next to {here}")


#: the bot's own steps per engine, read once per process (they are part of the code)
_OWN: dict[str, list[Migration]] = {}


def load_migrations(folder: Path | None = None, engine: str = "sqlite") -> list[Migration]:
    """The steps of `engine` in order; their numbers must run 1, 2, 3... without gaps."""
    if engine not in ENGINES:
        raise ValueError(f"unknown database engine {engine!r}")
    if folder is None:
        if engine not in _OWN:
            _OWN[engine] = _read_steps(migrations_dir(), engine)
        return list(_OWN[engine])
    return _read_steps(folder, engine)


def _read_steps(folder: Path, engine: str) -> list[Migration]:
    steps: dict[str, Migration] = {}
    for path in sorted(folder.glob("*.sql")):
        m = _NAME.match(path.name)
        if not m:
            raise DatabaseError(
                f"migration file {path.name} is not named NNNN_name.sql "
                "(or NNNN_name.sqlite.sql / NNNN_name.postgres.sql)"
            )
        own = m.group(3)
        if own is not None and own != engine:
            continue
        name = f"{m.group(1)}_{m.group(2)}"
        if name in steps and own is None:
            continue  # the engine's own file wins, whichever is listed first
        steps[name] = Migration(int(m.group(1)), name, path.read_text(encoding="utf-8"))
    found = sorted(steps.values(), key=lambda step: (step.version, step.name))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise DatabaseError(f"migrations must be numbered 1, 2, 3...; found {migration.name}")
    return found


def split_statements(sql: str) -> list[str]:
    """Split a script at the semicolons that end statements (not those in strings, comments or
    trigger bodies), so each runs inside our own transaction; `executescript` would commit."""
    out: list[str] = []
    start = 0
    for i, ch in enumerate(sql):
        if ch == ";" and sqlite3.complete_statement(sql[start : i + 1]):
            out.append(sql[start : i + 1].strip())
            start = i + 1
    rest = "\n".join(
        line for line in sql[start:].splitlines() if not line.strip().startswith("--")
    ).strip()
    if rest:
        raise DatabaseError(f"unterminated SQL statement: {rest[:60]!r}")
    return out


_RECORD_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)"""


async def _recorded(conn: aiosqlite.Connection) -> dict[int, str]:
    rows = await conn.execute_fetchall("SELECT version, name FROM schema_migrations")
    return {int(r[0]): str(r[1]) for r in rows}


def check_step(version: int) -> int:
    """Refuse a schema step newer than this code, or a database with no tables yet."""
    latest = len(load_migrations())
    if version > latest:
        raise DatabaseTooNew(
            f"this database is at schema version {version}, newer than this bot knows "
            f"({latest}); upgrade the bot to check it."
        )
    if version < 1:
        raise DatabaseError("this database has no games tables yet")
    return version


def check_known(recorded: dict[int, str], known: list[Migration]) -> None:
    latest = len(known)
    newer = [v for v in recorded if v > latest]
    if newer:
        raise DatabaseTooNew(
            f"this database is at schema version {max(newer)}, written by a newer alhambra-bot; "
            f"this version knows up to {latest}. Upgrade the bot (or restore a backup)."
        )
    for version, name in recorded.items():
        if known[version - 1].name != name:
            raise DatabaseError(
                f"schema step {version} was recorded as {name!r} but this bot calls it "
                f"{known[version - 1].name!r}: the database belongs to a different code line."
            )


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The highest step recorded (0 for a new database)."""
    rows = await conn.execute_fetchall(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    )
    if not rows:
        return 0
    return max((await _recorded(conn)).keys(), default=0)


async def migrate(
    conn: aiosqlite.Connection, migrations: list[Migration] | None = None, target: int | None = None
) -> list[int]:
    """Bring the database up to `target` (default: the latest step); returns the steps applied.

    The connection must be in autocommit mode (`isolation_level=None`).
    """
    known = migrations if migrations is not None else load_migrations()
    target = len(known) if target is None else target
    applied: list[int] = []
    while True:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            await conn.execute(_RECORD_TABLE)
            recorded = await _recorded(conn)
            check_known(recorded, known)
            current = max(recorded, default=0)
            if current >= target:
                await conn.execute("COMMIT")
                return applied
            step = known[current]
            for statement in step.statements():
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                (step.version, step.name),
            )
            await conn.execute(f"PRAGMA user_version = {int(step.version)}")
            await conn.execute("COMMIT")
            applied.append(step.version)
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
