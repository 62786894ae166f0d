"""Hypothesis profiles for the whole test suite.

`default` (and `ci`, the same) keeps the default run short on a shared two-core machine; `long`
runs many more examples for a thorough search: `HYPOTHESIS_PROFILE=long pytest tests/engine`.
Property tests that play complete games scale their example count from the loaded profile (see
`tests/engine/engine_helpers.py`), so `long` lengthens them too.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

# The test folders are named after the packages they test (tests/engine, tests/bot) and have no
# __init__.py, so pytest puts them on sys.path and `import engine` could find the test folder as a
# namespace package instead of the project's package (an editable install resolves too late).
# With the project root on sys.path the real packages always win.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

_COMMON = {
    # Whole games take tens of milliseconds each; timing them would only make runs flaky.
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}

settings.register_profile("default", max_examples=100, **_COMMON)
settings.register_profile("ci", max_examples=100, **_COMMON)
settings.register_profile("long", max_examples=2000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "default")


# --- the databases the store and service tests run on ------------------------------------------
#
# `ALHAMBRA_TEST_DB` chooses the engines: "sqlite", "postgres", or both (the default, which the
# README's test command runs). PostgreSQL is a real server started here (tests/postgres_server.py);
# if it cannot start, the tests that need it fail: they are never skipped silently.

import asyncio  # noqa: E402
import concurrent.futures  # noqa: E402
import itertools  # noqa: E402
from collections.abc import Callable, Coroutine, Iterator  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

TEMPLATE = "alhambra_template"


def _run_apart(work: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a coroutine to the end on a loop of its own, even when a sync fixture is set up
    from inside a running test loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, work()).result()


_names = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[object]:
    """One private server for the whole run, with a migrated template database."""
    from postgres_server import running_server

    with running_server() as server:

        async def make_template() -> None:
            import asyncpg

            from bot.core.store import Store

            admin = await asyncpg.connect(server.url())
            try:
                await admin.execute(f"CREATE DATABASE {TEMPLATE}")
            finally:
                await admin.close()
            await (await Store.open(server.url(TEMPLATE))).close()

        _run_apart(make_template)
        yield server


@pytest.fixture(scope="session")
def postgres_databases(postgres_server: object) -> Iterator[object]:
    from postgres_server import DatabasePool

    pool = DatabasePool(postgres_server, TEMPLATE)  # type: ignore[arg-type]
    yield pool
    pool.close()


@pytest.fixture
def postgres_url(postgres_server: object, postgres_databases: Any) -> Iterator[str]:
    """A migrated database of its own for one test, empty: cloned from the template, or one
    an earlier test used, emptied."""
    name = postgres_databases.take()
    yield postgres_server.url(name)  # type: ignore[attr-defined]
    postgres_databases.give_back(name)


async def _admin_sql(server: object, sql: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(server.url())  # type: ignore[attr-defined]
    try:
        await admin.execute(sql)
    finally:
        await admin.close()


@pytest.fixture
def fresh_postgres_url(postgres_server: object) -> Iterator[str]:
    """An empty database (no schema yet), for migration tests."""

    name = f"e{os.getpid()}_{next(_names)}"
    _run_apart(lambda: _admin_sql(postgres_server, f"CREATE DATABASE {name}"))
    yield postgres_server.url(name)  # type: ignore[attr-defined]
    _run_apart(lambda: _admin_sql(postgres_server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
