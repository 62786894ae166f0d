"""A game review's picture: the points at stake in each of one player's turns, as bars.

A reader wants to see *where* a game was lost: a bar per turn of the player (the estimate of the
points its decisions gave away), the turns the review lists drawn dark and numbered with their
turn above the bar (a number beside the colour, never the colour alone), the others light. The
words (title, axis name) come in as strings: this module writes none of its own; `labels` only
says which way the language runs (right to left: the title on the right; the turns, a time
line, run from the left in every language).

It is an attachment (550 x 350 on desktop, about 320 px wide on a phone: `render.display`), so
it is 640 px wide with no text under 20 px (10 px on a phone at x 0.5), and 400 px tall.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image

from . import text
from .canvas import new_canvas, to_png
from .labels import Labels, Mirror
from .palette import GRID, INK, MUTED, PANEL, TURN, lighter

WIDTH, HEIGHT = 640, 400
MARGIN = 14
SMALL = 20
TITLE = 24
#: room for the y axis's numbers, and under the bars for the turn numbers and the axis name
LEFT, BOTTOM = 56, 64


def _step(top: float) -> int:
    """A round gridline step giving 2 to 5 lines up to `top`."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if top / step <= 5:
            return step
    return int(10 ** math.ceil(math.log10(max(1.0, top))))


@text.in_its_digits
def stakes_image(
    per_turn: Sequence[tuple[int, float]],
    marked: Sequence[int],
    *,
    title: str,
    axis: str,
    last_turn: int,
    labels: Labels | None = None,
) -> Image.Image:
    """Bars of points at stake per turn (`per_turn`: (turn, points)) over turns 1..last_turn;
    the turns in `marked` dark and labelled with their number."""
    img, d = new_canvas(WIDTH, HEIGHT, PANEL)
    m = Mirror(labels, WIDTH)
    text.draw(d, (m.x(MARGIN), MARGIN), title, TITLE, INK, bold=True, anchor=m.anchor("lt"),
              max_width=WIDTH - 2 * MARGIN)  # fmt: skip
    top_y = MARGIN + TITLE + 40  # room for a marked bar's number above the tallest bar
    base_y = HEIGHT - BOTTOM
    left, right = MARGIN + LEFT, WIDTH - MARGIN
    highest = max((p for _, p in per_turn), default=0.0)
    step = _step(max(1.0, highest))
    top_value = max(step, math.ceil(highest / step) * step)
    scale = (base_y - top_y) / top_value

    value = 0
    while value <= top_value:
        y = base_y - value * scale
        d.line([(left, y), (right, y)], fill=GRID, width=1)
        text.draw(d, (left - 8, y), str(value), SMALL, MUTED, anchor="rm")
        value += step
    d.line([(left, base_y), (right, base_y)], fill=INK, width=2)

    turns = max(1, last_turn)
    slot = (right - left) / turns
    bar_w = max(2.0, min(28.0, slot * 0.8))
    shown = set(marked)
    for turn, points in per_turn:
        if points <= 0:
            continue
        cx = left + (turn - 0.5) * slot
        y = base_y - points * scale
        dark = turn in shown
        fill = TURN if dark else lighter(MUTED, 0.45)
        d.rectangle([cx - bar_w / 2, y, cx + bar_w / 2, base_y], fill=fill)
    # the marked bars' numbers last, so that no neighbouring bar covers one
    for turn, points in per_turn:
        if turn in shown and points > 0:
            cx = left + (turn - 0.5) * slot
            y = base_y - points * scale
            text.draw(d, (cx, y - 4), str(turn), SMALL, INK, bold=True, anchor="mb")

    # the turn axis: its first and last turn, and its name between them
    text.draw(d, (left, base_y + 8), "1", SMALL, MUTED, anchor="lt")
    text.draw(d, (right, base_y + 8), str(turns), SMALL, MUTED, anchor="rt")
    text.draw(d, ((left + right) / 2, base_y + 8), axis, SMALL, MUTED, anchor="mt")
    return img


@text.in_its_digits
def render_stakes(
    per_turn: Sequence[tuple[int, float]],
    marked: Sequence[int],
    *,
    title: str,
    axis: str,
    last_turn: int,
    labels: Labels | None = None,
) -> bytes:
    return to_png(
        stakes_image(per_turn, marked, title=title, axis=axis, last_turn=last_turn, labels=labels)
    )
