"""A player's record as a picture: where their final scores fall, and where their points come from.

People would rather look than read a column of averages, so the statistics reply carries this:

- the final score of each game, binned along a line of points: one token per game, a gold star
  for a game won and a blue disc for the others (a shape as well as a colour), stacked in its
  bin, with the average marked; past the tokens a bin can hold, the bins become bars whose won
  part is gold and hatched, and each bar says how many games it holds;
- the average points of each scoring round, as bars;
- the average points each building type brought per game, as bars in the type's colour beside
  its chip (colour and shape).

It is an attachment (550 x 350 on desktop, 320 px wide on a phone: `render.display`), so it is
640 px wide with no text under 20 px (10 px on a phone). Every word comes from `labels`, the
player's name from the caller: render knows no language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

from PIL import Image, ImageDraw

from engine import Building

from . import text
from .canvas import building_chip, new_canvas, to_png
from .labels import Labels, Mirror, counted, label
from .palette import BUILDING_FILL, GRID, INK, MUTED, PANEL, RGB, darker, lighter

MARGIN = 12
WIDTH = 640
#: The smallest font: 20 px is 10 px on a phone (x 0.5).
SMALL = 20
TITLE = 26
PLOT_H = 170
#: Room above the tokens for the average's label.
PLOT_TOP = 30
AXIS_H = 26
BARS_H = 162
COLUMN_GAP = 16
#: The scoring rounds' column; the building types have the rest.
ROUNDS_W = 260
#: Bin widths tried, smallest first: the first that spans the scores in at most MAX_BINS bins.
BIN_WIDTHS = (5, 10, 20, 25, 50, 100)
MAX_BINS = 12
MIN_BINS = 6
#: A token smaller than this is hard to tell apart on a phone: the bins become bars.
MIN_TOKEN = 14
MAX_TOKEN = 26

WON: RGB = (236, 178, 34)
WON_EDGE: RGB = (150, 100, 0)
OTHER: RGB = (78, 126, 196)
OTHER_EDGE: RGB = (40, 72, 130)
AVERAGE: RGB = (176, 52, 44)


@text.in_its_digits
def stats_image(
    points: Sequence[int],
    won: Sequence[bool],
    rounds: Sequence[float | None],
    types: Sequence[float],
    *,
    name: str,
    labels: Labels | None = None,
) -> Image.Image:
    """The picture as a Pillow image (see `render_stats`)."""
    height = (
        MARGIN + 40 + 30 + PLOT_H + AXIS_H + 16 + 28 + BARS_H + MARGIN
    )  # title, the scores, their axis, the two columns of bars
    img, d = new_canvas(WIDTH, height)
    games, wins = len(points), sum(bool(w) for w in won)
    tally = f"{counted(labels, 'stats_games', games)} · {counted(labels, 'stats_wins', wins)}"
    tally_w = text.width(text.clean(tally, SMALL), SMALL)
    shown = name if text.clean(name, TITLE, True) else label(labels, "player", n=1)
    # Right to left: the name on the right, the tally on the left, the legend and the bars'
    # heads on the right with the bars growing leftwards. The scores' axis is a number line
    # and runs from the left in every language.
    m = Mirror(labels, WIDTH)
    text.draw(d, (m.x(MARGIN), MARGIN + 16), shown, TITLE, INK, bold=True, anchor=m.anchor("lm"),
              max_width=WIDTH - 3 * MARGIN - min(tally_w, 300))  # fmt: skip
    text.draw(d, (m.x(WIDTH - MARGIN), MARGIN + 16), tally, SMALL, MUTED, anchor=m.anchor("rm"),
              max_width=300)  # fmt: skip
    y = MARGIN + 40
    y = _distribution(d, points, won, y, labels, m)
    y += 16
    left_w = ROUNDS_W
    _rounds(d, rounds, MARGIN, y, left_w, labels, m)
    right_w = WIDTH - 2 * MARGIN - COLUMN_GAP - left_w
    _types(img, d, types, MARGIN + left_w + COLUMN_GAP, y, right_w, labels, m)
    return img


@text.in_its_digits
def render_stats(
    points: Sequence[int],
    won: Sequence[bool],
    rounds: Sequence[float | None],
    types: Sequence[float],
    *,
    name: str,
    labels: Labels | None = None,
) -> bytes:
    """PNG of a player's record: `points` the final score of each game and `won` whether it was
    won (same order), `rounds` the average points of scoring rounds 1-3 (None: never held),
    `types` the average points per game of each building type (in `Building` order), `name`
    the player's as typed, in the words of `labels` (`render.labels`)."""
    return to_png(stats_image(points, won, rounds, types, name=name, labels=labels))


