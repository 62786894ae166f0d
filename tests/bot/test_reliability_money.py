"""Money codes players type are read or refused with a CodeError, never a crash: digits Python
cannot read, endless digits, options of the wrong JSON type; the refusal echoes safely."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.text.present import CodeError, parse_money

ZWSP = "\u200b"
NOT_TEXT = [5, 4.5, None, ["CR5"], {"a": 1}, True, b"CR5"]


# --- money --------------------------------------------------------------------------------------


def _money_message(code: object) -> str:
    with pytest.raises(CodeError) as caught:
        parse_money(code)
    return str(caught.value)


@pytest.mark.parametrize(
    "code",
    [
        "CR" + "9" * 4301,  # more digits than int() reads
        "CR" + "9" * 5000,
        "CR²",
        "CR\u0665",  # Arabic-Indic five
        "CR\uff15",  # fullwidth five
        "CR0005",
        "CR10",
        "CR0",
        "DU5+CR" + "1" * 4400,
    ],
    ids=lambda code: f"{code[:8]}({len(code)})",
)
def test_money_with_unreadable_digits_is_a_code_error(code: str) -> None:
    message = _money_message(code)
    assert "is not a money card" in message
    assert len(message) < 200


def test_money_of_the_wrong_type_is_a_code_error() -> None:
    expected = _money_message("")
    for value in NOT_TEXT:
        assert _money_message(value) == expected


def test_good_money_still_reads() -> None:
    assert parse_money("CR5+dh2") == [(0, 5), (1, 2)]
    assert parse_money(" du 9 , Dinar 1 ") == [(3, 9), (2, 1)]
    assert parse_money("CR05") == [(0, 5)]


def test_money_errors_echo_what_was_typed() -> None:
    message = _money_message("CR5+" + "@everyone" * 300)
    assert len(message) < 200
    assert "@everyone" not in message and f"@{ZWSP}everyone" in message


@given(st.text(max_size=60))
def test_money_is_read_or_refused_with_a_code_error(code: str) -> None:
    try:
        pairs = parse_money(code)
    except CodeError:
        return
    assert all(0 <= c < 4 and 1 <= v <= 9 for c, v in pairs)
