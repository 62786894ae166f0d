"""One player's Alhambra: the grid of buildings around the fountain and its building rules.

The grid is a dict from (x, y) to tile id (the fountain is tile 0 at (0, 0); x grows east, y
south). Everything the rules ask about a grid (which cells accept which walls, which buildings
can be removed, the longest wall) is derived, so it is computed lazily and cached until the grid
next changes: `legal_actions()` asks the same questions many times between two changes.

A cell accepts a tile depending only on the tile's wall mask, so the analysis keeps, per empty
frontier cell, the sides that have a neighbour (`need`) and which of those present a wall
(`req`): a tile fits when its mask agrees with `req` on `need`. Whether the cell is reachable on
foot and whether filling it makes a hole does not depend on the tile at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Literal

from .catalogue import SIDE_STEPS, TILE_MASK, TILE_TYPE, Building, Side

Cell = tuple[int, int]
HoleRule = Literal["classic", "strict"]
HOLE_RULES: tuple[HoleRule, ...] = ("classic", "strict")

ORIGIN: Cell = (0, 0)
_SIDE_NAME = {1: "north", 2: "east", 4: "south", 8: "west"}
# The eight cells around a cell, in cyclic order (each orthogonally adjacent to the next).
_RING: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
_RING_ORTHO = (0, 2, 4, 6)


def _mismatch(wall_here: int) -> str:
    return "a wall against the open side" if wall_here else "an open side against the wall"


class _Analysis:
    """Facts derived from one state of a grid; thrown away when the grid changes."""

    __slots__ = (
        "fits",
        "frontier",
        "legal_by_mask",
        "longest_wall",
        "outside",
        "previews",
        "removable",
        "swap_by_mask",
    )

    def __init__(self) -> None:
        # cell -> (need, req, ok): ok is True when some tile may go there (walkable, no hole)
        self.frontier: dict[Cell, tuple[int, int, bool]] | None = None
        self.legal_by_mask: dict[int, tuple[Cell, ...]] = {}
        self.removable: tuple[Cell, ...] | None = None
        self.outside: frozenset[Cell] | None = None
        self.longest_wall: int | None = None
        # building cell -> (need, req) of its neighbours, for swaps
        self.fits: dict[Cell, tuple[int, int]] | None = None
        self.swap_by_mask: dict[int, tuple[Cell, ...]] = {}
        # (tile, cell) -> the grid with that tile placed, see `Alhambra.preview`
        self.previews: dict[tuple[int, Cell], Alhambra] = {}


class Alhambra:
    """A player's grid. Mutating methods assume legality was checked (`can_*`)."""

    __slots__ = ("_an", "_counts", "_grid", "_max_x", "_max_y", "_min_x", "_min_y", "holes")

    def __init__(self, holes: HoleRule = "classic") -> None:
        if holes not in HOLE_RULES:
            raise ValueError(f"unknown hole rule {holes!r}; expected one of {HOLE_RULES}")
        self.holes: HoleRule = holes
        self._grid: dict[Cell, int] = {ORIGIN: 0}
        self._counts = [0] * 6
        self._min_x = self._max_x = self._min_y = self._max_y = 0
        self._an = _Analysis()

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def from_tiles(cls, tiles: Mapping[Cell, int], holes: HoleRule = "classic") -> Alhambra:
        """A grid holding exactly these tiles plus the fountain at (0, 0); not checked for legality
        (use `problems()` for that), so tests and views can build any position."""
        alhambra = cls(holes)
        for (x, y), tile in tiles.items():
            cell = (int(x), int(y))
            if cell == ORIGIN:
                if tile != 0:
                    raise ValueError("(0, 0) is the fountain's cell")
                continue
            if not 1 <= tile <= 54:
                raise ValueError(f"no tile {tile}")
            alhambra._put(cell, tile)
        return alhambra

    def copy(self) -> Alhambra:
        other = Alhambra.__new__(Alhambra)
        other.holes = self.holes
        other._grid = dict(self._grid)
        other._counts = list(self._counts)
        other._min_x, other._max_x = self._min_x, self._max_x
        other._min_y, other._max_y = self._min_y, self._max_y
        other._an = self._an  # analyses are immutable once built, so sharing one is safe
        return other

    # --- reading ------------------------------------------------------------------------------

    @property
    def tiles(self) -> dict[Cell, int]:
        """The buildings by cell, without the fountain (a copy)."""
        return {c: t for c, t in self._grid.items() if t}

    def __contains__(self, cell: object) -> bool:
        return cell in self._grid

    def __len__(self) -> int:
        """The number of buildings (the fountain excluded)."""
        return len(self._grid) - 1

    def __iter__(self) -> Iterator[tuple[Cell, int]]:
        return iter(sorted(self._grid.items(), key=lambda kv: (kv[0][1], kv[0][0])))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Alhambra) and self._grid == other._grid and self.holes == other.holes
        )

    def __repr__(self) -> str:
        return f"Alhambra({self.tiles!r}, holes={self.holes!r})"

    def tile_at(self, cell: Cell) -> int | None:
        return self._grid.get(cell)

    def count(self, building: Building) -> int:
        return self._counts[int(building)]

    def counts(self) -> tuple[int, ...]:
        """Buildings per type, in `Building` order."""
        return tuple(self._counts)

    def bounds(self) -> tuple[int, int, int, int]:
        """(min_x, min_y, max_x, max_y) of the filled cells, fountain included."""
        return self._min_x, self._min_y, self._max_x, self._max_y

    # --- mutation -----------------------------------------------------------------------------

    def _put(self, cell: Cell, tile: int) -> None:
        self._grid[cell] = tile
        self._counts[TILE_TYPE[tile]] += 1
        x, y = cell
        self._min_x, self._max_x = min(self._min_x, x), max(self._max_x, x)
        self._min_y, self._max_y = min(self._min_y, y), max(self._max_y, y)
        self._an = _Analysis()

    def place(self, tile: int, cell: Cell) -> None:
        self._put(cell, tile)

    def preview(self, tile: int, cell: Cell) -> Alhambra:
        """This grid with `tile` placed at `cell`, to read from and never to change.

        Computer players weigh every cell for every building on offer, and look-ahead asks the
        same questions of the same grids again and again (copies share the analysis, so they
        share the previews too); each preview keeps its own analysis, longest wall included.
        """
        key = (tile, cell)
        previews = self._an.previews
        after = previews.get(key)
        if after is None:
            after = self.copy()
            after.place(tile, cell)
            previews[key] = after
        return after

    def remove(self, cell: Cell) -> int:
        tile = self._grid.pop(cell)
        self._counts[TILE_TYPE[tile]] -= 1
        xs = [c[0] for c in self._grid]
        ys = [c[1] for c in self._grid]
        self._min_x, self._max_x, self._min_y, self._max_y = min(xs), max(xs), min(ys), max(ys)
        self._an = _Analysis()
        return tile

    def swap(self, tile: int, cell: Cell) -> int:
        old = self._grid[cell]
        self._counts[TILE_TYPE[old]] -= 1
        self._grid[cell] = tile
        self._counts[TILE_TYPE[tile]] += 1
        self._an = _Analysis()
        return old

    # --- placement ----------------------------------------------------------------------------

    def _frontier(self) -> dict[Cell, tuple[int, int, bool]]:
        an = self._an
        if an.frontier is not None:
            return an.frontier
        grid = self._grid
        seen: set[Cell] = set()
        frontier: dict[Cell, tuple[int, int, bool]] = {}
        for x, y in grid:
            for _bit, dx, dy, _opp in SIDE_STEPS:
                c = (x + dx, y + dy)
                if c in grid or c in seen:
                    continue
                seen.add(c)
                need = req = 0
                cx, cy = c
                for bit, ddx, ddy, opp in SIDE_STEPS:
                    n = grid.get((cx + ddx, cy + ddy))
                    if n is not None:
                        need |= bit
                        if TILE_MASK[n] & opp:
                            req |= bit
                ok = bool(need & ~req) and not self._makes_hole(c)
                frontier[c] = (need, req, ok)
        an.frontier = dict(sorted(frontier.items(), key=lambda kv: (kv[0][1], kv[0][0])))
        return an.frontier

    def legal_positions(self, tile: int) -> list[Cell]:
        """Every empty cell where `tile` may be placed, sorted north to south, west to east."""
        mask = TILE_MASK[tile]
        an = self._an
        cached = an.legal_by_mask.get(mask)
        if cached is None:
            cached = tuple(
                c for c, (need, req, ok) in self._frontier().items() if ok and (mask & need) == req
            )
            self._an.legal_by_mask[mask] = cached
        return list(cached)

    def can_place(self, tile: int, cell: Cell) -> bool:
        return self.placement_error(tile, cell) is None

    def placement_error(self, tile: int, cell: Cell) -> str | None:
        """Why `tile` cannot go on `cell`, in words a player understands; None if it can."""
        cell = (int(cell[0]), int(cell[1]))
        if cell == ORIGIN:
            return "That is the fountain's cell; nothing can be built there."
        if cell in self._grid:
            return "That cell already holds a building."
        info = self._frontier().get(cell)
        if info is None:
            return "A building must touch another building on a side (a corner is not enough)."
        need, req, ok = info
        mask = TILE_MASK[tile]
        bad = (mask ^ req) & need
        if bad:
            bit = bad & -bad
            what = _mismatch(mask & bit)
            return (
                f"Its {_SIDE_NAME[bit]} side would put {what} of the neighbouring building: "
                "touching sides must match (wall to wall, open to open)."
            )
        if not need & ~req:
            return (
                "It would touch its neighbours only wall to wall, so nobody could walk to it "
                "from the fountain."
            )
        if not ok:
            return self._hole_message()
        return None

    def _hole_message(self) -> str:
        if self.holes == "classic":
            return "It would leave an empty cell enclosed by buildings on all four sides (a hole)."
        return (
            "It would enclose an empty area that can no longer be reached from outside "
            "(no holes of any size under the strict rule)."
        )

    def _makes_hole(self, cell: Cell) -> bool:
        """Would filling `cell` (currently empty) break the hole rule?"""
        grid = self._grid
        x, y = cell
        if self.holes == "classic":
            for _bit, dx, dy, _opp in SIDE_STEPS:
                n = (x + dx, y + dy)
                if n in grid:
                    continue
                nx, ny = n
                if all(
                    (nx + ddx, ny + ddy) in grid or (nx + ddx, ny + ddy) == cell
                    for _b, ddx, ddy, _o in SIDE_STEPS
                ):
                    return True
            return False
        # strict: the empty cells around `cell` must all still reach the outside.
        ring = [(x + dx, y + dy) not in grid for dx, dy in _RING]  # True = empty
        empties = [i for i in _RING_ORTHO if ring[i]]
        if len(empties) <= 1:
            return False
        # Runs of consecutive empty ring cells are connected around `cell` already.
        run_of = [-1] * 8
        if all(ring):
            return False
        start = ring.index(False)
        run = -1
        for k in range(1, 9):
            i = (start + k) % 8
            if ring[i]:
                if not ring[(i - 1) % 8]:
                    run += 1
                run_of[i] = run
        if len({run_of[i] for i in empties}) == 1:
            return False
        min_x, max_x = min(self._min_x, x), max(self._max_x, x)
        min_y, max_y = min(self._min_y, y), max(self._max_y, y)
        checked_runs: set[int] = set()
        for i in empties:
            if run_of[i] in checked_runs:
                continue
            checked_runs.add(run_of[i])
            dx, dy = _RING[i]
            if not self._escapes((x + dx, y + dy), cell, min_x, max_x, min_y, max_y):
                return True
        return False

    def _escapes(
        self, start: Cell, blocked: Cell, min_x: int, max_x: int, min_y: int, max_y: int
    ) -> bool:
        grid = self._grid
        seen = {start, blocked}
        stack = [start]
        while stack:
            cx, cy = stack.pop()
            if cx <= min_x or cx >= max_x or cy <= min_y or cy >= max_y:
                return True
            for _bit, dx, dy, _opp in SIDE_STEPS:
                n = (cx + dx, cy + dy)
                if n not in seen and n not in grid:
                    seen.add(n)
                    stack.append(n)
        return False

    # --- redesign -----------------------------------------------------------------------------

    def can_swap(self, tile: int, cell: Cell) -> bool:
        return self.swap_error(tile, cell) is None

    def swap_error(self, tile: int, cell: Cell) -> str | None:
        """Why `tile` cannot replace the building on `cell`; None if it can. The cell stays filled,
        so only the neighbours' walls matter; matching sides keep every path through the cell."""
        cell = (int(cell[0]), int(cell[1]))
        if cell == ORIGIN:
            return "The fountain never moves."
        if cell not in self._grid:
            return "There is no building on that cell to swap with."
        grid = self._grid
        mask = TILE_MASK[tile]
        x, y = cell
        has_open = False
        for bit, dx, dy, opp in SIDE_STEPS:
            n = grid.get((x + dx, y + dy))
            if n is None:
                continue
            wall_there = bool(TILE_MASK[n] & opp)
            if bool(mask & bit) != wall_there:
                what = _mismatch(mask & bit)
                return (
                    f"Its {_SIDE_NAME[bit]} side would put {what} of the neighbouring building: "
                    "touching sides must match (wall to wall, open to open)."
                )
            if not wall_there:
                has_open = True
        if not has_open:
            return "It would touch its neighbours only wall to wall, so nobody could walk to it."
        return None

    def swap_positions(self, tile: int) -> list[Cell]:
        """Cells whose building `tile` (from the reserve) may replace, sorted like the others."""
        mask = TILE_MASK[tile]
        an = self._an
        cached = an.swap_by_mask.get(mask)
        if cached is None:
            if an.fits is None:
                grid = self._grid
                fits = {}
                for c in sorted(grid, key=lambda c: (c[1], c[0])):
                    if c == ORIGIN:
                        continue
                    need = req = 0
                    x, y = c
                    for bit, dx, dy, opp in SIDE_STEPS:
                        n = grid.get((x + dx, y + dy))
                        if n is not None:
                            need |= bit
                            if TILE_MASK[n] & opp:
                                req |= bit
                    fits[c] = (need, req)
                an.fits = fits
            cached = tuple(
                c for c, (need, req) in an.fits.items() if (mask & need) == req and need & ~req
            )
            an.swap_by_mask[mask] = cached
        return list(cached)

    def removable(self) -> list[Cell]:
        """Cells whose building may go to the reserve, sorted north to south, west to east."""
        an = self._an
        if an.removable is None:
            an.removable = tuple(
                c
                for c in sorted(self._grid, key=lambda c: (c[1], c[0]))
                if c != ORIGIN and self._removal_error(c) is None
            )
        return list(an.removable)

    def can_remove(self, cell: Cell) -> bool:
        return self.removal_error(cell) is None

    def removal_error(self, cell: Cell) -> str | None:
        cell = (int(cell[0]), int(cell[1]))
        if cell == ORIGIN:
            return "The fountain never moves."
        if cell not in self._grid:
            return "There is no building on that cell."
        an = self._an
        if an.removable is not None:
            return None if cell in an.removable else self._removal_error(cell)
        return self._removal_error(cell)

    def _removal_error(self, cell: Cell) -> str | None:
        grid = self._grid
        x, y = cell
        if all((x + dx, y + dy) in grid for _b, dx, dy, _o in SIDE_STEPS):
            return "A building with buildings on all four sides cannot be removed."
        reached = self._reachable(exclude=cell)
        if len(reached) != len(grid) - 1:
            return (
                "Removing it would cut other buildings off from the fountain: every building "
                "must stay reachable on foot."
            )
        return None

    def _reachable(self, exclude: Cell | None = None) -> set[Cell]:
        """Cells reachable on foot from the fountain through open, matched sides."""
        grid = self._grid
        seen = {ORIGIN}
        stack = [ORIGIN]
        while stack:
            cx, cy = stack.pop()
            mask = TILE_MASK[grid[(cx, cy)]]
            for bit, dx, dy, opp in SIDE_STEPS:
                if mask & bit:
                    continue
                n = (cx + dx, cy + dy)
                if n in seen or n == exclude:
                    continue
                t = grid.get(n)
                if t is None or TILE_MASK[t] & opp:
                    continue
                seen.add(n)
                stack.append(n)
        return seen

    # --- walls --------------------------------------------------------------------------------

    def _outside(self) -> frozenset[Cell]:
        """Empty cells (in the bounding box grown by one) connected to the open outside."""
        an = self._an
        if an.outside is not None:
            return an.outside
        grid = self._grid
        min_x, max_x = self._min_x - 1, self._max_x + 1
        min_y, max_y = self._min_y - 1, self._max_y + 1
        start = (min_x, min_y)
        seen = {start}
        stack = [start]
        while stack:
            cx, cy = stack.pop()
            for _bit, dx, dy, _opp in SIDE_STEPS:
                nx, ny = cx + dx, cy + dy
                if nx < min_x or nx > max_x or ny < min_y or ny > max_y:
                    continue
                n = (nx, ny)
                if n in seen or n in grid:
                    continue
                seen.add(n)
                stack.append(n)
        an.outside = frozenset(seen)
        return an.outside

    def outer_wall_segments(self) -> list[tuple[Cell, Side]]:
        """Every wall side that faces the open outside, as (cell, side)."""
        outside = self._outside()
        segments = []
        for (x, y), tile in self._grid.items():
            mask = TILE_MASK[tile]
            if not mask:
                continue
            for side in Side:
                if mask & side.bit and (x + side.dx, y + side.dy) in outside:
                    segments.append(((x, y), side))
        return segments

    def longest_wall(self) -> int:
        """Segments in the longest continuous outer wall (RULES.md section 5)."""
        an = self._an
        if an.longest_wall is None:
            an.longest_wall = _longest_trail(_segment_edges(self.outer_wall_segments()))[0]
        return an.longest_wall

    def longest_wall_segments(self) -> list[tuple[Cell, Side]]:
        """The segments of one longest continuous outer wall, for drawing it highlighted."""
        segments = self.outer_wall_segments()
        edges = _segment_edges(segments)
        _length, best = _longest_trail(edges, want_edges=True)
        return [segments[i] for i in best]

    # --- invariants ---------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """Every way this grid breaks the invariant of RULES.md section 4 (empty: it holds)."""
        out: list[str] = []
        grid = self._grid
        if grid.get(ORIGIN) != 0:
            out.append("the fountain is not at (0, 0)")
        for (x, y), tile in grid.items():
            mask = TILE_MASK[tile]
            for bit, dx, dy, opp in SIDE_STEPS:
                n = grid.get((x + dx, y + dy))
                if n is not None and bool(mask & bit) != bool(TILE_MASK[n] & opp):
                    out.append(f"unmatched {_SIDE_NAME[bit]} side at {(x, y)}")
        unreached = set(grid) - self._reachable()
        if unreached:
            out.append(f"not reachable from the fountain: {sorted(unreached)}")
        for c in self._holes():
            out.append(f"hole at {c}")
        return out

    def _holes(self) -> list[Cell]:
        grid = self._grid
        outside = self._outside()
        holes = []
        for y in range(self._min_y, self._max_y + 1):
            for x in range(self._min_x, self._max_x + 1):
                c = (x, y)
                if c in grid:
                    continue
                if self.holes == "strict":
                    if c not in outside:
                        holes.append(c)
                elif all((x + dx, y + dy) in grid for _b, dx, dy, _o in SIDE_STEPS):
                    holes.append(c)
        return holes


