"""`python -m bot port-db SRC DST`: copy a SQLite database into PostgreSQL, safe to re-run.

The destination becomes a mirror of the source, table by table, in one transaction: new rows
are inserted, changed rows updated, and rows the source no longer has (a timer that fired, a
vote that passed) removed; identity counters are moved past the largest id. A second run over an
unchanged source therefore changes nothing, and a run after the bot played on (before the
switch) brings the copy up to date. It refuses a destination holding games the source does not
have: that is not a copy of this database, and mirroring it would delete them. And it refuses
one holding a game with the id of one of the source's that is not that game, nor that game
further back (`core.port_conflicts` says exactly when), naming the first; with `replace` such
games are deleted first and copied from the source like the rest.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from .db.base import redact
from .db.postgres import PostgresDatabase
from .db.postgres_errors import unusable_postgres
from .errors import DatabaseError
from .migrate import load_migrations
from .port_conflicts import GameConflict, find_conflict
from .verify import check_schema, open_read_only

#: parents before children (foreign keys); `leases` are not copied: they belong to running
#: processes, and a port is done with the bot stopped
TABLES = (
    "games",
    "seats",
    "actions",
    "timers",
    "user_settings",
    "notify_settings",
    "game_messages",
    "bot_meta",
    "channel_nudges",
    "missed_deadlines",
    "votes",
    "ratings",
    "seasons",
    "season_ratings",
    "rating_changes",
    "forfeits",
    "followers",
    "plans",
    "hints",
)
#: tables whose ids come from an identity column
IDENTITIES = ("games", "timers")
BATCH = 5_000


@dataclass
class TableCount:
    inserted: int = 0
    updated: int = 0
    deleted: int = 0
    rows: int = 0


@dataclass
class PortReport:
    tables: dict[str, TableCount] = field(default_factory=dict)
    #: the destination's games replaced by the source's (`replace`)
    replaced: tuple[int, ...] = ()

    @property
    def changed(self) -> int:
        return sum(t.inserted + t.updated + t.deleted for t in self.tables.values())


def _columns(src: sqlite3.Connection, table: str) -> tuple[list[str], list[str]]:
    """(columns, primary key columns) of a table, in the source's order."""
    info = src.execute(f"PRAGMA table_info({table})").fetchall()
    columns = [r[1] for r in info]
    key = [r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5])]
    return columns, key


class PortConflict(DatabaseError):
    """The destination holds a game that is not the source's game of the same id."""

    def __init__(self, conflict: GameConflict, message: str) -> None:
        super().__init__(message)
        self.conflict = conflict


async def port_database(source: str | Path, url: str, *, replace: bool = False) -> PortReport:
    src = open_read_only(source)
    try:
        step = check_schema(src)
        latest = len(load_migrations())
        if step != latest:
            raise DatabaseError(
                f"{source} is at schema step {step}, not {latest}: start the bot (or "
                "`python -m bot play --db` it) once with this version to upgrade it, then port"
            )
        db = await PostgresDatabase.open(url)  # creates or upgrades the destination's schema
        try:
            async with db.pool.acquire() as conn, conn.transaction():
                return await _port(src, conn, source, url, replace)
        except asyncpg.PostgresError as exc:
            raise unusable_postgres(url, exc) from None
        finally:
            await db.close()
    finally:
        src.close()


async def _port(
    src: sqlite3.Connection,
    conn: asyncpg.Connection,
    source: str | Path,
    url: str,
    replace: bool,
) -> PortReport:
    """Inside the destination's transaction: refuse, or mirror every table."""
    await _refuse_foreign_games(src, conn, url)
    staged = {table: await _stage(src, conn, table) for table in TABLES}
    report = PortReport()
    conflict = await find_conflict(conn)
    if conflict is not None:
        if not replace:
            raise PortConflict(conflict, conflict.message(redact(url), str(source)))
        # deleted with everything that hangs on them, then copied from the source as new
        await conn.execute("DELETE FROM games WHERE id = ANY($1::bigint[])", list(conflict.ids))
        report.replaced = conflict.ids
    for table in TABLES:
        report.tables[table] = await _mirror(conn, table, *staged[table])
    for table in IDENTITIES:
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"GREATEST((SELECT MAX(id) FROM {table}), 1))"
        )
    return report


async def _refuse_foreign_games(
    src: sqlite3.Connection, conn: asyncpg.Connection, url: str
) -> None:
    ours = {r[0] for r in src.execute("SELECT id FROM games")}
    theirs = {r[0] for r in await conn.fetch("SELECT id FROM games")}
    foreign = sorted(theirs - ours)
    if foreign:
        raise DatabaseError(
            f"{redact(url)} has {len(foreign)} games the source does not have (ids "
            f"{', '.join(map(str, foreign[:5]))}{'...' if len(foreign) > 5 else ''}): it is not "
            "a copy of this database, so port-db will not overwrite it"
        )


async def _stage(
    src: sqlite3.Connection, conn: asyncpg.Connection, table: str
) -> tuple[list[str], list[str], int]:
    """The source's rows of `table` copied into `port_<table>` beside it (dropped at commit);
    returns the columns, the primary key and the number of rows."""
    columns, key = _columns(src, table)
    dest = {r[0] for r in await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_name = $1", table
    )}  # fmt: skip
    if set(columns) != dest:
        raise DatabaseError(
            f"table {table} differs between the two databases ({sorted(set(columns) ^ dest)})"
        )
    staged = f"port_{table}"
    await conn.execute(
        f"CREATE TEMP TABLE {staged} (LIKE {table} INCLUDING DEFAULTS) ON COMMIT DROP"
    )
    rows = 0
    cursor = src.execute(f"SELECT {', '.join(columns)} FROM {table}")
    while batch := cursor.fetchmany(BATCH):
        records: list[tuple[Any, ...]] = [tuple(r) for r in batch]
        rows += len(records)
        await conn.copy_records_to_table(staged, records=records, columns=columns)
    await conn.execute(f"ANALYZE {staged}")  # temporary tables get no statistics of their own
    return columns, key, rows


async def _mirror(
    conn: asyncpg.Connection, table: str, columns: list[str], key: list[str], rows: int
) -> TableCount:
    """Make `table` hold exactly the rows staged in `port_<table>`."""
    staged = f"port_{table}"
    count = TableCount(rows=rows)
    names = ", ".join(columns)
    keys = ", ".join(key)
    others = [c for c in columns if c not in key]
    match = " AND ".join(f"s.{c} = {table}.{c}" for c in key)
    # rows gone first, then changed rows, then new ones: a lobby that closed in the source must
    # be closed here before a new lobby opens in its channel (one open game per channel)
    deleted = await conn.execute(
        f"DELETE FROM {table} WHERE NOT EXISTS (SELECT 1 FROM {staged} s WHERE {match})"
    )
    count.deleted = int(deleted.rsplit(" ", 1)[-1])
    if others:
        updated = await conn.execute(
            f"UPDATE {table} SET {', '.join(f'{c} = s.{c}' for c in others)} "
            f"FROM {staged} s WHERE {match} AND "
            f"({', '.join(f'{table}.{c}' for c in others)}) IS DISTINCT FROM "
            f"({', '.join(f's.{c}' for c in others)})"
        )
        count.updated = int(updated.rsplit(" ", 1)[-1])
    inserted = await conn.execute(
        f"INSERT INTO {table} ({names}) SELECT {names} FROM {staged} s "
        f"WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE {match}) ORDER BY {keys}"
    )
    count.inserted = int(inserted.rsplit(" ", 1)[-1])
    return count
