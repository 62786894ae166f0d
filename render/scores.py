"""The score sheet, and the points table of the rules.

Players check a score sheet to see who is ahead and *why*. So it has two parts: the standings
(each player's points from each scoring round and in all), then one round in detail: for every
building type, how many buildings each player had, their rank among those who had any, and
the points that brought; the longest wall; the round's total. While the game runs the detail
is what the next round would pay if it were held now (`engine.scoring_now`), which is what a
player plans with; right after a scoring round, that round; once the game is over, the last.

It is an attachment (550 x 350 on desktop, about 320 px wide on a phone: `render.display`), so
it is 640 px wide with no text under 20 px, and at most about 700 px tall for six players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from PIL import Image, ImageDraw

from engine import Building, ScoringHeld, SeatView, scoring_now
from engine.catalogue import SCORING_TABLE

from . import text
from .canvas import building_chip, new_canvas, to_png
from .labels import Labels, Mirror, building_name, label
from .palette import GRID, INK, MUTED, PANEL, PAPER_DARK, RGB, WALL, WALL_HIGHLIGHT, darker

MARGIN = 12
WIDTH = 640
#: The smallest font: 20 px is 10 px on a phone (x 0.5).
SMALL = 20
ROW_H = 32
DETAIL_H = 52
NAME_W = 150
TYPE_W = 56
WALL_W = 56
ROUND_W = WIDTH - 2 * MARGIN - NAME_W - 6 * TYPE_W - WALL_W

Detail = int | Literal["now"] | None

#: Line colour and marker per seat: distinct in colour and in shape.
SERIES: tuple[tuple[RGB, str], ...] = (
    ((208, 64, 52), "circle"),
    ((52, 102, 196), "square"),
    ((52, 150, 72), "triangle"),
    ((140, 72, 176), "diamond"),
    ((224, 140, 24), "down"),
    ((40, 40, 40), "cross"),
)
#: Rank discs: gold, silver, bronze, each with its number (never the colour alone).
RANK_FILL: tuple[RGB, ...] = ((240, 196, 60), (200, 200, 206), (214, 150, 96))


@text.in_its_digits
def scores_image(
    view: SeatView,
    names: Sequence[str],
    *,
    labels: Labels | None = None,
    detail: Detail = None,
) -> Image.Image:
    """The picture as a Pillow image (see `render_scores`)."""
    rounds = list(view.scoring_rounds)
    held, title = _detail(view, rounds, detail, labels)
    players = len(view.table)
    entries = players + (1 if view.dirk is not None else 0)
    standings_h = ROW_H + 4 + players * ROW_H
    detail_h = 34 + ROW_H + 6 + entries * DETAIL_H
    height = MARGIN + 40 + standings_h + 16 + detail_h + MARGIN
    img, d = new_canvas(WIDTH, height)
    heading = label(labels, "final_scores" if view.is_over else "score_sheet")
    m = Mirror(labels, WIDTH)  # right to left: the heading on the right, the count on the left
    w = text.draw(d, (m.x(MARGIN), MARGIN + 16), heading, 26, INK, bold=True, anchor=m.anchor("lm"),
                  max_width=300)  # fmt: skip
    count = label(labels, "rounds_held", n=len(rounds))
    room = WIDTH - 3 * MARGIN - w
    text.draw(d, (m.x(WIDTH - MARGIN), MARGIN + 16), count, SMALL, MUTED, anchor=m.anchor("rm"),
              max_width=room)  # fmt: skip
    y = _standings(d, view, names, rounds, MARGIN + 40, labels)
    _round_detail(img, d, view, held, title, names, y + 16, labels)
    return img


@text.in_its_digits
def render_scores(
    view: SeatView,
    names: Sequence[str],
    *,
    labels: Labels | None = None,
    detail: Detail = None,
) -> bytes:
    """PNG of the score sheet so far (the final ranking once the game is over), in the words
    of `labels` (`render.labels`). `detail` picks the round shown in detail: a round held
    (1-3), "now" (what the next round would pay now), or None: "now" while the game runs,
    the last round once it is over."""
    return to_png(scores_image(view, names, labels=labels, detail=detail))


def _detail(
    view: SeatView, rounds: list[ScoringHeld], detail: Detail, labels: Labels | None
) -> tuple[ScoringHeld, str]:
    if detail is None:
        detail = rounds[-1].round_no if view.is_over and rounds else "now"
    if detail != "now":
        for r in rounds:
            if r.round_no == detail:
                return r, _round_title(r.round_no, labels)
    now = scoring_now(view)
    return now, label(labels, "scoring_now", n=now.round_no)


def _name(names: Sequence[str], seat: int, labels: Labels | None) -> str:
    name = names[seat] if seat < len(names) else ""
    return name if text.clean(name, SMALL) else label(labels, "player", n=seat + 1)


def _standings(
    d: ImageDraw.ImageDraw,
    view: SeatView,
    names: Sequence[str],
    rounds: list[ScoringHeld],
    y: int,
    labels: Labels | None,
) -> int:
    """Rank, name, the points of each round and the total, best first; returns the y below.
    Right to left, the row reads from the right: rank and name, then the rounds, the total."""
    m = Mirror(labels, WIDTH)
    title = label(labels, "ranking" if view.is_over else "standings")
    cols_left = MARGIN + 44 + NAME_W + 40
    col_w = (WIDTH - MARGIN - cols_left) // 4
    text.draw(d, (m.x(MARGIN), y + ROW_H / 2), title, SMALL, INK, bold=True,
              anchor=m.anchor("lm"), max_width=cols_left - MARGIN - 8)  # fmt: skip
    heads = ("chart_first", "chart_second", "chart_final", "col_total")
    for i, key in enumerate(heads):
        text.draw(
            d, (m.x(cols_left + i * col_w + col_w / 2), y + ROW_H / 2), label(labels, key),
            SMALL, MUTED, bold=True, anchor="mm", max_width=col_w - 4,
        )  # fmt: skip
    y += ROW_H + 4
    scores = view.scores
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    gained: dict[tuple[int, int], int] = {}
    for r in rounds:
        for row in r.rows:
            gained[(r.round_no, row.seat)] = row.total
    for k, seat in enumerate(order):
        mid = y + ROW_H / 2
        if k % 2 == 0:
            d.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW_H - 1), fill=PANEL)
        rank = view.ranks[seat] if view.ranks else 1 + sum(v > scores[seat] for v in scores)
        _rank_disc(d, m.x(MARGIN + 16), mid, rank)
        color, shape = SERIES[seat % len(SERIES)]
        _marker(d, shape, m.x(MARGIN + 42), mid, 7, color)
        room = cols_left - MARGIN - 60
        name = text.short_name(_name(names, seat, labels), SMALL, room)
        text.draw(d, (m.x(MARGIN + 56), mid), name, SMALL, INK, anchor=m.anchor("lm"),
                  max_width=room)  # fmt: skip
        for i in range(3):
            points = gained.get((i + 1, seat))
            shown = "·" if points is None else f"+{points}"
            cx = m.x(cols_left + i * col_w + col_w / 2)
            text.draw(d, (cx, mid), shown, SMALL, INK if points else MUTED, anchor="mm")
        cx = m.x(cols_left + 3 * col_w + col_w / 2)
        text.draw(d, (cx, mid), str(scores[seat]), SMALL + 4, INK, bold=True, anchor="mm")
        y += ROW_H
    return y


def _rank_disc(d: ImageDraw.ImageDraw, cx: float, cy: float, rank: int) -> None:
    r = 14
    fill = RANK_FILL[rank - 1] if 1 <= rank <= 3 else PAPER_DARK
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=darker(fill, 0.75))
    text.draw(d, (cx, cy), str(rank), SMALL, INK, bold=True, anchor="mm")


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


def _ranks(counts: Sequence[Sequence[int]], b: int) -> list[int]:
    """Each entry's rank in type `b` among the entries that have any (0: none)."""
    return [1 + sum(other[b] > c[b] for other in counts) if c[b] > 0 else 0 for c in counts]


