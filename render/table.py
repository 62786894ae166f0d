"""The table, posted in the channel every turn: market, money pool and one line per player.

It is shown in an embed, which Discord fits into 400 x 300 on desktop and about 300 px wide on a
phone (`render.display`), so it is drawn for that size: 720 px wide, no text under 24 px (10 px
on a phone's screen), and only what everyone needs every turn: each market slot's number,
currency, building and price; the money pool; per player the score, cards in hand, longest wall,
reserve and buildings per type; whose turn it is and how far the game has gone. Whole Alhambras
need room to be read, so they are drawn where they get it: the acting player's panel and the
Board button (`render.alhambra`).

In a language written right to left (`render.labels.rtl`) the header, the players' lines and
the legend are mirrored: the name on the right, the figures after it leftwards. The market is
not: its slots stay numbered 1 to 4 from the left, as on the hand and in the commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import TILES, Building, Currency, PlayerView, SeatView

from . import text
from .canvas import building_chip, currency_chip, new_canvas, paste, to_png
from .labels import Labels, Mirror, building_name, currency_name, label
from .palette import (
    CURRENCY_FILL,
    CURRENCY_TEXT,
    GOOD,
    INK,
    MUTED,
    PANEL,
    PAPER_DARK,
    TURN,
    WALL,
    WALL_HIGHLIGHT,
    darker,
    lighter,
)
from .sprites import card_sprite, tile_sprite

WIDTH = 720
MARGIN = 14
GAP = 8
#: The smallest font on the table: 24 px is 10 px on a phone (x 0.42) and 12 on desktop.
SMALL = 24
HEADER_H = 44
TOP = MARGIN + HEADER_H + 6
SLOT_W = 130
MARKET_H = 190
BAND = 34
SLOT_TILE = 66
POOL_W = WIDTH - 2 * MARGIN - 4 * SLOT_W - 3 * GAP - 10
CARD_W, CARD_H = 62, 56
HEAD_H = 38
ROW_H = 44
LEGEND_H = 38

#: Columns of the players' lines: (key, width); the name takes what is left.
MARK_W = 32
SCORE_W = 60
STAT_W = 46
TYPE_W = 45


@dataclass(frozen=True, slots=True)
class _Columns:
    mark: int
    name: int
    name_w: int
    score: int
    stats: tuple[int, int, int]
    types: tuple[int, ...]


def _columns() -> _Columns:
    x = MARGIN
    mark = x
    x += MARK_W
    name = x + 6
    types_left = WIDTH - MARGIN - 6 * TYPE_W
    stats_left = types_left - 3 * STAT_W - 4
    score = stats_left - SCORE_W
    stats = (stats_left, stats_left + STAT_W, stats_left + 2 * STAT_W)
    types = tuple(types_left + i * TYPE_W for i in range(6))
    return _Columns(mark, name, score - name - 8, score, stats, types)


@text.in_its_digits
def table_image(
    view: SeatView, names: Sequence[str], *, labels: Labels | None = None
) -> Image.Image:
    """The picture as a Pillow image (see `render_table`)."""
    rows = len(view.table) + (1 if view.dirk is not None else 0)
    lines_top = TOP + MARKET_H + 12
    height = lines_top + HEAD_H + rows * ROW_H + LEGEND_H + MARGIN
    img, d = new_canvas(WIDTH, height)
    # Right to left, what reads in a direction is mirrored: the header, the players' lines and
    # the legend. The market and the pool are not: slot 1 is the leftmost in every language,
    # as it is on the hand, whose columns are the slots, and "slot 2" in a command must be the
    # second from the left on both pictures.
    m = Mirror(labels, WIDTH)
    _header(d, view, names, labels, m)
    _market(img, d, view, labels)
    _pool(img, d, view, labels)
    cols = _columns()
    _lines_head(img, d, cols, lines_top, labels, m)
    y = lines_top + HEAD_H
    order = list(range(len(view.table)))
    if view.is_over and view.ranks:
        ranks = view.ranks
        order.sort(key=lambda s: (ranks[s], s))
    for i, seat in enumerate(order):
        _player_line(img, d, view, view.table[seat], _name(names, seat, labels), cols, y, i, m)
        y += ROW_H
    if view.dirk is not None:
        _dirk_line(d, view, cols, y, labels, m)
        y += ROW_H
    _legend(img, d, y + 6, labels, m)
    return img


@text.in_its_digits
def render_table(view: SeatView, names: Sequence[str], *, labels: Labels | None = None) -> bytes:
    """PNG of the table as everyone sees it. `names[seat]` is the player sitting at that seat;
    `labels` are the words in the reader's language (`render.labels`)."""
    return to_png(table_image(view, names, labels=labels))


