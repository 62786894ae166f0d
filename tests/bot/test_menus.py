"""The private panel's menu model (`bot.text.menus`), on its own: what Discord shows as buttons
and selects and the terminal game as numbered menus."""

from __future__ import annotations

import random

import pytest

from bot.text.menus import SELECT_MAX, Choice, Tone, build_panel, default_focus, panel_picture
from engine import Game, SeatView, new_game


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a0", Choice(index=0)),
        ("a17", Choice(index=17)),
        ("fmain", Choice(focus="main")),
        ("fbuy-2~1", Choice(focus="buy-2~1")),
        ("a", None),
        ("a-1", None),
        ("ax", None),
        ("f", None),
        ("x1", None),
        ("", None),
    ],
)
def test_a_panel_value_reads_back_or_is_refused(value: str, expected: Choice | None) -> None:
    assert Choice.parse(value) == expected


def _reachable(view: SeatView, locale: str = "en") -> tuple[set[int], set[str]]:
    """Every action index and every menu a player can reach from the panel's first menu."""
    seen: set[str] = set()
    acts: set[int] = set()
    todo = [default_focus(view)]
    while todo:
        focus = todo.pop()
        if focus in seen:
            continue
        seen.add(focus)
        spec = build_panel(view, locale, focus)
        assert all(len(options) <= SELECT_MAX for _, _, options in spec.menus)
        values = [v for _, v, _ in spec.buttons]
        values += [o.value for _, _, options in spec.menus for o in options]
        for value in values:
            choice = Choice.parse(value)
            assert choice is not None, value
            if choice.index is not None:
                assert 0 <= choice.index < len(view.legal)
                acts.add(choice.index)
            elif choice.focus is not None:
                todo.append(choice.focus)
    return acts, seen


def _positions(seed: int, players: int, steps: int) -> list[Game]:
    rng = random.Random(seed)
    game = new_game(players, seed)
    out = []
    for _ in range(steps):
        if game.is_over:
            break
        out.append(Game.from_json(game.to_json()))
        game.apply(rng.choice(game.legal_actions()))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_legal_action_is_on_the_panel(seed: int) -> None:
    """No legal choice is ever dropped, however long the menus (they are paged)."""
    for game in _positions(seed, 2 + seed % 3, 400)[::7]:
        view = game.view(game.current_seat)
        acts, _ = _reachable(view)
        assert acts == set(range(len(view.legal)))


def test_buttons_carry_a_neutral_tone() -> None:
    game = new_game(3, 5)
    spec = build_panel(game.view(game.current_seat), "ja", "main")
    assert spec.buttons and all(isinstance(tone, Tone) for _, _, tone in spec.buttons)
    assert {tone for _, _, tone in spec.buttons} <= set(Tone)


def test_a_panel_about_cells_has_a_picture_and_others_none() -> None:
    for game in _positions(4, 3, 600):
        view = game.view(game.current_seat)
        if view.phase == "place" and view.pending:
            spec = build_panel(view, "en", default_focus(view))
            png = panel_picture(view, spec, "Ana", "en")
            assert png is not None and png.startswith(b"\x89PNG")
            break
    else:
        pytest.fail("no placement in 600 random steps")
    main = build_panel(new_game(2, 1).view(0), "en", "main")
    assert panel_picture(new_game(2, 1).view(0), main, "Ana", "en") is None
