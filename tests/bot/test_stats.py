"""A player's record equals what their games say, counted here another way: the ranks of the
final snapshots, the engine's events replayed from the stored log, the clock of each move."""

from __future__ import annotations

import random
import statistics
from datetime import UTC, datetime, timedelta

import pytest
from service_helpers import sqlite_only

from bot.core.clock import ManualClock
from bot.core.records import GameInfo, SeatInfo
from bot.core.results import GameLog, LogEntry
from bot.core.services import Services
from bot.core.stats import head_to_head
from engine import (
    Building,
    BuildingBought,
    Game,
    GameEnded,
    Pass,
    ScoringHeld,
    TurnEnded,
    Undo,
    new_game,
)

ANA, BRUNO, CARLA = 11, 12, 13
STEP = timedelta(seconds=30)


async def _play(services: Services, users: list[int], guild: int, seed: int) -> int:
    """A whole game, every move 30 s after the one before, no undo."""
    clock = services.clock
    assert isinstance(clock, ManualClock)
    game = await services.lobby.create_game(
        channel_id=guild * 100 + seed, host_id=users[0], host_name="P0", guild_id=guild
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
        clock.advance(STEP)
        info = (await services.play.act(info.id, player.user_id, move, info.version)).game
    return game.id


async def _expected(services: Services, game_ids: list[int], user: int) -> dict[str, object]:
    games = wins = exact = bought = wall = 0
    rounds: dict[int, list[int]] = {}
    types = [0] * len(Building)
    actions_per_turn: list[int] = []
    for game_id in game_ids:
        info = await services.lobby.game(game_id)
        seat = info.seat_of(user)
        if seat is None:
            continue
        assert seat.seat is not None and info.seed is not None
        async with services.store.read() as tx:
            final = Game.from_json(str(await tx.snapshot(game_id)))
            rows = await tx.actions(game_id)
        games += 1
        assert final.ranks is not None
        wins += final.ranks[seat.seat] == 1
        wall = max(wall, final.alhambra(seat.seat).longest_wall())
        for held in final.scoring_rounds:  # the final snapshot's rounds, not the log's events
            for score in held.rows:
                if score.seat == seat.seat:
                    types = [t + p for t, p in zip(types, score.buildings, strict=True)]
        state = new_game(len(info.seats), info.seed)
        count = 0
        for row in rows:
            count += 1
            for event in state.apply(row.action):
                if isinstance(event, BuildingBought) and event.seat == seat.seat:
                    bought += 1
                    exact += event.exact
                if isinstance(event, ScoringHeld):
                    for score in event.rows:
                        if score.seat == seat.seat:
                            rounds.setdefault(event.round_no, []).append(score.total)
                if isinstance(event, TurnEnded):
                    if event.seat == seat.seat:
                        actions_per_turn.append(count)
                    count = 0
    return {
        "games": games,
        "wins": wins,
        "exact": exact,
        "bought": bought,
        "wall": wall,
        "rounds": rounds,
        "median": statistics.median(actions_per_turn) * STEP.total_seconds(),
        "average": statistics.fmean(actions_per_turn) * STEP.total_seconds(),
        "types": types,
    }


async def _versus(services: Services, game_ids: list[int], a: int, b: int) -> tuple[int, ...]:
    """(games, a ahead, b ahead, ties, a's points, b's points) from the final snapshots."""
    games = ahead = behind = ties = a_points = b_points = 0
    for game_id in game_ids:
        info = await services.lobby.game(game_id)
        sa, sb = info.seat_of(a), info.seat_of(b)
        if sa is None or sb is None:
            continue
        assert sa.seat is not None and sb.seat is not None
        async with services.store.read() as tx:
            final = Game.from_json(str(await tx.snapshot(game_id)))
        assert final.ranks is not None
        ra, rb = final.ranks[sa.seat], final.ranks[sb.seat]
        games += 1
        ahead, behind, ties = ahead + (ra < rb), behind + (ra > rb), ties + (ra == rb)
        a_points += final.scores[sa.seat]
        b_points += final.scores[sb.seat]
    return games, ahead, behind, ties, a_points, b_points


@sqlite_only  # whole games are slow to play; the queries are the same SQL on both engines
async def test_a_record_counts_what_the_games_say(services: Services) -> None:
    first = await _play(services, [ANA, BRUNO], guild=1, seed=1)
    second = await _play(services, [BRUNO, ANA, CARLA], guild=1, seed=2)
    third = await _play(services, [ANA, CARLA], guild=2, seed=3)  # another server
    await _play(services, [BRUNO, CARLA], guild=1, seed=4)  # without ana

    here = await services.archive.player_stats(ANA, guild_id=1)
    expected = await _expected(services, [first, second], ANA)
    assert (here.games, here.wins) == (expected["games"], expected["wins"]) == (2, here.wins)
    assert set(here.by_players) == {2, 3}
    assert sum(g for g, _ in here.by_players.values()) == 2
    assert (here.exact_purchases, here.purchases) == (expected["exact"], expected["bought"])
    assert here.longest_wall == expected["wall"]
    rounds = expected["rounds"]
    assert isinstance(rounds, dict)
    assert {r: sorted(p) for r, p in here.round_points.items()} == {
        r: sorted(p) for r, p in rounds.items()
    }
    assert here.median_turn_seconds == expected["median"]
    assert here.average_turn_seconds == pytest.approx(expected["average"])
    assert here.redesigns >= 0 and here.money_taken > 0
    # points per building type: the final snapshots' scoring rows, summed per type
    assert here.building_points == expected["types"]
    assert sum(here.building_points) > 0
    per_game = [here.average_building(b) for b in Building]
    assert per_game == pytest.approx([t / 2 for t in here.building_points])
    # and with the walls they are every point scored (points come only from scoring rounds)
    walls = 0
    for game_id in (first, second):
        mine = (await services.lobby.game(game_id)).seat_of(ANA)
        assert mine is not None
        for entry in (await services.play.log(game_id)).entries:
            for event in entry.events:
                if isinstance(event, ScoringHeld):
                    walls += sum(row.wall for row in event.rows if row.seat == mine.seat)
    assert sum(here.building_points) + walls == sum(here.points)
    assert len(here.won) == len(here.points) == 2 and sum(here.won) == here.wins

    everywhere = await services.archive.player_stats(ANA)
    assert everywhere.games == 3
    assert (await _expected(services, [first, second, third], ANA))["exact"] == (
        everywhere.exact_purchases
    )
    nobody = await services.archive.player_stats(999, guild_id=1)
    assert nobody.games == 0 and nobody.median_turn_seconds is None
    assert nobody.average_turn_seconds is None and nobody.average_building(Building.TOWER) == 0

    # head to head: the games both sat in, who finished ahead by the final ranks
    games = [first, second, third]
    for a, b, guild in ((ANA, BRUNO, 1), (BRUNO, ANA, 1), (ANA, CARLA, None), (CARLA, ANA, 1)):
        record = await services.archive.head_to_head(a, b, guild_id=guild)
        counted = await _versus(services, games if guild is None else [first, second], a, b)
        n, ahead, behind, ties, a_points, b_points = counted
        assert (record.games, record.ahead, record.behind, record.ties) == (n, ahead, behind, ties)
        assert record.ahead + record.behind + record.ties == record.games
        assert sum(record.points) == a_points and sum(record.other_points) == b_points
        assert record.average_points == pytest.approx(a_points / n)
        assert record.other_average_points == pytest.approx(b_points / n)
    assert (await services.archive.head_to_head(ANA, BRUNO, guild_id=1)).games == 2
    assert (await services.archive.head_to_head(ANA, CARLA)).games == 2  # the second and the third
    assert (await services.archive.head_to_head(ANA, CARLA, guild_id=1)).games == 1
    alone = await services.archive.head_to_head(ANA, 999)
    assert alone.games == 0 and alone.average_points == 0.0


async def test_a_player_may_hide_their_record(services: Services) -> None:
    assert not await services.people.stats_hidden(ANA)
    await services.people.set_stats_hidden(ANA, True)
    assert await services.people.stats_hidden(ANA) and not await services.people.stats_hidden(BRUNO)
    await services.people.set_stats_hidden(ANA, False)
    assert not await services.people.stats_hidden(ANA)


def _ended_game(game_id: int, users: list[int], scores: list[int]) -> GameLog:
    """A finished game's log holding only its end: what `head_to_head` reads."""
    at = datetime(2026, 1, 1, tzinfo=UTC)
    seats = tuple(SeatInfo(i, i, "human", user, None, f"P{i}", at) for i, user in enumerate(users))
    game = GameInfo(
        game_id, 1, 1, users[0], "finished", {}, 6, 1, 10, None, at, at, at, at, None, None, seats
    )
    ranks = tuple(1 + sum(o > s for o in scores) for s in scores)
    winners = tuple(i for i, r in enumerate(ranks) if r == 1)
    ended = GameEnded(tuple(scores), ranks, winners)
    entry = LogEntry(1, 0, users[0], Pass(), [ended], at)
    return GameLog(game, [], [entry])


def test_a_shared_rank_is_a_tie_and_other_games_are_skipped() -> None:
    logs = [
        _ended_game(1, [ANA, BRUNO], [80, 80]),  # level
        _ended_game(2, [BRUNO, ANA, CARLA], [70, 90, 90]),  # ana ahead of bruno
        _ended_game(3, [ANA, CARLA, BRUNO], [50, 60, 75]),  # bruno ahead
        _ended_game(4, [CARLA, BRUNO], [10, 20]),  # ana not there
    ]
    record = head_to_head(ANA, BRUNO, logs)
    assert (record.games, record.ahead, record.behind, record.ties) == (3, 1, 1, 1)
    assert record.points == [80, 90, 50] and record.other_points == [80, 70, 75]
    assert record.average_points == pytest.approx(220 / 3)
    mirrored = head_to_head(BRUNO, ANA, logs)
    assert (mirrored.ahead, mirrored.behind, mirrored.ties) == (1, 1, 1)
    tied = head_to_head(ANA, CARLA, logs)  # 90 and 90 in game 2: one rank, a tie
    assert (tied.games, tied.ahead, tied.behind, tied.ties) == (2, 0, 1, 1)