def _round_detail(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: SeatView,
    held: ScoringHeld,
    title: str,
    names: Sequence[str],
    y: int,
    labels: Labels | None,
) -> None:
    """One round per type: buildings, rank and points of each player, then wall and total.
    Right to left, the table reads from the right, as the standings above it do: name, types,
    wall, the round's points."""
    m = Mirror(labels, WIDTH)
    legend = label(labels, "counts_legend")
    text.draw(d, (m.x(MARGIN), y + 14), title, SMALL + 2, INK, bold=True, anchor=m.anchor("lm"),
              max_width=WIDTH - 2 * MARGIN)  # fmt: skip
    y += 34
    x0 = MARGIN + NAME_W
    d.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW_H + 4), fill=PAPER_DARK)
    text.draw(d, (m.x(MARGIN + 6), y + (ROW_H + 4) / 2), legend, SMALL, MUTED,
              anchor=m.anchor("lm"), max_width=NAME_W - 10)  # fmt: skip
    for i, building in enumerate(Building):
        chip = m.left(x0 + i * TYPE_W + (TYPE_W - 30) / 2, 30)
        building_chip(img, d, chip, y + 3, building, 30)
    wx = x0 + 6 * TYPE_W
    _wall_icon(d, m.x(wx + WALL_W / 2), y + (ROW_H + 4) / 2)
    text.draw(d, (m.x(wx + WALL_W + ROUND_W / 2), y + (ROW_H + 4) / 2),
              label(labels, "col_round"), SMALL, MUTED, bold=True, anchor="mm",
              max_width=ROUND_W - 4)  # fmt: skip
    y += ROW_H + 6
    counts = held.counts
    ranks = [_ranks(counts, int(b)) for b in Building]
    rows = {row.seat: row for row in held.rows if row.seat >= 0}
    entries = list(range(len(view.table))) + (
        [len(view.table)] if len(counts) > len(view.table) else []
    )
    for k, entry in enumerate(entries):
        mid = y + DETAIL_H / 2
        if k % 2 == 0:
            d.rectangle((MARGIN, y, WIDTH - MARGIN, y + DETAIL_H - 1), fill=PANEL)
        row = rows.get(entry)
        if row is None:  # Dirk: his buildings compete, his points are not kept
            name = label(labels, "dirk")
        else:
            color, shape = SERIES[entry % len(SERIES)]
            _marker(d, shape, m.x(MARGIN + 10), mid, 6, color)
            name = _name(names, entry, labels)
        name = text.short_name(name, SMALL, NAME_W - 26)
        text.draw(d, (m.x(MARGIN + 22), mid), name, SMALL, INK, anchor=m.anchor("lm"),
                  max_width=NAME_W - 26)  # fmt: skip
        for i in range(6):
            count = counts[entry][i] if entry < len(counts) else 0
            points = row.buildings[i] if row is not None else None
            _type_cell(d, m.left(x0 + i * TYPE_W, TYPE_W), y, count, ranks[i][entry], points)
        if row is not None:
            text.draw(d, (m.x(wx + WALL_W / 2), mid), str(row.wall), SMALL, INK, anchor="mm")
            total = f"+{row.total}"
            text.draw(d, (m.x(wx + WALL_W + ROUND_W / 2), mid), total, SMALL + 4, INK,
                      bold=True, anchor="mm")  # fmt: skip
        y += DETAIL_H


