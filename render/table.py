"""The table, posted in the channel every turn: market, money pool, counts, and every player.

One picture answers what players ask between turns: what is for sale and in which currency, what
money is in the pool, who is ahead, who holds many cards, how everyone's Alhambra looks, whose
turn it is and how far the game has gone.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import TILES, Building, Currency, PlayerView, SeatView

from . import text
from .canvas import building_chip, new_canvas, pill, to_png
from .labels import Labels, building_name, counted, currency_name, label
from .palette import (
    CURRENCY_FILL,
    CURRENCY_TEXT,
    GOOD,
    GRID,
    INK,
    MUTED,
    PANEL,
    PAPER_DARK,
    TURN,
    WALL_HIGHLIGHT,
    darker,
)
from .sprites import card_sprite, paste, tile_sprite

WIDTH = 920
MARGIN = 16
GAP = 12
TOP = 64
SLOT_W = 142
SLOT_H = 186
SLOT_TILE = 96
CARD_W, CARD_H = 56, 78
PANEL_H = 250
MINI_MAX = 26


def table_image(
    view: SeatView, names: Sequence[str], *, labels: Labels | None = None
) -> Image.Image:
    """The picture as a Pillow image (see `render_table`)."""
    entries: list[PlayerView | None] = list(view.table)
    if view.dirk is not None:
        entries.append(None)  # Dirk's panel
    cols = len(entries) if len(entries) <= 3 else (2 if len(entries) == 4 else 3)
    rows = -(-len(entries) // cols)
    panels_y = TOP + SLOT_H + 2 * GAP + 8
    panel_h = PANEL_H if rows == 1 else PANEL_H - 40
    height = panels_y + rows * (panel_h + GAP) - GAP + MARGIN
    img, d = new_canvas(WIDTH, height)
    _header(d, view, names, labels)
    _market(img, d, view, labels)
    _pool(img, d, view, labels)
    panel_w = (WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols
    for i, entry in enumerate(entries):
        r, c = divmod(i, cols)
        box = (
            MARGIN + c * (panel_w + GAP),
            panels_y + r * (panel_h + GAP),
            MARGIN + c * (panel_w + GAP) + panel_w,
            panels_y + r * (panel_h + GAP) + panel_h,
        )
        if entry is None:
            _dirk_panel(img, d, view, box, labels)
        else:
            _player_panel(img, d, view, entry, _name(names, entry.seat, labels), box, labels)
    return img


def render_table(view: SeatView, names: Sequence[str], *, labels: Labels | None = None) -> bytes:
    """PNG of the table as everyone sees it. `names[seat]` is the player sitting at that seat;
    `labels` are the words in the reader's language (`render.labels`)."""
    return to_png(table_image(view, names, labels=labels))


def _name(names: Sequence[str], seat: int, labels: Labels | None) -> str:
    name = names[seat] if seat < len(names) else ""
    return name if text.clean(name, 20, True) else label(labels, "player", n=seat + 1)


def _header(
    d: ImageDraw.ImageDraw, view: SeatView, names: Sequence[str], labels: Labels | None
) -> None:
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
        title = label(labels, "title")
    right = WIDTH - MARGIN
    # Right to left: supply, deck, scoring rounds.
    supply = label(labels, "supply", n=view.supply_size)
    box = pill(d, (right, MARGIN), supply, 15, PANEL, anchor="r", max_width=150)
    deck = label(labels, "deck", n=view.deck_size)
    box = pill(d, (box[0] - 8, MARGIN), deck, 15, PANEL, anchor="r", max_width=120)
    held = {r.round_no for r in view.scoring_rounds}
    x = box[0] - 8
    for round_no in (3, 2, 1):
        done = round_no in held
        box = pill(
            d,
            (x, MARGIN),
            f"{round_no}",
            15,
            GOOD if done else PAPER_DARK,
            (255, 255, 255) if done else MUTED,
            anchor="r",
        )
        x = box[0] - 4
    scoring = text.fit(label(labels, "scoring"), 15, 120)
    text.draw(d, (x - 4, MARGIN + 11), scoring, 15, MUTED, anchor="rm")
    x -= 4 + text.width(scoring, 15) + 16
    w = 0
    if not view.is_over:
        turn = label(labels, "turn", n=view.turn_number)
        w = text.draw(d, (MARGIN, MARGIN + 11), turn, 16, MUTED, anchor="lm", max_width=120) + 10
    text.draw(
        d,
        (MARGIN + w, MARGIN + 11),
        title,
        24,
        INK,
        bold=True,
        anchor="lm",
        max_width=round(x - MARGIN - w),
    )


