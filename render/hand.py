"""A player's hand, shown only to its owner: cards by currency, and what they can buy now.

Buying in Alhambra is about one currency at a time, so the hand is laid out as four columns,
one per currency and market slot, with the column's total; under each, the building for sale
in that slot and whether the hand can pay for it, and pay exactly (which earns another action).
"""

from __future__ import annotations

from PIL import Image

from engine import CARDS, TILES, Currency, SeatView, can_afford, has_exact_payment

from . import text
from .canvas import new_canvas, pill, to_png
from .labels import Labels, counted, currency_name, label
from .palette import (
    BAD,
    CURRENCY_FILL,
    CURRENCY_TEXT,
    GOOD,
    GRID,
    INK,
    MUTED,
    PANEL,
    PAPER_DARK,
)
from .sprites import card_sprite, paste, tile_sprite

MARGIN = 16
COL_W = 148
GAP = 10
CARD_W, CARD_H = 40, 56
CARD_STEP = 26
TILE = 64


def hand_image(
    view: SeatView, *, name: str | None = None, labels: Labels | None = None
) -> Image.Image:
    """The picture as a Pillow image (see `render_hand`)."""
    if view.seat is None:
        raise ValueError("a spectator's view has no hand to draw")
    by_currency: dict[Currency, list[int]] = {c: [] for c in Currency}
    for card in sorted(view.hand, key=lambda c: (CARDS[c].currency, CARDS[c].value, c)):
        by_currency[CARDS[card].currency].append(card)
    # Cards overlap like a fanned hand; columns wrap after this many cards.
    per_row = max(1, (COL_W - 16 - CARD_W) // CARD_STEP + 1)
    rows = max(1, max(-(-len(v) // per_row) for v in by_currency.values()))
    width = 2 * MARGIN + 4 * COL_W + 3 * GAP
    cards_top = MARGIN + 58 + 40
    cards_h = rows * CARD_H - (rows - 1) * 18 + 8
    market_top = cards_top + cards_h + 12
    height = market_top + TILE + 76 + MARGIN
    img, d = new_canvas(width, height)
    total = sum(CARDS[c].value for c in view.hand)
    right = width - MARGIN
    summary = label(
        labels, "hand_total", cards=counted(labels, "cards", len(view.hand)), total=total
    )
    box = pill(d, (right, MARGIN + 2), summary, 15, PANEL, anchor="r", max_width=260)
    w = text.draw(
        d, (MARGIN, MARGIN), label(labels, "your_hand"), 24, INK, bold=True, max_width=220
    )
    if name and text.clean(name, 15):
        who = label(labels, "only_you_named", name=name)
    else:
        who = label(labels, "only_you")
    text.draw(
        d,
        (MARGIN + w + 12, MARGIN + 13),
        who,
        15,
        MUTED,
        anchor="lm",
        max_width=box[0] - MARGIN - w - 24,
    )
    for slot, currency in enumerate(Currency):
        left = MARGIN + slot * (COL_W + GAP)
        cards = by_currency[currency]
        fill = CURRENCY_FILL[currency]
        top = MARGIN + 58
        d.rounded_rectangle(
            (left, top, left + COL_W, height - MARGIN), 10, fill=PANEL, outline=GRID, width=2
        )
        d.rounded_rectangle((left, top, left + COL_W, top + 30), 10, fill=fill)
        d.rectangle((left, top + 20, left + COL_W, top + 30), fill=fill)
        ink = CURRENCY_TEXT[currency]
        text.draw(
            d,
            (left + 10, top + 15),
            currency_name(labels, currency),
            16,
            ink,
            bold=True,
            anchor="lm",
            max_width=COL_W - 50,
        )
        value = sum(CARDS[c].value for c in cards)
        text.draw(d, (left + COL_W - 10, top + 15), str(value), 18, ink, bold=True, anchor="rm")
        if not cards:
            none = label(labels, "no_cards")
            text.draw(
                d,
                (left + COL_W / 2, cards_top + 30),
                none,
                14,
                MUTED,
                anchor="mm",
                max_width=COL_W - 12,
            )
        for i, card in enumerate(cards):
            r, c = divmod(i, per_row)
            paste(
                img,
                card_sprite(card, CARD_W, CARD_H),
                (left + 8 + c * CARD_STEP, cards_top + 2 + r * (CARD_H - 18)),
            )
        # The building in this slot and whether this column pays for it.
        tile = view.market[slot] if slot < len(view.market) else None
        y = market_top
        d.line((left + 8, y - 6, left + COL_W - 8, y - 6), fill=GRID, width=1)
        if tile is None:
            nothing = label(labels, "nothing_for_sale")
            mid = (left + COL_W / 2, y + TILE / 2)
            text.draw(d, mid, nothing, 13, MUTED, anchor="mm", max_width=COL_W - 12)
            continue
        paste(img, tile_sprite(tile, TILE), (left + (COL_W - TILE) // 2, y))
        cost = TILES[tile].cost
        afford = can_afford(view.hand, int(currency), cost)
        exact = has_exact_payment(view.hand, int(currency), cost)
        ty = y + TILE + 8
        cx = left + COL_W / 2
        room = COL_W - 28  # the text inside a pill, which adds its own padding
        if afford:
            can_buy = label(labels, "can_buy")
            pill(d, (cx, ty), can_buy, 14, GOOD, (255, 255, 255), anchor="m", max_width=room)
            if exact:
                exact_text = label(labels, "exact")
                pill(d, (cx, ty + 26), exact_text, 13, PAPER_DARK, anchor="m", max_width=room)
            else:
                no_exact = label(labels, "no_exact")
                text.draw(d, (cx, ty + 36), no_exact, 13, MUTED, anchor="mm", max_width=COL_W - 12)
        else:
            short = label(labels, "short_by", n=cost - value)
            pill(d, (cx, ty), short, 14, BAD, (255, 255, 255), anchor="m", max_width=room)
    return img


def render_hand(view: SeatView, *, name: str | None = None, labels: Labels | None = None) -> bytes:
    """PNG of the hand of the seat `view` was made for (the owner's own view), in the words
    of `labels` (`render.labels`)."""
    return to_png(hand_image(view, name=name, labels=labels))
