"""The life of a turn, without any adapter: `TurnFlow` with an announcer that records what it
was asked to tell, on a real SQLite store."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Coroutine
from typing import Any

import pytest
from service_helpers import HOST, lobby, started, state

from bot.core import workers
from bot.core.errors import Busy, NotYourTurn
from bot.core.records import GameInfo, TimerRow
from bot.core.results import ActResult
from bot.core.services import ANNOUNCE_GRACE, Services
from bot.turns.computers import choose
from bot.turns.flow import CHEAPER_AFTER, TurnFlow
from bot.turns.telling import Telling
from engine import EndTurn, Skip, Skipped, TakeMoney, TurnEnded, Undo


class RecordingAnnouncer:
    """Implements `turns.ports.Announcer` by remembering every call."""

    def __init__(self) -> None:
        self.turns: list[ActResult] = []
        self.tellings: list[Telling] = []
        self.notices: list[tuple[int, str, str, dict[str, object]]] = []

    async def turn_over(self, result: ActResult, telling: Telling, locale: str) -> None:
        self.turns.append(result)
        self.tellings.append(telling)

    async def notice(
        self, game: GameInfo, locale: str, key: str, *, mention: int | None = None, **params: object
    ) -> None:
        self.notices.append((game.id, locale, key, params))


class Background:
    """A spawn that keeps the coroutines, to run them when the test says so."""

    def __init__(self) -> None:
        self.pending: list[Coroutine[Any, Any, None]] = []

    def __call__(self, coro: Coroutine[Any, Any, None]) -> None:
        self.pending.append(coro)

    async def run(self) -> None:
        while self.pending:
            await self.pending.pop(0)


async def _take(services: Services, game: GameInfo) -> TakeMoney:
    return next(
        a for a in (await state(services, game.id)).legal_actions() if isinstance(a, TakeMoney)
    )


async def test_a_take_ends_the_turn_for_a_player_who_wants_that(services: Services) -> None:
    announcer = RecordingAnnouncer()
    flow = TurnFlow(services, announcer)
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    take = await _take(services, game)
    result = await flow.act(game.id, player.user_id, take, game.version, locale="en")
    assert result.turn_ended and result.version == 2  # the take and the automatic end of turn
    assert announcer.turns == [result]
    assert [type(e) for e in result.turn_events] == [type(result.turn_events[0])]
    assert isinstance(result.end_events[0], TurnEnded)
    assert (await services.lobby.game(game.id)).current_seat != player.seat


async def test_without_auto_end_the_turn_waits_and_can_be_undone(services: Services) -> None:
    announcer = RecordingAnnouncer()
    flow = TurnFlow(services, announcer)
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    await services.people.update_preferences(player.user_id, {"auto_end_turn": False})
    result = await flow.act(game.id, player.user_id, await _take(services, game), 0, locale="en")
    assert not result.turn_over and result.own.phase == "confirm" and announcer.turns == []
    undone = await flow.act(game.id, player.user_id, Undo(), result.version, locale="en")
    assert undone.own.phase == "action" and announcer.turns == []
    again = await flow.act(game.id, player.user_id, await _take(services, game), 2, locale="en")
    ended = await flow.act(game.id, player.user_id, EndTurn(), again.version, locale="pt-BR")
    assert ended.turn_ended and announcer.turns == [ended]


async def test_a_refused_move_announces_nothing(services: Services) -> None:
    announcer = RecordingAnnouncer()
    flow = TurnFlow(services, announcer)
    game = await started(services)
    other = next(s for s in game.seats if s.seat != game.current_seat)
    assert other.user_id is not None
    with pytest.raises(NotYourTurn):
        await flow.act(game.id, other.user_id, EndTurn(), 0, locale="en")
    assert announcer.turns == []


async def test_computers_play_after_a_human_until_a_human_is_to_play(
    services: Services,
) -> None:
    announcer = RecordingAnnouncer()
    background = Background()
    flow = TurnFlow(services, announcer, spawn=background)
    game = await started(services, humans=1, computers=2)
    while (await services.lobby.game(game.id)).current_player.is_computer:  # type: ignore[union-attr]  # started: someone plays
        await flow.computer_step(game.id, "en")
    announcer.turns.clear()
    game = await services.lobby.game(game.id)
    result = await flow.act(game.id, HOST, await _take(services, game), game.version, locale="en")
    assert len(background.pending) == 1  # the computers were started, not awaited
    await background.run()
    seats = [r.seat for r in announcer.turns]
    assert seats[0] == result.seat and all(s.is_computer for s in seats[1:]) and len(seats) == 3
    now = await services.lobby.game(game.id)
    assert now.current_player is not None and now.current_player.user_id == HOST


async def test_one_driver_of_computer_players_per_game(services: Services) -> None:
    announcer = RecordingAnnouncer()
    flow = TurnFlow(services, announcer)
    game = await started(services, humans=1, computers=2)
    await asyncio.gather(*(flow.play_computers(game.id, "en") for _ in range(3)))
    versions = [r.version for r in announcer.turns]
    assert versions == sorted(set(versions))  # no turn announced twice, none lost
    now = await services.lobby.game(game.id)
    assert now.current_player is not None and now.current_player.user_id == HOST


async def test_a_stand_in_finishes_a_silent_players_turn(services: Services) -> None:
    announcer = RecordingAnnouncer()
    flow = TurnFlow(services, announcer)
    game = await started(services)
    player = game.current_player
    assert player is not None and player.seat is not None and player.user_id is not None
    result = await flow.play_for(game.id, player.seat, "en")
    assert result is not None and result.turn_ended and announcer.turns == [result]
    log = await services.play.log(game.id)
    assert log.entries and all(e.user_id is None and e.seat == player.seat for e in log.entries)
    assert await flow.play_for(game.id, player.seat, "en") is None  # not their turn any more


async def test_skip_ends_the_turn_and_says_so(services: Services) -> None:
    announcer = RecordingAnnouncer()
    flow = TurnFlow(services, announcer)
    game = await started(services)
    player = game.current_player
    assert player is not None and player.seat is not None
    result = await flow.skip(game.id, player.seat, "en")
    assert isinstance(result.action, Skip) and any(isinstance(e, Skipped) for e in result.events)
    assert announcer.turns == [result]


async def test_the_log_walk_drops_undone_steps(services: Services) -> None:
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    await services.people.update_preferences(player.user_id, {"auto_end_turn": False})
    flow = TurnFlow(services, RecordingAnnouncer())
    takes = [
        a for a in (await state(services, game.id)).legal_actions() if isinstance(a, TakeMoney)
    ]
    first, second = takes[0], takes[-1]
    await flow.act(game.id, player.user_id, first, 0, locale="en")
    await flow.act(game.id, player.user_id, Undo(), 1, locale="en")
    await flow.act(game.id, player.user_id, second, 2, locale="en")
    await flow.act(game.id, player.user_id, EndTurn(), 3, locale="en")
    turns = (await services.play.log(game.id)).turns()
    assert len(turns) == 1 and turns[0].seat == player.seat
    assert [e.cards for e in turns[0].steps] == [second.cards]  # type: ignore[union-attr]  # a MoneyTaken
    assert isinstance(turns[0].end[0], TurnEnded)


async def test_per_game_locks_do_not_pile_up(services: Services) -> None:
    """A bot runs for weeks: the lock of a game nobody is driving any more is let go."""
    flow = TurnFlow(services, RecordingAnnouncer())
    games = [await started(services, humans=1, computers=1, channel=c) for c in range(1, 21)]

    def locks() -> int:
        gc.collect()
        return sum(isinstance(o, asyncio.Lock) for o in gc.get_objects())

    before = locks()
    for game in games:
        await flow.play_computers(game.id, "en")
    assert locks() <= before + 1


async def test_a_turn_left_waiting_for_an_automatic_end_is_ended_on_resume(
    services: Services,
) -> None:
    """A stop between a move and its automatic end of turn leaves the turn waiting for a
    confirmation the player never wants to give: resuming ends it."""
    announcer = RecordingAnnouncer()
    flow = TurnFlow(services, announcer)
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    assert await flow.finish_automatic_turn(game.id, "en") is None  # nothing to finish
    moved = await services.play.act(game.id, player.user_id, await _take(services, game), 0)
    assert moved.own.phase == "confirm"  # ...and then the process stopped
    ended = await flow.finish_automatic_turn(game.id, "en")
    assert ended is not None and ended.turn_ended and announcer.turns == [ended]
    other = (await services.lobby.game(game.id)).current_player
    assert other is not None and other.user_id is not None
    await services.people.update_preferences(other.user_id, {"auto_end_turn": False})
    await services.play.act(
        game.id, other.user_id, await _take(services, await services.lobby.game(game.id)), 2
    )
    assert await flow.finish_automatic_turn(game.id, "en") is None  # they want to confirm


class FlakyAnnouncer(RecordingAnnouncer):
    """Refuses the first `failures` announcements, as a channel without permission would."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    async def turn_over(self, result: ActResult, telling: Telling, locale: str) -> None:
        if self.failures:
            self.failures -= 1
            raise RuntimeError("403 Missing Permissions")
        await super().turn_over(result, telling, locale)


