"""PostgreSQL through asyncpg: a pool of connections shared by the bot's tasks, and the database
several bot processes share.

Why it looks like this:
- The store's SQL is written once with `?` placeholders; they become `$1, $2...` here (outside
  quoted text), once per distinct statement.
- `write()` is a READ COMMITTED transaction on a pooled connection. A move is still applied
  once per version: the store's `UPDATE ... WHERE version = ?` takes the game's row lock, and a
  second writer waits for it and then finds the version moved on. Reads that are followed by
  writes in the same transaction lock the game row (`lock_rows = "FOR UPDATE"`), so two
  processes serialise per game instead of racing. `read()` is a REPEATABLE READ, read-only
  transaction: one snapshot for several queries.
- Timers are claimed with `FOR UPDATE SKIP LOCKED`, so processes polling the same queue take
  different rows instead of waiting for each other.
- Migrations run under a session advisory lock: two processes starting together migrate once
  (the second finds the work done). PostgreSQL runs DDL inside transactions, so each step and
  its record in `schema_migrations` commit together. A database already at the latest step needs
  no right to create anything, so a role that may only read and write the tables can run the bot.
- A transaction that writes a timer ends with one `NOTIFY alhambra_timers` carrying the soonest
  due time it wrote (delivered at commit, to every process listening). Each process keeps one
  connection of its own listening (`listen_timers`), reconnecting by itself after a blip, so a
  timer another process writes, or gives back, is heard at once instead of at the next poll.
- Whatever the server or the driver refuses while opening becomes one line saying what to do
  (`postgres_errors`), the password never in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from ..errors import StorageFull
from ..migrate import Migration, check_known, load_migrations
from .base import Change, Conflict, Engine, Heard, redact
from .postgres_errors import unusable_postgres

#: what a statement may raise: the server's refusals, the driver's, a lost connection
DRIVER_ERRORS: tuple[type[Exception], ...] = (
    OSError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
)
#: and connecting: a malformed address too
CONNECT_ERRORS: tuple[type[Exception], ...] = (*DRIVER_ERRORS, ValueError)

log = logging.getLogger("alhambra.db")

#: the channel a transaction that wrote timers notifies at commit (payload: the soonest due, ms)
TIMER_CHANNEL = "alhambra_timers"
#: the listening connection's name in `pg_stat_activity`
LISTENER = "alhambra-timers"
#: how often the listening connection proves it is alive (a query), and how long that may take
LISTEN_KEEPALIVE_S = 10.0
#: after the listening connection is lost: wait this long before connecting again, doubling
LISTEN_RETRY_FIRST_S = 0.5
LISTEN_RETRY_MOST_S = 10.0

#: what ends a listening connection: a lost or refused connection, a keep-alive left unanswered
LISTEN_ERRORS: tuple[type[Exception], ...] = (*CONNECT_ERRORS, TimeoutError)

#: `pg_advisory_lock` key of schema migrations (any constant the bot uses for nothing else)
MIGRATION_LOCK = 0x414C48_01  # "ALH" 1

_RECORD_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)"""


