"""A player's Alhambra: the grid, its walls, the reserve, and codes on the cells to choose from.

    png = render_alhambra(view, seat, name="Ana", placing=tile)            # where can it go?
    png = render_alhambra(view, seat, name="Ana", placing=tile, mode="swap")
    png = render_alhambra(view, seat, name="Ana", mode="remove")

Discord shows these as attachments, fitted into 550 x 350 on desktop and about 320 px wide on a
phone (`render.display`). So the picture is landscape and always the same size (640 x 420):
the grid on the left, and beside it the name, score, wall, counts per type, what to do and the
reserve. No text is under 20 px (10 px on a phone). A cell code must be readable inside its
cell, which needs cells of at least `CODE_CELL` px, so a large Alhambra is shown through a
window of at most 7 x 7 cells placed to hold as many of the cells to choose from as possible;
the codes of the others are listed beside the grid with the direction they lie in.

In a language written right to left the side panel's contents are right-aligned within it (the
name, the pills, the counts, the prompt, the reserve). The grid and the panel keep their
places: the grid is the game's geometry (west is left in every language), and `alhambra_layout`
gives the cell boxes without knowing the reader's language.

`alhambra_layout` is the geometry the picture is drawn from, so callers and tests can learn
which code is written in which pixel box without decoding the image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from PIL import Image, ImageDraw

from engine import TILES, Alhambra, Building, PlayerView, SeatView

from . import text
from .canvas import building_chip, new_canvas, paste, pill, to_png
from .cells import cell_code, column_label, has_code, row_label
from .labels import RLM, Labels, Mirror, building_name, label
from .palette import (
    GRID,
    INK,
    LABEL_EDGE,
    LABEL_FILL,
    MUTED,
    PANEL,
    WALL_HIGHLIGHT,
    darker,
)
from .sprites import tile_sprite, wall_box

Mode = Literal["place", "swap", "remove"]
Box = tuple[int, int, int, int]
Cell = tuple[int, int]

WIDTH, HEIGHT = 640, 420
MARGIN = 12
SIDE_W = 208
#: The smallest font: 20 px is 10 px on a phone (x 0.5) and 17 on desktop (x 0.83).
SMALL = 20
AXIS_TOP = 26
AXIS_LEFT = 30
GRID_LEFT = MARGIN + AXIS_LEFT
GRID_TOP = MARGIN + AXIS_TOP
GRID_W = WIDTH - MARGIN - SIDE_W - 12 - GRID_LEFT
GRID_H = HEIGHT - MARGIN - GRID_TOP
MAX_CELL = 64
#: Cells holding a code: its three characters at SMALL px (45 px for the widest, W25) fit
#: inside the label, so at most 7 x 7 such cells fit beside the side panel.
CODE_CELL = 52
#: Cells of an Alhambra only looked at: the axis letters and numbers stay apart.
VIEW_CELL = 28
RESERVE_TILE = 40


@dataclass(frozen=True, slots=True)
class AlhambraLayout:
    """Where everything goes. Cells (x, y) map to pixels through `cell_box`."""

    width: int
    height: int
    cell: int
    #: the window of cells drawn: x in min_x..max_x, y in min_y..max_y
    min_x: int
    min_y: int
    max_x: int
    max_y: int
    #: pixel of the top-left corner of cell (min_x, min_y)
    grid_x: int
    grid_y: int
    #: code -> pixel box of the marked cell it labels (cells inside the window)
    labels: dict[str, Box] = field(default_factory=dict)
    #: code -> cell, for every marked cell (inside the window or not)
    cells: dict[str, Cell] = field(default_factory=dict)
    #: code -> cell of the marked cells outside the window, listed beside the grid
    outside: dict[str, Cell] = field(default_factory=dict)

    def cell_box(self, x: int, y: int) -> Box:
        left = self.grid_x + (x - self.min_x) * self.cell
        top = self.grid_y + (y - self.min_y) * self.cell
        return left, top, left + self.cell - 1, top + self.cell - 1

    def shows(self, x: int, y: int) -> bool:
        return self.min_x <= x <= self.max_x and self.min_y <= y <= self.max_y


def marked_cells(alhambra: Alhambra, placing: int | None, mode: Mode) -> list[Cell]:
    """The cells the decision offers, straight from the engine's rules."""
    if mode == "remove":
        return alhambra.removable()
    if placing is None:
        return []
    if not 1 <= placing <= 54:
        raise ValueError(f"no building tile {placing}")
    if mode == "swap":
        return alhambra.swap_positions(placing)
    if mode == "place":
        return alhambra.legal_positions(placing)
    raise ValueError(f"unknown mode {mode!r}; expected place, swap or remove")


