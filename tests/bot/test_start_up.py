"""Start-up is proportional to a process's own work: it looks only at the games of the servers
on its shards, each kind of work found in one query, and it tries again with back-off when the
database is away (both engines; the database that refuses connections is a real PostgreSQL
behind a proxy that drops the first ones)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from process_worker import FileMessenger
from service_helpers import BOB, HOST
from test_flow import RecordingAnnouncer, _take

from bot.core.errors import DatabaseUnreachable
from bot.core.records import GameInfo, Shards
from bot.core.services import Services
from bot.core.store import Store
from bot.discord_app.run import open_patiently
from bot.turns.flow import TurnFlow
from bot.turns.reminders import Reminders

SHARDS = 4
MINE = Shards(SHARDS, frozenset({0, 1}))


def _guild(shard: int, n: int) -> int:
    """A server id on `shard` of `SHARDS` (Discord's rule: `(id >> 22) % count`)."""
    return ((shard + SHARDS * n) << 22) | 12345


async def _game(services: Services, shard: int, n: int) -> GameInfo:
    game = await services.lobby.create_game(
        channel_id=1000 * shard + n + 1, host_id=HOST, host_name="Ann", guild_id=_guild(shard, n)
    )
    await services.lobby.join(game.id, BOB, "Bob")
    return (await services.lobby.start(game.id, HOST)).game


class Counted:
    """Counts the store's transactions (read, write, peek) while `counting`."""

    def __init__(self, store: Store) -> None:
        self.count = 0
        self.counting = False
        for name in ("read", "write", "peek"):
            setattr(store, name, self._wrap(getattr(store, name)))

    def _wrap(self, opener: Any) -> Any:
        @contextlib.asynccontextmanager
        async def counted() -> AsyncIterator[Any]:
            if self.counting:
                self.count += 1
            async with opener() as tx:
                yield tx

        return counted

    @contextlib.contextmanager
    def measuring(self) -> Iterator[None]:
        self.count, self.counting = 0, True
        try:
            yield
        finally:
            self.counting = False


def _flow(services: Services, tmp_path: Path) -> TurnFlow:
    reminders = Reminders(services, FileMessenger(tmp_path / "dms.txt"), spawn=lambda c: None)
    return TurnFlow(services, RecordingAnnouncer(), reminders=reminders)


async def test_start_up_costs_the_same_few_transactions_however_many_games(
    services: Services, tmp_path: Path
) -> None:
    counter = Counted(services.store)
    flow = _flow(services, tmp_path)
    costs = []
    for batch in (2, 10):  # 8 games, then 48: a dozen per shard
        for shard in range(SHARDS):
            for n in range(batch):
                await _game(services, shard, 100 * batch + n)
        assert flow.reminders is not None
        await flow.reminders.recover()  # every turn armed, as a running bot leaves them
        with counter.measuring():
            assert await flow.start_up(MINE) == (0, 0, 0)
        costs.append(counter.count)
    assert costs[0] == costs[1] <= 5, costs  # not a transaction per game


async def test_start_up_does_the_work_of_its_own_shards_only(
    services: Services, tmp_path: Path
) -> None:
    flow = _flow(services, tmp_path)
    assert flow.reminders is not None
    games = {shard: [await _game(services, shard, n) for n in range(3)] for shard in range(SHARDS)}
    await flow.reminders.recover(MINE)
    for shard, group in games.items():
        for game in group:
            armed = bool(await services.schedule.timers_of(game.id))
            assert armed == (shard in MINE.ids), (shard, game.id)
    # a stop between a move and its automatic end of turn, on shard 1 and on shard 3
    held = {}
    for shard in (1, 3):
        game = games[shard][0]
        player = game.current_player
        assert player is not None and player.user_id is not None
        moved = await services.play.act(
            game.id, player.user_id, await _take(services, game), game.version
        )
        assert moved.own.phase == "confirm"
        held[shard] = game.id
    assert await flow.start_up(MINE) == (0, 0, 1)
    assert (await services.lobby.game(held[1])).current_seat != games[1][0].current_seat
    assert (await services.lobby.game(held[3])).current_seat == games[3][0].current_seat


async def test_start_up_tries_again_while_the_database_is_away(
    services: Services, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    flow = _flow(services, tmp_path)
    game = await _game(services, 0, 0)
    real = services.schedule.games_waiting_on_humans
    failures = 3

    async def away(**kwargs: Any) -> list[int]:
        nonlocal failures
        if failures:
            failures -= 1
            raise ConnectionRefusedError("the database is restarting")
        return await real(**kwargs)

    services.schedule.games_waiting_on_humans = away  # type: ignore[method-assign]  # a blip
    with caplog.at_level(logging.WARNING, logger="alhambra.turns"):
        done = await flow.start_up(MINE, first_wait=0.01)
    assert done == (1, 0, 0) and failures == 0
    assert await services.schedule.timers_of(game.id)
    assert caplog.text.count("start-up recovery failed") == 3
    assert "trying again in" in caplog.text


async def _dropping_proxy(target_port: int, drop: int) -> tuple[asyncio.Server, list[int]]:
    """A TCP proxy to PostgreSQL that closes its first `drop` connections at once (a server
    restarting); returns it and the list of connections it dropped."""
    dropped: list[int] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(dropped) < drop:
            dropped.append(1)
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target_port)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, dropped


async def test_opening_postgresql_is_tried_again_while_it_drops_connections(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    from urllib.parse import urlsplit

    parts = urlsplit(postgres_url)
    assert parts.port is not None
    proxy, dropped = await _dropping_proxy(parts.port, drop=2)
    port = proxy.sockets[0].getsockname()[1]
    through = postgres_url.replace(f":{parts.port}/", f":{port}/")
    try:
        with caplog.at_level(logging.WARNING, logger="alhambra"):
            store = await open_patiently(lambda: Store.open(through), 4, first_wait=0.01)
        await store.close()
        assert len(dropped) == 2
        assert caplog.text.count("the database does not answer") == 2
        proxy2, _ = await _dropping_proxy(parts.port, drop=5)
        port2 = proxy2.sockets[0].getsockname()[1]
        try:
            with pytest.raises(DatabaseUnreachable, match="tried 3 times"):
                await open_patiently(
                    lambda: Store.open(postgres_url.replace(f":{parts.port}/", f":{port2}/")),
                    3,
                    first_wait=0.01,
                )
        finally:
            proxy2.close()
    finally:
        proxy.close()
