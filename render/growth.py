"""Every player's Alhambra growing turn by turn, as one animated picture for the results.

A frame per finished turn (and the deal), each player's grid in a panel of its own, a building
a square in its type's colour with its type's shape, the fountain in water blue; the last frame
holds longer. Cells are as large as the largest Alhambra of the game allows, so nothing moves
between frames. Animated WebP: Discord plays it inline, and it is several times smaller than a
GIF of the same frames (which Pillow can write too, `fmt="GIF"`).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine import TILES
from engine.catalogue import Side

from . import palette, symbols, text
from .labels import Labels, Mirror

#: cell -> tile id (0: the fountain), one mapping per seat, one list of those per frame
Frame = Sequence[Mapping[tuple[int, int], int]]

WIDTH = 600
HEIGHT = 400
NAME_SIZE = 22
FRAME_MS = 160
LAST_MS = 2500
MAX_CELL = 28
#: frames at most: a longer game skips evenly between them (first and last kept), so the
#: animation lasts under half a minute and draws in a second or two
MAX_FRAMES = 150


def _bounds(frames: Sequence[Frame], seat: int) -> tuple[int, int, int, int]:
    xs = [x for frame in frames for (x, _y) in frame[seat]] or [0]
    ys = [y for frame in frames for (_x, y) in frame[seat]] or [0]
    return min(xs), min(ys), max(xs), max(ys)


def _edge(box: tuple[int, int, int, int], side: Side) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return {
        Side.N: (left, top, right, top),
        Side.S: (left, bottom, right, bottom),
        Side.W: (left, top, left, bottom),
        Side.E: (right, top, right, bottom),
    }[side]


def _layout(players: int) -> tuple[int, int]:
    columns = min(players, 3)
    return columns, math.ceil(players / columns)


def changes(frames: Sequence[Frame]) -> list[int]:
    """The frames worth showing: the first, each that differs from the one before, the last."""
    keep = [0]
    for number in range(1, len(frames)):
        if frames[number] != frames[keep[-1]]:
            keep.append(number)
    if keep[-1] != len(frames) - 1:
        keep.append(len(frames) - 1)
    return keep


@text.in_its_digits
def render_growth(
    frames: Sequence[Frame],
    names: Sequence[str],
    *,
    fmt: str = "WEBP",
    turn_label: str = "",
    turns: Sequence[int] | None = None,
    labels: Labels | None = None,
) -> bytes:
    """The animation as bytes (WebP by default). `turns`: each frame's turn number, drawn in
    the corner after `turn_label` ("Turn" in the reader's language). `labels` only says which
    way the reader's language runs: right to left, the panels go by seat from the right and
    the turn sits in the top right corner."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    if turns is not None and len(turns) != len(frames):
        raise ValueError("one turn number per frame")
    if len(frames) > MAX_FRAMES:
        picked = [round(i * (len(frames) - 1) / (MAX_FRAMES - 1)) for i in range(MAX_FRAMES)]
        frames = [frames[i] for i in picked]
        turns = [turns[i] for i in picked] if turns is not None else None
    players = len(names)
    columns, rows = _layout(players)
    panel_w, panel_h = WIDTH // columns, (HEIGHT - 28) // rows
    bounds = [_bounds(frames, seat) for seat in range(players)]
    span = max(max(b[2] - b[0] + 1, b[3] - b[1] + 1) for b in bounds)
    cell = max(4, min(MAX_CELL, (panel_w - 12) // span, (panel_h - NAME_SIZE - 14) // span))
    base = Image.new("RGB", (WIDTH, HEIGHT), palette.PAPER)
    canvas = ImageDraw.Draw(base)
    m = Mirror(labels, WIDTH)
    origins = []
    for seat in range(players):  # what every frame shares: drawn once
        left = round(m.left((seat % columns) * panel_w, panel_w))
        top = 28 + (seat // columns) * panel_h
        canvas.rounded_rectangle(
            (left + 3, top + 2, left + panel_w - 3, top + panel_h - 3),
            radius=8,
            fill=palette.PANEL,
            outline=palette.GRID,
        )
        text.draw(
            canvas,
            (left + panel_w / 2, top + 6),
            names[seat],
            NAME_SIZE,
            palette.INK,
            bold=True,
            anchor="mt",
            max_width=panel_w - 16,
        )
        min_x, min_y, max_x, max_y = bounds[seat]
        grid_w, grid_h = (max_x - min_x + 1) * cell, (max_y - min_y + 1) * cell
        origins.append(
            (
                left + (panel_w - grid_w) // 2 - min_x * cell,
                top + NAME_SIZE + 10 + (panel_h - NAME_SIZE - 14 - grid_h) // 2 - min_y * cell,
            )
        )
    images = []
    for number, frame in enumerate(frames):
        image = base.copy()
        canvas = ImageDraw.Draw(image)
        for seat in range(players):
            ox, oy = origins[seat]
            for (x, y), tile in frame[seat].items():
                box = (
                    ox + x * cell + 1,
                    oy + y * cell + 1,
                    ox + (x + 1) * cell - 1,
                    oy + (y + 1) * cell - 1,
                )
                building = TILES[tile].building
                fill = palette.WATER if building is None else palette.BUILDING_FILL[building]
                canvas.rectangle(box, fill=fill, outline=palette.darker(fill))
                if building is not None and cell >= 14:  # a shape beside the colour
                    icon = symbols.building_symbol(
                        building, cell - 6, palette.BUILDING_TEXT[building]
                    )
                    image.paste(icon, (box[0] + 2, box[1] + 2), icon)
                for side in TILES[tile].walls:
                    canvas.line(_edge(box, side), fill=palette.WALL, width=3)
        label = f"{turn_label} {turns[number]}".strip() if turns else ""
        text.draw(canvas, (m.x(10), 4), label, 20, palette.MUTED, anchor=m.anchor("lt"))
        images.append(image)
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_MS]
    out = io.BytesIO()
    options: dict[str, object] = {"save_all": True, "append_images": images[1:]}
    options["duration"] = durations
    options["loop"] = 0
    if fmt == "WEBP":
        options.update(quality=70, method=2)
    else:
        options.update(optimize=True)
    images[0].save(out, format=fmt, **options)
    return out.getvalue()
