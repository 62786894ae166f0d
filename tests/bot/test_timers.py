"""The durable timer dispatcher and the reminder timing rules, without Discord.

The dispatcher runs on a real SQLite file and a manual clock: time moves only when a test moves
it, and `run_due()` / `wake()` replace sleeping for hours.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from service_helpers import add_timer

from bot.core.errors import (
    AlreadyVoted,
    BadSetting,
    Busy,
    IllegalMove,
    InvalidRequest,
    NoGameHere,
    NotSilent,
    StorageFull,
)
from bot.core.preferences import Preferences
from bot.core.records import DeadlineRules, TimerRow
from bot.core.services import Services
from bot.core.store import Store
from bot.core.typed import parse_quiet_hours, parse_vacation_end
from bot.text.present import since_last_turn
from bot.turns.policy import (
    deadline_at,
    deliverable,
    first_reminder_at,
    next_reminder_at,
    quiet_until,
)
from bot.turns.timers import TimerDispatcher, retry_delay
from engine import Skip, TakeMoney

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)  # 18:00 in Tokyo


async def running_game(
    services: Services, humans: int = 2, rules: DeadlineRules | None = None
) -> int:
    game = await services.lobby.create_game(
        channel_id=500, host_id=1, host_name="Ana", guild_id=9, deadline_rules=rules
    )
    for user in range(2, humans + 1):
        await services.lobby.join(game.id, user, f"P{user}")
    await services.lobby.start(game.id, 1)
    return game.id


async def take_money_turn(services: Services, game_id: int, user_id: int) -> None:
    view = await services.play.view(game_id, user_id)
    take = next(a for a in view.view.legal if isinstance(a, TakeMoney))
    done = await services.play.act(game_id, user_id, take, view.game.version)
    if not done.turn_ended:
        await services.play.end_turn(game_id, user_id, done.version)


# --- timing rules -------------------------------------------------------------------------------


def test_quiet_hours_over_midnight_in_the_users_time_zone() -> None:
    tokyo = Preferences(1, quiet_hours=(22 * 60, 7 * 60), timezone="Asia/Tokyo")
    # 14:00 UTC is 23:00 in Tokyo: quiet until 07:00 Tokyo = 22:00 UTC the same day
    assert quiet_until(T0.replace(hour=14), tokyo) == T0.replace(hour=22)
    # 20:00 UTC is 05:00 Tokyo the next day: quiet until 22:00 UTC
    assert quiet_until(T0.replace(hour=20), tokyo) == T0.replace(hour=22)
    assert quiet_until(T0.replace(hour=11), tokyo) is None  # 20:00 Tokyo
    assert quiet_until(T0.replace(hour=22), tokyo) is None  # the end is not quiet any more
    daytime = Preferences(1, quiet_hours=(9 * 60, 17 * 60 + 30))
    assert quiet_until(T0, daytime) == T0.replace(hour=17, minute=30)
    assert quiet_until(T0, Preferences(1)) is None


def test_reminders_skip_quiet_hours_and_vacations() -> None:
    prefs = Preferences(
        1,
        first_reminder=2 * 3600,
        repeat=3 * 3600,
        quiet_hours=(1320, 420),
        timezone="Asia/Tokyo",
    )
    assert first_reminder_at(T0, prefs) == T0 + timedelta(hours=2)
    assert next_reminder_at(T0 + timedelta(hours=2), prefs) == T0.replace(hour=22)
    default = Preferences(1)
    assert first_reminder_at(T0, default) == T0 + timedelta(hours=12)
    assert next_reminder_at(T0, default) == T0 + timedelta(hours=24)
    away = Preferences(1, vacation_until=T0 + timedelta(days=3))
    assert deliverable(T0 + timedelta(hours=12), away) == T0 + timedelta(days=3)


def test_a_vacation_pauses_the_deadline_only_if_the_game_says_so() -> None:
    away = Preferences(1, vacation_until=T0 + timedelta(days=2))
    rules = DeadlineRules(turn_deadline_s=86400)
    assert deadline_at(T0, rules, Preferences(1)) == T0 + timedelta(days=1)
    assert deadline_at(T0, rules, away) == T0 + timedelta(days=3)
    running = DeadlineRules(turn_deadline_s=86400, vacation_policy="continue")
    assert deadline_at(T0, running, away) == T0 + timedelta(days=1)
    assert deadline_at(T0, DeadlineRules(), away) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [("22-7", (1320, 420)), ("22:30-07:15", (1350, 435)), (" 9 - 17 ", (540, 1020)), ("off", None)],
)
def test_quiet_hours_are_read_from_what_people_type(text, expected) -> None:
    assert parse_quiet_hours(text) == expected


@pytest.mark.parametrize("text", ["22", "25-7", "7-7", "evening", "22:99-7"])
def test_unreadable_quiet_hours_are_refused(text) -> None:
    with pytest.raises(ValueError):
        parse_quiet_hours(text)


def test_a_vacation_lasts_to_the_end_of_its_day_in_the_users_zone() -> None:
    tokyo = Preferences(1, timezone="Asia/Tokyo")
    now = datetime(2024, 6, 1, tzinfo=UTC)
    end = parse_vacation_end("2024-06-10", tokyo, now=now)
    assert end == datetime(2024, 6, 10, 15, tzinfo=UTC)
    assert parse_vacation_end("off", tokyo, now=now) is None
    with pytest.raises(ValueError):
        parse_vacation_end("next week", tokyo, now=now)


# --- the dispatcher -----------------------------------------------------------------------------


async def test_each_due_timer_fires_once_in_due_order(services, clock) -> None:
    game_id = await running_game(services)
    fired: list[TimerRow] = []

    async def handle(timer: TimerRow) -> None:
        fired.append(timer)

    dispatcher = TimerDispatcher(services, {"reminder": handle, "deadline": handle})
    late = await add_timer(services, game_id, "deadline", clock.now() + timedelta(hours=5), seat=0)
    soon = await add_timer(services, game_id, "reminder", clock.now() + timedelta(hours=1), seat=0)
    assert await dispatcher.run_due() == 0
    clock.advance(timedelta(hours=1))
    assert await dispatcher.run_due() == 1
    clock.advance(timedelta(hours=10))
    assert await dispatcher.run_due() == 1
    assert await dispatcher.run_due() == 0
    assert [t.id for t in fired] == [soon, late]
    assert await services.schedule.next_timer_due() is None


async def test_a_failing_timer_does_not_stop_the_others(services, clock) -> None:
    game_id = await running_game(services)
    seen: list[str] = []

    async def handle(timer: TimerRow) -> None:
        seen.append(timer.kind)
        if timer.kind == "reminder":
            raise RuntimeError("Discord is down")

    await add_timer(services, game_id, "reminder", clock.now(), seat=0)
    await add_timer(services, game_id, "deadline", clock.now(), seat=0)
    assert await TimerDispatcher(services, {"reminder": handle, "deadline": handle}).run_due() == 2
    assert seen == ["reminder", "deadline"]


async def test_a_failing_timer_is_tried_again_later_with_back_off_not_lost(services, clock) -> None:
    """A handler that raises (a worker pool down, a full disk) leaves its timer due again,
    five seconds later, then ten: a deadline or a held turn happens late, never not at all."""
    game_id = await running_game(services)
    tries: list[int] = []

    async def handle(timer: TimerRow) -> None:
        tries.append(timer.attempts)
        if len(tries) < 3:
            raise Busy()

    dispatcher = TimerDispatcher(services, {"deadline": handle})
    await add_timer(services, game_id, "deadline", clock.now(), seat=0)
    assert await dispatcher.run_due() == 1
    (again,) = await services.schedule.timers_of(game_id)
    assert (again.attempts, again.due_at) == (1, clock.now() + timedelta(seconds=5))
    assert await dispatcher.run_due() == 0  # not before its time
    clock.advance(timedelta(seconds=5))
    assert await dispatcher.run_due() == 1
    (again,) = await services.schedule.timers_of(game_id)
    assert (again.attempts, again.due_at) == (2, clock.now() + timedelta(seconds=10))
    clock.advance(timedelta(seconds=10))
    assert await dispatcher.run_due() == 1
    assert tries == [0, 1, 2] and await services.schedule.timers_of(game_id) == []


async def test_a_cancellation_met_by_a_handler_does_not_stop_the_dispatcher(
    services, clock
) -> None:
    """A handler awaits something that someone else cancelled (a job dropped by a worker pool
    being replaced): its timer is tried again later, and the dispatcher's loop goes on firing
    the others, as for any failure. Only the dispatcher's own stop ends it."""
    game_id = await running_game(services)
    fired: list[str] = []
    later = asyncio.Event()

    async def dropped(timer: TimerRow) -> None:
        fired.append(timer.kind)
        if timer.kind == "deadline":
            raise asyncio.CancelledError()  # not the dispatcher's own cancellation
        later.set()

    dispatcher = TimerDispatcher(services, {"deadline": dropped, "reminder": dropped})
    await add_timer(services, game_id, "deadline", clock.now(), seat=0)
    dispatcher.start()
    try:
        await dispatcher.started.wait()
        while not fired:
            await asyncio.sleep(0.01)
        (again,) = await services.schedule.timers_of(game_id)
        assert again.kind == "deadline" and again.attempts == 1  # due again, not lost
        await add_timer(services, game_id, "reminder", clock.now(), seat=0)
        dispatcher.wake()
        await asyncio.wait_for(later.wait(), 5)  # the loop is alive
    finally:
        await dispatcher.stop()
    assert dispatcher._task is None


