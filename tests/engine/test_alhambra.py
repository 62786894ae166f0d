"""Building rules of one Alhambra (RULES.md section 4) and its longest wall (section 5).

Tiles used below, by walls (RULES.md section 1): no walls: 7, 14, 22, 23, 31, 32, 41, 42, 52, 53;
N: 5, 20; E: 6, 21; S: 13, 30; W: 12, 29; N W: 4, 16; N E: 9, 18; E S: 3, 11; S W: 2, 10.
"""

from __future__ import annotations

import random

import pytest

from engine import TILES, Alhambra, Side
from engine.alhambra import HOLE_RULES

OPEN = [7, 14, 22, 23, 31, 32, 41, 42, 52, 53]
# One tile for every wall pattern in the box, to probe placement with each.
BY_WALLS = sorted({TILES[t].walls: t for t in range(54, 0, -1)}.values())


def grid(tiles: dict[tuple[int, int], int], holes: str = "classic") -> Alhambra:
    alhambra = Alhambra.from_tiles(tiles, holes)  # type: ignore[arg-type]
    assert alhambra.problems() == [], "test positions must be legal Alhambras"
    return alhambra


def window(a: Alhambra, margin: int = 2) -> list[tuple[int, int]]:
    min_x, min_y, max_x, max_y = a.bounds()
    return [
        (x, y)
        for y in range(min_y - margin, max_y + margin + 1)
        for x in range(min_x - margin, max_x + margin + 1)
    ]


# --- placement ------------------------------------------------------------------------------


def test_a_wall_against_an_open_side_is_refused():
    a = grid({})
    # Tile 12 has a wall on its west side, which would face the fountain's open east side.
    assert not a.can_place(12, (1, 0))
    assert "wall" in a.placement_error(12, (1, 0))
    # Tile 6 has its wall on the east: its open west side meets the fountain.
    assert a.can_place(6, (1, 0))


def test_an_open_side_against_a_wall_is_refused():
    a = grid({(1, 0): 6})  # wall on the east side of (1, 0)
    assert not a.can_place(7, (2, 0))
    assert "wall" in a.placement_error(7, (2, 0))


def test_a_cell_reached_only_wall_to_wall_is_refused():
    a = grid({(1, 0): 6})  # east wall
    # Tile 12's west wall matches, but then no side is open: nobody can walk in.
    assert not a.can_place(12, (2, 0))
    message = a.placement_error(12, (2, 0))
    assert "wall to wall" in message and "walk" in message
    assert (2, 0) not in a.legal_positions(12)


def test_the_fountain_cell_is_refused():
    a = grid({(1, 0): 7})
    assert not a.can_place(14, (0, 0))
    assert "fountain" in a.placement_error(14, (0, 0))


def test_an_occupied_cell_is_refused():
    a = grid({(1, 0): 7})
    assert not a.can_place(14, (1, 0))
    assert "already" in a.placement_error(14, (1, 0))


def test_a_cell_touching_only_at_a_corner_is_refused():
    a = grid({})
    assert not a.can_place(7, (1, 1))
    assert "corner" in a.placement_error(7, (1, 1))
    assert a.legal_positions(7) == [(0, -1), (-1, 0), (1, 0), (0, 1)]


# (1, 1) is empty; filling (1, 2) would close it in on all four sides.
ALMOST_A_HOLE = {(1, 0): 7, (2, 0): 14, (2, 1): 22, (2, 2): 23, (0, 1): 31}


@pytest.mark.parametrize("holes", HOLE_RULES)
def test_a_four_side_hole_is_refused_in_both_modes(holes):
    a = grid(ALMOST_A_HOLE, holes)
    assert not a.can_place(32, (1, 2))
    assert "hole" in a.placement_error(32, (1, 2))
    assert (1, 2) not in a.legal_positions(32)
    # Filling the would-be hole itself is fine, and so is (1, 2) once (1, 1) is built.
    assert a.can_place(32, (1, 1))
    a.place(32, (1, 1))
    assert a.can_place(41, (1, 2))


# (1, 1) and (2, 1) are empty; filling (1, 2) encloses both together (no single-cell hole).
ALMOST_ENCLOSED = {
    (1, 0): 7,
    (2, 0): 14,
    (3, 0): 22,
    (3, 1): 23,
    (3, 2): 31,
    (2, 2): 32,
    (0, 1): 41,
}


