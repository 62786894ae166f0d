"""Fixtures for the store and service tests: a real SQLite file per test and a manual clock."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import ManualClock
from bot.core.service import GameService
from bot.core.store import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def service(store: Store, clock: ManualClock) -> GameService:
    seeds = itertools.count(1000)
    return GameService(store, clock, seed_source=lambda: next(seeds))