def test_retries_wait_longer_each_time_up_to_five_minutes() -> None:
    waits = [retry_delay(n).total_seconds() for n in range(9)]
    assert waits == [5, 10, 20, 40, 80, 160, 300, 300, 300]
    assert retry_delay(10_000) == timedelta(minutes=5)  # no overflow, however many


async def test_a_run_that_fails_is_tried_again_in_seconds(services, clock) -> None:
    """Claiming timers is a write: while the disk is full every run fails. Once there is room
    again, a due timer fires within seconds, not after the longest sleep (five minutes)."""
    game_id = await running_game(services)
    fired = asyncio.Event()
    failures = 0

    async def handle(timer: TimerRow) -> None:
        fired.set()

    real_claim = services.schedule.claim_timers

    async def full_disk(*args, **kwargs):
        nonlocal failures
        failures += 1
        raise StorageFull()

    dispatcher = TimerDispatcher(services, {"end_turn": handle})  # max_sleep: five minutes
    await add_timer(services, game_id, "end_turn", clock.now() + timedelta(seconds=2), seat=0)
    services.schedule.claim_timers = full_disk  # type: ignore[method-assign]
    dispatcher.start()
    try:
        await dispatcher.started.wait()
        clock.advance(timedelta(seconds=2))
        dispatcher.wake()
        while failures < 2:  # it keeps trying while the disk is full
            await asyncio.sleep(0.05)
        services.schedule.claim_timers = real_claim  # type: ignore[method-assign]
        await asyncio.wait_for(fired.wait(), 5)
    finally:
        services.schedule.claim_timers = real_claim  # type: ignore[method-assign]
        await dispatcher.stop()