def test_a_multi_cell_enclosed_area_is_allowed_in_classic():
    a = grid(ALMOST_ENCLOSED, "classic")
    assert a.can_place(42, (1, 2))
    a.place(42, (1, 2))
    assert a.problems() == []


def test_a_multi_cell_enclosed_area_is_refused_in_strict():
    a = grid(ALMOST_ENCLOSED, "strict")
    assert not a.can_place(42, (1, 2))
    assert "enclose" in a.placement_error(42, (1, 2))
    assert (1, 2) not in a.legal_positions(42)
    # Building inside the pocket is fine while what is left of it stays open to the outside.
    assert a.can_place(42, (2, 1))


def _positions_oracle(a: Alhambra, tile: int) -> set[tuple[int, int]]:
    """Cells where placing `tile` keeps the Alhambra legal, by trying each one."""
    out = set()
    for cell in window(a):
        if cell in a:
            continue
        b = a.copy()
        b.place(tile, cell)
        if b.problems() == []:
            out.add(cell)
    return out


POSITIONS = [
    {},
    {(1, 0): 6},
    ALMOST_A_HOLE,
    ALMOST_ENCLOSED,
    {(-1, -1): 4, (0, -1): 5, (1, -1): 9, (1, 0): 6, (1, 1): 3, (0, 1): 13},
    {(1, 0): 7, (1, -1): 5, (2, 0): 21, (0, 1): 22, (-1, 1): 10, (-1, 0): 29},
]


@pytest.mark.parametrize("holes", HOLE_RULES)
@pytest.mark.parametrize("tiles", POSITIONS)
def test_legal_positions_are_exactly_the_cells_where_can_place_holds(tiles, holes):
    a = grid(tiles, holes)
    for tile in BY_WALLS:
        legal = a.legal_positions(tile)
        assert len(legal) == len(set(legal))
        brute = {c for c in window(a) if a.can_place(tile, c)}
        assert set(legal) == brute
        # ... and exactly where the result is still a legal Alhambra (an independent check).
        assert brute == _positions_oracle(a, tile)


# --- removal --------------------------------------------------------------------------------


def test_a_removal_that_cuts_a_building_off_is_refused():
    a = grid({(1, 0): 7, (2, 0): 14})
    assert not a.can_remove((1, 0))
    assert "cut" in a.removal_error((1, 0))
    assert a.removable() == [(2, 0)]
    assert a.can_remove((2, 0))


def test_a_building_with_four_neighbours_cannot_be_removed():
    # (1, 0) has neighbours on all sides; everything else stays connected without it.
    a = grid({(1, 0): 7, (2, 0): 14, (1, -1): 22, (1, 1): 23, (0, -1): 31, (0, 1): 32, (2, -1): 41})
    assert not a.can_remove((1, 0))
    assert "four sides" in a.removal_error((1, 0))
    b = a.copy()
    b.remove((1, 0))
    # Everything would stay reachable: it is the four neighbours (the hole left behind) that
    # forbid it.
    assert b.problems() == ["hole at (1, 0)"]


def test_the_fountain_cannot_be_removed():
    a = grid({(1, 0): 7})
    assert not a.can_remove((0, 0))
    assert "fountain" in a.removal_error((0, 0))
    assert (0, 0) not in a.removable()


def test_a_removable_building_can_be_removed():
    a = grid({(1, 0): 7, (0, 1): 14})
    assert a.removable() == [(1, 0), (0, 1)]
    assert a.can_remove((0, 1))
    assert a.remove((0, 1)) == 14
    assert a.tiles == {(1, 0): 7}


def test_removing_an_empty_cell_is_refused():
    a = grid({(1, 0): 7})
    assert "no building" in a.removal_error((5, 5))


# --- swap -----------------------------------------------------------------------------------


def test_a_swap_whose_walls_fit_is_allowed():
    a = grid({(1, 0): 6, (1, 1): 13})  # (1, 0) east wall; (1, 1) south wall, below it
    assert a.can_swap(21, (1, 0))  # another east-walled tile
    assert (1, 0) in a.swap_positions(21)
    old = a.swap(21, (1, 0))
    assert old == 6 and a.problems() == []


