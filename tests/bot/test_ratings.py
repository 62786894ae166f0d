"""Opt-in ratings: a rated game moves exactly its players' ratings in its server, an unrated
or computer game moves nobody's, and the ratings rebuilt from the stored results equal those
updated game by game."""

from __future__ import annotations

import random

import pytest
from service_helpers import sqlite_only

from bot.__main__ import main
from bot.core.errors import RatedNeedsPeople
from bot.core.ratings import new_rating, rate, rated_result
from bot.core.services import Services
from engine import Game, Undo

ANA, BRUNO, CARLA = 21, 22, 23


async def _play(
    services: Services, users: list[int], *, guild: int, rated: bool, seed: int
) -> list[int]:
    """A whole game; returns the users in the order they finished (ranks)."""
    game = await services.lobby.create_game(
        channel_id=guild * 100 + seed, host_id=users[0], host_name="P0", guild_id=guild, rated=rated
    )
    for i, user in enumerate(users[1:], start=1):
        await services.lobby.join(game.id, user, f"P{i}")
    info = (await services.lobby.start(game.id, users[0])).game
    rng = random.Random(seed)
    while info.status == "active":
        player = info.current_player
        assert player is not None and player.user_id is not None
        legal = (await services.play.view(info.id, player.user_id)).view.legal
        move = rng.choice([a for a in legal if not isinstance(a, Undo)])
        result = await services.play.act(info.id, player.user_id, move, info.version)
        info = result.game
    ranks = result.public.ranks
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
async def test_a_rated_game_moves_exactly_its_players(services: Services) -> None:
    order = await _play(services, [ANA, BRUNO], guild=1, rated=True, seed=1)
    board = dict(await services.archive.leaderboard(1))
    assert set(board) == {ANA, BRUNO}
    assert board[order[0]].mu > board[order[1]].mu and board[ANA].games == 1
    await _play(services, [ANA, CARLA], guild=1, rated=False, seed=2)  # unrated: nobody moves
    assert dict(await services.archive.leaderboard(1)) == board
    await _play(services, [BRUNO, CARLA], guild=2, rated=True, seed=3)  # another server's
    assert dict(await services.archive.leaderboard(1)) == board
    assert {u for u, _ in await services.archive.leaderboard(2)} == {BRUNO, CARLA}

    stored = {g: dict(await services.archive.leaderboard(g)) for g in (1, 2)}
    assert await services.archive.rebuild_ratings() == 2
    assert {
        g: dict(await services.archive.leaderboard(g)) for g in (1, 2)
    } == stored  # the same floats


async def test_a_rated_lobby_is_for_people_only(services: Services) -> None:
    game = await services.lobby.create_game(
        channel_id=5, host_id=ANA, host_name="Ana", guild_id=1, rated=True
    )
    assert game.rated
    with pytest.raises(RatedNeedsPeople):
        await services.lobby.add_computer(game.id, ANA, "easy")
    unrated = await services.lobby.set_rated(game.id, ANA, False)
    assert not unrated.rated
    assert len((await services.lobby.add_computer(game.id, ANA, "easy")).seats) == 2


