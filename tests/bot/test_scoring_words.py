"""Scoring explained in words: the points table of the rules, and who leads each type now."""

from __future__ import annotations

import dataclasses

import pytest

from bot.text import i18n
from bot.text.present import leaders_line, points_table
from engine import SCORING_TABLE, TILES, Building, ScoringHeld, SeatView, new_game

P, S, A, C, G, T = (int(b) for b in Building)


def _view(counts: list[dict[int, int]], *, dirk: dict[int, int] | None = None) -> SeatView:
    """A spectator's view of a fresh game whose players hold these buildings per type (Dirk
    too, for two players); the Alhambras are otherwise empty, so no wall scores."""
    base = new_game(len(counts), seed=1).view(None)
    table = tuple(
        dataclasses.replace(p, alhambra=(), counts=tuple(c.get(b, 0) for b in range(6)))
        for p, c in zip(base.table, counts, strict=True)
    )
    tiles = None
    if dirk is not None:
        tiles = tuple(
            tile
            for b, n in dirk.items()
            for tile in [t for t, x in enumerate(TILES) if x.building == Building(b)][:n]
        )
    return dataclasses.replace(base, table=table, dirk=tiles)


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_the_points_table_is_the_engines(locale: str) -> None:
    lines = points_table(locale)
    assert len(lines) == len(SCORING_TABLE) + 1  # a line per round, then ties and walls
    for round_no, line in zip(sorted(SCORING_TABLE), lines, strict=False):
        for building in Building:
            name = i18n.t(locale, f"building.{building.label}")
            paid = "/".join(str(p) for p in SCORING_TABLE[round_no][building])
            assert f"{name} {paid}" in line, (round_no, line)


def test_the_points_table_in_english() -> None:
    lines = points_table("en")
    assert "Pavilion 1 · Seraglio 2" in lines[0] and "Tower 6" in lines[0]
    assert "Tower 13/6" in lines[1]
    assert "Pavilion 16/8/1" in lines[2] and "Tower 21/13/6" in lines[2]
    assert "wall" in lines[3]


def test_leaders_and_what_the_first_round_would_pay() -> None:
    view = _view([{T: 2, P: 1}, {T: 1, G: 3}, {P: 1}])
    line = leaders_line("en", ["ana", "bruno", "chiyo"], view)
    assert line.startswith("Most buildings of each type, and what scoring round 1 would pay now: ")
    parts = line.split(": ", 1)[1].split(" · ")
    assert parts == [
        "Pavilion: ana, chiyo (1 each) +0 each",  # round 1 pays only the first place: 1 // 2
        "Garden: bruno (3) +5",  # types nobody has built are left out
        "Tower: ana (2) +6",
    ]


def test_later_rounds_share_the_places_a_tie_covers() -> None:
    view = _view([{T: 2}, {T: 2}, {T: 1}])
    held = (ScoringHeld(1, (), ()), ScoringHeld(2, (), ()))  # two rounds held: the final is next
    third = dataclasses.replace(view, scoring_rounds=held)
    line = leaders_line("en", ["ana", "bruno", "chiyo"], third)
    assert "scoring round 3 would pay" in line
    assert "Tower: ana, bruno (2 each) +17 each" in line  # (21 + 13) // 2


def test_dirk_leads_without_points_and_ties_with_players() -> None:
    view = _view([{T: 1, P: 2}, {}], dirk={T: 3, P: 2})
    line = leaders_line("en", ["ana", "bruno"], view)
    assert line.endswith(" · Tower: Dirk (3)")  # his points are not kept: none shown
    assert "Pavilion: ana, Dirk (2 each) +0 each" in line


@pytest.mark.parametrize("locale", ["ja", "pt-BR"])
def test_the_leaders_line_is_in_the_readers_language(locale: str) -> None:
    line = leaders_line(locale, ["ana", "bruno"], _view([{G: 1}, {G: 1}]))
    garden = i18n.t(locale, "building.garden")
    assert line.startswith(i18n.t(locale, "leaders.line", round=1, types="")[:8])
    colon = "\uff1a" if locale == "ja" else ": "
    assert f"{garden}{colon}ana{i18n.t(locale, 'list.separator')}bruno" in line
    assert "nobody" not in line


def test_before_anyone_builds_there_is_no_leaders_line() -> None:
    assert leaders_line("en", ["ana", "bruno"], _view([{}, {}])) == ""


def test_a_finished_game_has_no_leaders_line() -> None:
    view = dataclasses.replace(_view([{T: 1}, {}]), is_over=True)
    assert leaders_line("en", ["ana", "bruno"], view) == ""
