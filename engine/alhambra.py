"""One player's Alhambra: the grid of buildings around the fountain and its building rules.

The grid is a dict from (x, y) to tile id (the fountain is tile 0 at (0, 0); x grows east, y
south). Everything the rules ask about a grid (which cells accept which walls, which buildings
can be removed, the longest wall) is derived, so it is computed lazily and cached until the grid
next changes: `legal_actions()` asks the same questions many times between two changes.

A cell accepts a tile depending only on the tile's wall mask, so the analysis keeps, per empty
frontier cell, the sides that have a neighbour (`need`) and which of those present a wall
(`req`), packed as one small integer: a tile fits when its mask agrees with `req` on `need`
(one table look-up, `_FITS`), and the same test over the buildings' neighbours says which
building a reserve tile may replace. Whether filling the cell makes a hole does not depend on
the tile, and is worked out only for cells some asked-for tile fits (under the classic rule, for
all of them at once from the frontier cells that have three neighbours).

A change touches the (need, req) of the changed cell and its four neighbours only, so a new
analysis starts from the last one worked out, up to `_PATCH_LIMIT` changes back, and patches
those cells; the cut vertices that say which buildings can be removed are patched too when the
building placed or removed is reached from one side only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import Any, Literal, TypeVar, cast

from .catalogue import TILE_MASK, TILE_TYPE, Building, Side

Cell = tuple[int, int]
T = TypeVar("T")
P = TypeVar("P", bound=Hashable)
HoleRule = Literal["classic", "strict"]
HOLE_RULES: tuple[HoleRule, ...] = ("classic", "strict")

ORIGIN: Cell = (0, 0)
_SIDE_NAME = {1: "north", 2: "east", 4: "south", 8: "west"}

# Inside a grid a cell (x, y) is the integer y * _ROW + x: a neighbour is one addition away, a
# dict keyed by small integers hashes faster than one keyed by tuples, and sorting the integers
# sorts the cells north to south, west to east. Cells further than _ROW // 2 from the fountain
# cannot occur (a game has 54 buildings).
_ROW = 1 << 16
_HALF = _ROW // 2
_N, _E, _S, _W = -_ROW, 1, _ROW, -1
#: (bit, step, opposite bit) for the four sides, in SIDE_STEPS order (north, east, south, west).
_STEPS: tuple[tuple[int, int, int], ...] = ((1, _N, 4), (2, _E, 8), (4, _S, 1), (8, _W, 2))
_DELTAS = (_N, _E, _S, _W)
# The eight cells around a cell, in cyclic order (each orthogonally adjacent to the next).
_RING: tuple[int, ...] = (_N, _N + _E, _E, _E + _S, _S, _S + _W, _W, _W + _N)
_RING_ORTHO = (0, 2, 4, 6)
# The cells within two orthogonal steps of a cell (itself included).
_NEAR: tuple[int, ...] = tuple(
    dy * _ROW + dx for dy in range(-2, 3) for dx in range(-2, 3) if abs(dx) + abs(dy) <= 2
)


def _key(cell: Cell) -> int:
    return cell[1] * _ROW + cell[0]


def _cell(key: int) -> Cell:
    x = (key + _HALF) % _ROW - _HALF
    return x, (key - x) // _ROW


class _CellMap(dict[int, Cell]):
    """Packed cell -> (x, y), each tuple made once: the engine's inner loops hand out the same
    few dozen cells again and again, and a lookup is cheaper than the arithmetic."""

    __slots__ = ()

    def __missing__(self, key: int) -> Cell:
        cell = self[key] = _cell(key)
        return cell


_CELLS = _CellMap()

#: _FITS[mask][need << 4 | req]: 1 when a tile with wall `mask` agrees with the walls `req` on
#: the sides `need` that have a neighbour, and meets some neighbour open to open (so it can be
#: walked to). The same test says where a tile may be placed and which building it may replace.
_FITS: tuple[bytes, ...] = tuple(
    bytes(1 if (mask & (nr >> 4)) == (nr & 15) and (nr >> 4) & ~nr & 15 else 0 for nr in range(256))
    for mask in range(16)
)
#: _MISSING[need]: the step to the one side without a neighbour when `need` has three of the
#: four, else 0 (filling that side's cell would enclose the cell on all four sides).
_MISSING: tuple[int, ...] = tuple(
    {14: _N, 13: _E, 11: _S, 7: _W}.get(need, 0) for need in range(16)
)
#: Patches of the frontier and of the swap fits reach back at most this many changes.
_PATCH_LIMIT = 8
#: Per side of a changed cell: (step to the neighbour there, the mask that clears what the
#: cell says in that neighbour's need << 4 | req, and what the cell says by its tile): a patch
#: rewrites only that part of each neighbour's entry.
_TOWARD: tuple[tuple[int, int, tuple[int, ...]], ...] = tuple(
    (step, ~(opp << 4 | opp) & 255, tuple(opp << 4 | (opp if m & bit else 0) for m in TILE_MASK))
    for bit, step, opp in _STEPS
)


def _outside_after(
    outside: frozenset[int], k: int, box: tuple[int, int, int, int]
) -> frozenset[int] | None:
    """The open outside once a building fills the cell `k` (bounds `box` before it), when that
    is cheap to know: None when the building might cut the outside in two."""
    if k not in outside:
        return outside  # an enclosed cell: the bounds do not move either
    min_x, max_x, min_y, max_y = box
    x, y = _cell(k)

    def open_(c: int) -> bool:
        cx, cy = _cell(c)
        beyond = cx < min_x - 1 or cx > max_x + 1 or cy < min_y - 1 or cy > max_y + 1
        return beyond or c in outside

    ring = [open_(k + d) for d in _RING]
    runs = [-1] * 8
    if not all(ring):
        start = ring.index(False)
        run = -1
        for j in range(1, 9):
            i = (start + j) % 8
            if ring[i]:
                if not ring[(i - 1) % 8]:
                    run += 1
                runs[i] = run
    if len({runs[i] for i in _RING_ORTHO if ring[i]}) > 1:
        return None
    after = set(outside)
    after.discard(k)
    if x < min_x:
        after.update(y2 * _ROW + x - 1 for y2 in range(min_y - 1, max_y + 2))
    elif x > max_x:
        after.update(y2 * _ROW + x + 1 for y2 in range(min_y - 1, max_y + 2))
    elif y < min_y:
        after.update((y - 1) * _ROW + x2 for x2 in range(min_x - 1, max_x + 2))
    elif y > max_y:
        after.update((y + 1) * _ROW + x2 for x2 in range(min_x - 1, max_x + 2))
    return frozenset(after)


def _mismatch(wall_here: int) -> str:
    return "a wall against the open side" if wall_here else "an open side against the wall"


class _Analysis:
    """Facts derived from one state of a grid; thrown away when the grid changes."""

    __slots__ = (
        "base",
        "base_fits",
        "blocked",
        "cut",
        "dirty",
        "dirty_fits",
        "fits",
        "frontier",
        "legal_by_mask",
        "longest_wall",
        "memo",
        "ok",
        "outside",
        "previews",
        "removable",
        "swap_by_mask",
    )

    def __init__(self) -> None:
        # empty cell with a building beside it -> need << 4 | req: the sides with a neighbour
        # (`need`) and those of them that present a wall (`req`); in no particular order
        self.frontier: dict[int, int] | None = None
        # The frontier of an earlier state of the grid and the cells changed since (at most
        # _PATCH_LIMIT): patching it around those cells is cheaper than walking the whole grid.
        self.base: dict[int, int] | None = None
        self.dirty: tuple[int, ...] = ()
        # frontier cell -> True when filling it leaves no hole, worked out when first asked
        # (strict rule); under the classic rule, the cells that would make a hole
        self.ok: dict[int, bool] = {}
        self.blocked: frozenset[int] | None = None
        self.legal_by_mask: dict[int, tuple[Cell, ...]] = {}
        self.removable: tuple[Cell, ...] | None = None
        # the buildings whose removal would strand another one, when every building is reached
        self.cut: frozenset[int] | None = None
        self.outside: frozenset[int] | None = None
        self.longest_wall: int | None = None
        # building cell -> need << 4 | req of its neighbours, for swaps
        self.fits: dict[int, int] | None = None
        # the fits of an earlier state and the cells changed since, like `base` and `dirty`
        self.base_fits: dict[int, int] | None = None
        self.dirty_fits: tuple[int, ...] = ()
        self.swap_by_mask: dict[int, tuple[Cell, ...]] = {}
        # (tile, cell) -> the grid with that tile placed, see `Alhambra.preview`
        self.previews: dict[tuple[int, Cell], Alhambra] = {}
        # what callers derived from this grid, see `Alhambra.derived`
        self.memo: dict[Hashable, object] = {}


#: Grids built from tiles, by hole rule and tiles: restoring a snapshot or sampling worlds for a
#: computer player rebuilds the same grids again and again, and a copy of one built before
#: shares its analysis (legal cells, walls, previews) instead of working it all out anew.
_BUILT: dict[tuple[str, tuple[tuple[Cell, int], ...]], Alhambra] = {}

#: Longest walls by grid (packed cell -> tile), for `Alhambra.longest_wall`; emptied when full.
_WALLS: dict[frozenset[tuple[int, int]], int] = {}
_WALLS_LIMIT = 50_000


class Alhambra:
    """A player's grid. Mutating methods assume legality was checked (`can_*`)."""

    __slots__ = ("_an", "_counts", "_grid", "_max_x", "_max_y", "_min_x", "_min_y", "holes")

    def __init__(self, holes: HoleRule = "classic") -> None:
        if holes not in HOLE_RULES:
            raise ValueError(f"unknown hole rule {holes!r}; expected one of {HOLE_RULES}")
        self.holes: HoleRule = holes
        self._grid: dict[int, int] = {0: 0}
        self._counts = [0] * 6
        self._min_x = self._max_x = self._min_y = self._max_y = 0
        self._an = _Analysis()

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def from_tiles(cls, tiles: Mapping[Cell, int], holes: HoleRule = "classic") -> Alhambra:
        """A grid holding exactly these tiles plus the fountain at (0, 0); not checked for legality
        (use `problems()` for that), so tests and views can build any position."""
        key = (holes, tuple(sorted(tiles.items())))
        template = _BUILT.get(key)
        if template is not None:
            return template.copy()
        alhambra = cls(holes)
        for (x, y), tile in tiles.items():
            cell = (int(x), int(y))
            if cell == ORIGIN:
                if tile != 0:
                    raise ValueError("(0, 0) is the fountain's cell")
                continue
            if not 1 <= tile <= 54:
                raise ValueError(f"no tile {tile}")
            if not (-_HALF < cell[0] < _HALF and -_HALF < cell[1] < _HALF):
                raise ValueError(f"cell {cell} is too far from the fountain")
            alhambra._put(cell, tile)
        if len(_BUILT) >= 256:
            _BUILT.clear()
        _BUILT[key] = alhambra
        return alhambra.copy()

    def copy(self) -> Alhambra:
        other = Alhambra.__new__(Alhambra)
        other.holes = self.holes
        other._grid = self._grid.copy()
        other._counts = self._counts.copy()
        other._min_x, other._max_x = self._min_x, self._max_x
        other._min_y, other._max_y = self._min_y, self._max_y
        other._an = self._an  # analyses are immutable once built, so sharing one is safe
        return other

    # --- reading ------------------------------------------------------------------------------

    @property
    def tiles(self) -> dict[Cell, int]:
        """The buildings by cell, without the fountain (a copy)."""
        return {_cell(k): t for k, t in self._grid.items() if t}

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 2:
            return False
        x, y = cell
        return (
            isinstance(x, int)
            and isinstance(y, int)
            and -_HALF < x < _HALF
            and y * _ROW + x in self._grid
        )

    def __len__(self) -> int:
        """The number of buildings (the fountain excluded)."""
        return len(self._grid) - 1

    def __iter__(self) -> Iterator[tuple[Cell, int]]:
        grid = self._grid
        cells = _CELLS
        return iter([(cells[k], grid[k]) for k in sorted(grid)])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Alhambra) and self._grid == other._grid and self.holes == other.holes
        )

    def __repr__(self) -> str:
        return f"Alhambra({self.tiles!r}, holes={self.holes!r})"

    def tile_at(self, cell: Cell) -> int | None:
        return self._grid.get(_key(cell)) if cell in self else None

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
        x, y = cell
        k = y * _ROW + x
        old = self._an
        box = (self._min_x, self._max_x, self._min_y, self._max_y)
        self._grid[k] = tile
        self._counts[TILE_TYPE[tile]] += 1
        if x < self._min_x:
            self._min_x = x
        elif x > self._max_x:
            self._max_x = x
        if y < self._min_y:
            self._min_y = y
        elif y > self._max_y:
            self._max_y = y
        self._changed(k, tile)
        if old.outside is not None:
            self._an.outside = _outside_after(old.outside, k, box)

    def _changed(self, k: int, placed: int | None = None) -> None:
        """Forget what was derived from the grid before the cell `k` changed, but keep what is
        cheap to patch: a building added, removed or swapped there changes the frontier and the
        swap fits only beside it, and a building `placed` that one can walk to from one
        neighbour only makes just that neighbour a cut vertex."""
        old = self._an
        an = _Analysis()
        if old.frontier is not None:
            an.base, an.dirty = old.frontier, (k,)
        elif old.base is not None and len(old.dirty) < _PATCH_LIMIT:
            an.base, an.dirty = old.base, (*old.dirty, k)
        if old.fits is not None:
            an.base_fits, an.dirty_fits = old.fits, (k,)
        elif old.base_fits is not None and len(old.dirty_fits) < _PATCH_LIMIT:
            an.base_fits, an.dirty_fits = old.base_fits, (*old.dirty_fits, k)
        if placed is not None and old.cut is not None:
            via = self._only_way(k, placed)
            if via is not None:
                an.cut = old.cut if via == 0 else old.cut | {via}
        self._an = an

    @property
    def memo(self) -> dict[Hashable, Any]:
        """The store behind `derived`, for the engine's own inner loops (same rules)."""
        return self._an.memo

    def derived(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`, computed once per state of the grid and kept with the grid's analysis
        (shared by copies, forgotten when the grid changes): the engine keeps the actions it
        lists for a grid here, so a turn that asks for them again builds nothing. `key` must
        name everything `make` depends on besides the grid, and the value is never changed."""
        memo = self._an.memo
        if key in memo:
            return cast(T, memo[key])
        value = memo[key] = make()
        return value

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
        k = _key(cell)
        grid = self._grid
        old = self._an
        # A building one walks to from one neighbour only leaves the other buildings' paths as
        # they were: only that neighbour may stop being a cut vertex.
        cut = old.cut
        via = self._only_way(k, grid[k]) if cut is not None and k not in cut else None
        tile = grid.pop(k)
        self._counts[TILE_TYPE[tile]] -= 1
        x, y = cell
        if x in (self._min_x, self._max_x) or y in (self._min_y, self._max_y):
            xs, ys = zip(*map(_CELLS.__getitem__, grid), strict=True)
            self._min_x, self._max_x, self._min_y, self._max_y = min(xs), max(xs), min(ys), max(ys)
        self._changed(k)
        if cut is not None and via is not None:
            cut = cut - {k, via}
            # A neighbour left with one way in is a leaf, which strands nobody.
            if (
                via
                and self._only_way(via, grid[via]) is None
                and len(self._reachable(exclude=via)) < len(grid) - 1
            ):
                cut |= {via}
            self._an.cut = cut
        return tile

    def _only_way(self, k: int, tile: int) -> int | None:
        """The one neighbour the building `tile` at (or for) cell `k` is walked to from, None if
        there are several or none."""
        grid = self._grid
        mask = TILE_MASK[tile]
        via = None
        for bit, d, opp in _STEPS:
            if not mask & bit:
                t = grid.get(k + d)
                if t is not None and not TILE_MASK[t] & opp:
                    if via is not None:
                        return None
                    via = k + d
        return via

    def swap(self, tile: int, cell: Cell) -> int:
        k = _key(cell)
        old = self._grid[k]
        self._counts[TILE_TYPE[old]] -= 1
        self._grid[k] = tile
        self._counts[TILE_TYPE[tile]] += 1
        cut, outside = self._an.cut, self._an.outside
        self._changed(k)
        # Sides that match their neighbours keep every path through the cell as it was.
        self._an.cut, self._an.outside = cut, outside
        return old

    # --- placement ----------------------------------------------------------------------------

    def _frontier(self) -> dict[int, int]:
        an = self._an
        frontier = an.frontier
        if frontier is not None:
            return frontier
        grid = self._grid
        # Read once: grids built from the same tiles share their analysis, and a computer
        # player in another thread may be working this very analysis out.
        base = an.base
        if base is not None:
            # (need, req) of a cell depends on its four neighbours only: a changed cell gets
            # its own entry anew (or loses it) and rewrites its side of its empty neighbours'.
            frontier = base.copy()
            for k in an.dirty:
                t = grid.get(k)
                if t is None:
                    own = self._empty_entry(k)
                    if own:
                        frontier[k] = own
                    else:
                        frontier.pop(k, None)
                    for step, clear, _says in _TOWARD:
                        n = k + step
                        nr = frontier.get(n)
                        if nr is not None:
                            nr &= clear
                            if nr >> 4:
                                frontier[n] = nr
                            else:
                                del frontier[n]
                else:
                    frontier.pop(k, None)
                    for step, clear, says in _TOWARD:
                        n = k + step
                        if n not in grid:
                            frontier[n] = frontier.get(n, 0) & clear | says[t]
        else:
            frontier = {}
            for c in {k + d for k in grid for d in _DELTAS}:
                if c not in grid:
                    nr = self._empty_entry(c)
                    if nr:
                        frontier[c] = nr
        an.frontier = frontier
        an.base = None
        return frontier

    def _empty_entry(self, c: int) -> int:
        """need << 4 | req of the cell `c` from its four neighbours (0: it has none)."""
        get = self._grid.get
        need = req = 0
        t = get(c - _ROW)
        if t is not None:
            need = 1
            if TILE_MASK[t] & 4:
                req = 1
        t = get(c + 1)
        if t is not None:
            need |= 2
            if TILE_MASK[t] & 8:
                req |= 2
        t = get(c + _ROW)
        if t is not None:
            need |= 4
            if TILE_MASK[t] & 1:
                req |= 4
        t = get(c - 1)
        if t is not None:
            need |= 8
            if TILE_MASK[t] & 2:
                req |= 8
        return need << 4 | req

    def _no_hole(self, c: int) -> bool:
        """Filling the empty cell `c` keeps the hole rule (worked out once per grid state)."""
        if self.holes == "classic":
            return c not in self._blocked()
        ok = self._an.ok
        found = ok.get(c)
        if found is None:
            found = ok[c] = not self._makes_hole(c)
        return found

    def _blocked(self) -> frozenset[int]:
        """Classic rule: the empty cells whose filling would enclose a neighbour on all four
        sides, i.e. the missing neighbour of each frontier cell that has the other three."""
        an = self._an
        blocked = an.blocked
        if blocked is None:
            missing = _MISSING
            blocked = an.blocked = frozenset(
                [n + missing[nr >> 4] for n, nr in self._frontier().items() if missing[nr >> 4]]
            )
        return blocked

    def legal_positions(self, tile: int) -> list[Cell]:
        """Every empty cell where `tile` may be placed, sorted north to south, west to east."""
        return list(self.legal_cells(tile))

    def legal_cells(self, tile: int) -> tuple[Cell, ...]:
        """`legal_positions` as the cached tuple itself, for the engine's inner loops."""
        mask = TILE_MASK[tile]
        an = self._an
        cached = an.legal_by_mask.get(mask)
        if cached is None:
            fit = _FITS[mask]
            frontier = an.frontier
            if frontier is None:
                frontier = self._frontier()
            # The cells are mapped by `map` over the table's own `__getitem__`: a comprehension
            # is a function call of its own, dearer than the few cells it would go through.
            if self.holes == "classic":
                blocked = an.blocked
                if blocked is None:
                    blocked = self._blocked()
                found = [c for c, nr in frontier.items() if fit[nr] and c not in blocked]
                found.sort()
                cached = tuple(map(_CELLS.__getitem__, found))
            else:
                found = [c for c, nr in frontier.items() if fit[nr]]
                found.sort()
                cached = tuple(map(_CELLS.__getitem__, filter(self._no_hole, found)))
            an.legal_by_mask[mask] = cached
        return cached

    def can_place(self, tile: int, cell: Cell) -> bool:
        return self.placement_error(tile, cell) is None

    def placement_error(self, tile: int, cell: Cell) -> str | None:
        """Why `tile` cannot go on `cell`, in words a player understands; None if it can."""
        cell = (int(cell[0]), int(cell[1]))
        # An action is most often checked right after it was listed, from these very cells.
        listed = self._an.legal_by_mask.get(TILE_MASK[tile])
        if listed is not None and cell in listed:
            return None
        if cell == ORIGIN:
            return "That is the fountain's cell; nothing can be built there."
        if cell in self:
            return "That cell already holds a building."
        k = _key(cell)
        info = self._frontier().get(k) if -_HALF < cell[0] < _HALF else None
        if info is None:
            return "A building must touch another building on a side (a corner is not enough)."
        need, req = info >> 4, info & 15
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
        if not self._no_hole(k):
            return self._hole_message()
        return None

    def _hole_message(self) -> str:
        if self.holes == "classic":
            return "It would leave an empty cell enclosed by buildings on all four sides (a hole)."
        return (
            "It would enclose an empty area that can no longer be reached from outside "
            "(no holes of any size under the strict rule)."
        )

    def _makes_hole(self, cell: int) -> bool:
        """Would filling `cell` (currently empty) break the hole rule?"""
        grid = self._grid
        if self.holes == "classic":
            for d in _DELTAS:
                n = cell + d
                if n in grid:
                    continue
                if (
                    (n - 1 in grid or n - 1 == cell)
                    and (n + _ROW in grid or n + _ROW == cell)
                    and (n + 1 in grid or n + 1 == cell)
                    and (n - _ROW in grid or n - _ROW == cell)
                ):
                    return True
            return False
        # strict: the empty cells around `cell` must all still reach the outside.
        ring = [cell + d not in grid for d in _RING]  # True = empty
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
        x, y = _cell(cell)
        min_x, max_x = min(self._min_x, x), max(self._max_x, x)
        min_y, max_y = min(self._min_y, y), max(self._max_y, y)
        checked_runs: set[int] = set()
        for i in empties:
            if run_of[i] in checked_runs:
                continue
            checked_runs.add(run_of[i])
            if not self._escapes(cell + _RING[i], cell, min_x, max_x, min_y, max_y):
                return True
        return False

    def _escapes(
        self, start: int, blocked: int, min_x: int, max_x: int, min_y: int, max_y: int
    ) -> bool:
        grid = self._grid
        seen = {start, blocked}
        stack = [start]
        while stack:
            c = stack.pop()
            cx, cy = _cell(c)
            if cx <= min_x or cx >= max_x or cy <= min_y or cy >= max_y:
                return True
            for d in _DELTAS:
                n = c + d
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
        listed = self._an.swap_by_mask.get(TILE_MASK[tile])
        if listed is not None and cell in listed:
            return None
        if cell == ORIGIN:
            return "The fountain never moves."
        if cell not in self:
            return "There is no building on that cell to swap with."
        grid = self._grid
        mask = TILE_MASK[tile]
        k = _key(cell)
        has_open = False
        for bit, d, opp in _STEPS:
            n = grid.get(k + d)
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
        return list(self.swap_cells(tile))

    def swap_cells(self, tile: int) -> tuple[Cell, ...]:
        """`swap_positions` as the cached tuple itself."""
        mask = TILE_MASK[tile]
        an = self._an
        cached = an.swap_by_mask.get(mask)
        if cached is None:
            fit = _FITS[mask]
            fits = an.fits
            if fits is None:
                fits = self._fits()
            found = [c for c, nr in fits.items() if fit[nr]]
            found.sort()
            cached = tuple(map(_CELLS.__getitem__, found))
            an.swap_by_mask[mask] = cached
        return cached

    def _fits(self) -> dict[int, int]:
        """Building cell (the fountain excluded) -> need << 4 | req of its neighbours."""
        an = self._an
        fits = an.fits
        if fits is not None:
            return fits
        grid = self._grid
        base = an.base_fits
        entry = self._empty_entry  # the same test, read around a building
        if base is not None:
            # As in `_frontier`: a changed cell gets its own entry anew (or loses it) and
            # rewrites its side of its neighbours' (the fountain has no entry).
            fits = base.copy()
            for k in an.dirty_fits:
                t = grid.get(k)
                if t is None:
                    fits.pop(k, None)
                    for step, clear, _says in _TOWARD:
                        n = k + step
                        if n and n in grid:
                            fits[n] = fits.get(n, 0) & clear
                else:
                    fits[k] = entry(k)
                    for step, clear, says in _TOWARD:
                        n = k + step
                        if n and n in grid:
                            fits[n] = fits.get(n, 0) & clear | says[t]
        else:
            fits = {c: entry(c) for c in grid if c}
        an.fits = fits
        an.base_fits = None
        return fits

    def removable(self) -> list[Cell]:
        """Cells whose building may go to the reserve, sorted north to south, west to east."""
        return list(self.removable_cells())

    def removable_cells(self) -> tuple[Cell, ...]:
        """`removable` as the cached tuple itself."""
        an = self._an
        if an.removable is None:
            an.removable = self._removable()
        return an.removable

    def _removable(self) -> tuple[Cell, ...]:
        """`_removal_error` for every building at once: one depth-first walk (Tarjan's) finds
        the cut vertices of the walking graph, the buildings whose removal strands another."""
        grid = self._grid
        cut = self._an.cut
        if cut is None:
            found = self._cut_vertices()
            if found is None:
                return self._stranded()
            cut = self._an.cut = found
        cells = _CELLS
        return tuple(
            [
                cells[c]
                for c in sorted(grid)
                if c
                and c not in cut
                and not (c - 1 in grid and c + 1 in grid and c - _ROW in grid and c + _ROW in grid)
            ]
        )

    def _stranded(self) -> tuple[Cell, ...]:
        """What `_removal_error` allows in a grid where some building cannot be reached (only a
        rigged position): the one unreachable building, if it is the only one."""
        grid = self._grid
        unreached = [c for c in sorted(grid) if c not in self._reachable()]
        if len(unreached) != 1:
            return ()
        c = unreached[0]
        if c - 1 in grid and c + 1 in grid and c - _ROW in grid and c + _ROW in grid:
            return ()
        return (_cell(c),)

    def _cut_vertices(self) -> frozenset[int] | None:
        """The cut vertices of the walking graph, None if some building is not reached (the
        fountain may be listed: it never moves anyway)."""
        grid = self._grid
        adj: dict[int, list[int]] = {}
        for c, t in grid.items():
            mask = TILE_MASK[t]
            nbs = []
            if not mask & 1:
                n = grid.get(c - _ROW)
                if n is not None and not TILE_MASK[n] & 4:
                    nbs.append(c - _ROW)
            if not mask & 2:
                n = grid.get(c + 1)
                if n is not None and not TILE_MASK[n] & 8:
                    nbs.append(c + 1)
            if not mask & 4:
                n = grid.get(c + _ROW)
                if n is not None and not TILE_MASK[n] & 1:
                    nbs.append(c + _ROW)
            if not mask & 8:
                n = grid.get(c - 1)
                if n is not None and not TILE_MASK[n] & 2:
                    nbs.append(c - 1)
            adj[c] = nbs
        # Tarjan's walk, without recursion: each frame is (cell, its parent, its neighbours).
        order = {0: 0}
        low = {0: 0}
        cut: set[int] = set()
        stack: list[tuple[int, int | None, Iterator[int]]] = [(0, None, iter(adj[0]))]
        while stack:
            v, p, rest = stack[-1]
            for w in rest:
                if w not in order:
                    order[w] = low[w] = len(order)
                    stack.append((w, v, iter(adj[w])))
                    break
                if w != p and order[w] < low[v]:
                    low[v] = order[w]
            else:
                stack.pop()
                if p is not None:
                    if low[v] < low[p]:
                        low[p] = low[v]
                    if low[v] >= order[p]:
                        cut.add(p)
        if len(order) < len(grid):
            return None
        return frozenset(cut)

    def can_remove(self, cell: Cell) -> bool:
        return self.removal_error(cell) is None

    def removal_error(self, cell: Cell) -> str | None:
        cell = (int(cell[0]), int(cell[1]))
        listed = self._an.removable
        if listed is not None and cell in listed:
            return None
        if cell == ORIGIN:
            return "The fountain never moves."
        if cell not in self:
            return "There is no building on that cell."
        return self._removal_error(cell)

    def _removal_error(self, cell: Cell) -> str | None:
        grid = self._grid
        k = _key(cell)
        if all(k + d in grid for d in _DELTAS):
            return "A building with buildings on all four sides cannot be removed."
        reached = self._reachable(exclude=k)
        if len(reached) != len(grid) - 1:
            return (
                "Removing it would cut other buildings off from the fountain: every building "
                "must stay reachable on foot."
            )
        return None

    def _reachable(self, exclude: int | None = None) -> set[int]:
        """Cells reachable on foot from the fountain through open, matched sides."""
        grid = self._grid
        seen = {0}
        stack = [0]
        while stack:
            c = stack.pop()
            mask = TILE_MASK[grid[c]]
            for bit, d, opp in _STEPS:
                if mask & bit:
                    continue
                n = c + d
                if n in seen or n == exclude:
                    continue
                t = grid.get(n)
                if t is None or TILE_MASK[t] & opp:
                    continue
                seen.add(n)
                stack.append(n)
        return seen

    # --- walls --------------------------------------------------------------------------------

    def _outside(self) -> frozenset[int]:
        """Empty cells (in the bounding box grown by one) connected to the open outside."""
        an = self._an
        if an.outside is not None:
            return an.outside
        grid = self._grid
        min_x, max_x = self._min_x - 1, self._max_x + 1
        min_y, max_y = self._min_y - 1, self._max_y + 1
        start = min_y * _ROW + min_x
        seen = {start}
        stack = [start]
        while stack:
            c = stack.pop()
            # Moving east or west stays in the row, north or south in the column.
            x = (c + _HALF) % _ROW - _HALF
            if x > min_x:
                n = c - 1
                if n not in seen and n not in grid:
                    seen.add(n)
                    stack.append(n)
            if x < max_x:
                n = c + 1
                if n not in seen and n not in grid:
                    seen.add(n)
                    stack.append(n)
            y = (c - x) // _ROW
            if y > min_y:
                n = c - _ROW
                if n not in seen and n not in grid:
                    seen.add(n)
                    stack.append(n)
            if y < max_y:
                n = c + _ROW
                if n not in seen and n not in grid:
                    seen.add(n)
                    stack.append(n)
        an.outside = frozenset(seen)
        return an.outside

    def _wall_edges(self) -> list[tuple[int, int]]:
        """`outer_wall_segments` as edges between packed lattice points (cell (x, y) spans the
        points x..x+1, y..y+1), in the same order."""
        outside = self._outside()
        edges = []
        for k, tile in self._grid.items():
            mask = TILE_MASK[tile]
            if not mask:
                continue
            if mask & 1 and k - _ROW in outside:
                edges.append((k, k + 1))
            if mask & 2 and k + 1 in outside:
                edges.append((k + 1, k + _ROW + 1))
            if mask & 4 and k + _ROW in outside:
                edges.append((k + _ROW, k + _ROW + 1))
            if mask & 8 and k - 1 in outside:
                edges.append((k, k + _ROW))
        return edges

    def outer_wall_segments(self) -> list[tuple[Cell, Side]]:
        """Every wall side that faces the open outside, as (cell, side)."""
        outside = self._outside()
        segments = []
        for k, tile in self._grid.items():
            mask = TILE_MASK[tile]
            if not mask:
                continue
            for side, d in zip(Side, _DELTAS, strict=True):
                if mask & side.bit and k + d in outside:
                    segments.append((_cell(k), side))
        return segments

    def longest_wall(self) -> int:
        """Segments in the longest continuous outer wall (RULES.md section 5)."""
        an = self._an
        found = an.longest_wall
        if found is None:
            # The wall depends on the tiles and their cells only. A computer player asks it of
            # the same grids again and again from fresh copies and previews (nine times in ten
            # in a game of `hard` players), so the answers are kept by grid.
            key = frozenset(self._grid.items())
            found = _WALLS.get(key)
            if found is None:
                if len(_WALLS) >= _WALLS_LIMIT:
                    _WALLS.clear()
                found = _WALLS[key] = _longest_trail_length(self._wall_edges())
            an.longest_wall = found
        return found

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
        if grid.get(0) != 0:
            out.append("the fountain is not at (0, 0)")
        for k, tile in grid.items():
            mask = TILE_MASK[tile]
            for bit, d, opp in _STEPS:
                n = grid.get(k + d)
                if n is not None and bool(mask & bit) != bool(TILE_MASK[n] & opp):
                    out.append(f"unmatched {_SIDE_NAME[bit]} side at {_cell(k)}")
        unreached = set(grid) - self._reachable()
        if unreached:
            out.append(f"not reachable from the fountain: {sorted(_cell(c) for c in unreached)}")
        for c in self._holes():
            out.append(f"hole at {c}")
        return out

    def _holes(self) -> list[Cell]:
        grid = self._grid
        outside = self._outside()
        holes = []
        for y in range(self._min_y, self._max_y + 1):
            for x in range(self._min_x, self._max_x + 1):
                k = y * _ROW + x
                if k in grid:
                    continue
                if self.holes == "strict":
                    if k not in outside:
                        holes.append((x, y))
                elif all(k + d in grid for d in _DELTAS):
                    holes.append((x, y))
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


def _longest_trail_length(edges: list[tuple[int, int]]) -> int:
    """`_longest_trail(edges)[0]`, for scoring and look-ahead, which only need the length."""
    adj: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b) in enumerate(edges):
        la = adj.get(a)
        if la is None:
            adj[a] = [(i, b)]
        else:
            la.append((i, b))
        lb = adj.get(b)
        if lb is None:
            adj[b] = [(i, a)]
        else:
            lb.append((i, a))
    seen: set[int] = set()
    best = 0
    for root in adj:
        if root in seen:
            continue
        seen.add(root)
        comp = [root]
        j = 0
        while j < len(comp):
            for _i, w in adj[comp[j]]:
                if w not in seen:
                    seen.add(w)
                    comp.append(w)
            j += 1
        degrees = 0
        odd = []
        for v in comp:
            d = len(adj[v])
            degrees += d
            if d & 1:
                odd.append(v)
        size = degrees // 2
        if size <= best:
            continue
        if len(odd) <= 2:
            best = size
            continue
        best = max(best, len(_dfs_longest(adj, odd, size, True)))
    return best


def _longest_trail(edges: list[tuple[P, P]], want_edges: bool = False) -> tuple[int, list[int]]:
    """The length of the longest trail (a walk using each edge at most once) in a small graph,
    and the indices of its edges in walking order (only meaningful with `want_edges`, which
    makes components with an Euler trail be walked too).

    A component with at most two odd vertices has an Euler trail, which uses all its edges.
    Otherwise a longest trail starts and ends at odd vertices (an even end vertex would have an
    unused edge to extend by), so a depth-first search from the odd vertices finds it.
    """
    adj: dict[P, list[tuple[int, P]]] = {}
    for i, (a, b) in enumerate(edges):
        adj.setdefault(a, []).append((i, b))
        adj.setdefault(b, []).append((i, a))
    seen: set[P] = set()
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
    adj: dict[P, list[tuple[int, P]]], starts: list[P], total: int, _full: bool
) -> list[int]:
    best: list[int] = []
    path: list[int] = []
    used: set[int] = set()

    def walk(v: P) -> bool:
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