async def test_the_loop_sleeps_until_woken_by_a_sooner_timer(services, clock) -> None:
    game_id = await running_game(services)
    got = asyncio.Event()

    async def handle(timer: TimerRow) -> None:
        got.set()

    dispatcher = TimerDispatcher(services, {"reminder": handle, "deadline": handle}, max_sleep=3600)
    await add_timer(services, game_id, "reminder", clock.now() + timedelta(days=1), seat=0)
    dispatcher.start()
    try:
        await dispatcher.started.wait()
        await asyncio.sleep(0.05)
        assert not got.is_set()  # a day away: asleep
        await add_timer(services, game_id, "deadline", clock.now(), seat=0)
        dispatcher.wake()
        await asyncio.wait_for(got.wait(), 2)
        assert dispatcher.fired == 1
    finally:
        await dispatcher.stop()


async def test_two_processes_never_fire_the_same_timer(db_path, clock) -> None:
    first = Services.build(await Store.open(db_path), clock, seed_source=lambda: 7)
    second = Services.build(await Store.open(db_path), clock, seed_source=lambda: 7)
    try:
        game_id = await running_game(first)
        reminders = [("reminder", clock.now() + timedelta(minutes=m), None) for m in range(12)]
        await first.schedule.set_turn_timers(game_id, reminders)  # type: ignore[arg-type]
        clock.advance(timedelta(hours=1))
        fired: list[int] = []

        async def handle(timer: TimerRow) -> None:
            fired.append(timer.id)
            await asyncio.sleep(0)

        counts = await asyncio.gather(
            TimerDispatcher(first, {"reminder": handle}).run_due(),
            TimerDispatcher(second, {"reminder": handle}).run_due(),
        )
        assert sum(counts) == 12 and sorted(fired) == sorted(set(fired))
    finally:
        await first.store.close()
        await second.store.close()


# --- the service's part -------------------------------------------------------------------------


