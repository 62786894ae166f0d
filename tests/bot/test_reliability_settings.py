"""Reminder settings players type are read or refused with a ValueError, never a crash:
digits Python cannot read, options of the wrong JSON type, vacations near the year 9999."""

from __future__ import annotations

import contextlib
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.preferences import Preferences
from bot.core.typed import (
    MAX_VACATION,
    VacationTooLong,
    parse_quiet_hours,
    parse_vacation_end,
)

NOW = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)  # 18:00 in Tokyo
TOKYO = Preferences(1, timezone="Asia/Tokyo")
NOT_TEXT = [5, 4.5, None, ["CR5"], {"a": 1}, True, b"22-7"]


# --- quiet hours --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "\uff12\uff12-\uff17",  # fullwidth 22-7
        "\u0662\u0662-\u0667",  # Arabic-Indic 22-7
        "²²-7",
        "22-7" + "0" * 4400,
        "9" * 4400 + "-7",
        "x" * 6000,
    ],
)
def test_quiet_hours_accept_only_ascii_digits(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_quiet_hours(text)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("value", NOT_TEXT)
def test_quiet_hours_of_the_wrong_type_are_refused(value: object) -> None:
    with pytest.raises(ValueError):
        parse_quiet_hours(value)


@given(st.text(max_size=30))
def test_quiet_hours_are_read_or_refused_with_a_value_error(text: str) -> None:
    try:
        hours = parse_quiet_hours(text)
    except ValueError:
        return
    assert hours is None or all(0 <= m < 24 * 60 for m in hours)


# --- vacations ----------------------------------------------------------------------------------


def test_a_vacation_ends_at_most_a_year_ahead() -> None:
    assert timedelta(days=365) < MAX_VACATION <= timedelta(days=366)
    today = date(2024, 6, 3)  # in Tokyo too (18:00)
    last = today + MAX_VACATION
    end = parse_vacation_end(last.isoformat(), TOKYO, now=NOW)
    assert end == datetime.combine(last, datetime.min.time(), tzinfo=TOKYO.zone).astimezone(
        UTC
    ) + timedelta(days=1)
    for too_far in (last + timedelta(days=1), date(9999, 12, 30), date(9999, 12, 31)):
        with pytest.raises(VacationTooLong):  # a ValueError the adapter can tell apart
            parse_vacation_end(too_far.isoformat(), TOKYO, now=NOW)


def test_the_year_is_counted_from_the_users_own_today() -> None:
    late = datetime(2024, 6, 3, 20, 0, tzinfo=UTC)  # already 4 June in Tokyo, 3 June in UTC
    last_tokyo = date(2024, 6, 4) + MAX_VACATION
    assert parse_vacation_end(last_tokyo.isoformat(), TOKYO, now=late) is not None
    with pytest.raises(ValueError):
        parse_vacation_end(last_tokyo.isoformat(), Preferences(1), now=late)


def test_a_past_vacation_is_the_callers_business() -> None:
    assert parse_vacation_end("2024-01-01", TOKYO, now=NOW) == datetime(2024, 1, 1, 15, tzinfo=UTC)
    assert parse_vacation_end("0001-01-01", Preferences(1), now=NOW) == datetime(
        1, 1, 2, tzinfo=UTC
    )


@pytest.mark.parametrize(
    "text",
    [
        "\uff12\uff10\uff12\uff14-\uff10\uff16-\uff13\uff10",
        "2024-06-30" + "0" * 4400,
        "x" * 6000,
        "2024-06-31",
        "next week",
        "",
    ],
)
def test_unreadable_vacation_dates_are_refused(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_vacation_end(text, TOKYO, now=NOW)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("value", NOT_TEXT)
def test_vacation_dates_of_the_wrong_type_are_refused(value: object) -> None:
    with pytest.raises(ValueError):
        parse_vacation_end(value, TOKYO, now=NOW)


@given(st.text(max_size=20), st.sampled_from([None, "Asia/Tokyo", "Pacific/Kiritimati"]))
def test_vacation_dates_are_read_or_refused_with_a_value_error(text: str, zone: str | None) -> None:
    with contextlib.suppress(ValueError):
        parse_vacation_end(text, Preferences(1, timezone=zone), now=NOW)
