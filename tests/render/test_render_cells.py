"""Cell codes: short, unique, stable, and parsed back to the same cell."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from render.cells import (
    CHESS_RADIUS,
    FOUNTAIN_CODE,
    MAX_RADIUS,
    cell_code,
    column_label,
    parse_cell_code,
    row_label,
)


def test_every_cell_within_twelve_has_a_unique_short_chess_code():
    codes = {}
    for x in range(-12, 13):
        for y in range(-12, 13):
            code = cell_code(x, y)
            assert len(code) <= 3
            assert code[0].isalpha() and code[1:].isdigit()
            codes[code] = (x, y)
    assert len(codes) == 25 * 25


def test_codes_stay_unique_and_short_out_to_the_far_ring():
    codes = {cell_code(x, y) for x in range(-MAX_RADIUS, MAX_RADIUS + 1)
             for y in range(-MAX_RADIUS, MAX_RADIUS + 1)}  # fmt: skip
    assert len(codes) == (2 * MAX_RADIUS + 1) ** 2
    assert max(len(c) for c in codes) <= 3


def test_the_scheme_reads_like_a_chess_board_around_the_fountain():
    assert cell_code(0, 0) == FOUNTAIN_CODE == "M13"
    assert cell_code(1, 0) == "N13"  # east is the next letter
    assert cell_code(0, -1) == "M12"  # north is the row above
    assert cell_code(-12, -12) == "A1"
    assert cell_code(12, 12) == "Y25"
    assert column_label(-1) == "L" and row_label(2) == "15"
    assert column_label(CHESS_RADIUS + 1) is None


@given(st.integers(-MAX_RADIUS, MAX_RADIUS), st.integers(-MAX_RADIUS, MAX_RADIUS))
def test_parse_inverts_code_in_any_case(x, y):
    code = cell_code(x, y)
    assert parse_cell_code(code) == (x, y)
    assert parse_cell_code(f"  {code.lower()} ") == (x, y)
    assert cell_code(x, y) == code  # a pure function: the same cell, the same code


def test_cells_too_far_have_no_code():
    with pytest.raises(ValueError):
        cell_code(MAX_RADIUS + 1, 0)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "M",
        "M0",
        "M01",
        "M26",
        "1M",
        "ZZZ",
        "Z1",
        "M13X",
        "\uff2d13",
        "M\u0661\u0663",
        "??",
        "-1",
    ],
)
def test_bad_codes_are_refused_with_a_helpful_message(bad):
    with pytest.raises(ValueError, match="not a cell code"):
        parse_cell_code(bad)