def _market(
    img: Image.Image, d: ImageDraw.ImageDraw, view: SeatView, labels: Labels | None
) -> None:
    for slot, currency in enumerate(Currency):
        left = MARGIN + slot * (SLOT_W + GAP)
        top = TOP
        fill = CURRENCY_FILL[currency]
        d.rounded_rectangle(
            (left, top, left + SLOT_W, top + SLOT_H),
            10,
            fill=PANEL,
            outline=darker(fill, 0.8),
            width=2,
        )
        d.rounded_rectangle((left, top, left + SLOT_W, top + 30), 10, fill=fill)
        d.rectangle((left, top + 20, left + SLOT_W, top + 30), fill=fill)
        text.draw(
            d,
            (left + SLOT_W / 2, top + 15),
            currency_name(labels, currency),
            17,
            CURRENCY_TEXT[currency],
            bold=True,
            anchor="mm",
            max_width=SLOT_W - 12,
        )
        tile = view.market[slot] if slot < len(view.market) else None
        cx = left + SLOT_W / 2
        if tile is None:
            empty = label(labels, "empty")
            text.draw(
                d,
                (cx, top + 30 + (SLOT_H - 30) / 2),
                empty,
                16,
                MUTED,
                anchor="mm",
                max_width=SLOT_W,
            )
            continue
        paste(img, tile_sprite(tile, SLOT_TILE), (round(cx - SLOT_TILE / 2), top + 38))
        info = TILES[tile]
        assert info.building is not None
        text.draw(
            d,
            (cx, top + SLOT_H - 14),
            building_name(labels, info.building),
            16,
            INK,
            anchor="mm",
            max_width=SLOT_W - 12,
        )


def _pool(img: Image.Image, d: ImageDraw.ImageDraw, view: SeatView, labels: Labels | None) -> None:
    left = MARGIN + 4 * (SLOT_W + GAP) + 8
    right = WIDTH - MARGIN
    d.rounded_rectangle((left, TOP, right, TOP + SLOT_H), 10, fill=PAPER_DARK)
    title = label(labels, "money_pool")
    mid = (left + right) / 2
    text.draw(d, (mid, TOP + 15), title, 17, INK, bold=True, anchor="mm", max_width=right - left)
    inner = right - left
    per_row = 4 if inner >= 4 * CARD_W + 5 * 8 else 2
    gap = (inner - per_row * CARD_W) / (per_row + 1)
    rows = 1 if per_row == 4 else 2
    y0 = TOP + 36 + (SLOT_H - 36 - rows * CARD_H - (rows - 1) * 8) / 2
    if not view.pool:
        empty = label(labels, "empty")
        text.draw(d, (mid, TOP + SLOT_H / 2 + 14), empty, 16, MUTED, anchor="mm")
    for i, card in enumerate(view.pool):
        r, c = divmod(i, per_row)
        paste(
            img,
            card_sprite(card, CARD_W, CARD_H),
            (round(left + gap + c * (CARD_W + gap)), round(y0 + r * (CARD_H + 8))),
        )