def _name(names: Sequence[str], seat: int, labels: Labels | None) -> str:
    name = names[seat] if seat < len(names) else ""
    return name if text.clean(name, SMALL, True) else label(labels, "player", n=seat + 1)


def _header(
    d: ImageDraw.ImageDraw,
    view: SeatView,
    names: Sequence[str],
    labels: Labels | None,
    m: Mirror,
) -> None:
    mid = MARGIN + HEADER_H / 2
    if view.is_over:
        ranks = view.ranks or ()
        winners = [_name(names, s, labels) for s, r in enumerate(ranks) if r == 1]
        key = "game_over_many" if len(winners) > 1 else "game_over_one"
        title = label(labels, key, names=" & ".join(winners))
    elif view.current_seat is not None:
        who = _name(names, view.current_seat, labels)
        key = "title_final_placement" if view.final_placement else "title_to_play"
        title = label(labels, key, name=who)
    else:
        key, who, title = "title", "", label(labels, "title")
    # From the far end: the three scoring rounds (green once held), after the word "scoring".
    held = {r.round_no for r in view.scoring_rounds}
    x = WIDTH - MARGIN
    disc = 34
    for round_no in (3, 2, 1):
        done = round_no in held
        left = x - disc
        at = m.left(left, disc)
        d.ellipse(
            (at, mid - disc / 2, at + disc, mid + disc / 2),
            fill=GOOD if done else PAPER_DARK,
            outline=darker(GOOD if done else PAPER_DARK, 0.8),
        )
        ink = (255, 255, 255) if done else MUTED
        text.draw(d, (at + disc / 2, mid), str(round_no), SMALL, ink, bold=True, anchor="mm")
        x = left - 4
    scoring = label(labels, "scoring")
    x -= 4 + text.draw(
        d, (m.x(x - 4), mid), scoring, SMALL, MUTED, anchor=m.anchor("rm"), max_width=150
    )
    x -= 16
    w = 0
    room = round(x - MARGIN)
    if not view.is_over and who and text.width(text.clean(title, 28, True), 28, True) > room:
        title = _shortened(labels, key, who, room)
    turn = label(labels, "turn", n=view.turn_number)
    turn_w = text.width(text.fit(turn, SMALL, 130), SMALL) + 10
    # the turn number gives way to the title (the turn message says it too)
    if not view.is_over and text.width(text.clean(title, 28, True), 28, True) <= room - turn_w:
        turn_at = (m.x(MARGIN), mid)
        w = text.draw(d, turn_at, turn, SMALL, MUTED, anchor=m.anchor("lm"), max_width=130) + 10
    text.draw(
        d,
        (m.x(MARGIN + w), mid),
        title,
        28,
        INK,
        bold=True,
        anchor=m.anchor("lm"),
        max_width=round(x - MARGIN - w),
    )


def _shortened(labels: Labels | None, key: str, name: str, room: int) -> str:
    """The title with the name cut short rather than the words around it ("Maximilian von
    Ho… to play", never "Maximilian von Hohenzollern-Sig…"): whose turn it is must stay said."""
    shown = text.clean(name, 28, True)
    lo, hi = 0, len(shown)
    while lo < hi:  # the longest start of the name that leaves the sentence whole
        mid = (lo + hi + 1) // 2
        candidate = label(labels, key, name=shown[:mid].rstrip() + text.ELLIPSIS)
        if text.width(text.clean(candidate, 28, True), 28, True) <= room:
            lo = mid
        else:
            hi = mid - 1
    return label(labels, key, name=shown[:lo].rstrip() + text.ELLIPSIS)


