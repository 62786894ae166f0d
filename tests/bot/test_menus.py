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


def _placing(players: int) -> SeatView:
    for game in _positions(4, players, 800):
        view = game.view(game.current_seat)
        if view.phase == "place" and view.pending and not view.final_placement:
            return view
    pytest.fail("no placement in 800 random steps")


@pytest.mark.parametrize(
    ("players", "locale", "ends"),
    [
        (3, "en", "Pick a marked cell or the reserve."),
        (2, "en", "Pick a marked cell, the reserve or Dirk."),
        (3, "pt-BR", "Escolha uma casa marcada ou a reserva."),
        (2, "pt-BR", "Escolha uma casa marcada, a reserva ou o Dirk."),
        (3, "ja", "印のマスか予備から選んでください。"),
        (2, "ja", "印のマス・予備・ダークから選んでください。"),
        (3, "fa", "یک خانهٔ علامت‌دار یا ذخیره را انتخاب کنید."),
        (2, "fa", "یک خانهٔ علامت‌دار، ذخیره یا دیرک را انتخاب کنید."),
    ],
)
def test_the_placement_question_lists_its_choices_as_a_sentence(
    players: int, locale: str, ends: str
) -> None:
    """ "Pick a marked cell, the reserve." read wrong whenever Dirk was not offered (three
    players or more): the question is one of two whole sentences, with or without Dirk."""
    from bot.text import i18n

    view = _placing(players)
    assert (view.dirk is not None) == (players == 2)
    spec = build_panel(view, locale, default_focus(view))
    assert i18n.plain(spec.text).endswith(ends), spec.text


@pytest.mark.parametrize("locale", ["en", "ja", "pt-BR", "fa"])
def test_menu_placeholders_are_short_not_the_question_again(locale: str) -> None:
    """A phone shows a menu's placeholder on one line: a few words naming what the menu
    holds, never the question printed just above it."""
    seen = 0
    for game in _positions(6, 3, 300)[::3]:
        view = game.view(game.current_seat)
        for focus in ("take", "buy", "redesign", default_focus(view)):
            spec = build_panel(view, locale, focus)
            if spec is None:
                continue
            for _, placeholder, _ in spec.menus:
                assert placeholder != spec.text and len(placeholder) <= 40, placeholder
                seen += 1
    assert seen > 20
