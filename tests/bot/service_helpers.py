"""Helpers shared by the bot tests: set up games, pick legal moves, dump the database."""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from bot.core.db import is_postgres_url
from bot.core.records import GameInfo, TimerKind
from bot.core.results import ActResult
from bot.core.services import Services
from engine import Action, Game, Undo

HOST, BOB, CAROL, DAVE, STRANGER = 101, 102, 103, 104, 999
NAMES = {HOST: "Ann", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


async def lobby(
    services: Services, humans: int = 2, computers: int = 0, channel: int = 1
) -> GameInfo:
    game = await services.lobby.create_game(
        channel_id=channel, host_id=HOST, host_name="Ann", guild_id=7
    )
    for user in [BOB, CAROL, DAVE][: humans - 1]:
        game = await services.lobby.join(game.id, user, NAMES[user])
    for _ in range(computers):
        game = await services.lobby.add_computer(game.id, HOST)
    return game


async def add_timer(
    services: Services,
    game_id: int,
    kind: TimerKind,
    due: datetime,
    seat: int | None = None,
) -> int:
    """Arm one timer of `kind` (replacing the game's others of that kind); returns its id."""
    return (await services.schedule.set_turn_timers(game_id, [(kind, due, seat)], kinds=(kind,)))[0]


async def started(
    services: Services, humans: int = 2, computers: int = 0, channel: int = 1
) -> GameInfo:
    game = await lobby(services, humans, computers, channel)
    return (await services.lobby.start(game.id, HOST)).game


async def state(services: Services, game_id: int) -> Game:
    async with services.store.read() as tx:
        snapshot = await tx.snapshot(game_id)
    assert snapshot is not None
    return Game.from_json(snapshot)


async def random_move(
    services: Services, game_id: int, rng: random.Random, undo: bool = False
) -> ActResult:
    """Play one random legal move for whoever is to play (human or computer)."""
    game = await services.lobby.game(game_id)
    legal = [a for a in (await state(services, game_id)).legal_actions()]
    if not undo:
        legal = [a for a in legal if not isinstance(a, Undo)]
    return await act_as_current(services, game, rng.choice(legal))


async def act_as_current(services: Services, game: GameInfo, action: Action) -> ActResult:
    player = game.current_player
    assert player is not None and player.seat is not None
    if player.is_computer:
        return await services.play.act_for_computer(game.id, player.seat, action, game.version)
    assert player.user_id is not None
    return await services.play.act(game.id, player.user_id, action, game.version)


#: a test about SQLite itself (its file, its locks, its pragmas) runs on SQLite only
sqlite_only = pytest.mark.parametrize("engine", ["sqlite"])


def dump(path: Path | str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: to show that a refused request wrote nothing. `path` is a
    SQLite file or a PostgreSQL address."""
    if is_postgres_url(str(path)):
        return _dump_postgres(str(path))
    conn = sqlite3.connect(path)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    finally:
        conn.close()


def _dump_postgres(url: str) -> dict[str, list[tuple[Any, ...]]]:
    from bot.core.db.postgres_reads import run_apart

    async def work() -> dict[str, list[tuple[Any, ...]]]:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            tables = [
                r[0]
                for r in await conn.fetch(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = 'public' ORDER BY table_name"
                )
            ]
            return {
                t: sorted((tuple(r) for r in await conn.fetch(f"SELECT * FROM {t}")), key=repr)
                for t in tables
            }
        finally:
            await conn.close()

    return run_apart(work)
