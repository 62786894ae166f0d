"""Fixtures for the store and service tests: a real database per test (a SQLite file, and a
PostgreSQL database of a private server: `ALHAMBRA_TEST_DB` in tests/conftest.py) and a manual
clock. Tests that take `store` or `services` run on every chosen engine."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from postgres_server import chosen_engines

from bot.core.clock import ManualClock
from bot.core.services import Services
from bot.core.store import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture(params=chosen_engines())
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_target(engine: str, request: pytest.FixtureRequest, db_path: Path) -> str:
    """Where this test's database is: a SQLite file path or a PostgreSQL address."""
    if engine == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(db_path)


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    s = await Store.open(db_target)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def services(store: Store, clock: ManualClock) -> Services:
    seeds = itertools.count(1000)
    return Services.build(store, clock, seed_source=lambda: next(seeds))