def _market(
    img: Image.Image, d: ImageDraw.ImageDraw, view: SeatView, labels: Labels | None
) -> None:
    for slot, currency in enumerate(Currency):
        left = MARGIN + slot * (SLOT_W + GAP)
        top, bottom = TOP, TOP + MARKET_H
        fill = CURRENCY_FILL[currency]
        ink = CURRENCY_TEXT[currency]
        d.rounded_rectangle(
            (left, top, left + SLOT_W, bottom), 10, fill=PANEL, outline=darker(fill, 0.8), width=2
        )
        d.rounded_rectangle((left, top, left + SLOT_W, top + BAND), 10, fill=fill)
        d.rectangle((left, top + BAND - 10, left + SLOT_W, top + BAND), fill=fill)
        text.draw(
            d,
            (left + SLOT_W / 2, top + BAND / 2),
            currency_name(labels, currency),
            SMALL,
            ink,
            bold=True,
            anchor="mm",
            max_width=SLOT_W - 6,
        )
        # The slot's number, with the currency's shape: "slot 2" is what commands say.
        body = top + BAND
        d.rounded_rectangle(
            (left + 6, body + 8, left + 40, body + 8 + 34), 8, fill=darker(fill, 0.75)
        )
        text.draw(
            d, (left + 23, body + 25), str(slot + 1), SMALL, (255, 255, 255), bold=True, anchor="mm"
        )
        currency_chip(img, d, left + 9, body + 50, currency, 28)
        tile = view.market[slot] if slot < len(view.market) else None
        cx = left + SLOT_W / 2
        if tile is None:
            empty = label(labels, "empty")
            text.draw(
                d, (cx + 20, body + 50), empty, SMALL, MUTED, anchor="mm", max_width=SLOT_W - 50
            )
            continue
        info = TILES[tile]
        assert info.building is not None
        tile_left = left + SLOT_W - 8 - SLOT_TILE
        paste(img, tile_sprite(tile, SLOT_TILE), (tile_left, body + 8))
        # The price, large, where the eye lands after the building.
        price_y = body + 8 + SLOT_TILE + 4
        text.draw(
            d,
            (tile_left + SLOT_TILE / 2, price_y),
            str(info.cost),
            30,
            INK,
            bold=True,
            anchor="mt",
        )
        text.draw(
            d,
            (cx, bottom - 16),
            building_name(labels, info.building),
            SMALL,
            INK,
            anchor="mm",
            max_width=SLOT_W - 4,
        )


def _pool(img: Image.Image, d: ImageDraw.ImageDraw, view: SeatView, labels: Labels | None) -> None:
    left = WIDTH - MARGIN - POOL_W
    right = WIDTH - MARGIN
    d.rounded_rectangle((left, TOP, right, TOP + MARKET_H), 10, fill=PAPER_DARK)
    mid = (left + right) / 2
    title = label(labels, "money_pool")
    text.draw(d, (mid, TOP + BAND / 2), title, SMALL, INK, anchor="mm", max_width=POOL_W - 6)
    gap = (POOL_W - 2 * CARD_W) / 3
    y0 = TOP + BAND + 4
    if not view.pool:
        empty = label(labels, "empty")
        text.draw(d, (mid, y0 + CARD_H), empty, SMALL, MUTED, anchor="mm", max_width=POOL_W - 8)
    for i, card in enumerate(view.pool[:4]):
        r, c = divmod(i, 2)
        paste(
            img,
            card_sprite(card, CARD_W, CARD_H),
            (round(left + gap + c * (CARD_W + gap)), y0 + r * (CARD_H + 6)),
        )
    deck = label(labels, "deck", n=view.deck_size)
    text.draw(d, (mid, TOP + MARKET_H - 18), deck, SMALL, MUTED, anchor="mm", max_width=POOL_W - 8)


def _lines_head(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    cols: _Columns,
    y: int,
    labels: Labels | None,
    m: Mirror,
) -> None:
    """Column heads: points, then a drawn icon for cards, wall and reserve, then each type."""
    mid = y + HEAD_H / 2
    pts = label(labels, "pts")
    text.draw(
        d, (m.x(cols.score + SCORE_W / 2), mid), pts, SMALL, MUTED, bold=True, anchor="mm",
        max_width=SCORE_W,
    )  # fmt: skip
    for kind, x in zip(("hand", "wall", "reserve"), cols.stats, strict=True):
        _icon(d, kind, m.x(x + STAT_W / 2), mid, 28)
    for building, x in zip(Building, cols.types, strict=True):
        building_chip(img, d, m.left(x + (TYPE_W - 30) / 2, 30), mid - 15, building, 30)


def _icon(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, size: int) -> None:
    """Small pictures for the three counts that have no colour of their own."""
    h = size / 2
    if kind == "hand":  # two cards, fanned
        for dx, fill in ((-h * 0.45, (214, 200, 170)), (h * 0.25, (250, 245, 232))):
            d.rounded_rectangle(
                (cx + dx - h * 0.45, cy - h * 0.8, cx + dx + h * 0.45, cy + h * 0.8),
                3,
                fill=fill,
                outline=MUTED,
                width=2,
            )
    elif kind == "wall":  # a wall bar on a tile's edge, as on the Alhambras
        d.rectangle((cx - h, cy - h * 0.3, cx + h, cy + h * 0.3), fill=WALL)
        d.rectangle((cx - h, cy - h * 0.3, cx + h, cy - h * 0.05), fill=WALL_HIGHLIGHT)
    else:  # reserve: a tile set aside, dashed
        box = (cx - h * 0.8, cy - h * 0.8, cx + h * 0.8, cy + h * 0.8)
        d.rounded_rectangle(box, 4, outline=MUTED, width=2)
        d.line((cx - h * 0.8, cy, cx + h * 0.8, cy), fill=PANEL, width=4)
        d.line((cx, cy - h * 0.8, cx, cy + h * 0.8), fill=PANEL, width=4)


