"""The operator's commands on a PostgreSQL database (verify-db, health, port-db), run from
synchronous code: each opens one connection on a loop of its own, in a thread, so they work the
same from a terminal and from inside a running program (the tests). What the server refuses
(a password, a right) comes out as the one line of `postgres_errors`."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import asyncpg

from ..migrate import check_step
from .postgres import CONNECT_ERRORS, DRIVER_ERRORS, dollar_params, recorded_steps
from .postgres_errors import unusable_postgres

T = TypeVar("T")


def run_apart(work: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to the end on an event loop of its own thread."""

    async def main() -> T:
        return await work()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


async def connect(url: str) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(url)
    except CONNECT_ERRORS as exc:
        raise unusable_postgres(url, exc, connecting=True) from None


def run_on(url: str, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
    """`work` on one connection to `url` (closed after), on a loop of its own; what the server
    or the driver refuses becomes a `DatabaseError` of one line."""

    async def main() -> T:
        conn = await connect(url)
        try:
            return await work(conn)
        except DRIVER_ERRORS as exc:
            raise unusable_postgres(url, exc) from None
        finally:
            await conn.close()

    return run_apart(main)


async def schema_step(conn: asyncpg.Connection) -> int:
    """The database's schema step, refused if it is not ours or newer than this code."""
    return check_step(max((await recorded_steps(conn)).keys(), default=0))


def read_snapshot(url: str, queries: Sequence[str]) -> list[list[Any]]:
    """The rows of `queries` (`?` placeholders, no parameters), read in one read-only snapshot
    of a database at a schema step this code knows."""

    async def work(conn: asyncpg.Connection) -> list[list[Any]]:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            await schema_step(conn)
            return [list(await conn.fetch(dollar_params(q))) for q in queries]

    return run_on(url, work)


class _RollBack(Exception):
    pass


def health_postgres(url: str) -> int:
    """The schema step of a database the bot can use: it answers, it is at a step this code
    knows, and a write transaction can begin and write (then rolled back)."""

    async def work(conn: asyncpg.Connection) -> int:
        step = await schema_step(conn)
        await conn.fetchval("SELECT count(*) FROM games")
        try:
            async with conn.transaction():
                await conn.execute(
                    dollar_params(
                        "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                    ),
                    "health",
                    "ok",
                    0,
                )
                raise _RollBack()
        except _RollBack:
            pass
        return step

    return run_on(url, work)
