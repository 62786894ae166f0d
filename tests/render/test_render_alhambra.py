"""A player's Alhambra: labels on exactly the engine's legal cells, walls where the tiles have
them, the longest wall highlighted, sane sizes for any Alhambra."""

from __future__ import annotations

import random

import pytest

from engine import (
    TILES,
    Place,
    PlaceFromReserve,
    RemoveToReserve,
    Side,
    Swap,
    Undo,
    new_game,
)
from render import alhambra_image, alhambra_layout, parse_cell_code, render_alhambra
from render.palette import BUILDING_FILL, LABEL_FILL, WALL, WALL_HIGHLIGHT
from render.samples import grown_alhambra, placing, unused_tiles, with_alhambra
from render.sprites import wall_thickness


def _legal_cells(view, kind, tile=None):
    cells = set()
    for a in view.legal:
        if isinstance(a, kind) and (tile is None or getattr(a, "tile", None) == tile):
            cells.add((a.x, a.y))
    return cells


@pytest.mark.parametrize(
    ("players", "seed", "rounds"), [(2, 3, 0), (3, 8, 1), (4, 11, 2), (6, 5, 1)]
)
def test_labels_are_exactly_the_legal_cells_of_the_pending_building(players, seed, rounds, decode):
    game = placing(players, seed, rounds)
    seat = game.current_seat
    view = game.view(seat)
    for tile in view.pending:
        layout = alhambra_layout(view, seat, placing=tile)
        marked = {parse_cell_code(code) for code in layout.cells}
        assert marked == _legal_cells(view, Place, tile)
        assert set(layout.cells.values()) == marked
        # the codes drawn in the window, and the others listed beside it, are all of them
        labelled = {parse_cell_code(code) for code in layout.labels}
        assert labelled | {parse_cell_code(c) for c in layout.outside} == marked
        assert not labelled & set(layout.outside.values())
        assert all(layout.shows(*cell) for cell in labelled)
        img = decode(render_alhambra(view, seat, name="Ana", placing=tile))
        assert img.size == (layout.width, layout.height)
        for code, (left, top, right, bottom) in layout.labels.items():
            assert layout.cell_box(*parse_cell_code(code)) == (left, top, right, bottom)
            # the marked cell is filled with the label colour around its code
            probe = ((left + right) // 2, top + max(5, layout.cell // 5))
            assert img.getpixel(probe) == LABEL_FILL
        filled = {(x, y) for x, y, _t in view.table[seat].alhambra} | {(0, 0)}
        for y in range(layout.min_y, layout.max_y + 1):
            for x in range(layout.min_x, layout.max_x + 1):
                if (x, y) not in labelled and (x, y) not in filled:
                    left, top, right, _ = layout.cell_box(x, y)
                    probe = ((left + right) // 2, top + max(5, layout.cell // 5))
                    assert img.getpixel(probe) != LABEL_FILL, (x, y)


def _redesign_position():
    """A seeded game whose current seat may redesign with a reserve building."""
    for seed in range(40):
        game = new_game(3, seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            if any(isinstance(a, Swap) for a in legal) and any(
                isinstance(a, PlaceFromReserve) for a in legal
            ):
                return game
            choices = [a for a in legal if not isinstance(a, Undo)]
            game.apply(rng.choice(choices))
    raise AssertionError("no seeded game reached a redesign")


def test_redesign_labels_match_the_engine_for_swap_build_and_remove():
    game = _redesign_position()
    seat = game.current_seat
    view = game.view(seat)
    for tile in set(view.table[seat].reserve):
        built = alhambra_layout(view, seat, placing=tile, mode="place")
        assert {parse_cell_code(c) for c in built.cells} == _legal_cells(
            view, PlaceFromReserve, tile
        )
        swapped = alhambra_layout(view, seat, placing=tile, mode="swap")
        assert {parse_cell_code(c) for c in swapped.cells} == _legal_cells(view, Swap, tile)
    removed = alhambra_layout(view, seat, mode="remove")
    assert {parse_cell_code(c) for c in removed.cells} == _legal_cells(view, RemoveToReserve)
    assert alhambra_image(view, seat, name="x", mode="remove").size == (
        removed.width,
        removed.height,
    )


def _mid(box_side, layout, x, y):
    """The pixel in the middle of a cell's wall bar on `box_side`."""
    left, top, right, bottom = layout.cell_box(x, y)
    t = wall_thickness(layout.cell)
    cx, cy = (left + right) // 2, (top + bottom) // 2
    return {
        Side.N: (cx, top + t // 2),
        Side.S: (cx, bottom - t // 2),
        Side.W: (left + t // 2, cy),
        Side.E: (right - t // 2, cy),
    }[box_side]


def test_wall_bars_sit_on_the_wall_sides_and_the_longest_wall_is_highlighted(decode):
    # Arcades 15 (walls N E S) east of the fountain: its three walls are one outer wall of 3.
    # Pavilion 5 (wall N) west of the fountain: a separate wall of 1, drawn but not highlighted.
    view = with_alhambra(new_game(2, 1).view(None), 0, {(1, 0): 15, (-1, 0): 5})
    assert view.table[0].wall == 3
    layout = alhambra_layout(view, 0)
    img = decode(render_alhambra(view, 0, name="Walls"))
    for side in (Side.N, Side.E, Side.S):
        assert img.getpixel(_mid(side, layout, 1, 0)) == WALL_HIGHLIGHT, side
    assert img.getpixel(_mid(Side.W, layout, 1, 0)) not in (WALL, WALL_HIGHLIGHT)
    assert img.getpixel(_mid(Side.N, layout, -1, 0)) == WALL
    for side in (Side.E, Side.S, Side.W):
        assert img.getpixel(_mid(side, layout, -1, 0)) not in (WALL, WALL_HIGHLIGHT), side
    # and the buildings are drawn in their type's colour
    left, top, _, _ = layout.cell_box(-1, 0)
    assert img.getpixel((left + 8, top + layout.cell // 2)) == BUILDING_FILL[TILES[5].building]


@pytest.mark.parametrize("buildings", [0, 20, 45, 54])
def test_any_alhambra_fits_the_size_limits(buildings, decode):
    view = new_game(3, 2).view(None)
    tiles = grown_alhambra(buildings, seed=buildings)
    assert len(tiles) == buildings
    reserve = unused_tiles(tiles, 8)
    view = with_alhambra(view, 2, tiles, reserve)
    tile = reserve[0] if reserve else None
    layout = alhambra_layout(view, 2, placing=tile)
    img = decode(render_alhambra(view, 2, name="Big", placing=tile))
    assert img.size == (layout.width, layout.height)
    # landscape, and the same bounded size however large the Alhambra grows
    assert img.size == (640, 420)
    assert layout.max_x - layout.min_x < 7 or not layout.cells
    assert layout.cell >= 50 or not layout.cells


def test_a_straight_line_of_buildings_still_fits():
    # Arcades without east/west walls in a row far to the east.
    row = [22, 23, 20, 21, 31, 32, 41, 42, 52, 53, 7, 14, 5, 13, 30, 39, 43, 50, 51]
    row = [t for t in row if Side.E not in TILES[t].walls and Side.W not in TILES[t].walls]
    tiles = {(i + 1, 0): t for i, t in enumerate(row)}
    view = with_alhambra(new_game(2, 1).view(None), 1, tiles)
    assert not view.alhambra(1).problems()
    img = alhambra_image(view, 1, name="Line", placing=54)
    assert img.size == (640, 420)
    layout = alhambra_layout(view, 1, placing=54)
    legal = set(view.alhambra(1).legal_positions(54))
    assert {parse_cell_code(c) for c in layout.cells} == legal
    # the window holds as many of the cells to choose from as it can; the rest are listed
    assert layout.labels and layout.outside


def test_bad_arguments_are_refused():
    view = new_game(2, 1).view(None)
    with pytest.raises(ValueError):
        render_alhambra(view, 5, name="x")
    with pytest.raises(ValueError):
        render_alhambra(view, 0, name="x", placing=99)