def bins(points: Sequence[int]) -> tuple[int, int, int]:
    """(first edge, bin width, number of bins) spanning the scores: a round width, at most
    `MAX_BINS` bins and at least `MIN_BINS` (the range widened evenly around the scores)."""
    low, high = (min(points), max(points)) if points else (0, 0)
    for width in BIN_WIDTHS:
        first = (low // width) * width
        count = high // width - low // width + 1
        if count <= MAX_BINS:
            break
    if count < MIN_BINS:
        first -= ((MIN_BINS - count) // 2) * width
        count = MIN_BINS
    if first < 0:  # no score is negative: start at 0
        first = 0
    return first, width, count


def _distribution(
    d: ImageDraw.ImageDraw,
    points: Sequence[int],
    won: Sequence[bool],
    y: int,
    labels: Labels | None,
    m: Mirror,
) -> int:
    """The final scores binned, with the legend above and the axis below; returns the y below."""
    first, width, count = bins(points)
    left, right = MARGIN + 22, WIDTH - MARGIN - 22  # room for the edges' numbers
    col = (right - left) / count
    stacks: list[tuple[int, int]] = [(0, 0)] * count  # (won, other) per bin
    for score, win in zip(points, won, strict=False):
        k = min(count - 1, max(0, (score - first) // width))
        w, o = stacks[k]
        stacks[k] = (w + 1, o) if win else (w, o + 1)
    tallest = max((w + o for w, o in stacks), default=0)
    room = PLOT_H - PLOT_TOP - 4
    token = min(MAX_TOKEN, int(col) - 8, room // max(1, tallest))
    bars = token < MIN_TOKEN

    # the title and the legend: what a star, a disc (or a hatched bar) means
    title = label(labels, "stats_scores")
    won_text, other_text = label(labels, "stats_won"), label(labels, "stats_other")
    legend_w = 2 * 30 + text.width(text.clean(won_text, SMALL), SMALL) + 16
    legend_w += text.width(text.clean(other_text, SMALL), SMALL)
    legend_w = min(legend_w, 330)
    mid = y + 15
    text.draw(d, (m.x(MARGIN), mid), title, SMALL, INK, bold=True, anchor=m.anchor("lm"),
              max_width=WIDTH - 3 * MARGIN - legend_w)  # fmt: skip
    x = WIDTH - MARGIN - legend_w
    for win, words in ((True, won_text), (False, other_text)):
        if bars:
            _bar_swatch(d, m.left(x + 2, 18), mid - 9, 18, win)
        else:
            _token(d, m.x(x + 11), mid, 10, win)
        drawn = text.draw(d, (m.x(x + 26), mid), words, SMALL, INK, anchor=m.anchor("lm"),
                          max_width=130)  # fmt: skip
        x += 30 + drawn + 16
    y += 30

    top, base = y, y + PLOT_H
    d.rectangle((MARGIN, top, WIDTH - MARGIN, base), fill=PANEL)
    for k in range(1, count):
        gx = left + k * col
        d.line((gx, top + PLOT_TOP - 6, gx, base), fill=GRID, width=1)
    if points:  # the average, behind the games: a dashed line, its value above them
        average = sum(points) / len(points)
        ax = left + (average - first) / width * col
        for dy in range(int(top + PLOT_TOP - 4), int(base), 10):
            d.line((ax, dy, ax, min(base, dy + 5)), fill=AVERAGE, width=3)
        said = label(labels, "stats_average", n=f"{average:.1f}")
        said_w = text.width(text.clean(said, SMALL, True), SMALL, True)
        lx = min(max(ax, MARGIN + 4 + said_w / 2), WIDTH - MARGIN - 4 - said_w / 2)
        text.draw(d, (lx, top + PLOT_TOP / 2), said, SMALL, AVERAGE, bold=True, anchor="mm",
                  max_width=WIDTH - 2 * MARGIN - 8)  # fmt: skip

    if bars:
        unit = (room - SMALL - 4) / max(1, tallest)
        for k, (w, o) in enumerate(stacks):
            if not w + o:
                continue
            x0, x1 = left + k * col + 5, left + (k + 1) * col - 5
            won_top = base - w * unit
            if w:
                _hatched(d, (x0, won_top, x1, base), WON, WON_EDGE)
            if o:
                d.rectangle((x0, won_top - o * unit, x1, won_top), fill=OTHER, outline=OTHER_EDGE)
            cx, said = (x0 + x1) / 2, str(w + o)
            said_w, bottom = text.width(said, SMALL, True), won_top - o * unit - 2
            d.rectangle((cx - said_w / 2 - 2, bottom - SMALL - 2, cx + said_w / 2 + 2, bottom),
                        fill=PANEL)  # fmt: skip
            text.draw(d, (cx, bottom - 1), said, SMALL, INK, bold=True, anchor="mb")
    else:
        at = _at_their_scores(points, first, width, left, right, col, token, stacks)
        for k, (w, o) in enumerate(stacks):
            cx = at.get(k, left + (k + 0.5) * col)
            for n in range(w + o):  # the games won at the bottom of the stack
                cy = base - 3 - token * (n + 0.5)
                _token(d, cx, cy, token / 2 - 1, n < w)
    d.line((MARGIN, base, WIDTH - MARGIN, base), fill=MUTED, width=2)

    # the axis: the edges of the bins (every other one when they are close)
    step = 1 if col >= 46 else 2
    for k in range(0, count + 1, step):
        text.draw(d, (left + k * col, base + AXIS_H / 2 + 1), str(first + k * width), SMALL,
                  MUTED, anchor="mm")  # fmt: skip
    return base + AXIS_H


def _at_their_scores(
    points: Sequence[int],
    first: int,
    width: int,
    left: float,
    right: float,
    col: float,
    token: int,
    stacks: Sequence[tuple[int, int]],
) -> dict[int, float]:
    """Where a bin's token goes when it holds one game: at that game's score on the axis (the
    middle of its bin said 112.5 for a game of 110, beside the "average 110.0" line), as long as
    no two tokens then touch; {} when a bin holds more (they stack in its middle)."""
    if any(w + o > 1 for w, o in stacks):
        return {}
    at: dict[int, float] = {}
    for score in points:
        k = min(len(stacks) - 1, max(0, (score - first) // width))
        x = left + (score - first) / width * col
        at[k] = min(max(x, left + token / 2), right - token / 2)
    xs = sorted(at.values())
    if any(b - a < token for a, b in pairwise(xs)):
        return {}
    return at


def _rounds(
    d: ImageDraw.ImageDraw,
    rounds: Sequence[float | None],
    x: int,
    y: int,
    w: int,
    labels: Labels | None,
    m: Mirror,
) -> None:
    """The average points of each scoring round, one bar each."""
    text.draw(d, (m.x(x), y + 14), label(labels, "stats_per_round"), SMALL, INK, bold=True,
              anchor=m.anchor("lm"), max_width=w)  # fmt: skip
    y += 28
    row = BARS_H // 3
    heads = ("chart_first", "chart_second", "chart_final")
    head_w = min(90, max(text.width(text.clean(label(labels, h), SMALL), SMALL) for h in heads))
    values = [v for v in rounds[:3] if v is not None]
    top = max(values, default=0.0) or 1.0
    bar_left = x + head_w + 8
    bar_room = w - head_w - 8 - 56
    for k, key in enumerate(heads):
        mid = y + row * k + row / 2
        if k % 2 == 0:
            x0, x1 = m.span(x, x + w)
            d.rectangle((x0, y + row * k, x1, y + row * (k + 1) - 1), fill=PANEL)
        text.draw(d, (m.x(x + 4), mid), label(labels, key), SMALL, INK, anchor=m.anchor("lm"),
                  max_width=head_w)  # fmt: skip
        value = rounds[k] if k < len(rounds) else None
        if value is None:
            text.draw(d, (m.x(bar_left + 4), mid), "·", SMALL, MUTED, anchor=m.anchor("lm"))
            continue
        length = max(3.0, bar_room * value / top)
        fill = lighter(WON_EDGE, 0.35)
        x0, x1 = m.span(bar_left, bar_left + length)
        d.rectangle((x0, mid - 14, x1, mid + 14), fill=fill, outline=darker(fill, 0.7))
        text.draw(d, (m.x(bar_left + length + 6), mid), f"{value:.1f}", SMALL, INK, bold=True,
                  anchor=m.anchor("lm"))  # fmt: skip


def _types(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    types: Sequence[float],
    x: int,
    y: int,
    w: int,
    labels: Labels | None,
    m: Mirror,
) -> None:
    """The average points per game of each building type: its chip and a bar in its colour."""
    text.draw(d, (m.x(x), y + 14), label(labels, "stats_per_type"), SMALL, INK, bold=True,
              anchor=m.anchor("lm"), max_width=w)  # fmt: skip
    y += 28
    row = BARS_H // len(Building)
    top = max(types, default=0.0) or 1.0
    chip = row - 4
    bar_left = x + chip + 10
    bar_room = w - chip - 10 - 56
    for k, building in enumerate(Building):
        mid = y + row * k + row / 2
        building_chip(img, d, m.left(x + 2, chip), mid - chip / 2, building, chip)
        value = types[k] if k < len(types) else 0.0
        fill = BUILDING_FILL[building]
        length = max(3.0, bar_room * value / top)
        x0, x1 = m.span(bar_left, bar_left + length)
        d.rectangle((x0, mid - 9, x1, mid + 9), fill=fill, outline=darker(fill, 0.6))
        text.draw(d, (m.x(bar_left + length + 6), mid), f"{value:.1f}", SMALL, INK, bold=True,
                  anchor=m.anchor("lm"))  # fmt: skip


def _token(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, win: bool) -> None:
    """A game: a gold star if it was won, a blue disc otherwise."""
    if win:
        star = [
            (
                cx + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / 5),
                cy - (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / 5),
            )
            for i in range(10)
        ]
        d.polygon(star, fill=WON, outline=WON_EDGE)
    else:
        s = r * 0.8
        d.ellipse((cx - s, cy - s, cx + s, cy + s), fill=OTHER, outline=OTHER_EDGE)


def _hatched(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: RGB, edge: RGB
) -> None:
    """A bar with diagonal stripes: won games read as won in greyscale too."""
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=fill)
    for off in range(-int(y1 - y0), int(x1 - x0), 8):
        # a line from the bottom edge up and to the right, clipped to the box
        ax, ay = x0 + off, y1
        bx, by = ax + (y1 - y0), y0
        if ax < x0:
            ay -= x0 - ax
            ax = x0
        if bx > x1:
            by += bx - x1
            bx = x1
        if ay >= by:
            d.line((ax, ay, bx, by), fill=edge, width=2)
    d.rectangle(box, outline=edge)


def _bar_swatch(d: ImageDraw.ImageDraw, x: float, y: float, size: int, win: bool) -> None:
    if win:
        _hatched(d, (x, y, x + size, y + size), WON, WON_EDGE)
    else:
        d.rectangle((x, y, x + size, y + size), fill=OTHER, outline=OTHER_EDGE)
