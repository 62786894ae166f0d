"""A player's Alhambra: the grid, its walls, the reserve, and labels on the cells to choose from.

    png = render_alhambra(view, seat, name="Ana", placing=tile)            # where can it go?
    png = render_alhambra(view, seat, name="Ana", placing=tile, mode="swap")
    png = render_alhambra(view, seat, name="Ana", mode="remove")

`alhambra_layout` is the geometry the picture is drawn from, so callers and tests can learn
which code is written in which pixel box without decoding the image.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from engine import TILES, Alhambra, Building, PlayerView, SeatView, Side

from . import text
from .canvas import building_chip, new_canvas, pill, to_png
from .cells import cell_code, column_label, has_code, row_label
from .labels import Labels, building_name, label
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
from .sprites import paste, tile_sprite, wall_box

Mode = Literal["place", "swap", "remove"]
Box = tuple[int, int, int, int]
Cell = tuple[int, int]

MARGIN = 16
HEADER = 86
AXIS_TOP = 22
AXIS_LEFT = 30
MAX_CELL = 64
MIN_CELL = 14
GRID_MAX_W = 1240
GRID_MAX_H = 1100
MIN_WIDTH = 480
RESERVE_CELL = 48
PROMPT = 50


@dataclass(frozen=True, slots=True)
class AlhambraLayout:
    """Where everything goes. Cells (x, y) map to pixels through `cell_box`."""

    width: int
    height: int
    cell: int
    #: visible cells: x in min_x..max_x, y in min_y..max_y
    min_x: int
    min_y: int
    max_x: int
    max_y: int
    #: pixel of the top-left corner of cell (min_x, min_y)
    grid_x: int
    grid_y: int
    #: code -> pixel box of the marked cell it labels
    labels: dict[str, Box]
    #: code -> cell
    cells: dict[str, Cell]
    reserve_y: int
    reserve_rows: int
    reserve_per_row: int

    def cell_box(self, x: int, y: int) -> Box:
        left = self.grid_x + (x - self.min_x) * self.cell
        top = self.grid_y + (y - self.min_y) * self.cell
        return left, top, left + self.cell - 1, top + self.cell - 1


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


def _layout(player: PlayerView, marks: list[Cell], prompt: bool) -> AlhambraLayout:
    xs = [0] + [x for x, _y, _t in player.alhambra] + [x for x, _y in marks]
    ys = [0] + [y for _x, y, _t in player.alhambra] + [y for _x, y in marks]
    min_x, max_x, min_y, max_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    # Never smaller than 5 x 5, so a young Alhambra does not look like a thumbnail.
    while max_x - min_x < 4:
        min_x, max_x = (min_x - 1, max_x) if -min_x <= max_x else (min_x, max_x + 1)
    while max_y - min_y < 4:
        min_y, max_y = (min_y - 1, max_y) if -min_y <= max_y else (min_y, max_y + 1)
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    cell = max(MIN_CELL, min(MAX_CELL, GRID_MAX_W // cols, GRID_MAX_H // rows))
    grid_w, grid_h = cols * cell, rows * cell
    width = max(MIN_WIDTH, grid_w + AXIS_LEFT + 2 * MARGIN)
    grid_x = MARGIN + AXIS_LEFT + (width - 2 * MARGIN - AXIS_LEFT - grid_w) // 2
    grid_y = HEADER + (PROMPT if prompt else 0) + AXIS_TOP
    reserve_y = grid_y + grid_h + 14
    per_row = max(1, (width - 2 * MARGIN - 90) // (RESERVE_CELL + 6))
    n = len(player.reserve)
    reserve_rows = max(1, -(-n // per_row))
    height = reserve_y + reserve_rows * (RESERVE_CELL + 6) + MARGIN
    layout = AlhambraLayout(
        width,
        height,
        cell,
        min_x,
        min_y,
        max_x,
        max_y,
        grid_x,
        grid_y,
        {},
        {},
        reserve_y,
        reserve_rows,
        per_row,
    )
    for x, y in marks:
        if has_code(x, y):
            code = cell_code(x, y)
            layout.labels[code] = layout.cell_box(x, y)
            layout.cells[code] = (x, y)
    return layout


def alhambra_layout(
    view: SeatView, seat: int, *, placing: int | None = None, mode: Mode = "place"
) -> AlhambraLayout:
    """The geometry `render_alhambra` draws with the same arguments."""
    marks = marked_cells(view.alhambra(seat), placing, mode)
    return _layout(view.table[seat], marks, _prompted(placing, mode))


def _prompted(placing: int | None, mode: Mode) -> bool:
    return placing is not None or mode == "remove"


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
    lay = _layout(player, marks, _prompted(placing, mode))
    img, d = new_canvas(lay.width, lay.height)
    _header(d, lay, player, name, labels)
    if _prompted(placing, mode):
        _prompt(img, d, lay, placing, mode, labels)
    _grid(img, d, lay, player, alhambra)
    _labels(d, lay, mode)
    _reserve(img, d, lay, player, labels)
    return img


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


# --- drawing -------------------------------------------------------------------------------------


def _header(
    d: ImageDraw.ImageDraw,
    lay: AlhambraLayout,
    player: PlayerView,
    name: str,
    labels: Labels | None,
) -> None:
    right = lay.width - MARGIN
    points = label(labels, "points", n=player.score)
    score_box = pill(d, (right, MARGIN), points, 16, PANEL, anchor="r", max_width=120)
    wall = label(labels, "wall", n=player.wall)
    wall_box_ = pill(
        d, (score_box[0] - 8, MARGIN), wall, 16, WALL_HIGHLIGHT, anchor="r", max_width=120
    )
    text.draw(
        d,
        (MARGIN, MARGIN - 2),
        name or label(labels, "player", n=player.seat + 1),
        28,
        INK,
        bold=True,
        max_width=wall_box_[0] - MARGIN - 12,
    )
    # Counts per type: a chip with the letter, then the number.
    x = MARGIN
    y = MARGIN + 42
    for building in Building:
        building_chip(d, x, y, building, 24)
        text.draw(
            d, (x + 29, y + 12), str(player.counts[building]), 18, INK, bold=True, anchor="lm"
        )
        x += 62


def _prompt(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    lay: AlhambraLayout,
    placing: int | None,
    mode: Mode,
    labels: Labels | None,
) -> None:
    """What the labels are for: the building in hand and what to do with it."""
    y = HEADER
    d.rounded_rectangle(
        (MARGIN, y, lay.width - MARGIN, y + PROMPT - 8), 8, fill=PANEL, outline=GRID
    )
    x = MARGIN + 6
    mid = y + (PROMPT - 8) / 2
    if placing is not None and mode != "remove":
        paste(img, tile_sprite(placing, 36), (x, round(mid - 18)))
        x += 44
        info = TILES[placing]
        assert info.building is not None
        key = "prompt_swap" if mode == "swap" else "prompt_place"
        message = label(labels, key, building=building_name(labels, info.building), cost=info.cost)
    else:
        message = label(labels, "prompt_remove")
    if not lay.labels:
        message = label(labels, "prompt_remove_none" if mode == "remove" else "prompt_place_none")
    text.draw(d, (x, mid), message, 17, INK, anchor="lm", max_width=lay.width - MARGIN - x - 8)


def _grid(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    lay: AlhambraLayout,
    player: PlayerView,
    alhambra: Alhambra,
) -> None:
    s = lay.cell
    axis_size = max(10, min(15, s // 3))
    for x in range(lay.min_x, lay.max_x + 1):
        axis = column_label(x)
        if axis:
            left, top, right, _ = lay.cell_box(x, lay.min_y)
            text.draw(d, ((left + right) / 2, top - 4), axis, axis_size, MUTED, anchor="mb")
    for y in range(lay.min_y, lay.max_y + 1):
        axis = row_label(y)
        if axis:
            left, top, _, bottom = lay.cell_box(lay.min_x, y)
            text.draw(d, (left - 6, (top + bottom) / 2), axis, axis_size, MUTED, anchor="rm")
    # Empty cells as faint squares, so distances and rows can be counted.
    g = 2 if s >= 24 else 1
    for y in range(lay.min_y, lay.max_y + 1):
        for x in range(lay.min_x, lay.max_x + 1):
            left, top, right, bottom = lay.cell_box(x, y)
            d.rectangle((left + g, top + g, right - g, bottom - g), outline=GRID)
    paste(img, tile_sprite(0, s), lay.cell_box(0, 0)[:2])
    for x, y, tile in player.alhambra:
        paste(img, tile_sprite(tile, s), lay.cell_box(x, y)[:2])
    if player.wall:
        for (x, y), side in alhambra.longest_wall_segments():
            left, top, _, _ = lay.cell_box(x, y)
            _highlight(d, s, side, left, top)


def _highlight(d: ImageDraw.ImageDraw, s: int, side: Side, left: int, top: int) -> None:
    box = wall_box(s, side, left, top)
    d.rectangle(box, fill=WALL_HIGHLIGHT)


def _labels(d: ImageDraw.ImageDraw, lay: AlhambraLayout, mode: Mode) -> None:
    s = lay.cell
    size = max(9, min(20, round(s * 0.32)))
    for code, (left, top, right, bottom) in lay.labels.items():
        if mode == "place":
            g = 3 if s >= 24 else 1
            d.rounded_rectangle(
                (left + g, top + g, right - g, bottom - g),
                max(2, s // 8),
                fill=LABEL_FILL,
                outline=LABEL_EDGE,
                width=2 if s >= 24 else 1,
            )
            text.draw(
                d, ((left + right) / 2, (top + bottom) / 2), code, size, INK, bold=True, anchor="mm"
            )
        else:
            # An occupied cell: ring it and put the code where the cost was, so the letter and
            # the walls (what a swap must match) stay visible.
            d.rectangle((left, top, right, bottom), outline=LABEL_EDGE, width=3 if s >= 24 else 2)
            tag_size = max(9, min(18, round(s * 0.28)))
            w = text.width(code, tag_size, True) + 8
            cx, cy = (left + right) / 2, top + s * 0.74
            h = tag_size + 4
            tag = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            d.rounded_rectangle(tag, 4, fill=LABEL_FILL, outline=LABEL_EDGE)
            text.draw(d, (cx, cy), code, tag_size, INK, bold=True, anchor="mm")


def _reserve(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    lay: AlhambraLayout,
    p: PlayerView,
    labels: Labels | None,
) -> None:
    y = lay.reserve_y
    mid = y + RESERVE_CELL / 2
    d.line((MARGIN, y - 7, lay.width - MARGIN, y - 7), fill=darker(GRID, 0.95), width=1)
    title = label(labels, "reserve")
    text.draw(d, (MARGIN, mid), title, 16, MUTED, bold=True, anchor="lm", max_width=84)
    x0 = MARGIN + 90
    if not p.reserve:
        empty = label(labels, "empty")
        text.draw(d, (x0, mid), empty, 15, MUTED, anchor="lm", max_width=lay.width - MARGIN - x0)
        return
    for i, tile in enumerate(p.reserve):
        row, col = divmod(i, lay.reserve_per_row)
        paste(
            img,
            tile_sprite(tile, RESERVE_CELL),
            (x0 + col * (RESERVE_CELL + 6), y + row * (RESERVE_CELL + 6)),
        )
