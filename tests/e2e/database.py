"""The database an end-to-end test's bot runs on, on the engine `ALHAMBRA_TEST_DB` chooses.

- `ALHAMBRA_TEST_DB` unset (the README's default run): every e2e test on SQLite, and the
  modules marked `both_engines` (whole games, asynchronous play, history...) on PostgreSQL too;
- `ALHAMBRA_TEST_DB=postgres` (or `sqlite,postgres`, or `sqlite`): every e2e test on each engine
  named, except those marked `sqlite_only` (they look at the SQLite file itself: a backup, a
  lost or locked file), which run only where SQLite is named and are skipped, with their reason,
  where it is not.

The bot is given a SQLite file path or a `postgresql://` address (`db_path` in conftest.py).
Tests read and change the stored game with `connect(db_path)`, which is `sqlite3.connect` for a
file and the same small interface (`execute(sql, params).fetchone()/.fetchall()`, `with`,
`commit`, `close`) over a PostgreSQL connection otherwise, with the same `?` placeholders.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from postgres_server import chosen_engines

BOTH = "both_engines"
SQLITE_ONLY = "sqlite_only"


def engines_for(item: Any) -> list[str]:
    """The engines one e2e test runs on (`item`: its pytest node or metafunc definition)."""
    marks = {m.name for m in item.iter_markers()}
    explicit = bool((os.environ.get("ALHAMBRA_TEST_DB") or "").strip())
    chosen = chosen_engines()
    if SQLITE_ONLY in marks:
        return ["sqlite"]
    if not explicit:
        return chosen if BOTH in marks else ["sqlite"]
    return chosen


def skip_unless_sqlite_chosen(item: pytest.Item) -> None:
    if item.get_closest_marker(SQLITE_ONLY) and "sqlite" not in chosen_engines():
        item.add_marker(pytest.mark.skip(reason="sqlite_only: ALHAMBRA_TEST_DB names no sqlite"))


class PgAddress(str):
    """A PostgreSQL database's address, handed to the bot where a file path would be."""


# --- a sqlite3-like connection over PostgreSQL ---------------------------------------------------

_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def _background_loop() -> asyncio.AbstractEventLoop:
    """A loop of its own in a thread, so a test's synchronous read works inside the test's
    running loop (as sqlite3's does)."""
    global _loop
    with _lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, daemon=True, name="e2e-db").start()
        return _loop


def _call(coro: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(coro, _background_loop()).result(timeout=30)


class _Result:
    def __init__(self, rows: Sequence[tuple[Any, ...]]) -> None:
        self._rows = list(rows)

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self._rows)

    def __iter__(self) -> Any:
        return iter(self._rows)


class PgConnection:
    """Each statement commits on its own (what the tests' `with sqlite3.connect(...)` does)."""

    def __init__(self, url: str) -> None:
        import asyncpg

        async def connect() -> Any:
            return await asyncpg.connect(url, server_settings={"statement_timeout": "20000"})

        self._conn = _call(connect())

    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Result:
        from bot.core.db.postgres import dollar_params

        rows = _call(self._conn.fetch(dollar_params(sql), *params))
        return _Result([tuple(r) for r in rows])

    def commit(self) -> None:
        pass

    def close(self) -> None:
        if not self._conn.is_closed():
            _call(self._conn.close())

    def __enter__(self) -> PgConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(target: str | os.PathLike[str]) -> Any:
    """`sqlite3.connect` for a file, a `PgConnection` for a PostgreSQL address."""
    if isinstance(target, PgAddress) or str(target).startswith("postgresql://"):
        return PgConnection(str(target))
    return sqlite3.connect(Path(target))