async def test_turn_timers_are_replaced_and_dropped_when_the_game_ends(services, clock) -> None:
    game_id = await running_game(services)
    due = clock.now() + timedelta(hours=12)
    await services.schedule.set_turn_timers(game_id, [("reminder", due, 0), ("deadline", due, 0)])
    await services.schedule.set_turn_timers(game_id, [("reminder", due + timedelta(hours=1), 0)])
    assert [(t.kind, t.due_at) for t in await services.schedule.timers_of(game_id)] == [
        ("reminder", due + timedelta(hours=1))
    ]
    await services.lobby.abandon(game_id, 1)
    assert await services.schedule.timers_of(game_id) == []
    assert await services.schedule.set_turn_timers(game_id, [("reminder", due, 0)]) == []


async def test_missed_deadlines_count_in_a_row_until_the_player_moves(services) -> None:
    game_id = await running_game(services)
    game = await services.lobby.game(game_id)
    seat = game.current_seat
    assert seat is not None
    user = game.at_seat(seat).user_id
    assert await services.play.record_missed_deadline(game_id, seat) == 1
    result = await services.play.act_for_timeout(game_id, seat, Skip(), game.version)
    assert result.turn_ended
    await take_money_turn(services, game_id, result.game.current_player.user_id)
    assert await services.play.record_missed_deadline(game_id, seat) == 2
    # the player moves themself: the next miss starts a new streak
    await take_money_turn(services, game_id, user)
    assert await services.play.record_missed_deadline(game_id, seat) == 1


async def test_players_cannot_skip_and_timeouts_are_not_logged_as_theirs(services) -> None:
    game_id = await running_game(services)
    game = await services.lobby.game(game_id)
    player = game.current_player
    with pytest.raises(IllegalMove):
        await services.play.act(game_id, player.user_id, Skip(), game.version)
    await services.play.act_for_timeout(game_id, player.seat, Skip(), game.version)
    assert await services.schedule.last_action_at(game_id, player.user_id) is None


async def test_deadline_rules_are_checked_and_stored_with_the_game(services) -> None:
    with pytest.raises(InvalidRequest, match="at least one hour"):
        await services.lobby.create_game(
            channel_id=1, host_id=1, host_name="Ana", deadline_rules=DeadlineRules(60)
        )
    with pytest.raises(InvalidRequest, match="policy"):
        await services.lobby.create_game(
            channel_id=1,
            host_id=1,
            host_name="Ana",
            deadline_rules=DeadlineRules(86400, "nap"),  # type: ignore[arg-type]
        )
    plain = await services.lobby.create_game(channel_id=1, host_id=1, host_name="Ana")
    assert await services.schedule.deadline_rules(plain.id) == DeadlineRules()
    rules = DeadlineRules(86400, "skip", None, "continue")
    game = await services.lobby.create_game(
        channel_id=2, host_id=1, host_name="Ana", deadline_rules=rules
    )
    assert await services.schedule.deadline_rules(game.id) == rules
    assert game.turn_deadline_s == 86400


async def test_the_stand_in_level_is_a_rule_the_host_chooses(services) -> None:
    assert DeadlineRules().stand_in == "normal"
    for level in ("random", "grandmaster", ""):  # a stand-in plays to win, at a known level
        with pytest.raises(InvalidRequest, match="easy, normal, hard or expert") as refused:
            await services.lobby.create_game(
                channel_id=3,
                host_id=1,
                host_name="Ana",
                deadline_rules=DeadlineRules(86400, stand_in=level),
            )
        assert refused.value.key == "error.invalid_request.stand_in"
    with pytest.raises(NoGameHere):  # nothing was written
        await services.lobby.game_in_channel(3)
    rules = DeadlineRules(86400, "skip", 2, stand_in="expert")
    game = await services.lobby.create_game(
        channel_id=3, host_id=1, host_name="Ana", deadline_rules=rules
    )
    assert (await services.schedule.deadline_rules(game.id)).stand_in == "expert"


async def test_a_majority_of_human_players_decides_a_vote(services) -> None:
    game_id = await running_game(services, humans=4)
    target = (await services.lobby.game(game_id)).at_seat(3).user_id
    first_voter, second_voter = [u for u in (1, 2, 3, 4) if u != target][:2]
    await services.play.record_missed_deadline(game_id, 3)  # the evidence a hand-over needs
    first = await services.play.vote(game_id, first_voter, "hand_over", 3)
    assert (first.votes, first.needed, first.passed) == (1, 2, False)  # 3 others decide
    with pytest.raises(AlreadyVoted):
        await services.play.vote(game_id, first_voter, "hand_over", 3)
    with pytest.raises(InvalidRequest, match="own seat"):
        await services.play.vote(game_id, target, "hand_over", 3)
    done = await services.play.vote(game_id, second_voter, "hand_over", 3)
    assert done.passed and done.game.at_seat(3).is_computer
    assert (await services.play.vote(game_id, first_voter, "abandon")).needed == 2  # 3 humans left
    assert (await services.lobby.game(game_id)).status == "active"
    assert (await services.play.vote(game_id, second_voter, "abandon")).passed
    assert (await services.lobby.game(game_id)).status == "abandoned"