def test_a_swap_whose_walls_do_not_fit_is_refused():
    a = grid({(1, 0): 6, (1, 1): 13})
    # Tile 12's west wall would face the fountain's open side.
    assert not a.can_swap(12, (1, 0))
    assert "wall" in a.swap_error(12, (1, 0))
    assert (1, 0) not in a.swap_positions(12)


def test_the_fountain_is_never_swapped():
    a = grid({(1, 0): 7})
    assert not a.can_swap(14, (0, 0))
    assert "fountain" in a.swap_error(14, (0, 0))


@pytest.mark.parametrize("tiles", POSITIONS[1:])
def test_swap_and_removal_answers_match_a_legality_oracle(tiles):
    a = grid(tiles)
    for cell in a.tiles:
        x, y = cell
        four = all((x + s.dx, y + s.dy) in a for s in Side)
        b = a.copy()
        b.remove(cell)
        assert a.can_remove(cell) == (not four and b.problems() == [])
        for tile in BY_WALLS:
            c = a.copy()
            c.swap(tile, cell)
            assert a.can_swap(tile, cell) == (c.problems() == [])
            assert (cell in a.swap_positions(tile)) == a.can_swap(tile, cell)


# --- walls ----------------------------------------------------------------------------------

# A 3 x 3 block around the fountain whose outer sides all carry walls: a closed ring of 12.
WALLED_BLOCK = {
    (-1, -1): 4,  # N W
    (0, -1): 5,  # N
    (1, -1): 9,  # N E
    (1, 0): 6,  # E
    (1, 1): 3,  # E S
    (0, 1): 13,  # S
    (-1, 1): 2,  # S W
    (-1, 0): 12,  # W
}


def test_a_closed_ring_of_12_wall_segments_scores_12():
    a = grid(WALLED_BLOCK)
    assert len(a.outer_wall_segments()) == 12
    assert a.longest_wall() == 12
    assert len(a.longest_wall_segments()) == 12


def test_inner_double_walls_do_not_count():
    # (1, 0) has an east wall, (2, 0) a west wall: back to back. (2, 0) is reached from the north.
    base = {(1, 0): 6, (0, -1): 7, (1, -1): 14, (2, -1): 22}
    assert grid(base).longest_wall() == 1  # alone, the east wall faces the outside
    a = grid({**base, (2, 0): 12})
    assert a.outer_wall_segments() == []
    assert a.longest_wall() == 0


def test_a_wall_facing_an_enclosed_empty_area_does_not_count():
    # Tile 13 at (1, 0) has a south wall over the empty (1, 1).
    tiles = {**ALMOST_ENCLOSED, (1, 0): 13}
    before = grid(tiles, "classic")
    assert before.longest_wall() == 1
    before.place(42, (1, 2))  # encloses (1, 1) and (2, 1)
    assert before.problems() == []
    assert before.longest_wall() == 0


def test_separate_walls_score_the_longest_only():
    # A wall of 3 along the north of row y = -1 and a wall of 1 on the south of (0, 1).
    a = grid({(-1, -1): 16, (0, -1): 20, (1, -1): 5, (-1, 0): 7, (0, 1): 13})
    assert len(a.outer_wall_segments()) == 5
    # North side: (-1,-1) N + W, (0,-1) N, (1,-1) N joined; (0, 1) S alone.
    assert a.longest_wall() == 4
    assert set(a.longest_wall_segments()) == {
        ((-1, -1), Side.N),
        ((-1, -1), Side.W),
        ((0, -1), Side.N),
        ((1, -1), Side.N),
    }


def test_longest_wall_with_a_branch():
    """Three walls meeting at one point: only two arms can be walked in one line.

    In a legal Alhambra outer walls never branch (where four cells meet, a branch needs two
    diagonal buildings with both other cells open to the outside, which would close a loop of
    buildings around one of them), so this grid is built without the legality check: it tests
    the longest-trail search itself. (2, 1) touches (1, 0) only at the corner (2, 1).
    """
    a = Alhambra.from_tiles({(1, 0): 3, (2, 1): 5, (3, 1): 20})
    # Arms from the point (2, 1): east side of (1, 0) (1), south side of (1, 0) (1), north
    # sides of (2, 1) and (3, 1) (2).
    assert len(a.outer_wall_segments()) == 4
    assert a.longest_wall() == 3
    segments = a.longest_wall_segments()
    assert len(segments) == 3 and ((3, 1), Side.N) in segments