def _span(lo: int, hi: int, size: int, marks: list[int], centre: float) -> tuple[int, int]:
    """A window of `size` cells inside lo..hi holding the most of `marks`, nearest `centre`."""
    if hi - lo + 1 <= size:
        # Never smaller than `size`: grow both ways so a young Alhambra stays centred.
        while hi - lo + 1 < size:
            lo, hi = (lo - 1, hi) if -lo <= hi else (lo, hi + 1)
        return lo, hi
    best: tuple[int, float, int] | None = None
    for start in range(lo, hi - size + 2):
        inside = sum(start <= m <= start + size - 1 for m in marks)
        key = (inside, -abs(start + (size - 1) / 2 - centre), -start)
        if best is None or key > best:
            best = key
    assert best is not None
    start = -best[2]
    return start, start + size - 1


def _window(player: PlayerView, marks: list[Cell]) -> tuple[int, int, int, int, int]:
    """(cell size, min_x, max_x, min_y, max_y) of the cells to draw."""
    built = [(0, 0)] + [(x, y) for x, y, _t in player.alhambra]
    cells = built + marks
    lo_x, hi_x = min(x for x, _ in cells) - 1, max(x for x, _ in cells) + 1
    lo_y, hi_y = min(y for _, y in cells) - 1, max(y for _, y in cells) + 1
    smallest = CODE_CELL if marks else VIEW_CELL
    cols_cap, rows_cap = GRID_W // smallest, GRID_H // smallest
    cols = min(max(5, hi_x - lo_x + 1), cols_cap)
    rows = min(max(5, hi_y - lo_y + 1), rows_cap)
    focus = marks or built
    cx = sum(x for x, _ in focus) / len(focus)
    cy = sum(y for _, y in focus) / len(focus)
    min_x, max_x = _span(lo_x, hi_x, cols, [x for x, _ in marks], cx)
    min_y, max_y = _span(lo_y, hi_y, rows, [y for _, y in marks], cy)
    if marks:  # the rows and columns were chosen apart: make sure the pair holds a mark
        inside = [m for m in marks if min_x <= m[0] <= max_x and min_y <= m[1] <= max_y]
        if not inside:
            mx, my = min(marks, key=lambda m: abs(m[0] - cx) + abs(m[1] - cy))
            min_x, max_x = _span(lo_x, hi_x, cols, [mx], mx)
            min_y, max_y = _span(lo_y, hi_y, rows, [my], my)
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    cell = max(smallest, min(MAX_CELL, GRID_W // cols, GRID_H // rows))
    return cell, min_x, max_x, min_y, max_y


def _layout(player: PlayerView, marks: list[Cell]) -> AlhambraLayout:
    cell, min_x, max_x, min_y, max_y = _window(player, marks)
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    grid_x = GRID_LEFT + (GRID_W - cols * cell) // 2
    grid_y = GRID_TOP + (GRID_H - rows * cell) // 2
    layout = AlhambraLayout(WIDTH, HEIGHT, cell, min_x, min_y, max_x, max_y, grid_x, grid_y)
    for x, y in marks:
        if has_code(x, y):
            code = cell_code(x, y)
            layout.cells[code] = (x, y)
            if layout.shows(x, y):
                layout.labels[code] = layout.cell_box(x, y)
            else:
                layout.outside[code] = (x, y)
    return layout


def alhambra_layout(
    view: SeatView, seat: int, *, placing: int | None = None, mode: Mode = "place"
) -> AlhambraLayout:
    """The geometry `render_alhambra` draws with the same arguments."""
    marks = marked_cells(view.alhambra(seat), placing, mode)
    return _layout(view.table[seat], marks)


def _prompted(placing: int | None, mode: Mode) -> bool:
    return placing is not None or mode == "remove"


@text.in_its_digits
def alhambra_image(
    view: SeatView,
    seat: int,
    *,
    name: str,
    placing: int | None = None,
    mode: Mode = "place",
    labels: Labels | None = None,
) -> Image.Image:
    """The picture as a Pillow image (see `render_alhambra`)."""
    if not 0 <= seat < len(view.table):
        raise ValueError(f"no seat {seat} in a game of {len(view.table)}")
    player = view.table[seat]
    alhambra = view.alhambra(seat)
    marks = marked_cells(alhambra, placing, mode)
    lay = _layout(player, marks)
    img, d = new_canvas(lay.width, lay.height)
    _grid(img, d, lay, player, alhambra)
    _labels(d, lay, mode)
    y = _header(img, d, player, name, labels)
    if _prompted(placing, mode):
        y = _prompt(img, d, lay, placing, mode, y, labels)
    _reserve(img, d, player, y, labels)
    return img


@text.in_its_digits
def render_alhambra(
    view: SeatView,
    seat: int,
    *,
    name: str,
    placing: int | None = None,
    mode: Mode = "place",
    labels: Labels | None = None,
) -> bytes:
    """PNG of `seat`'s Alhambra, drawn for `name`.

    With `placing` (a tile id), the cells where that building may go are marked and labelled
    with their codes (`render.cells`): empty legal cells for "place" (a bought building, or a
    reserve building put back), occupied cells it may replace for "swap". With mode "remove"
    the buildings that may go to the reserve are labelled. `labels` are the words in the
    reader's language (`render.labels`).
    """
    return to_png(alhambra_image(view, seat, name=name, placing=placing, mode=mode, labels=labels))


# --- the side: who, how far, what to do, the reserve ------------------------------------------

SIDE_X = WIDTH - MARGIN - SIDE_W


def _side(labels: Labels | None) -> Mirror:
    """x positions in the side panel, mirrored across its middle when the language is written
    right to left: what starts at its left edge then starts at its right edge."""
    return Mirror(labels, 2 * SIDE_X + SIDE_W)


def _lines(lines: list[str], m: Mirror) -> list[str]:
    """Wrapped lines of a right-to-left text each read right to left, not only the first
    (a line may start with a name or a cell code)."""
    return [line if not m.on or line.startswith(RLM) else RLM + line for line in lines]


def _header(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    player: PlayerView,
    name: str,
    labels: Labels | None,
) -> int:
    """Name, points and wall, and the buildings per type; returns the y below them."""
    x, right = SIDE_X, WIDTH - MARGIN
    m = _side(labels)
    shown = name if text.clean(name, 24, True) else label(labels, "player", n=player.seat + 1)
    text.draw(d, (m.x(x), MARGIN), shown, 24, INK, bold=True, anchor=m.anchor("lt"),
              max_width=SIDE_W)  # fmt: skip
    y = MARGIN + 36
    points = label(labels, "points", n=player.score)
    wall = label(labels, "wall", n=player.wall)
    pad = SMALL  # a pill adds half its font size each side
    together = text.width(text.clean(points, SMALL, True), SMALL, True) + pad + 8
    together += text.width(text.clean(wall, SMALL, True), SMALL, True) + pad
    start = m.anchor("l")
    box = pill(d, (m.x(x), y), points, SMALL, PANEL, anchor=start, max_width=SIDE_W - pad)
    if together <= SIDE_W:  # side by side when both fit, else the wall on a line of its own
        after = box[0] - 8 if m.on else box[2] + 8
        room = (after - x if m.on else right - after) - pad
        pill(d, (after, y), wall, SMALL, WALL_HIGHLIGHT, anchor=start, max_width=room)
    else:
        y += 36
        pill(d, (m.x(x), y), wall, SMALL, WALL_HIGHLIGHT, anchor=start, max_width=SIDE_W - pad)
    y += 40
    step = SIDE_W // 3
    for i, building in enumerate(Building):
        r, c = divmod(i, 3)
        bx, by = x + c * step, y + r * 34
        building_chip(img, d, m.left(bx, 28), by, building, 28)
        count = str(player.counts[building])
        text.draw(d, (m.x(bx + 34), by + 14), count, SMALL, INK, bold=True, anchor=m.anchor("lm"))
    return y + 2 * 34 + 6


def _prompt(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    lay: AlhambraLayout,
    placing: int | None,
    mode: Mode,
    y: int,
    labels: Labels | None,
) -> int:
    """What the codes are for: the building in hand and what to do with it; then the codes
    of marked cells the window leaves out. Returns the y below."""
    x, right = SIDE_X, WIDTH - MARGIN
    m = _side(labels)
    lines_x = x + 8
    if placing is not None and mode != "remove":
        info = TILES[placing]
        assert info.building is not None
        key = "prompt_swap" if mode == "swap" else "prompt_place"
        message = label(labels, key, building=building_name(labels, info.building), cost=info.cost)
    else:
        message = label(labels, "prompt_remove")
    if not lay.cells:
        message = label(labels, "prompt_remove_none" if mode == "remove" else "prompt_place_none")
    room = right - lines_x - 8
    if placing is not None and mode != "remove":
        room -= 52
    lines = _lines(text.wrap(message, SMALL, room, max_lines=5), m)
    height = max(56 if placing is not None and mode != "remove" else 0, len(lines) * 24 + 12)
    d.rounded_rectangle((x, y, right, y + height), 8, fill=PANEL, outline=GRID, width=2)
    if placing is not None and mode != "remove":
        paste(img, tile_sprite(placing, 44), (round(m.left(right - 50, 44)), y + 6))
    for i, line in enumerate(lines):
        text.draw(d, (m.x(lines_x), y + 8 + i * 24), line, SMALL, INK, anchor=m.anchor("lt"))
    y += height + 8
    if lay.outside:
        y = _outside(d, lay, y, labels)
    return y


_ARROWS = {
    (-1, -1): "↖",
    (0, -1): "↑",
    (1, -1): "↗",
    (-1, 0): "←",
    (1, 0): "→",
    (-1, 1): "↙",
    (0, 1): "↓",
    (1, 1): "↘",
}


def _outside(d: ImageDraw.ImageDraw, lay: AlhambraLayout, y: int, labels: Labels | None) -> int:
    """The marked cells beyond the window, grouped by the direction they lie in."""
    groups: dict[str, list[str]] = {}
    for code, (cx, cy) in sorted(lay.outside.items(), key=lambda kv: (kv[1][1], kv[1][0])):
        dx = -1 if cx < lay.min_x else 1 if cx > lay.max_x else 0
        dy = -1 if cy < lay.min_y else 1 if cy > lay.max_y else 0
        groups.setdefault(_ARROWS[(dx, dy)], []).append(code)
    words = "  ".join(f"{arrow} {' '.join(codes)}" for arrow, codes in groups.items())
    message = label(labels, "outside", codes=words)
    m = _side(labels)
    lines = _lines(text.wrap(message, SMALL, SIDE_W, max_lines=3), m)
    for i, line in enumerate(lines):
        text.draw(d, (m.x(SIDE_X), y + i * 24), line, SMALL, INK, bold=True, anchor=m.anchor("lt"))
    return y + len(lines) * 24 + 8


def _reserve(
    img: Image.Image, d: ImageDraw.ImageDraw, p: PlayerView, y: int, labels: Labels | None
) -> None:
    x, right = SIDE_X, WIDTH - MARGIN
    m = _side(labels)
    title = label(labels, "reserve")
    start = m.anchor("lt")
    w = text.draw(d, (m.x(x), y), title, SMALL, MUTED, bold=True, anchor=start,
                  max_width=SIDE_W // 2)  # fmt: skip
    if not p.reserve:
        empty = label(labels, "empty")
        text.draw(d, (m.x(x + w + 10), y), empty, SMALL, MUTED, anchor=start,
                  max_width=right - x - w - 10)  # fmt: skip
        return
    y += 28
    per_row = (SIDE_W + 6) // (RESERVE_TILE + 6)
    rows = max(1, (HEIGHT - MARGIN - y + 6) // (RESERVE_TILE + 6))
    room = per_row * rows
    shown = p.reserve if len(p.reserve) <= room else p.reserve[: room - 1]
    for i, tile in enumerate(shown):
        r, c = divmod(i, per_row)
        paste(
            img,
            tile_sprite(tile, RESERVE_TILE),
            (round(m.left(x + c * (RESERVE_TILE + 6), RESERVE_TILE)), y + r * (RESERVE_TILE + 6)),
        )
    if len(shown) < len(p.reserve):  # "+3" in the last place: how many more are there
        r, c = divmod(len(shown), per_row)
        cx = x + c * (RESERVE_TILE + 6) + RESERVE_TILE / 2
        cy = y + r * (RESERVE_TILE + 6) + RESERVE_TILE / 2
        more = f"+{len(p.reserve) - len(shown)}"
        text.draw(d, (m.x(cx), cy), more, SMALL, MUTED, bold=True, anchor="mm")


# --- the grid --------------------------------------------------------------------------------


def _grid(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    lay: AlhambraLayout,
    player: PlayerView,
    alhambra: Alhambra,
) -> None:
    s = lay.cell
    for x in range(lay.min_x, lay.max_x + 1):
        axis = column_label(x)
        if axis:
            left, top, right, _ = lay.cell_box(x, lay.min_y)
            text.draw(d, ((left + right) / 2, top - 3), axis, SMALL, MUTED, anchor="mb")
    for y in range(lay.min_y, lay.max_y + 1):
        axis = row_label(y)
        if axis:
            left, top, _, bottom = lay.cell_box(lay.min_x, y)
            text.draw(d, (left - 5, (top + bottom) / 2), axis, SMALL, MUTED, anchor="rm")
    # Empty cells as faint squares, so distances and rows can be counted.
    g = 2 if s >= 24 else 1
    for y in range(lay.min_y, lay.max_y + 1):
        for x in range(lay.min_x, lay.max_x + 1):
            left, top, right, bottom = lay.cell_box(x, y)
            d.rectangle((left + g, top + g, right - g, bottom - g), outline=GRID)
    if lay.shows(0, 0):
        paste(img, tile_sprite(0, s), lay.cell_box(0, 0)[:2])
    for x, y, tile in player.alhambra:
        if lay.shows(x, y):
            paste(img, tile_sprite(tile, s), lay.cell_box(x, y)[:2])
    if player.wall:
        for (x, y), side in alhambra.longest_wall_segments():
            if lay.shows(x, y):
                left, top, _, _ = lay.cell_box(x, y)
                d.rectangle(wall_box(s, side, left, top), fill=WALL_HIGHLIGHT)
    _cut_edges(d, lay, player)


def _cut_edges(d: ImageDraw.ImageDraw, lay: AlhambraLayout, player: PlayerView) -> None:
    """A dashed edge where the window cuts the Alhambra, so a crop never looks complete."""
    xs = [0] + [x for x, _y, _t in player.alhambra]
    ys = [0] + [y for _x, y, _t in player.alhambra]
    left, top, _, _ = lay.cell_box(lay.min_x, lay.min_y)
    _, _, right, bottom = lay.cell_box(lay.max_x, lay.max_y)
    ink = darker(GRID, 0.6)
    dash = 8
    if min(xs) < lay.min_x:
        for yy in range(top, bottom, 2 * dash):
            d.line((left - 2, yy, left - 2, min(bottom, yy + dash)), fill=ink, width=3)
    if max(xs) > lay.max_x:
        for yy in range(top, bottom, 2 * dash):
            d.line((right + 2, yy, right + 2, min(bottom, yy + dash)), fill=ink, width=3)
    if min(ys) < lay.min_y:
        for xx in range(left, right, 2 * dash):
            d.line((xx, top - 2, min(right, xx + dash), top - 2), fill=ink, width=3)
    if max(ys) > lay.max_y:
        for xx in range(left, right, 2 * dash):
            d.line((xx, bottom + 2, min(right, xx + dash), bottom + 2), fill=ink, width=3)


def _labels(d: ImageDraw.ImageDraw, lay: AlhambraLayout, mode: Mode) -> None:
    s = lay.cell
    for code, (left, top, right, bottom) in lay.labels.items():
        if mode == "place":
            g = 2
            d.rounded_rectangle(
                (left + g, top + g, right - g, bottom - g),
                max(2, s // 8),
                fill=LABEL_FILL,
                outline=LABEL_EDGE,
                width=2,
            )
            text.draw(d, ((left + right) / 2, (top + bottom) / 2), code, SMALL, INK, anchor="mm")
        else:
            # An occupied cell: ring it and put the code on a tag over its lower half, so the
            # shape and the walls (what a swap must match) stay visible.
            d.rectangle((left, top, right, bottom), outline=LABEL_EDGE, width=3)
            w = text.width(code, SMALL) + 8
            cx, cy = (left + right) / 2, bottom - SMALL / 2 - 5
            h = SMALL + 4
            tag = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            d.rounded_rectangle(tag, 4, fill=LABEL_FILL, outline=LABEL_EDGE)
            text.draw(d, (cx, cy), code, SMALL, INK, anchor="mm")
