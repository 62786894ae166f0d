"""The score sheet: every scoring round's points per player, type and wall; the ranking; a chart.

Players check a score sheet to see *why* someone is ahead, so each round shows where its points
came from: per type, how many buildings each player had and the points they brought ("3 → 8"),
and the length of the longest outer wall (one point each), not just totals. While the game runs,
a last table shows what the next round would pay if it were held now (`engine.scoring_now`).
The chart shows the race: each player's score after each round, with a distinct marker shape as
well as a colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import Building, ScoringHeld, SeatView, scoring_now

from . import text
from .canvas import building_chip, new_canvas, pill, to_png
from .labels import Labels, label
from .palette import GRID, INK, MUTED, PANEL, PAPER_DARK, RGB, WALL_HIGHLIGHT

MARGIN = 16
WIDTH = 860
ROW_H = 28
NAME_W = 200
TYPE_W = 64
NUM_W = 74
CHART_H = 250

#: Line colour and marker per seat: distinct in colour and in shape.
SERIES: tuple[tuple[RGB, str], ...] = (
    ((208, 64, 52), "circle"),
    ((52, 102, 196), "square"),
    ((52, 150, 72), "triangle"),
    ((140, 72, 176), "diamond"),
    ((224, 140, 24), "down"),
    ((40, 40, 40), "cross"),
)


def scores_image(
    view: SeatView, names: Sequence[str], *, labels: Labels | None = None
) -> Image.Image:
    """The picture as a Pillow image (see `render_scores`)."""
    players = len(view.table)
    rounds = list(view.scoring_rounds)
    tables: list[tuple[ScoringHeld, str]] = [(r, _round_title(r.round_no, labels)) for r in rounds]
    if not view.is_over:  # what the next round would pay now, below the rounds held
        now = scoring_now(view)
        tables.append((now, label(labels, "scoring_now", n=now.round_no)))
    table_h = sum(ROW_H * (players + 1) + 44 for _ in tables) + (0 if rounds else 40)
    side_h = max(CHART_H, 44 + players * 30)
    height = MARGIN + 44 + side_h + 20 + table_h + MARGIN
    img, d = new_canvas(WIDTH, height)
    title = label(labels, "final_scores" if view.is_over else "score_sheet")
    w = text.draw(d, (MARGIN, MARGIN), title, 26, INK, bold=True, max_width=WIDTH // 2)
    held = label(labels, "rounds_held", n=len(rounds))
    room = WIDTH - 3 * MARGIN - w
    text.draw(d, (WIDTH - MARGIN, MARGIN + 14), held, 15, MUTED, anchor="rm", max_width=room)
    top = MARGIN + 44
    chart_w = 500
    _chart(d, view, rounds, (MARGIN, top, MARGIN + chart_w, top + CHART_H), labels)
    standings = (MARGIN + chart_w + 16, top, WIDTH - MARGIN, top + side_h)
    _standings(d, view, names, standings, labels)
    y = top + side_h + 20
    if not rounds:
        empty = label(labels, "no_scoring_yet")
        text.draw(d, (MARGIN, y + 10), empty, 16, MUTED, max_width=WIDTH - 2 * MARGIN)
        y += 40
    for held_round, title in tables:
        y = _round_table(d, held_round, title, names, y, labels)
    return img


def render_scores(view: SeatView, names: Sequence[str], *, labels: Labels | None = None) -> bytes:
    """PNG of the score sheet so far (the final ranking once the game is over), in the words
    of `labels` (`render.labels`)."""
    return to_png(scores_image(view, names, labels=labels))


def _name(names: Sequence[str], seat: int, labels: Labels | None) -> str:
    name = names[seat] if seat < len(names) else ""
    return name if text.clean(name, 16) else label(labels, "player", n=seat + 1)


def _standings(
    d: ImageDraw.ImageDraw,
    view: SeatView,
    names: Sequence[str],
    box: tuple[int, int, int, int],
    labels: Labels | None,
) -> None:
    left, top, right, _bottom = box
    d.rounded_rectangle(box, 10, fill=PANEL, outline=GRID, width=2)
    title = label(labels, "ranking" if view.is_over else "standings")
    text.draw(d, (left + 12, top + 10), title, 18, INK, bold=True, max_width=right - left - 24)
    scores = view.scores
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    for i, seat in enumerate(order):
        y = top + 44 + i * 30
        rank = view.ranks[seat] if view.ranks else 1 + sum(v > scores[seat] for v in scores)
        color, shape = SERIES[seat % len(SERIES)]
        fill = WALL_HIGHLIGHT if view.is_over and rank == 1 else PAPER_DARK
        pill(d, (left + 12, y), f"{rank}", 13, fill, anchor="l")
        _marker(d, shape, left + 52, y + 10, 6, color)
        text.draw(d, (right - 12, y + 10), str(scores[seat]), 17, INK, bold=True, anchor="rm")
        text.draw(
            d,
            (left + 66, y + 10),
            _name(names, seat, labels),
            16,
            INK,
            anchor="lm",
            max_width=right - left - 66 - 56,
        )


def _chart(
    d: ImageDraw.ImageDraw,
    view: SeatView,
    rounds: list[ScoringHeld],
    box: tuple[int, int, int, int],
    labels: Labels | None,
) -> None:
    left, top, right, bottom = box
    d.rounded_rectangle(box, 10, fill=PANEL, outline=GRID, width=2)
    title = label(labels, "chart_title")
    text.draw(d, (left + 12, top + 10), title, 16, INK, bold=True, max_width=right - left - 24)
    pl, pr, pt, pb = left + 46, right - 20, top + 42, bottom - 30
    players = len(view.table)
    series = [[0] for _ in range(players)]
    for r in rounds:
        for row in r.rows:
            if 0 <= row.seat < players:
                series[row.seat].append(row.score)
    peak = max([10] + [max(s) for s in series])
    step = next(s for s in (5, 10, 20, 25, 50, 100, 200) if peak / s <= 5)
    top_value = -(-peak // step) * step
    for v in range(0, top_value + 1, step):
        y = pb - (pb - pt) * v / top_value
        d.line((pl, y, pr, y), fill=GRID, width=1)
        text.draw(d, (pl - 6, y), str(v), 12, MUTED, anchor="rm")
    ticks = ("chart_start", "chart_first", "chart_second", "chart_final")
    for i, key in enumerate(ticks):
        x = pl + (pr - pl) * i / 3
        tick = label(labels, key)
        text.draw(d, (x, pb + 8), tick, 12, MUTED, anchor="mt", max_width=round((pr - pl) / 3) - 8)
    for seat, values in enumerate(series):
        color, shape = SERIES[seat % len(SERIES)]
        points = [
            (pl + (pr - pl) * i / 3, pb - (pb - pt) * v / top_value) for i, v in enumerate(values)
        ]
        if len(points) > 1:
            d.line(points, fill=color, width=3, joint="curve")
        for x, y in points[1:]:
            _marker(d, shape, x, y, 5, color)


def _marker(d: ImageDraw.ImageDraw, shape: str, x: float, y: float, r: float, color: RGB) -> None:
    if shape == "circle":
        d.ellipse((x - r, y - r, x + r, y + r), fill=color)
    elif shape == "square":
        d.rectangle((x - r, y - r, x + r, y + r), fill=color)
    elif shape == "triangle":
        d.polygon([(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)], fill=color)
    elif shape == "down":
        d.polygon([(x, y + r + 1), (x + r + 1, y - r), (x - r - 1, y - r)], fill=color)
    elif shape == "diamond":
        d.polygon([(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], fill=color)
    else:
        d.line((x - r, y - r, x + r, y + r), fill=color, width=3)
        d.line((x - r, y + r, x + r, y - r), fill=color, width=3)


def _round_title(round_no: int, labels: Labels | None) -> str:
    if round_no in (1, 2, 3):
        return label(labels, f"scoring_{round_no}")
    return label(labels, "scoring_n", n=round_no)


def _round_table(
    d: ImageDraw.ImageDraw,
    held: ScoringHeld,
    title: str,
    names: Sequence[str],
    y: int,
    labels: Labels | None,
) -> int:
    """One round's table; returns the y below it."""
    legend = label(labels, "counts_legend")
    legend_w = text.width(text.fit(legend, 14, WIDTH // 3), 14)
    room = WIDTH - 2 * MARGIN - legend_w - 16
    text.draw(d, (MARGIN, y), title, 18, INK, bold=True, max_width=room)
    text.draw(d, (WIDTH - MARGIN, y + 11), legend, 14, MUTED, anchor="rm", max_width=WIDTH // 3)
    y += 28
    x0 = MARGIN + NAME_W
    d.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW_H - 1), fill=PAPER_DARK)
    for i, building in enumerate(Building):
        building_chip(d, x0 + i * TYPE_W + (TYPE_W - 20) / 2, y + 4, building, 20)
    xs = x0 + 6 * TYPE_W
    headers = ("col_wall", "col_round", "col_total")
    for i, key in enumerate(headers):
        text.draw(
            d,
            (xs + i * NUM_W + NUM_W / 2, y + ROW_H / 2),
            label(labels, key),
            14,
            MUTED,
            bold=True,
            anchor="mm",
            max_width=NUM_W - 6,
        )
    y += ROW_H
    rows = [r for r in held.rows if r.seat >= 0]
    for k, row in enumerate(rows):
        if k % 2:
            d.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW_H - 1), fill=PANEL)
        color, shape = SERIES[row.seat % len(SERIES)]
        _marker(d, shape, MARGIN + 10, y + ROW_H / 2, 5, color)
        text.draw(
            d,
            (MARGIN + 22, y + ROW_H / 2),
            _name(names, row.seat, labels),
            16,
            INK,
            anchor="lm",
            max_width=NAME_W - 30,
        )
        counts = held.counts[row.seat] if row.seat < len(held.counts) else ()
        for i, pts in enumerate(row.buildings):
            count = counts[i] if i < len(counts) else 0
            _count_and_points(d, x0 + i * TYPE_W + TYPE_W / 2, y + ROW_H / 2, count, pts)
        cells = (str(row.wall), f"+{row.total}", str(row.score))
        for i, value in enumerate(cells):
            text.draw(
                d,
                (xs + i * NUM_W + NUM_W / 2, y + ROW_H / 2),
                value,
                16,
                INK,
                bold=i == 2,
                anchor="mm",
            )
        y += ROW_H
    return y + 16


def _count_and_points(d: ImageDraw.ImageDraw, cx: float, cy: float, count: int, pts: int) -> None:
    """A type's cell: "3 → 8", the buildings in grey and the points they brought in black; a
    dot when the player had none of the type."""
    if not count and not pts:
        text.draw(d, (cx, cy), "·", 16, MUTED, anchor="mm")
        return
    head = f"{count} → "
    head_w, pts_w = text.width(head, 13), text.width(str(pts), 16, bold=True)
    left = cx - (head_w + pts_w) / 2
    text.draw(d, (left, cy), head, 13, MUTED, anchor="lm")
    text.draw(d, (left + head_w, cy), str(pts), 16, INK if pts else MUTED, bold=True, anchor="lm")
