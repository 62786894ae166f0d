"""The store: every query the game core runs, written once for both database engines.

`Store.open()` takes a SQLite file path (the embedded default) or a `postgresql://` address
(several bot processes sharing one database). The engines themselves (connections,
transactions, locks, migrations) are in `core.db`; the SQL here is the dialect both understand,
and where they must differ it says so through the connection (`lock_rows`, `claim_rows`).
Each unit of work is a transaction: `write()`, `read()` (one consistent view), or `peek()`.

The queries are grouped by concern, one module each (`games`, `schedule`, `people`,
`archive`, on the row helpers of `rows`); `Tx` is all of them over one transaction.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Literal

import aiosqlite

from ..clock import at_ms
from ..db.base import Database, is_postgres_url
from ..db.sqlite import SqliteDatabase
from ..migrate import Migration
from .archive import ArchiveQueries
from .games import GameQueries
from .people import PeopleQueries
from .schedule import ScheduleQueries

__all__ = ["Store", "Tx"]


class Tx(GameQueries, ScheduleQueries, PeopleQueries, ArchiveQueries):
    """The queries, run inside one transaction opened by `Store.read()` or `Store.write()`.

    In a write transaction (`locking`), reading a game locks its row where rows lock
    (PostgreSQL), so a read-then-write (a join, a start) is serialised per game across
    processes; SQLite's write transaction holds the whole database already.
    """


class Store:
    """An open database: `await Store.open(path_or_url)`, closed with `await store.close()`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        #: the file path, or the address with its password hidden
        self.path = db.where

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = 10_000,
        migrations: list[Migration] | None = None,
        upgrade: bool = True,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        pool_size: int = 10,
    ) -> Store:
        """Connect and apply any pending migrations (refusing a newer schema): a SQLite file
        path, or a `postgresql://` address (the `postgres` extra installs its driver).

        For SQLite, `synchronous="FULL"` (the default) syncs the WAL on every commit, so an
        acknowledged move survives a power cut; NORMAL survives a crash of the process but not
        of the machine. `pool_size` is PostgreSQL's number of connections.
        """
        if is_postgres_url(target):
            from ..db.postgres import PostgresDatabase  # the optional driver, only when asked

            assert isinstance(target, str)
            return cls(
                await PostgresDatabase.open(
                    target, migrations=migrations, upgrade=upgrade, pool_size=pool_size
                )
            )
        return cls(
            await SqliteDatabase.open(
                target,
                busy_timeout_ms=busy_timeout_ms,
                migrations=migrations,
                upgrade=upgrade,
                synchronous=synchronous,
            )
        )

    @property
    def conn(self) -> aiosqlite.Connection:
        """The SQLite connection itself (for SQLite-only tools and tests)."""
        if not isinstance(self.db, SqliteDatabase):
            raise TypeError(f"a {self.engine} database has no SQLite connection")
        return self.db.conn

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    def timer_listener(
        self, heard: Callable[[datetime | None], None]
    ) -> Coroutine[Any, Any, None] | None:
        """What hears, until cancelled, of every timer any process writes or gives back:
        `heard(due)`, or `heard(None)` to look again. None where the engine cannot tell."""

        def told(due_ms: int | None) -> None:
            heard(None if due_ms is None else at_ms(due_ms))

        return self.db.timer_listener(told)

    async def close(self) -> None:
        """Close once the transactions under way (if any) are over."""
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        """One write transaction: committed if the block succeeds, rolled back if it raises."""
        async with self.db.write() as conn:
            yield Tx(conn, locking=True)

    @asynccontextmanager
    async def peek(self) -> AsyncIterator[Tx]:
        """Reads that need no snapshot across statements (each sees committed data only)."""
        async with self.db.peek() as conn:
            yield Tx(conn)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A consistent view of the database for several queries."""
        async with self.db.read() as conn:
            yield Tx(conn)