def _player_panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: SeatView,
    p: PlayerView,
    name: str,
    box: tuple[int, int, int, int],
    labels: Labels | None,
) -> None:
    left, top, right, bottom = box
    current = view.current_seat == p.seat and not view.is_over
    d.rounded_rectangle(
        box, 10, fill=PANEL, outline=TURN if current else GRID, width=4 if current else 2
    )
    x = left + 12
    name_right = right - 12
    if view.is_over and view.ranks:
        rank = view.ranks[p.seat]
        badge = pill(
            d,
            (name_right, top + 10),
            f"#{rank}",
            15,
            WALL_HIGHLIGHT if rank == 1 else PAPER_DARK,
            anchor="r",
        )
        name_right = badge[0] - 6
    elif current:
        to_play = label(labels, "to_play")
        badge = pill(
            d, (name_right, top + 10), to_play, 14, TURN, (255, 255, 255), anchor="r", max_width=110
        )
        name_right = badge[0] - 6
    text.draw(d, (x, top + 10), name, 20, INK, bold=True, max_width=name_right - x)
    # Score, cards in hand, wall.
    y = top + 40
    w = text.draw(d, (x, y), f"{p.score}", 26, INK, bold=True)
    pts = label(labels, "pts")
    pts_w = text.draw(d, (x + w + 4, y + 8), pts, 14, MUTED, max_width=60)
    room = right - x - w - max(50, pts_w + 16)
    cards = counted(labels, "cards", p.hand_size) + " · " + label(labels, "wall", n=p.wall)
    text.draw(d, (right - 12, y - 2), cards, 14, MUTED, anchor="rt", max_width=room)
    reserve = label(labels, "reserve_count", n=len(p.reserve))
    text.draw(d, (right - 12, y + 16), reserve, 14, MUTED, anchor="rt", max_width=room)
    # Counts per type.
    y = top + 76
    step = min(44, (right - left - 24) // 6)
    for i, building in enumerate(Building):
        cx = x + i * step
        building_chip(d, cx, y, building, 18)
        text.draw(d, (cx + 21, y + 9), str(p.counts[building]), 14, INK, bold=True, anchor="lm")
    _mini_alhambra(img, d, p, (left + 10, top + 102, right - 10, bottom - 8))


def _mini_alhambra(
    img: Image.Image, d: ImageDraw.ImageDraw, p: PlayerView, box: tuple[int, int, int, int]
) -> None:
    left, top, right, bottom = box
    xs = [0] + [x for x, _y, _t in p.alhambra]
    ys = [0] + [y for _x, y, _t in p.alhambra]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    cell = max(4, min(MINI_MAX, (right - left) // cols, (bottom - top) // rows))
    ox = left + (right - left - cols * cell) // 2 - min(xs) * cell
    oy = top + (bottom - top - rows * cell) // 2 - min(ys) * cell
    paste(img, tile_sprite(0, cell), (ox, oy))
    for x, y, tile in p.alhambra:
        paste(img, tile_sprite(tile, cell), (ox + x * cell, oy + y * cell))


def _dirk_panel(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: SeatView,
    box: tuple[int, int, int, int],
    labels: Labels | None,
) -> None:
    left, top, right, bottom = box
    d.rounded_rectangle(box, 10, fill=PAPER_DARK, outline=GRID, width=2)
    x = left + 12
    text.draw(d, (x, top + 10), label(labels, "dirk"), 20, INK, bold=True, max_width=120)
    text.draw(
        d,
        (right - 12, top + 14),
        label(labels, "dirk_note"),
        13,
        MUTED,
        anchor="rt",
        max_width=right - x - 70,
    )
    tiles = view.dirk or ()
    counts = [0] * 6
    for t in tiles:
        b = TILES[t].building
        assert b is not None
        counts[b] += 1
    y = top + 76
    step = min(44, (right - left - 24) // 6)
    for i, building in enumerate(Building):
        cx = x + i * step
        building_chip(d, cx, y, building, 18)
        text.draw(d, (cx + 21, y + 9), str(counts[building]), 14, INK, bold=True, anchor="lm")
    dirk_count = counted(labels, "buildings", len(tiles))
    text.draw(d, (x, top + 48), dirk_count, 16, MUTED, max_width=right - x - 12)
    # His buildings, smallest first, as a strip of tiles.
    size = 22
    per_row = max(1, (right - left - 20) // (size + 2))
    for i, t in enumerate(sorted(tiles, key=lambda t: (TILES[t].building, TILES[t].cost))):
        r, c = divmod(i, per_row)
        y = top + 104 + r * (size + 2)
        if y + size > bottom - 6:
            break
        paste(img, tile_sprite(t, size), (x + c * (size + 2), y))
