"""A forged panel value or focus never breaks the panel: `build_panel` answers any text with a
valid panel (the current decision's when the focus does not apply), and `Choice.parse` reads
only the values a panel can carry."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.text.menus import SELECT_MAX, Choice, PanelSpec, build_panel, default_focus
from engine import SeatView, new_game

#: What a focus (and so a menu id in a custom id) may look like.
FOCUS = re.compile(r"[a-z0-9~-]{1,40}")

TARGETED = [
    "build-0",
    "fbuild-0",
    "build-999999999999999999999",
    "build-" + "9" * 4400,
    "swap-999999999999999999999",
    "swap-0",
    "swap-1",
    "place-0",
    "place-999999999999999999999",
    "place-" + "9" * 4400,
    "buy-9",
    "buy-\u0663",
    "buy-0~999999999",
    "main~²",
    "main~\u0663",
    "take~99999",
    "take~" + "9" * 4400,
    "take~-1",
    "remove~²",
    "build~5",
    "redesign~",
    "~",
    "",
    "-",
    "main~1~2",
    "place-\u0661\u0662",
    "build-\uff11\uff12",
]

BASES = ["main", "take", "buy", "redesign", "remove", "build", "swap", "place", "x"]


@st.composite
def foci(draw: st.DrawFn) -> str:
    base = draw(st.sampled_from(BASES))
    number = draw(
        st.one_of(
            st.integers(-5, 60).map(str),
            st.integers(0, 10**30).map(str),
            st.text(alphabet="0123456789²³\u0663\uff11", min_size=1, max_size=6),
        )
    )
    shape = draw(st.sampled_from(["{b}-{n}", "{b}~{n}", "{b}-{n}~{n}", "{b}{n}"]))
    return shape.format(b=base, n=number)


@st.composite
def positions(draw: st.DrawFn) -> SeatView:
    players = draw(st.integers(2, 6))
    seed = draw(st.integers(0, 2**32))
    steps = draw(st.integers(0, 150))
    rng = random.Random(seed)
    game = new_game(players, seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    if game.is_over:  # the panel is for a player to move
        game = new_game(players, seed)
    return game.view(game.current_seat)


def _check(spec: PanelSpec, view: SeatView) -> None:
    assert isinstance(spec, PanelSpec) and spec.text
    values = [value for _, value, _ in spec.buttons]
    for menu_id, _, options in spec.menus:
        assert FOCUS.fullmatch(menu_id), menu_id
        assert 0 < len(options) <= SELECT_MAX
        values += [o.value for o in options]
    assert values, spec
    for value in values:
        choice = Choice.parse(value)
        assert choice is not None, value
        if choice.index is not None:
            assert 0 <= choice.index < len(view.legal), value
        else:
            assert choice.focus is not None and FOCUS.fullmatch(choice.focus), value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    positions(),
    st.lists(st.one_of(st.text(), st.sampled_from(TARGETED), foci()), min_size=1, max_size=6),
    st.sampled_from(["en", "ja", "pt-BR"]),
)
def test_any_focus_gives_a_valid_panel(view: SeatView, focus_list: list[str], locale: str) -> None:
    for focus in focus_list:
        _check(build_panel(view, locale, focus), view)


def test_targeted_forged_foci_in_many_positions() -> None:
    rng = random.Random(7)
    for seed in range(6):
        game = new_game(2 + seed % 5, seed)
        for step in range(300):
            if game.is_over:
                break
            if step % 10 == 0:
                view = game.view(game.current_seat)
                for focus in TARGETED:
                    _check(build_panel(view, "en", focus), view)
            game.apply(rng.choice(game.legal_actions()))


def test_a_forged_focus_gives_the_current_decision() -> None:
    view = new_game(3, 5).view(0)
    default = build_panel(view, "en", default_focus(view))
    for focus in ("build-0", "swap-999999999999999999999", "place-0", "buy-9", "zzz"):
        forged = build_panel(view, "en", focus)
        assert (forged.focus, forged.text, forged.buttons) == (
            default.focus,
            default.text,
            default.buttons,
        )
    assert build_panel(view, "en", "take~²").menus == build_panel(view, "en", "take").menus


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a0", Choice(index=0)),
        ("a999", Choice(index=999)),
        ("fplace-37", Choice(focus="place-37")),
        ("fbuy-2~1", Choice(focus="buy-2~1")),
        ("a²", None),
        ("a\u0663", None),
        ("a\uff11", None),
        ("a1000", None),
        ("a0001", None),
        ("a01", None),
        ("a-1", None),
        ("a+1", None),
        ("a 1", None),
        ("a1 ", None),
        ("a" + "9" * 4400, None),
        ("f" + "x" * 41, None),
        ("fmain\n", None),
        ("fMAIN", None),
        ("f²", None),
        ("f main", None),
        ("fplace-\u0663", None),
    ],
)
def test_panel_values_are_read_strictly(value: str, expected: Choice | None) -> None:
    assert Choice.parse(value) == expected


@given(st.text())
def test_any_text_is_a_choice_in_range_or_none(value: str) -> None:
    choice = Choice.parse(value)
    if choice is not None:
        assert (choice.index is None) != (choice.focus is None)
        assert choice.index is None or 0 <= choice.index <= 999
        assert choice.focus is None or FOCUS.fullmatch(choice.focus)


@pytest.mark.parametrize("value", [None, 5, ["a0"], b"a0"])
def test_a_value_that_is_not_text_is_no_choice(value: object) -> None:
    assert Choice.parse(value) is None
