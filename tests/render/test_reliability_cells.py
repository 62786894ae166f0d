"""A cell code option is read or refused with the one clear ValueError, whatever it carries:
thousands of digits, digits Python cannot read, or a value that is not text at all."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from render import parse_cell_code


def _message(code: object) -> str:
    with pytest.raises(ValueError, match="not a cell code") as caught:
        parse_cell_code(code)
    return str(caught.value)


@pytest.mark.parametrize(
    ("value", "as_text"),
    [(13, "13"), (13.5, "13.5"), (None, "None"), (True, "True"), (["M13"], "['M13']")],
)
def test_an_option_that_is_not_text_is_refused_like_text(value: object, as_text: str) -> None:
    assert _message(value) == _message(as_text)


@pytest.mark.parametrize(
    "code",
    ["M" + "1" * 4000, "9" * 4000, "M" + "9" * 4301, "M²", "M1²", "Z" + "0" * 4000, "M\uff113"],
    ids=lambda code: f"{code[:4]}({len(code)})",
)
def test_digits_python_cannot_read_are_refused(code: str) -> None:
    assert len(_message(code)) < 200


def test_the_echo_pings_no_one() -> None:
    message = _message("@everyone")
    assert "@everyone" not in message and "@\u200beveryone" in message
    assert "`" not in _message("`M13`").replace("\\`", "")
    assert "\n" not in _message("M\n13") and "'M?13'" in _message("M\n13")


@given(st.one_of(st.text(max_size=8), st.integers(), st.none(), st.binary(max_size=4)))
def test_anything_is_a_cell_or_the_clear_error(code: object) -> None:
    try:
        x, y = parse_cell_code(code)
    except ValueError as exc:
        assert "not a cell code" in str(exc)
        return
    assert max(abs(x), abs(y)) <= 21