async def _announcements(services: Services, game_id: int) -> list[TimerRow]:
    return [t for t in await services.schedule.timers_of(game_id) if t.kind == "announce"]


async def test_a_told_turn_leaves_nothing_to_announce(services: Services) -> None:
    flow = TurnFlow(services, RecordingAnnouncer())
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    await flow.act(game.id, player.user_id, await _take(services, game), 0, locale="en")
    assert await _announcements(services, game.id) == []


async def test_a_refused_announcement_is_kept_and_retried_with_back_off(
    services: Services, clock
) -> None:
    announcer = FlakyAnnouncer(failures=2)
    flow = TurnFlow(services, announcer)
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    result = await flow.act(game.id, player.user_id, await _take(services, game), 0, locale="en")
    assert result.turn_ended and announcer.turns == []  # saved, not told
    [pending] = await _announcements(services, game.id)
    assert pending.version == result.version and pending.due_at == clock.now() + ANNOUNCE_GRACE
    clock.advance(ANNOUNCE_GRACE)
    [due] = await services.schedule.due_timers()
    assert await services.schedule.delete_timer(due.id)
    await flow.deliver(due)  # refused again: tried later, waiting longer
    [again] = await _announcements(services, game.id)
    assert again.due_at - clock.now() == 2 * ANNOUNCE_GRACE and again.version == result.version
    clock.advance(2 * ANNOUNCE_GRACE)
    [due] = await services.schedule.due_timers()
    assert await services.schedule.delete_timer(due.id)
    await flow.deliver(due)
    [told] = announcer.turns
    assert told.version == result.version and told.turn_events == result.turn_events
    assert told.events == result.events and told.seat == result.seat
    assert await _announcements(services, game.id) == []


