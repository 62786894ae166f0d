"""Reminder settings players type are read or refused with a ValueError, never a crash:
digits Python cannot read, options of the wrong JSON type, vacations near the year 9999."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.text.settings import parse_quiet_hours

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
        parse_quiet_hours(value)  # type: ignore[arg-type]  # what a forged option can carry


@given(st.text(max_size=30))
def test_quiet_hours_are_read_or_refused_with_a_value_error(text: str) -> None:
    try:
        hours = parse_quiet_hours(text)
    except ValueError:
        return
    assert hours is None or all(0 <= m < 24 * 60 for m in hours)