@functools.lru_cache(maxsize=512)
def dollar_params(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2...`, leaving quoted text alone."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


def _count(status: str) -> int:
    """Rows touched, from a command tag ("UPDATE 1", "INSERT 0 1", "DELETE 3")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _set(event: asyncio.Event, *_: object) -> None:
    event.set()


class PostgresConn:
    engine: Engine = "postgres"
    lock_rows = "FOR UPDATE"

    def claim_rows(self, alias: str) -> str:
        return f"FOR UPDATE OF {alias} SKIP LOCKED"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        #: the soonest due time (ms) of the timers this transaction wrote, if it wrote any
        self.timers_due: int | None = None

    def timers_changed(self, due_ms: int) -> None:
        self.timers_due = due_ms if self.timers_due is None else min(self.timers_due, due_ms)

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> Sequence[asyncpg.Record]:
        return list(await self.conn.fetch(dollar_params(sql), *params))

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        return _count(await self.conn.execute(dollar_params(sql), *params))

    async def batch(self, changes: Sequence[Change], *, guarded: bool = False) -> list[int]:
        counts: list[int] = []
        for sql, params in changes:
            counts.append(await self.run(sql, params))
            if guarded and len(counts) == 1 and counts[0] == 0:
                break
        return counts


async def recorded_steps(conn: asyncpg.Connection) -> dict[int, str]:
    if await conn.fetchval("SELECT to_regclass('schema_migrations')") is None:
        return {}
    rows = await conn.fetch("SELECT version, name FROM schema_migrations")
    return {int(r[0]): str(r[1]) for r in rows}


async def migrate_postgres(
    conn: asyncpg.Connection, migrations: list[Migration] | None = None, target: int | None = None
) -> list[int]:
    """Bring the database up to `target` (default: the latest step); returns the steps applied.
    Refuses a database recorded at a step this code does not know."""
    known = migrations if migrations is not None else load_migrations(engine="postgres")
    target = len(known) if target is None else target
    applied: list[int] = []
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        if await conn.fetchval("SELECT to_regclass('schema_migrations')") is None:
            await conn.execute(_RECORD_TABLE)  # needs CREATE on the schema: only the first time
        while True:
            async with conn.transaction():
                recorded = await recorded_steps(conn)
                check_known(recorded, known)
                current = max(recorded, default=0)
                if current >= target:
                    return applied
                step = known[current]
                await conn.execute(step.sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                    step.version,
                    step.name,
                )
            applied.append(step.version)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


class PostgresDatabase:
    """An open PostgreSQL database. Use `await PostgresDatabase.open(url)`."""

    engine: Engine = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.url = url
        self.where = redact(url)

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrations: list[Migration] | None = None,
        upgrade: bool = True,
        pool_size: int = 10,
    ) -> PostgresDatabase:
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=max(1, pool_size))
        except CONNECT_ERRORS as exc:
            raise unusable_postgres(url, exc, connecting=True) from None
        try:
            if upgrade:
                async with pool.acquire() as conn:
                    await migrate_postgres(conn, migrations)
        except DRIVER_ERRORS as exc:
            await pool.close()
            raise unusable_postgres(url, exc) from None
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    def timer_listener(self, heard: Heard) -> Coroutine[Any, Any, None] | None:
        return self.listen_timers(heard)

    async def listen_timers(
        self,
        heard: Heard,
        *,
        keepalive: float = LISTEN_KEEPALIVE_S,
        retry_first: float = LISTEN_RETRY_FIRST_S,
        retry_most: float = LISTEN_RETRY_MOST_S,
    ) -> None:
        """Listen for committed timer writes on a connection of its own (not the pool's),
        calling `heard(due_ms)` for each, until cancelled. A lost connection (the server
        restarted, a network blip, a backend terminated) is noticed at once or by the keep-alive
        query, and replaced after a doubling wait; each (re)connection calls `heard(None)`, as
        what was written while nobody listened is unknown."""
        wait = retry_first
        lost_once = False
        while True:
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(
                    self.url, timeout=keepalive, server_settings={"application_name": LISTENER}
                )
                lost = asyncio.Event()
                conn.add_termination_listener(functools.partial(_set, lost))

                def notified(_conn: object, _pid: int, _channel: str, payload: str) -> None:
                    heard(int(payload) if payload.lstrip("-").isdigit() else None)

                await conn.add_listener(TIMER_CHANNEL, notified)
                if lost_once:
                    log.info("listening for timer changes again")
                wait, lost_once = retry_first, False
                heard(None)
                while not lost.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(lost.wait(), keepalive)
                    if not lost.is_set():
                        await asyncio.wait_for(conn.fetchval("SELECT 1"), keepalive)
                problem = "the connection was closed"
            except LISTEN_ERRORS as exc:
                problem = redact(f"{type(exc).__name__}: {exc}")
            finally:
                if conn is not None:
                    conn.terminate()
            log.warning(
                "listening for timer changes stopped (%s): connecting again in %.1f s "
                "(until then timers are found by polling)",
                problem,
                wait,
            )
            lost_once = True
            await asyncio.sleep(wait)
            wait = min(wait * 2, retry_most)

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return max((await recorded_steps(conn)).keys(), default=0)

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PostgresConn]:
        async with self.pool.acquire() as conn:
            try:
                async with conn.transaction():
                    tx = PostgresConn(conn)
                    yield tx
                    if tx.timers_due is not None:  # heard by every listener once it commits
                        await conn.execute(
                            "SELECT pg_notify($1, $2)", TIMER_CHANNEL, str(tx.timers_due)
                        )
            except asyncpg.UniqueViolationError as exc:
                raise Conflict(str(exc)) from exc
            except asyncpg.DiskFullError as exc:
                raise StorageFull() from exc

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PostgresConn]:
        async with (
            self.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresConn(conn)

    @asynccontextmanager
    async def peek(self) -> AsyncIterator[PostgresConn]:
        async with self.pool.acquire() as conn:
            yield PostgresConn(conn)