async def test_a_seat_voted_over_goes_to_the_games_stand_in_level(services) -> None:
    rules = DeadlineRules(86400, stand_in="expert")
    game_id = await running_game(services, humans=3, rules=rules)
    await services.play.record_missed_deadline(game_id, 2)
    target = (await services.lobby.game(game_id)).at_seat(2)
    voters = [u for u in (1, 2, 3) if u != target.user_id]
    await services.play.vote(game_id, voters[0], "hand_over", 2)
    done = await services.play.vote(game_id, voters[1], "hand_over", 2)
    seat = done.game.at_seat(2)
    assert done.passed and seat.is_computer and seat.level == "expert"


async def test_a_hand_over_needs_a_silent_player_not_only_votes(services, clock) -> None:
    """In a two-person game one vote is a majority: without evidence of silence either player
    could replace the other at will."""
    game_id = await running_game(services, humans=2)
    game = await services.lobby.game(game_id)
    mover = game.current_player
    other = next(s for s in game.seats if s is not mover)
    assert mover is not None and mover.user_id is not None and other.user_id is not None
    with pytest.raises(NotSilent):  # it is not even their turn
        await services.play.vote(game_id, mover.user_id, "hand_over", other.seat)
    with pytest.raises(NotSilent):  # their turn started a moment ago
        await services.play.vote(game_id, other.user_id, "hand_over", mover.seat)
    await services.play.record_missed_deadline(
        game_id, mover.seat
    )  # a missed deadline is evidence...
    take = (await services.play.seat_view(game_id, mover.seat)).view.legal[0]
    await services.play.act(game_id, mover.user_id, take, game.version)  # ...until they move again
    with pytest.raises(NotSilent):
        await services.play.vote(game_id, other.user_id, "hand_over", mover.seat)
    assert (await services.lobby.game(game_id)).at_seat(mover.seat).user_id == mover.user_id
    game = await services.lobby.game(game_id)
    waiting = game.current_player
    assert waiting is not None and waiting.user_id is not None
    voter = next(s for s in game.seats if s.user_id != waiting.user_id)
    clock.advance(timedelta(hours=47))
    with pytest.raises(NotSilent):
        await services.play.vote(game_id, voter.user_id, "hand_over", waiting.seat)
    clock.advance(timedelta(hours=1))  # their turn has waited 48 hours
    outcome = await services.play.vote(game_id, voter.user_id, "hand_over", waiting.seat)
    assert outcome.passed and outcome.game.at_seat(waiting.seat).is_computer


async def test_notify_settings_are_validated_and_changed_one_by_one(services) -> None:
    people = services.people
    with pytest.raises(BadSetting, match="time zone"):
        await people.update_preferences(1, {"timezone": "Mars/Olympus"})
    with pytest.raises(InvalidRequest, match="1 hour"):
        await people.update_preferences(1, {"first_reminder": 0})
    assert await people.preferences(1) == Preferences(1)
    await people.update_preferences(1, {"quiet_hours": "22-7", "timezone": "Asia/Tokyo"})
    saved = await people.update_preferences(1, {"repeat": 2})
    assert (saved.quiet_hours, saved.timezone) == ((1320, 420), "Asia/Tokyo")
    assert saved.repeat == 7200 and await people.preferences(1) == saved
    cleared = await people.update_preferences(1, {"quiet_hours": "off"})
    assert cleared.quiet_hours is None and cleared.timezone == "Asia/Tokyo"


async def test_the_dm_summary_tells_what_happened_since_my_last_turn(services) -> None:
    game_id = await running_game(services, humans=3)
    game = await services.lobby.game(game_id)
    me = game.current_player
    for _ in range(3):  # me, then the two others take money
        current = (await services.lobby.game(game_id)).current_player
        await take_money_turn(services, game_id, current.user_id)
    names = [s.name for s in game.by_seat]
    lines = since_last_turn("en", names, await services.play.log(game_id), me.seat)
    others = [n for n in names if n != me.name]
    assert all(any(n in line and "took" in line for line in lines) for n in others)
    assert not any(line.startswith(me.name) for line in lines)