@pytest.mark.parametrize("tiles", POSITIONS)
def test_a_preview_is_the_grid_with_the_tile_placed_and_changes_nothing(tiles):
    a = grid(tiles)
    before = a.tiles
    wall = a.longest_wall()
    for tile in BY_WALLS:
        for cell in a.legal_positions(tile):
            after = a.preview(tile, cell)
            placed = a.copy()
            placed.place(tile, cell)
            assert after == placed and after.tiles == {**before, cell: tile}
            assert after.longest_wall() == grid(after.tiles).longest_wall()
            assert a.preview(tile, cell) is after  # asked again: the same answer, not recomputed
    assert a.tiles == before and a.longest_wall() == wall
    # a change to the grid forgets the previews of the old state
    tile, cell = next((t, c) for t in BY_WALLS for c in a.legal_positions(t))
    a.place(tile, cell)
    for other in BY_WALLS:
        for spot in a.legal_positions(other):
            assert cell in a.preview(other, spot)


# --- analyses patched across changes --------------------------------------------------------


def _fresh(a: Alhambra) -> Alhambra:
    """The same grid built anew, building by building, so nothing of `a`'s analysis is shared."""
    b = Alhambra(a.holes)
    for cell, tile in a.tiles.items():
        b.place(tile, cell)
    return b


def _facts(a: Alhambra) -> tuple[object, ...]:
    return (
        tuple(a.legal_cells(t) for t in BY_WALLS),
        tuple(a.swap_cells(t) for t in BY_WALLS),
        a.removable_cells(),
        a.longest_wall(),
        a.bounds(),
        tuple(a.placement_error(t, c) for t in BY_WALLS[:4] for c in window(a, 1)),
    )


@pytest.mark.parametrize("holes", HOLE_RULES)
def test_what_a_grid_works_out_after_each_change_equals_a_grid_built_afresh(holes):
    """Frontier, swap fits and cut vertices are patched around each change, sometimes several
    changes back: random placements, removals and swaps must agree with a grid built anew."""
    rng = random.Random(f"patched/{holes}")
    for _ in range(30):
        a = Alhambra(holes)  # type: ignore[arg-type]
        spare = list(range(1, 55))
        rng.shuffle(spare)
        reserve: list[int] = []
        for _step in range(60):
            if rng.random() < 0.5:  # ask now and then, so patches reach back several changes
                assert _facts(a) == _facts(_fresh(a))
            roll = rng.random()
            if roll < 0.55 and spare:
                tile = spare.pop()
                cells = a.legal_cells(tile)
                if cells:
                    a.place(tile, rng.choice(cells))
                else:
                    reserve.append(tile)
            elif roll < 0.8 and a.removable_cells():
                reserve.append(a.remove(rng.choice(a.removable_cells())))
            elif reserve:
                tile = reserve.pop(rng.randrange(len(reserve)))
                cells = a.swap_cells(tile)
                if cells:
                    reserve.append(a.swap(tile, rng.choice(cells)))
                else:
                    reserve.append(tile)
            assert a.problems() == []
        assert _facts(a) == _facts(_fresh(a))


def test_the_walls_kept_by_grid_are_the_walls_worked_out_anew() -> None:
    """`longest_wall` keeps its answers by grid (the same grids come back as copies and
    previews): every answer equals the longest trail of the grid's own wall and the length of
    the wall drawn."""
    import engine.alhambra as module

    rng = random.Random(7)
    for _ in range(30):
        module._WALLS.clear()
        a, b = Alhambra(), Alhambra()
        for _step in range(rng.randrange(3, 16)):
            tile = rng.randrange(1, len(TILES))
            cells = a.legal_positions(tile)
            if not cells:
                continue
            cell = rng.choice(cells)
            a.place(tile, cell)
            fresh = module._longest_trail_length(a._wall_edges())
            assert a.longest_wall() == fresh == len(a.longest_wall_segments())
            b.place(tile, cell)  # another grid object, the same grid: the kept answer
            assert module._WALLS[frozenset(b._grid.items())] == b.longest_wall() == fresh