class SlowForHardLevels(workers.Workers):
    """Workers on a machine too loaded for anything but a cheap decision in time: a `hard`
    computer player's decision is given up on (`Busy`), an `easy` one goes through."""

    def __init__(self) -> None:
        super().__init__(0)
        self.levels: list[str] = []

    async def run(self, metric: Any, fn: Any, /, *args: Any, **kw: Any) -> Any:
        if fn is choose:
            self.levels.append(args[0])
            if args[0] != "easy":
                raise Busy()
        return await super().run(metric, fn, *args, **kw)


async def test_a_computer_too_slow_for_its_level_still_plays_after_a_few_tries(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers never finish a hard decision (a machine overloaded for good): after
    `CHEAPER_AFTER` failures in a row the easy level decides, and the game goes on, however
    the tries come (its retry timer, or the sweep starting it again from 0)."""
    slow = SlowForHardLevels()
    monkeypatch.setattr(workers, "_current", slow)
    announcer = RecordingAnnouncer()
    flow = TurnFlow(services, announcer)
    game = await lobby(services, humans=1, computers=0)
    game = await services.lobby.add_computer(game.id, HOST, level="hard")
    game = (await services.lobby.start(game.id, HOST)).game
    if game.current_player is not None and not game.current_player.is_computer:
        await flow.act(game.id, HOST, await _take(services, game), game.version, locale="en")
        game = await services.lobby.game(game.id)
        while game.current_player is not None and game.current_player.user_id == HOST:
            await flow.act(game.id, HOST, EndTurn(), game.version, locale="en")
            game = await services.lobby.game(game.id)
    assert game.current_player is not None and game.current_player.is_computer
    before = game.version
    for _ in range(CHEAPER_AFTER):  # each start fails: the sweep's (attempt 0) among them
        await flow.play_computers(game.id, "en")
        assert (await services.lobby.game(game.id)).version == before
    assert slow.levels == ["hard"] * CHEAPER_AFTER
    await flow.play_computers(game.id, "en")  # the next try: easy decides, the game goes on
    now = await services.lobby.game(game.id)
    assert now.current_player is not None and now.current_player.user_id == HOST
    assert slow.levels[CHEAPER_AFTER] == "easy" and now.version > before
    # once it moved, its own level decides again at its next turn
    assert flow._computer_failures == {}