def test_the_rebuild_command(db_target: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ratings", "--rebuild", db_target]) == 0
    assert "rebuilt from 0 rated games" in capsys.readouterr().out
    assert main(["ratings", db_target]) == 2


def test_seats_lost_count_as_last_place_and_an_abandoned_game_ties_the_rest() -> None:
    # finished: the people seated at the end by their ranks, a lost seat below them all
    assert rated_result({0: 10, 2: 12}, [2, 3, 1], {11: 1}) == ([10, 12, 11], [2, 1, 3])
    # two lost seats tie for last; a person still seated who ended the game forfeits too
    assert rated_result({0: 10, 1: 11}, None, {12: 2, 11: 1}) == ([10, 11, 12], [1, 2, 2])
    # nothing to learn: abandoned with nobody at fault, or every person gone
    assert rated_result({0: 10, 1: 11}, None, {}) is None
    assert rated_result({}, [1, 2], {10: 0, 11: 1}) is None


async def _rated_lobby(services: Services, users: list[int], channel: int) -> int:
    game = await services.lobby.create_game(
        channel_id=channel, host_id=users[0], host_name="P0", guild_id=1, rated=True
    )
    for i, user in enumerate(users[1:], start=1):
        await services.lobby.join(game.id, user, f"P{i}")
    return (await services.lobby.start(game.id, users[0])).game.id


async def _play_out(services: Services, game_id: int, seed: int) -> Game:
    """Every remaining move, people's and computers' alike, picked at random."""
    rng = random.Random(seed)
    info = await services.lobby.game(game_id)
    while info.status == "active":
        player = info.current_player
        assert player is not None and player.seat is not None
        view = (await services.play.seat_view(game_id, player.seat)).view
        move = rng.choice([a for a in view.legal if not isinstance(a, Undo)])
        if player.user_id is None:
            info = (
                await services.play.act_for_computer(game_id, player.seat, move, info.version)
            ).game
        else:
            info = (await services.play.act(game_id, player.user_id, move, info.version)).game
    async with services.store.read() as tx:
        snapshot = await tx.snapshot(game_id)
    assert snapshot is not None
    return Game.from_json(snapshot)


@sqlite_only  # whole games are slow to play; the SQL is the same on both engines
async def test_a_seat_lost_to_the_deadlines_counts_as_last_place(services: Services) -> None:
    game_id = await _rated_lobby(services, [ANA, BRUNO, CARLA], channel=50)
    info = await services.lobby.game(game_id)
    lost = info.seat_of(BRUNO)
    assert lost is not None and lost.seat is not None
    await services.play.hand_over(game_id, lost.seat, "easy")
    assert await services.archive.forfeits(game_id) == {BRUNO: lost.seat}
    final = await _play_out(services, game_id, seed=4)
    assert final.ranks is not None
    board = dict(await services.archive.leaderboard(1))
    assert set(board) == {ANA, BRUNO, CARLA}  # the computer in Bruno's seat is nobody's rating
    assert all(r.games == 1 for r in board.values())
    kept = sorted((ANA, CARLA), key=lambda u: final.ranks[info.seat_of(u).seat])  # type: ignore[index,union-attr]
    # Bruno is last whatever his seat scored; the others in their finishing order
    assert board[kept[0]].mu > board[kept[1]].mu > board[BRUNO].mu

    stored = dict(await services.archive.leaderboard(1))
    assert await services.archive.rebuild_ratings() == 1
    assert dict(await services.archive.leaderboard(1)) == stored


async def test_ending_a_running_rated_game_puts_its_host_last(services: Services) -> None:
    game_id = await _rated_lobby(services, [ANA, BRUNO, CARLA], channel=51)
    await services.lobby.abandon(game_id, ANA)
    assert await services.archive.forfeits(game_id) == {
        ANA: (await services.lobby.game(game_id)).seat_of(ANA).seat
    }  # type: ignore[union-attr]
    board = dict(await services.archive.leaderboard(1))
    assert board[BRUNO].mu == pytest.approx(board[CARLA].mu)  # the others tie for first
    assert board[CARLA].mu > board[ANA].mu

    # agreed to by most: nobody at fault, nobody moves; a manager's stop likewise
    voted = await _rated_lobby(services, [ANA, BRUNO], channel=52)
    await services.play.vote(voted, ANA, "abandon")
    assert (await services.play.vote(voted, BRUNO, "abandon")).passed
    stopped = await _rated_lobby(services, [BRUNO, CARLA], channel=53)
    await services.lobby.abandon(stopped, 999, is_manager=True)
    assert await services.archive.forfeits(stopped) == {}
    assert dict(await services.archive.leaderboard(1)) == board

    # a lobby has no result to abandon; an unrated game records the lost seat and rates no one
    lobby = await services.lobby.create_game(
        channel_id=54, host_id=ANA, host_name="Ana", guild_id=1, rated=True
    )
    await services.lobby.abandon(lobby.id, ANA)
    plain = await services.lobby.create_game(
        channel_id=55, host_id=ANA, host_name="Ana", guild_id=1
    )
    await services.lobby.join(plain.id, BRUNO, "Bruno")
    await services.lobby.start(plain.id, ANA)
    await services.lobby.abandon(plain.id, ANA)
    assert ANA in await services.archive.forfeits(plain.id)
    assert dict(await services.archive.leaderboard(1)) == board

    assert await services.archive.rebuild_ratings() == 1  # only the game the host ended
    assert dict(await services.archive.leaderboard(1)) == board


async def _play_scoring_rounds(services: Services, game_id: int, rounds: int, seed: int) -> Game:
    """Random moves until `rounds` scoring rounds are held; returns the game then."""
    rng = random.Random(seed)
    while True:
        async with services.store.read() as tx:
            snapshot = await tx.snapshot(game_id)
        assert snapshot is not None
        state = Game.from_json(snapshot)
        if len(state.scoring_rounds) >= rounds:
            return state
        info = await services.lobby.game(game_id)
        player = info.current_player
        assert not state.is_over and player is not None and player.user_id is not None
        move = rng.choice([a for a in state.legal_actions() if not isinstance(a, Undo)])
        await services.play.act(game_id, player.user_id, move, info.version)


async def test_the_players_behind_cannot_vote_a_rated_result_away(services: Services) -> None:
    """Abandoning a rated game by vote needs every player: an abandoned game rates nobody who
    played on, so the two players behind the leader must not be able to end it by themselves."""
    game_id = await _rated_lobby(services, [ANA, BRUNO, CARLA], channel=56)
    standing = await _play_scoring_rounds(services, game_id, rounds=2, seed=6)
    info = await services.lobby.game(game_id)
    by_seat = {s.seat: s.user_id for s in info.seats}
    order = [by_seat[seat] for _, seat, _ in standing.ranking()]  # leader first
    leader, behind = order[0], order[1:]
    assert standing.scores[info.seat_of(leader).seat] > min(standing.scores)  # type: ignore[union-attr]

    first = await services.play.vote(game_id, behind[0], "abandon")
    second = await services.play.vote(game_id, behind[1], "abandon")
    assert (first.needed, second.votes, second.needed, second.passed) == (3, 2, 3, False)
    assert (await services.lobby.game(game_id)).status == "active"  # the game goes on
    assert await services.archive.leaderboard(1) == []

    # with the leader's vote too it ends, by everyone's consent: nobody's result counts
    done = await services.play.vote(game_id, leader, "abandon")
    assert done.passed and (await services.lobby.game(game_id)).status == "abandoned"
    assert await services.archive.leaderboard(1) == []

    # an unrated game is still ended by a majority
    plain = await services.lobby.create_game(
        channel_id=57, host_id=ANA, host_name="Ana", guild_id=1
    )
    for user, name in ((BRUNO, "Bruno"), (CARLA, "Carla")):
        await services.lobby.join(plain.id, user, name)
    await services.lobby.start(plain.id, ANA)
    await services.play.vote(plain.id, BRUNO, "abandon")
    assert (await services.play.vote(plain.id, CARLA, "abandon")).passed