def _player_line(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: SeatView,
    p: PlayerView,
    name: str,
    cols: _Columns,
    y: int,
    index: int,
    m: Mirror,
) -> None:
    current = view.current_seat == p.seat and not view.is_over
    mid = y + ROW_H / 2
    box = (MARGIN, y + 2, WIDTH - MARGIN, y + ROW_H - 2)
    if current:
        d.rounded_rectangle(box, 8, fill=lighter(TURN, 0.82), outline=TURN, width=3)
    elif index % 2 == 0:
        d.rounded_rectangle(box, 8, fill=PANEL)
    if view.is_over and view.ranks:
        rank = view.ranks[p.seat]
        fill = WALL_HIGHLIGHT if rank == 1 else PAPER_DARK
        at = m.left(cols.mark + 1, 30)
        d.ellipse((at, mid - 15, at + 30, mid + 15), fill=fill)
        text.draw(d, (at + 15, mid), str(rank), SMALL, INK, bold=True, anchor="mm")
    elif current:  # an arrow pointing at the name: whose turn, not by the line's colour alone
        x = cols.mark + 6
        d.polygon([(m.x(x), mid - 11), (m.x(x + 18), mid), (m.x(x), mid + 11)], fill=TURN)
    name = text.short_name(name, SMALL, cols.name_w, bold=True)
    text.draw(d, (m.x(cols.name), mid), name, SMALL, INK, bold=True, anchor=m.anchor("lm"),
              max_width=cols.name_w)  # fmt: skip
    score = str(p.score)
    text.draw(d, (m.x(cols.score + SCORE_W / 2), mid), score, 28, INK, bold=True, anchor="mm")
    for value, x in zip((p.hand_size, p.wall, len(p.reserve)), cols.stats, strict=True):
        text.draw(d, (m.x(x + STAT_W / 2), mid), str(value), SMALL, INK, anchor="mm")
    for building, x in zip(Building, cols.types, strict=True):
        _count(d, p.counts[building], m.x(x + TYPE_W / 2), mid)


def _count(d: ImageDraw.ImageDraw, n: int, cx: float, cy: float) -> None:
    text.draw(
        d, (cx, cy), str(n) if n else "·", SMALL, INK if n else MUTED, bold=bool(n), anchor="mm"
    )


def _dirk_line(
    d: ImageDraw.ImageDraw,
    view: SeatView,
    cols: _Columns,
    y: int,
    labels: Labels | None,
    m: Mirror,
) -> None:
    """Dirk, the neutral player of two-player games: only his buildings count."""
    mid = y + ROW_H / 2
    d.rounded_rectangle((MARGIN, y + 2, WIDTH - MARGIN, y + ROW_H - 2), 8, fill=PAPER_DARK)
    dirk = label(labels, "dirk")
    w = text.draw(d, (m.x(cols.name), mid), dirk, SMALL, INK, bold=True, anchor=m.anchor("lm"),
                  max_width=100)  # fmt: skip
    note = label(labels, "dirk_note")
    room = cols.types[0] - cols.name - w - 20
    text.draw(d, (m.x(cols.name + w + 10), mid), note, SMALL, MUTED, anchor=m.anchor("lm"),
              max_width=room)  # fmt: skip
    counts = [0] * 6
    for t in view.dirk or ():
        b = TILES[t].building
        assert b is not None
        counts[b] += 1
    for building, x in zip(Building, cols.types, strict=True):
        _count(d, counts[building], m.x(x + TYPE_W / 2), mid)


def _legend(
    img: Image.Image, d: ImageDraw.ImageDraw, y: int, labels: Labels | None, m: Mirror
) -> None:
    """What the three icons count, in words, once: new players need it, others skim past."""
    mid = y + LEGEND_H / 2 - 4
    x = float(MARGIN + 4)
    room = (WIDTH - 2 * MARGIN) / 3
    for kind in ("hand", "wall", "reserve"):
        _icon(d, kind, m.x(x + 14), mid, 26)
        words = label(labels, f"legend_{kind}")
        text.draw(d, (m.x(x + 34), mid), words, SMALL, MUTED, anchor=m.anchor("lm"),
                  max_width=round(room - 44))  # fmt: skip
        x += room
