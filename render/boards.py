"""Everyone's Alhambra at a glance: one picture with every player's Alhambra side by side.

BGA keeps every Alhambra on the page; a chat shows one picture per look, so this one holds them
all (2 to 6 players): a panel per seat with the player's name, points and longest wall, their
Alhambra (buildings in their type's colour and shape, walls drawn, the fountain in water blue)
and their reserve as a row of small buildings. The player to move is outlined.

A plain function of a `SeatView` (anyone's: it draws only what everyone sees) and the players'
names, so a replay can draw any past step the same way. It is sized for Discord's attachment
preview (550 x 350 on a desktop, 320 wide on a phone): every text is at least 10 px on screen
on both (`render.display`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import TILES, SeatView
from engine.catalogue import Side

from . import palette, symbols, text
from .canvas import new_canvas, to_png
from .labels import Labels, Mirror, label

WIDTH = 660
HEIGHT = 420
TITLE_SIZE = 22
NAME_SIZE = 22
LINE_SIZE = 21
TOP = 34
GAP = 6
MAX_CELL = 30
RESERVE_CELL = 14


def _layout(players: int) -> tuple[int, int]:
    """Columns and rows: side by side up to three, then two rows (2x2 for four)."""
    columns = 2 if players == 4 else min(players, 3)
    return columns, math.ceil(players / columns)


def _edge(box: tuple[int, int, int, int], side: Side) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return {
        Side.N: (left, top, right, top),
        Side.S: (left, bottom, right, bottom),
        Side.W: (left, top, left, bottom),
        Side.E: (right, top, right, bottom),
    }[side]


def _tile(
    img: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], tile: int
) -> None:
    """One building (or the fountain) as a square in its colour, its shape, its walls."""
    building = TILES[tile].building
    fill = palette.WATER if building is None else palette.BUILDING_FILL[building]
    d.rectangle(box, fill=fill, outline=palette.darker(fill))
    size = box[2] - box[0]
    if building is not None and size >= 12:  # a shape beside the colour
        icon = symbols.building_symbol(building, size - 4, palette.BUILDING_TEXT[building])
        img.paste(icon, (box[0] + 2, box[1] + 2), icon)
    for side in TILES[tile].walls:
        d.line(_edge(box, side), fill=palette.WALL, width=3 if size >= 12 else 2)


@text.in_its_digits
def boards_image(
    view: SeatView, names: Sequence[str], *, labels: Labels | None = None
) -> Image.Image:
    """Every seat's Alhambra in one picture, in seat order (from the right when the reader's
    language runs right to left)."""
    players = len(view.table)
    columns, rows = _layout(players)
    img, d = new_canvas(WIDTH, HEIGHT)
    m = Mirror(labels, WIDTH)
    title = label(labels, "boards_title")
    text.draw(d, (m.x(10), 6), title, TITLE_SIZE, palette.INK, bold=True, anchor=m.anchor("lt"))
    panel_w = (WIDTH - GAP) // columns
    panel_h = (HEIGHT - TOP - GAP) // rows
    head = NAME_SIZE + LINE_SIZE + 14
    for seat, player in enumerate(view.table):
        left = round(m.left(GAP / 2 + (seat % columns) * panel_w, panel_w))
        top = TOP + (seat // columns) * panel_h
        to_play = seat == view.current_seat and not view.is_over
        d.rounded_rectangle(
            (left + 3, top + 2, left + panel_w - 3, top + panel_h - 3),
            radius=8,
            fill=palette.PANEL,
            outline=palette.INK if to_play else palette.GRID,
            width=3 if to_play else 1,
        )
        name = names[seat] if seat < len(names) else label(labels, "player", n=seat + 1)
        mid = left + panel_w / 2
        text.draw(
            d,
            (mid, top + 6),
            name,
            NAME_SIZE,
            palette.INK,
            bold=True,
            anchor="mt",
            max_width=panel_w - 16,
        )
        line = " · ".join(
            [label(labels, "points", n=player.score), label(labels, "wall", n=player.wall)]
        )
        text.draw(
            d,
            (mid, top + 8 + NAME_SIZE),
            line,
            LINE_SIZE,
            palette.MUTED,
            anchor="mt",
            max_width=panel_w - 16,
        )
        reserve_h = RESERVE_CELL + 6 if player.reserve else 0
        cells = {(x, y): t for x, y, t in player.alhambra} | {(0, 0): 0}
        xs = [x for x, _ in cells]
        ys = [y for _, y in cells]
        span_w, span_h = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        room_w, room_h = panel_w - 16, panel_h - head - reserve_h - 8
        cell = max(6, min(MAX_CELL, room_w // span_w, room_h // span_h))
        grid_w, grid_h = span_w * cell, span_h * cell
        ox = left + (panel_w - grid_w) // 2
        oy = top + head + (room_h - grid_h) // 2
        for (x, y), tile in cells.items():  # a map: it keeps its east and west in any language
            gx, gy = ox + (x - min(xs)) * cell, oy + (y - min(ys)) * cell
            _tile(img, d, (gx + 1, gy + 1, gx + cell - 1, gy + cell - 1), tile)
        if player.reserve:  # the reserve: small buildings under the Alhambra
            step = RESERVE_CELL + 3
            count = min(len(player.reserve), (panel_w - 16) // step)
            rx = left + (panel_w - count * step) // 2
            ry = top + panel_h - 8 - RESERVE_CELL
            for i, tile in enumerate(player.reserve[:count]):
                x0 = rx + (count - 1 - i if m.on else i) * step  # read in the language's way
                _tile(img, d, (x0, ry, x0 + RESERVE_CELL, ry + RESERVE_CELL), tile)
    return img


@text.in_its_digits
def render_boards(view: SeatView, names: Sequence[str], *, labels: Labels | None = None) -> bytes:
    """`boards_image` as PNG bytes."""
    return to_png(boards_image(view, names, labels=labels))
