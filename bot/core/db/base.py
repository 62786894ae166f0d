"""What the store needs from a database engine: transactions that yield a `Conn`.

The SQL the store writes is the common dialect of SQLite 3.35+ and PostgreSQL: `?` placeholders
(rewritten for PostgreSQL), `ON CONFLICT ... DO`, `RETURNING`, no engine functions. The few
phrases that must differ come from the connection (`lock_rows`, `claim_rows`), so a
query reads the same on both engines and says where they part.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal, Protocol

Engine = Literal["sqlite", "postgres"]

_URL = re.compile(r"^postgres(ql)?://", re.IGNORECASE)
#: `scheme://user:password@`: the password runs to the line's last `@` (one it holds unencoded
#: cannot end it early, and hiding too much is better than showing some); the user may hold an
#: `@` too (`name@server`, as some hosted services spell it)
_PASSWORD = re.compile(r"(://[^:/\s]*?:).*@")
#: a password given as a parameter of the address (`?password=...`)
_PARAMETER = re.compile(r"([?&]password=)[^&#\s]*", re.IGNORECASE)


def is_postgres_url(target: object) -> bool:
    """`ALHAMBRA_DB=postgresql://...` (or `postgres://`) chooses PostgreSQL; anything else is a
    SQLite file path."""
    return isinstance(target, str) and bool(_URL.match(target))


def redact(target: str) -> str:
    """A database address (or a message holding one) fit for logs and messages: the password
    hidden, however it is written (raw, percent-encoded, holding `@ / : % # ?`, or as a
    `password=` parameter)."""
    return _PARAMETER.sub(r"\1***", _PASSWORD.sub(r"\1***@", target))


class Conflict(Exception):
    """A write broke a uniqueness rule because another request got there first (two lobbies
    opened in one channel at once): the caller turns it into the refusal it means."""


class Row(Protocol):
    """A result row, by position or by column name (sqlite3.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: int | str, /) -> Any: ...


class Conn(Protocol):
    """A connection inside one transaction (or, for `peek`, between them)."""

    engine: Engine
    #: appended to a SELECT of rows the transaction will change: "FOR UPDATE" where rows lock
    #: (PostgreSQL), "" where the write transaction holds the whole database (SQLite)
    lock_rows: str

    def claim_rows(self, alias: str) -> str:
        """Ends a SELECT of queue rows (of the table named `alias`) to be claimed:
        "FOR UPDATE OF alias SKIP LOCKED" on PostgreSQL, "" on SQLite."""
        ...

    def timers_changed(self, due_ms: int) -> None:
        """This transaction wrote a timer due at `due_ms` (or gave one back): other processes
        are told when it commits, where the engine can tell them (PostgreSQL's NOTIFY)."""
        ...

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Row]: ...

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute a change; returns the number of rows it touched."""
        ...

    async def batch(self, changes: Sequence[Change], *, guarded: bool = False) -> list[int]:
        """Execute changes in order (in one trip to the database where the engine allows);
        returns the rows each touched. `guarded`: the first is a condition (a version check),
        and if it touched no row the others are not run (the list then holds only its 0)."""
        ...


#: Told of a timer written by any process: its due time in ms, or None for "look again".
Heard = Callable[[int | None], None]

#: A change and its parameters, for `Conn.batch`.
Change = tuple[str, Sequence[Any]]


class Database(Protocol):
    """An open database of one engine."""

    engine: Engine
    #: the file path or the address (password hidden), for messages
    where: str

    def write(self) -> AbstractAsyncContextManager[Conn]:
        """A write transaction: committed if the block succeeds, rolled back if it raises."""
        ...

    def read(self) -> AbstractAsyncContextManager[Conn]:
        """A consistent read-only view for several queries."""
        ...

    def peek(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for reads that need no snapshot across statements."""
        ...

    async def schema_version(self) -> int: ...

    def timer_listener(self, heard: Heard) -> Coroutine[Any, Any, None] | None:
        """What listens for the timers other processes write, calling `heard(due_ms)` for each
        committed write (`heard(None)`: something may have been missed, look again), until
        cancelled; None where the engine cannot tell (SQLite: the dispatcher polls)."""
        ...

    async def close(self) -> None: ...
