"""Fixtures for end-to-end tests: a started fake Discord with discord.py pointed at it.

tests/ has no packages, so this directory is put on sys.path to make ``import fake_discord``
work from any test module under tests/e2e/.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

sys.path.insert(0, str(Path(__file__).resolve().parent))

from database import PgAddress, engines_for, skip_unless_sqlite_chosen
from fake_discord import FakeDiscord, running_bot

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


@pytest.fixture
def blocked_hosts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Refuse name lookups of anything but the loopback: nothing may try to reach discord.com.

    Returns the list of hosts that something tried to resolve, for tests to assert on.
    """
    tried: list[str] = []
    real_getaddrinfo = socket.getaddrinfo

    def guarded(host: Any, *args: Any, **kwargs: Any):
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in LOCAL_HOSTS:
            tried.append(name)
            raise OSError(f"e2e tests must not reach the network (tried to resolve {name})")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", guarded)
    return tried


@pytest.fixture
async def sim(
    monkeypatch: pytest.MonkeyPatch, blocked_hosts: list[str]
) -> AsyncIterator[FakeDiscord]:
    """A running fake Discord; discord.py's REST base and gateway URL point at it."""
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )
    try:
        yield fake
    finally:
        await fake.stop()
    assert not fake.unhandled, f"the bot used routes the fake does not know: {fake.unhandled}"
    assert not blocked_hosts, f"something tried to reach the network: {blocked_hosts}"


@pytest.fixture
def run_bot(
    sim: FakeDiscord,
) -> Callable[..., AbstractAsyncContextManager[discord.Client]]:
    """``async with run_bot(make_client) as bot:`` starts a fresh client against ``sim``.

    Leave the block to stop it; enter again with a new client to simulate a restart.
    """

    def start(factory: Callable[[], discord.Client], **kwargs: Any):
        return running_bot(sim, factory, **kwargs)

    return start


# --- the real bot -------------------------------------------------------------------------------


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test whose bot has a database runs on the engines database.py says (one, SQLite,
    without a parameter, so its name stays what it was)."""
    if "db_engine" in metafunc.fixturenames:
        engines = engines_for(metafunc.definition)
        if engines != ["sqlite"]:
            metafunc.parametrize("db_engine", engines)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in item.nodeid or item.nodeid.startswith("e2e/"):
            skip_unless_sqlite_chosen(item)


@pytest.fixture
def db_engine() -> str:
    return "sqlite"


@pytest.fixture
def db_path(tmp_path: Path, db_engine: str, request: pytest.FixtureRequest) -> Path | PgAddress:
    """The bot's database: a SQLite file, or the address of a PostgreSQL database of its own
    (migrated, empty). Read it in a test with `database.connect(db_path)`."""
    if db_engine == "postgres":
        return PgAddress(request.getfixturevalue("postgres_url"))
    return tmp_path / "alhambra.sqlite3"


@pytest.fixture
def make_bot(db_path: Path) -> Callable[..., Callable[[], discord.Client]]:
    """``make_bot(**kwargs)`` returns a factory of AlhambraBot on the test's database file.

    Games get a fixed seed so the tests know the seating and the cards.
    """
    from bot.config import Settings
    from bot.discord_app.client import AlhambraBot

    def factory(
        *,
        dev_guild: int | None = None,
        seed: int = 20240601,
        undo_window: int = 0,
        workers: int = 0,
        work_timeout: float = 30.0,
        metrics_port: int | None = None,
        **kwargs: Any,
    ):
        # undo_window 0: a turn ends at its last decision (the tests of the window set one);
        # workers 0: pictures and computer players in threads (the pool's tests set some)
        settings = Settings(
            token=None,
            db_path=str(db_path),
            dev_guild=dev_guild,
            log_level="INFO",
            undo_window_s=undo_window,
            workers=workers,
            work_timeout_s=work_timeout,
            metrics_port=metrics_port,
        )
        return lambda: AlhambraBot(settings, seed_source=lambda: seed, **kwargs)

    return factory
