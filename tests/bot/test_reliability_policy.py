"""The timing rules never overflow: a vacation stored near the year 9999 (before the parser had
a limit), or any other absurd stored value, gives a time, not an OverflowError."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.preferences import Preferences
from bot.core.records import DeadlineRules, VacationPolicy
from bot.core.typed import MAX_VACATION
from bot.turns.policy import (
    LATEST,
    LONGEST_VACATION,
    deadline_at,
    deliverable,
    first_reminder_at,
    next_reminder_at,
    quiet_until,
)

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)  # 18:00 in Tokyo
DAY = timedelta(days=1)
END_OF_TIME = datetime.max.replace(tzinfo=UTC)
STORED_9999 = datetime(9999, 12, 30, 15, tzinfo=UTC)  # what "9999-12-30" in Tokyo saved
PAUSING = DeadlineRules(turn_deadline_s=86400, vacation_policy="pause")


def test_a_vacation_near_9999_pauses_the_deadline_for_a_bounded_time() -> None:
    away = Preferences(1, timezone="Asia/Tokyo", vacation_until=STORED_9999)
    assert deadline_at(T0, PAUSING, away) == T0 + LONGEST_VACATION + DAY
    at_the_end = Preferences(1, vacation_until=END_OF_TIME)
    assert deadline_at(T0, PAUSING, at_the_end) == T0 + LONGEST_VACATION + DAY


def test_a_vacation_near_9999_delays_reminders_for_a_bounded_time() -> None:
    away = Preferences(
        1, timezone="Asia/Tokyo", quiet_hours=(22 * 60, 7 * 60), vacation_until=END_OF_TIME
    )
    for when in (deliverable(T0, away), first_reminder_at(T0, away), next_reminder_at(T0, away)):
        assert T0 + LONGEST_VACATION <= when <= T0 + LONGEST_VACATION + 2 * DAY


def test_a_vacation_the_parser_allows_is_never_shortened() -> None:
    assert LONGEST_VACATION > MAX_VACATION + 2 * DAY  # the last day, in any time zone
    end = T0 + MAX_VACATION + 2 * DAY
    away = Preferences(1, vacation_until=end)
    assert deliverable(T0, away) == end
    assert deadline_at(T0, PAUSING, away) == end + DAY


def test_quiet_hours_at_the_end_and_start_of_time() -> None:
    quiet = Preferences(1, timezone="Pacific/Kiritimati", quiet_hours=(0, 23 * 60))
    west = Preferences(1, timezone="Pacific/Pago_Pago", quiet_hours=(0, 23 * 60))
    for settings in (quiet, west):
        for when in (END_OF_TIME, END_OF_TIME - DAY, datetime.min.replace(tzinfo=UTC)):
            result = quiet_until(when, settings)
            assert result is None or result.tzinfo is not None
            assert deliverable(when, settings) >= min(when, LATEST)


def test_absurd_spans_stop_at_the_latest_time() -> None:
    huge = Preferences(1, first_reminder=2**62, repeat=2**62)
    assert first_reminder_at(T0, huge) == LATEST
    assert next_reminder_at(T0, huge) == LATEST
    assert deadline_at(T0, DeadlineRules(turn_deadline_s=2**62), Preferences(1)) == LATEST
    assert LATEST.tzinfo is UTC and LATEST < END_OF_TIME


ZONES = st.sampled_from(
    [None, "UTC", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/Sao_Paulo"]
)
MOMENTS = st.datetimes(timezones=st.just(UTC))
SECONDS = st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1))
DAY_MINUTES = st.integers(0, 24 * 60 - 1)


@st.composite
def notify_settings(draw: st.DrawFn) -> Preferences:
    return Preferences(
        1,
        first_reminder=draw(SECONDS),
        repeat=draw(SECONDS),
        quiet_hours=draw(st.one_of(st.none(), st.tuples(DAY_MINUTES, DAY_MINUTES))),
        timezone=draw(ZONES),
        vacation_until=draw(st.one_of(st.none(), MOMENTS)),
    )


@given(MOMENTS, notify_settings(), SECONDS, st.sampled_from(["pause", "continue"]))
def test_no_stored_value_makes_the_timing_rules_overflow(
    when: datetime, settings: Preferences, deadline_s: int | None, vacation: VacationPolicy
) -> None:
    rules = DeadlineRules(turn_deadline_s=deadline_s, vacation_policy=vacation)
    for result in (
        quiet_until(when, settings),
        deliverable(when, settings),
        first_reminder_at(when, settings),
        next_reminder_at(when, settings),
        deadline_at(when, rules, settings),
    ):
        assert result is None or (isinstance(result, datetime) and result.tzinfo is not None)
    assert deliverable(when, settings) >= min(when, LATEST)


@pytest.mark.parametrize("minutes", [(-5, 60), (60, 24 * 60), (3000, 7)])
def test_quiet_hours_out_of_range_are_no_quiet_hours(minutes: tuple[int, int]) -> None:
    start, end = minutes
    settings = Preferences(1, quiet_hours=(start, end))
    assert quiet_until(T0, settings) is None
