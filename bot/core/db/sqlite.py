"""SQLite through aiosqlite: one connection, explicit transactions.

Why it looks like this:
- The connection runs in autocommit mode and every unit of work is an explicit transaction:
  `write()` is `BEGIN IMMEDIATE` (takes the database write lock at once, so two processes queue
  on `busy_timeout` instead of failing half-way) and `read()` a deferred one (a consistent
  snapshot across several SELECTs). The write lock covers the whole database, so rows need no
  lock of their own (`lock_rows` is empty) and a queue is claimed without `SKIP LOCKED`.
- aiosqlite runs one connection on one thread, so two coroutines sharing it would interleave
  their statements inside each other's transactions. An asyncio lock gives each transaction the
  connection to itself; other processes are kept apart by SQLite's own locking.
- WAL lets readers (verify-db, backups) work while the bot writes; `synchronous=FULL` makes every
  committed action durable before the service acknowledges it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from ..errors import DatabaseError, StorageFull
from ..migrate import Migration, load_migrations, migrate, schema_version
from .base import Change, Conflict, Engine, Heard

#: SQLite's errors about the file and its storage rather than about the SQL
_STORAGE_ERRORS = (
    "SQLITE_READONLY",
    "SQLITE_CANTOPEN",
    "SQLITE_IOERR",
    "SQLITE_FULL",
    "SQLITE_PERM",
)


def storage_problem(exc: sqlite3.Error) -> bool:
    return str(getattr(exc, "sqlite_errorname", "")).startswith(_STORAGE_ERRORS)


def unusable(path: str | os.PathLike[str], exc: Exception) -> DatabaseError:
    """A database file this process cannot open or write, said in one line with what to do:
    the usual cause is a file or folder owned by another user (a `docker cp`, a host folder
    mounted into the container)."""
    reason = str(exc)
    folder = Path(path).resolve().parent
    if "full" in reason:
        return DatabaseError(f"cannot write {path}: {reason}. Free some space on its volume.")
    if _read_only_volume(folder):
        return DatabaseError(
            f"cannot open {path} for writing ({reason}): the volume holding {folder} is mounted "
            "read-only; mount it read-write (without ':ro' in docker run -v or compose)"
        )
    who = f"uid {os.getuid()}" if hasattr(os, "getuid") else "this user"
    fix = (
        f"chown -R {os.getuid()}:{os.getgid()} {folder}"
        if hasattr(os, "getuid")
        else f"give this user the folder {folder}"
    )
    return DatabaseError(
        f"cannot open {path} for writing ({reason}): the bot ({who}) must be able to write "
        f"the file and its folder, where SQLite keeps its journal; {fix}"
    )


def _read_only_volume(folder: Path) -> bool:
    """Whether `folder` (or the nearest folder above it that exists) is on a read-only mount,
    where no chown helps."""
    for candidate in (folder, *folder.parents):
        if candidate.is_dir():
            try:
                return bool(os.statvfs(candidate).f_flag & os.ST_RDONLY)
            except (OSError, AttributeError):  # no statvfs on Windows
                return False
    return False


async def _probe_writes(conn: aiosqlite.Connection) -> None:
    """Fail now, not at the first move, on a file this process cannot write: SQLite opens a
    read-only file read-only without a word, and an up-to-date schema needs no write."""
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute("CREATE TABLE write_probe (x INTEGER)")
    finally:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")


async def _connect(path: str) -> aiosqlite.Connection:
    """aiosqlite's connection to a file sqlite3 has opened already.

    `aiosqlite.connect` opens the file on its worker thread; when that fails, it stops the
    thread without waiting for it, and the thread's last report reaches an event loop that
    `asyncio.run` has closed by then: two "Event loop is closed" tracebacks after the one line
    a start-up failure should be. Opened here first (on a thread of the loop's own, waited for),
    the file cannot fail aiosqlite, and a failure is an exception like any other."""
    raw = await asyncio.to_thread(
        sqlite3.connect, path, isolation_level=None, check_same_thread=False
    )
    try:
        return await aiosqlite.Connection(lambda: raw, iter_chunk_size=64)
    except BaseException:
        raw.close()
        raise


def _changed(conn: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> int:
    """On aiosqlite's thread: run a change and count the rows it touched."""
    cursor = conn._conn.execute(sql, tuple(params))
    try:
        return cursor.rowcount
    finally:
        cursor.close()


def _changed_all(conn: aiosqlite.Connection, changes: Sequence[Change], guarded: bool) -> list[int]:
    """On aiosqlite's thread: `Conn.batch`'s changes, one after the other."""
    counts: list[int] = []
    for sql, params in changes:
        counts.append(_changed(conn, sql, params))
        if guarded and len(counts) == 1 and counts[0] == 0:
            break
    return counts


class SqliteConn:
    engine: Engine = "sqlite"
    lock_rows = ""

    def claim_rows(self, alias: str) -> str:
        return ""

    def timers_changed(self, due_ms: int) -> None:
        """Nobody to tell: processes sharing a file find the timers when they poll."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> Sequence[sqlite3.Row]:
        return list(await self.conn.execute_fetchall(sql, tuple(params)))

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        # One trip to aiosqlite's thread, not two (execute, then close the cursor): a move's
        # transaction is a handful of these, and each trip is most of what a statement costs.
        run: Callable[..., Awaitable[int]] = self.conn._execute
        return await run(_changed, self.conn, sql, tuple(params))

    async def batch(self, changes: Sequence[Change], *, guarded: bool = False) -> list[int]:
        # all of them in one trip to aiosqlite's thread
        run: Callable[..., Awaitable[list[int]]] = self.conn._execute
        return await run(_changed_all, self.conn, changes, guarded)


class SqliteDatabase:
    """An open SQLite file. Use `await SqliteDatabase.open(path)`."""

    engine: Engine = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self.where = path
        self._lock = asyncio.Lock()
        self._tx = SqliteConn(conn)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = 10_000,
        migrations: list[Migration] | None = None,
        upgrade: bool = True,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
    ) -> SqliteDatabase:
        """Connect, set the pragmas and apply any pending migrations (refusing a newer schema).

        `synchronous="FULL"` (the default) syncs the WAL on every commit, so an acknowledged
        move survives a power cut; NORMAL survives a crash of the process but not of the machine.
        """
        try:
            conn = await _connect(os.fspath(path))
        except sqlite3.OperationalError as exc:
            raise unusable(path, exc) from None
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute("PRAGMA journal_mode = WAL")
            if synchronous not in ("FULL", "NORMAL"):
                raise ValueError("synchronous must be FULL or NORMAL")
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if upgrade:
                await migrate(conn, migrations if migrations is not None else load_migrations())
            await _probe_writes(conn)
        except sqlite3.OperationalError as exc:
            await conn.close()
            if not storage_problem(exc):
                raise
            raise unusable(path, exc) from None
        except BaseException:
            await conn.close()
            raise
        return cls(conn, os.fspath(path))

    def timer_listener(self, heard: Heard) -> Coroutine[Any, Any, None] | None:
        """SQLite cannot tell one process of another's writes: the dispatcher polls."""
        return None

    async def schema_version(self) -> int:
        async with self._lock:
            return await schema_version(self.conn)

    async def close(self) -> None:
        """Close once the transaction under way (if any) is over."""
        async with self._lock:
            await self.conn.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteConn]:
        async with self._lock:
            await self._begin("BEGIN IMMEDIATE")
            try:
                yield self._tx
                await self._to_the_end("COMMIT")
            except BaseException as exc:
                if self.conn.in_transaction:
                    await self._to_the_end("ROLLBACK")
                if getattr(exc, "sqlite_errorname", None) == "SQLITE_FULL":
                    raise StorageFull() from exc  # a refusal the user can be told about
                if isinstance(exc, sqlite3.IntegrityError) and "UNIQUE" in str(exc):
                    raise Conflict(str(exc)) from exc
                raise

    async def _to_the_end(self, statement: str) -> None:
        """Run a statement that ends a transaction, waiting for it even if this task is
        cancelled meanwhile: it runs on aiosqlite's thread anyway, and the next transaction
        must find the connection out of this one."""
        ending = asyncio.ensure_future(self.conn.execute(statement))
        try:
            await asyncio.shield(ending)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await ending
            raise

    async def _begin(self, statement: str) -> None:
        """Open a transaction, and never leave one open behind a cancelled task: the statement
        runs on aiosqlite's thread even if the awaiting task is cancelled, so a cancellation lets
        it finish and rolls it back before passing on (otherwise every later transaction on this
        connection fails with "cannot start a transaction within a transaction")."""
        started = asyncio.ensure_future(self.conn.execute(statement))
        try:
            await asyncio.shield(started)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await started
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
            raise

    @asynccontextmanager
    async def peek(self) -> AsyncIterator[SqliteConn]:
        """Each statement sees committed data only, as the lock keeps other coroutines'
        transactions out."""
        async with self._lock:
            yield self._tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteConn]:
        async with self._lock:
            await self._begin("BEGIN")
            try:
                yield self._tx
            finally:
                if self.conn.in_transaction:
                    await self._to_the_end("COMMIT")