def _type_cell(
    d: ImageDraw.ImageDraw, left: float, top: float, count: int, rank: int, points: int | None
) -> None:
    """Buildings and rank on the first line, the points they brought on the second."""
    cx = left + TYPE_W / 2
    if not count:
        text.draw(d, (cx, top + DETAIL_H / 2), "·", SMALL, MUTED, anchor="mm")
        return
    line1 = top + 15
    w = text.width(str(count), SMALL, True)
    text.draw(d, (left + 6, line1), str(count), SMALL, INK, bold=True, anchor="lm")
    if rank:
        r = 11
        rx = left + 6 + w + 4 + r
        fill = RANK_FILL[rank - 1] if rank <= 3 else PAPER_DARK
        d.ellipse((rx - r, line1 - r, rx + r, line1 + r), fill=fill, outline=darker(fill, 0.7))
        text.draw(d, (rx, line1), str(rank), SMALL, INK, anchor="mm")
    if points is not None:
        text.draw(d, (cx, top + 38), f"+{points}", SMALL, INK if points else MUTED, anchor="mm")


def _wall_icon(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    d.rectangle((cx - 14, cy - 5, cx + 14, cy + 5), fill=WALL)
    d.rectangle((cx - 14, cy - 5, cx + 14, cy - 1), fill=WALL_HIGHLIGHT)


# --- the points table of the rules ------------------------------------------------------------

POINTS_ROW = 46


@text.in_its_digits
def points_image(*, labels: Labels | None = None) -> Image.Image:
    """What each building type pays in each scoring round, to first, second and third place."""
    rows = len(Building)
    height = MARGIN + 40 + 2 * ROW_H + rows * POINTS_ROW + MARGIN
    img, d = new_canvas(WIDTH, height)
    m = Mirror(labels, WIDTH)  # right to left: the types on the right, the rounds leftwards
    text.draw(d, (m.x(MARGIN), MARGIN + 16), label(labels, "points_title"), 26, INK, bold=True,
              anchor=m.anchor("lm"), max_width=WIDTH - 2 * MARGIN)  # fmt: skip
    y = MARGIN + 40
    name_w = 200
    col_w = (WIDTH - 2 * MARGIN - name_w) // 6
    spans = ((1, 1), (2, 2), (3, 3))  # (round, places paid)
    x = MARGIN + name_w
    d.rectangle((MARGIN, y, WIDTH - MARGIN, y + 2 * ROW_H), fill=PAPER_DARK)
    heads = ("chart_first", "chart_second", "chart_final")
    for (_round_no, places), head in zip(spans, heads, strict=True):
        title = label(labels, head)
        text.draw(d, (m.x(x + places * col_w / 2), y + ROW_H / 2), title, SMALL, INK, bold=True,
                  anchor="mm", max_width=places * col_w - 6)  # fmt: skip
        for p in range(places):
            place = label(labels, "place_n", n=p + 1)
            text.draw(d, (m.x(x + p * col_w + col_w / 2), y + ROW_H * 1.5), place, SMALL, MUTED,
                      anchor="mm", max_width=col_w - 4)  # fmt: skip
        d.line((m.x(x), y + 4, m.x(x), y + 2 * ROW_H + rows * POINTS_ROW - 4), fill=GRID, width=2)
        x += places * col_w
    y += 2 * ROW_H
    for k, building in enumerate(Building):
        mid = y + POINTS_ROW / 2
        if k % 2:
            d.rectangle((MARGIN, y, WIDTH - MARGIN, y + POINTS_ROW - 1), fill=PANEL)
        building_chip(img, d, m.left(MARGIN + 4, 32), mid - 16, building, 32)
        text.draw(d, (m.x(MARGIN + 44), mid), building_name(labels, building), SMALL, INK,
                  anchor=m.anchor("lm"), max_width=name_w - 48)  # fmt: skip
        x = MARGIN + name_w
        for round_no, places in spans:
            paid = SCORING_TABLE[round_no][building]
            for p in range(places):
                value = str(paid[p]) if p < len(paid) else "-"
                text.draw(d, (m.x(x + p * col_w + col_w / 2), mid), value, SMALL + 4, INK,
                          bold=p == 0, anchor="mm")  # fmt: skip
            x += places * col_w
        y += POINTS_ROW
    return img


@text.in_its_digits
def render_points(*, labels: Labels | None = None) -> bytes:
    """PNG of the scoring table (RULES.md section 5), in the words of `labels`."""
    return to_png(points_image(labels=labels))
