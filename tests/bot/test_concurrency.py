"""Simultaneous clicks: of many requests at the same version exactly one applies."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from typing import Any

import asyncpg
from service_helpers import dump, started, state

from bot.core.db import is_postgres_url
from bot.core.errors import Outdated
from bot.core.results import ActResult
from bot.core.services import Services
from bot.core.store import Store
from bot.core.verify import verify_database
from engine import Undo


def _outcomes(results: list[object]) -> tuple[list[ActResult], list[BaseException]]:
    wins = [r for r in results if isinstance(r, ActResult)]
    losses = [r for r in results if isinstance(r, BaseException)]
    return wins, losses


async def test_fifty_concurrent_acts_one_applies(services: Services, db_target: str) -> None:
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    legal = [a for a in (await state(services, game.id)).legal_actions() if not isinstance(a, Undo)]
    moves = [legal[i % len(legal)] for i in range(50)]
    results = await asyncio.gather(
        *(services.play.act(game.id, player.user_id, m, 0) for m in moves), return_exceptions=True
    )
    wins, losses = _outcomes(results)
    assert len(wins) == 1 and len(losses) == 49
    assert all(isinstance(e, Outdated) for e in losses), losses
    rows = dump(db_target)["actions"]
    assert [r[1] for r in rows] == [1]
    assert (await services.lobby.game(game.id)).version == 1
    assert verify_database(db_target).ok


async def test_two_service_instances_on_one_file(services: Services, db_target: str) -> None:
    seeds = itertools.count(50)
    other_store = await Store.open(db_target)
    other = Services.build(other_store, services.clock, seed_source=lambda: next(seeds))
    try:
        game = await started(services)
        for version in range(12):  # twelve rounds of racing clicks
            info = await services.lobby.game(game.id)
            player = info.current_player
            assert player is not None and player.user_id is not None
            move = next(
                a
                for a in (await state(services, game.id)).legal_actions()
                if not isinstance(a, Undo)
            )
            calls = [
                svc.play.act(game.id, player.user_id, move, version)
                for svc in (services, other)
                for _ in range(5)
            ]
            wins, losses = _outcomes(await asyncio.gather(*calls, return_exceptions=True))
            assert len(wins) == 1, (version, losses)
            assert all(isinstance(e, Outdated) for e in losses), losses
        assert sorted(r[1] for r in dump(db_target)["actions"]) == list(range(1, 13))
        report = verify_database(db_target)
        assert report.ok, report.problems
    finally:
        await other_store.close()


class _Blocker:
    """A third process holding the lock every move must take: SQLite's write lock, or the
    game's row lock on PostgreSQL."""

    def __init__(self, target: str, game_id: int) -> None:
        self.target, self.game_id = target, game_id
        self.conn: sqlite3.Connection | None = None
        self.pg: asyncpg.Connection | None = None
        self.tx: Any = None

    async def hold(self) -> None:
        if is_postgres_url(self.target):
            self.pg = await asyncpg.connect(self.target)
            self.tx = self.pg.transaction()
            await self.tx.start()
            await self.pg.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", self.game_id)
        else:
            self.conn = sqlite3.connect(self.target, isolation_level=None)
            self.conn.execute("BEGIN IMMEDIATE")

    async def let_go(self) -> None:
        if self.pg is not None:
            await self.tx.rollback()
            await self.pg.close()
        if self.conn is not None:
            self.conn.execute("ROLLBACK")
            self.conn.close()


async def test_the_version_guard_stops_a_writer_that_read_too_early(
    services: Services, db_target: str
) -> None:
    """Both processes read version 0 while a third holds the lock, so both pass the early
    check; when the lock goes, the UPDATE ... WHERE version guard must refuse the second."""
    other_store = await Store.open(db_target)
    try:
        game = await started(services)
        player = game.current_player
        assert player is not None and player.user_id is not None
        move = (await state(services, game.id)).legal_actions()[0]
        other = Services.build(other_store, services.clock)
        blocker = _Blocker(db_target, game.id)
        await blocker.hold()
        tasks = [
            asyncio.create_task(svc.play.act(game.id, player.user_id, move, 0))
            for svc in (services, other)
        ]
        await asyncio.sleep(0.3)  # both have read version 0 and wait for the write lock
        assert not any(t.done() for t in tasks)
        await blocker.let_go()
        wins, losses = _outcomes(await asyncio.gather(*tasks, return_exceptions=True))
        assert len(wins) == 1 and len(losses) == 1 and isinstance(losses[0], Outdated)
        assert [r[1] for r in dump(db_target)["actions"]] == [1]
        assert verify_database(db_target).ok
    finally:
        await other_store.close()
