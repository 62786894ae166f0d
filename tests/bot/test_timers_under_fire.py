"""Timers under fire: reminders, deadlines (computer, skip, wait, hand-overs), announcements,
votes and vacations racing with moves, on a manual clock, with the real dispatcher, turn flow
and store. Whatever the order, no timer fires twice, no handler fails, every stored game still
replays to its snapshot, and a game never waits on nobody."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.core.clock import ManualClock
from bot.core.errors import ServiceError
from bot.core.plans import PlanReport
from bot.core.records import DeadlineRules, GameInfo, TimerRow
from bot.core.results import ActResult
from bot.core.services import Services
from bot.core.store import Store
from bot.core.verify import verify_database
from bot.turns.deadlines import deadline_passed
from bot.turns.flow import TurnFlow
from bot.turns.ports import Delivery, MessageRef
from bot.turns.reminders import Reminders
from bot.turns.telling import Telling, TurnDm
from bot.turns.timers import TimerDispatcher
from engine import Undo


class Table:
    """Announcer and messenger in one: remembers what it was asked to say."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.turns: list[int] = []
        self.notices: list[str] = []
        self.dms = 0

    async def turn_over(self, result: ActResult, telling: Telling, locale: str) -> None:
        if self.rng.random() < 0.1:
            raise RuntimeError("Discord refused the post")
        self.turns.append(result.version)

    async def notice(
        self, game: GameInfo, locale: str, key: str, *, mention: int | None = None, **params: object
    ) -> None:
        self.notices.append(key)

    async def turn_dm(self, dm: TurnDm, turn_message: MessageRef | None) -> Delivery:
        self.dms += 1
        return self.rng.choice(list(Delivery))

    async def reminder(
        self, user_id: int, locale: str, games: list[tuple[GameInfo, MessageRef | None]]
    ) -> Delivery:
        self.dms += 1
        return self.rng.choice(list(Delivery))

    async def nudge(
        self, game: GameInfo, user_id: int, locale: str, turn_message: MessageRef | None
    ) -> bool:
        return True

    async def plan_report(
        self,
        game: GameInfo,
        user_id: int,
        report: PlanReport,
        locale: str,
        turn_message: MessageRef | None,
    ) -> Delivery:
        return Delivery.SENT

    async def owner_notice(self, owner_id: int, locale: str, server: str, channel: str) -> Delivery:
        return Delivery.SENT


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_timers_racing_with_moves_and_votes(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    clock = ManualClock()
    store = await Store.open(tmp_path / "fire.sqlite3", synchronous="NORMAL")
    services = Services.build(store, clock, seed_source=lambda: rng.randrange(1 << 40))
    table = Table(rng)
    background: list[Coroutine[Any, Any, None]] = []
    reminders = Reminders(services, table, spawn=background.append)
    flow = TurnFlow(services, table, spawn=background.append, reminders=reminders)
    fired: list[int] = []
    failures: list[BaseException] = []

    def watched(handler: Any) -> Any:
        async def run(timer: TimerRow) -> None:
            fired.append(timer.id)
            try:
                await handler(timer)
            except BaseException as exc:  # the dispatcher would only log it
                failures.append(exc)

        return run

    async def deadline(timer: TimerRow) -> None:
        await deadline_passed(flow, timer)

    dispatcher = TimerDispatcher(
        services,
        {
            "reminder": watched(reminders.remind),
            "deadline": watched(deadline),
            "announce": watched(flow.deliver),
        },
    )
    reminders.wake = dispatcher.wake

    async def settle() -> None:
        while background:
            await asyncio.gather(*[background.pop() for _ in range(len(background))])

    games: list[int] = []
    try:
        for channel in range(1, 4):
            rules = DeadlineRules(
                turn_deadline_s=rng.choice([3600, 86400]),
                policy=rng.choice(["computer", "skip", "wait"]),
                missed_limit=rng.choice([None, 1, 2, 3]),
                vacation_policy=rng.choice(["pause", "continue"]),
            )
            game = await services.lobby.create_game(
                channel_id=channel, host_id=10 * channel + 1, host_name="A", deadline_rules=rules
            )
            for user in range(2, rng.choice([3, 4]) + 1):
                await services.lobby.join(game.id, 10 * channel + user, f"P{user}")
            if rng.random() < 0.5:
                await services.lobby.add_computer(game.id, 10 * channel + 1, "random")
            await services.lobby.start(game.id, 10 * channel + 1)
            await flow.game_started(game.id, "en")
            games.append(game.id)
        await settle()
        for _ in range(160):
            game = await services.lobby.game(rng.choice(games))
            player = game.current_player
            roll = rng.random()
            try:
                if roll < 0.45 and player is not None and player.user_id is not None:
                    view = await services.play.view(game.id, player.user_id)
                    legal = [a for a in view.view.legal if not isinstance(a, Undo)]
                    await flow.act(
                        game.id, player.user_id, rng.choice(legal), game.version, locale="en"
                    )
                elif roll < 0.55 and game.status == "active":
                    voter = rng.choice([s for s in game.seats if s.user_id is not None])
                    assert voter.user_id is not None
                    target = rng.choice(game.seats)
                    motion = "abandon" if rng.random() < 0.1 else "hand_over"
                    outcome = await services.play.vote(game.id, voter.user_id, motion, target.seat)
                    if outcome.passed and motion == "hand_over":
                        await flow.seat_handed_over(game.id, "en")
                elif roll < 0.6 and player is not None and player.user_id is not None:
                    away = clock.now() + timedelta(hours=rng.choice([1, 30, 200]))
                    await services.people.update_notify_settings(
                        player.user_id, vacation_until=away
                    )
                    await reminders.schedule_turn(game.id)
                else:
                    clock.advance(timedelta(minutes=rng.choice([1, 30, 300, 1500, 3000])))
                    await dispatcher.run_due()
            except ServiceError:
                pass  # a refused request: someone else moved first, not their turn, not silent
            await settle()
            assert failures == []
            assert len(fired) == len(set(fired))  # no timer fired twice
            for game_id in games:
                now = await services.lobby.game(game_id)
                timers = await services.schedule.timers_of(game_id)
                kinds = [t.kind for t in timers]
                assert kinds.count("reminder") <= 1 and kinds.count("deadline") <= 1
                assert kinds.count("announce") <= 1
                if now.status != "active":
                    assert set(kinds) <= {"announce"}
                    continue
                current = now.current_player
                assert current is not None  # a running game always waits on someone
                if current.is_computer:  # the computers were driven to the end of their turns
                    pytest.fail(f"game {game_id} waits on a computer player")
                for timer in timers:
                    if timer.kind != "announce":
                        assert timer.seat == now.current_seat
        report = verify_database(tmp_path / "fire.sqlite3")
        assert report.ok, report.problems
        assert dispatcher.fired == len(fired) > 0
    finally:
        await store.close()