# --- longest trail ----------------------------------------------------------------------------


def _segment_edges(segments: Iterable[tuple[Cell, Side]]) -> list[tuple[Cell, Cell]]:
    """Unit wall sides as edges between lattice points (cell (x, y) spans x..x+1, y..y+1)."""
    edges = []
    for (x, y), side in segments:
        if side is Side.N:
            edges.append(((x, y), (x + 1, y)))
        elif side is Side.S:
            edges.append(((x, y + 1), (x + 1, y + 1)))
        elif side is Side.W:
            edges.append(((x, y), (x, y + 1)))
        else:
            edges.append(((x + 1, y), (x + 1, y + 1)))
    return edges


def _longest_trail(
    edges: list[tuple[Cell, Cell]], want_edges: bool = False
) -> tuple[int, list[int]]:
    """The length of the longest trail (a walk using each edge at most once) in a small graph,
    and the indices of its edges in walking order (only meaningful with `want_edges`, which
    makes components with an Euler trail be walked too).

    A component with at most two odd vertices has an Euler trail, which uses all its edges.
    Otherwise a longest trail starts and ends at odd vertices (an even end vertex would have an
    unused edge to extend by), so a depth-first search from the odd vertices finds it.
    """
    adj: dict[Cell, list[tuple[int, Cell]]] = {}
    for i, (a, b) in enumerate(edges):
        adj.setdefault(a, []).append((i, b))
        adj.setdefault(b, []).append((i, a))
    seen: set[Cell] = set()
    best_len = 0
    best_edges: list[int] = []
    for root in adj:
        if root in seen:
            continue
        comp = []
        stack = [root]
        seen.add(root)
        while stack:
            v = stack.pop()
            comp.append(v)
            for _i, w in adj[v]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        odd = [v for v in comp if len(adj[v]) % 2]
        comp_edges = sorted({i for v in comp for i, _w in adj[v]})
        if len(comp_edges) <= best_len:
            continue
        if len(odd) <= 2 and not want_edges:
            best_len = len(comp_edges)
            continue
        starts = odd or [comp[0]]
        found = _dfs_longest(adj, starts, len(comp_edges), want_edges or len(odd) <= 2)
        if len(found) > best_len:
            best_len = len(found)
            best_edges = found
    return best_len, best_edges


def _dfs_longest(
    adj: dict[Cell, list[tuple[int, Cell]]], starts: list[Cell], total: int, _full: bool
) -> list[int]:
    best: list[int] = []
    path: list[int] = []
    used: set[int] = set()

    def walk(v: Cell) -> bool:
        nonlocal best
        extended = False
        for i, w in adj[v]:
            if i in used:
                continue
            extended = True
            used.add(i)
            path.append(i)
            if walk(w):
                return True
            path.pop()
            used.discard(i)
        if not extended and len(path) > len(best):
            best = list(path)
        return len(best) == total

    for s in starts:
        if walk(s):
            break
    return best
