"""Opt-in ratings: a rated game moves exactly its players' ratings in its server, an unrated
or computer game moves nobody's, and the ratings rebuilt from the stored results equal those
updated game by game."""

from __future__ import annotations

import random

import pytest
from service_helpers import sqlite_only

from bot.__main__ import main
from bot.core.errors import RatedNeedsPeople
from bot.core.ratings import new_rating, rate
from bot.core.service import GameService
from engine import Undo

ANA, BRUNO, CARLA = 21, 22, 23


async def _play(
    service: GameService, users: list[int], *, guild: int, rated: bool, seed: int
) -> list[int]:
    """A whole game; returns the users in the order they finished (ranks)."""
    game = await service.create_game(
        channel_id=guild * 100 + seed, host_id=users[0], host_name="P0", guild_id=guild, rated=rated
    )
    for i, user in enumerate(users[1:], start=1):
        await service.join(game.id, user, f"P{i}")
    info = (await service.start(game.id, users[0])).game
    rng = random.Random(seed)
    while info.status == "active":
        player = info.current_player
        assert player is not None and player.user_id is not None
        legal = (await service.view(info.id, player.user_id)).view.legal
        move = rng.choice([a for a in legal if not isinstance(a, Undo)])
        result = await service.act(info.id, player.user_id, move, info.version)
        info = result.game
    ranks = result.state.ranks
    assert ranks is not None
    return [info.at_seat(seat).user_id for seat in sorted(range(len(ranks)), key=ranks.__getitem__)]  # type: ignore[union-attr]


def test_ratings_follow_the_result_and_start_fresh() -> None:
    fresh = new_rating()
    after = rate([1, 2, 3], [1, 2, 3], {})
    assert after[1].mu > fresh.mu > after[3].mu and all(r.games == 1 for r in after.values())
    assert after[1].sigma < fresh.sigma
    tie = rate([1, 2], [1, 1], {})
    assert tie[1].mu == pytest.approx(tie[2].mu)
    with pytest.raises(ValueError):
        rate([1, 1], [1, 2], {})


@sqlite_only  # whole games are slow to play; the SQL is the same on both engines
async def test_a_rated_game_moves_exactly_its_players(service: GameService) -> None:
    order = await _play(service, [ANA, BRUNO], guild=1, rated=True, seed=1)
    board = dict(await service.leaderboard(1))
    assert set(board) == {ANA, BRUNO}
    assert board[order[0]].mu > board[order[1]].mu and board[ANA].games == 1
    await _play(service, [ANA, CARLA], guild=1, rated=False, seed=2)  # unrated: nobody moves
    assert dict(await service.leaderboard(1)) == board
    await _play(service, [BRUNO, CARLA], guild=2, rated=True, seed=3)  # another server's
    assert dict(await service.leaderboard(1)) == board
    assert {u for u, _ in await service.leaderboard(2)} == {BRUNO, CARLA}

    stored = {g: dict(await service.leaderboard(g)) for g in (1, 2)}
    assert await service.rebuild_ratings() == 2
    assert {g: dict(await service.leaderboard(g)) for g in (1, 2)} == stored  # the same floats


async def test_a_rated_lobby_is_for_people_only(service: GameService) -> None:
    game = await service.create_game(
        channel_id=5, host_id=ANA, host_name="Ana", guild_id=1, rated=True
    )
    assert game.rated
    with pytest.raises(RatedNeedsPeople):
        await service.add_computer(game.id, ANA, "easy")
    unrated = await service.set_rated(game.id, ANA, False)
    assert not unrated.rated
    assert len((await service.add_computer(game.id, ANA, "easy")).seats) == 2


def test_the_rebuild_command(db_target: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", "--rebuild", db_target]) == 0
    assert "rebuilt from 0 rated games" in capsys.readouterr().out
    assert main(["ratings", db_target]) == 2
