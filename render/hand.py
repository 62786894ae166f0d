"""A player's hand, shown only to its owner: cards by currency, and what they can buy now.

Buying in Alhambra is about one currency at a time, so the hand is laid out as four columns,
one per currency and market slot, with the column's total; under each, the building for sale
in that slot, its price, and whether the hand can pay for it, and pay exactly (which earns
another action). Cards never overlap: a Dinar 1 beside a Dinar 5 must not read "15". It is an
attachment (550 x 350 on desktop, about 320 px wide on a phone: `render.display`), so it is
640 px wide with no text under 20 px.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine import CARDS, TILES, Currency, SeatView, can_afford, has_exact_payment

from . import text
from .canvas import currency_chip, new_canvas, paste, pill, to_png
from .labels import Labels, Mirror, counted, currency_name, label, rtl
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
    RGB,
    darker,
)
from .sprites import card_sprite, tile_sprite

WIDTH = 640
MARGIN = 12
GAP = 10
COL_W = (WIDTH - 2 * MARGIN - 3 * GAP) // 4
#: The smallest font: 20 px is 10 px on a phone (x 0.5).
SMALL = 20
LINE = 24
BAND = 36
CARD_W, CARD_H = 40, 56
CARD_GAP = 6
PER_ROW = 3
TILE = 52


@text.in_its_digits
def hand_image(
    view: SeatView, *, name: str | None = None, labels: Labels | None = None
) -> Image.Image:
    """The picture as a Pillow image (see `render_hand`)."""
    if view.seat is None:
        raise ValueError("a spectator's view has no hand to draw")
    by_currency: dict[Currency, list[int]] = {c: [] for c in Currency}
    for card in sorted(view.hand, key=lambda c: (CARDS[c].currency, CARDS[c].value, c)):
        by_currency[CARDS[card].currency].append(card)
    rows = max(1, max(-(-len(v) // PER_ROW) for v in by_currency.values()))
    top = MARGIN + 44
    cards_top = top + BAND + 8
    cards_h = rows * (CARD_H + CARD_GAP) - CARD_GAP
    total_y = cards_top + cards_h + 6
    market_top = total_y + LINE + 14
    verdicts = [_verdict(view, slot, currency, labels) for slot, currency in enumerate(Currency)]
    verdict_h = max(_verdict_height(v) for v in verdicts)
    height = market_top + TILE + 8 + verdict_h + MARGIN + 4
    img, d = new_canvas(WIDTH, height)
    _title(d, view, name, labels)
    for slot, currency in enumerate(Currency):
        left = MARGIN + slot * (COL_W + GAP)
        cards = by_currency[currency]
        fill = CURRENCY_FILL[currency]
        d.rounded_rectangle(
            (left, top, left + COL_W, height - MARGIN), 10, fill=PANEL, outline=GRID, width=2
        )
        d.rounded_rectangle((left, top, left + COL_W, top + BAND), 10, fill=fill)
        d.rectangle((left, top + BAND - 10, left + COL_W, top + BAND), fill=fill)
        currency_chip(img, d, left + 5, top + (BAND - 28) / 2, currency, 28)
        text.draw(
            d,
            (left + 38, top + BAND / 2),
            currency_name(labels, currency),
            SMALL,
            CURRENCY_TEXT[currency],
            bold=True,
            anchor="lm",
            max_width=COL_W - 42,
        )
        if not cards:
            none = label(labels, "no_cards")
            text.draw(
                d,
                (left + COL_W / 2, cards_top + CARD_H / 2),
                none,
                SMALL,
                MUTED,
                anchor="mm",
                max_width=COL_W - 12,
            )
        x0 = left + (COL_W - (PER_ROW * CARD_W + (PER_ROW - 1) * CARD_GAP)) // 2
        for i, card in enumerate(cards):
            r, c = divmod(i, PER_ROW)
            paste(
                img,
                card_sprite(card, CARD_W, CARD_H),
                (x0 + c * (CARD_W + CARD_GAP), cards_top + r * (CARD_H + CARD_GAP)),
            )
        value = sum(CARDS[c].value for c in cards)
        rtl_total = rtl(labels)  # right to left: "= 7" reads from the column's left end
        text.draw(
            d,
            (left + 10 if rtl_total else left + COL_W - 10, total_y + LINE / 2),
            f"{value} =" if rtl_total else f"= {value}",
            SMALL + 4,
            INK if cards else MUTED,
            bold=True,
            anchor="lm" if rtl_total else "rm",
        )
        d.line((left + 8, market_top - 7, left + COL_W - 8, market_top - 7), fill=GRID, width=2)
        _slot(img, d, view, slot, left, market_top, verdicts[slot], labels)
    return img


@text.in_its_digits
def render_hand(view: SeatView, *, name: str | None = None, labels: Labels | None = None) -> bytes:
    """PNG of the hand of the seat `view` was made for (the owner's own view), in the words
    of `labels` (`render.labels`)."""
    return to_png(hand_image(view, name=name, labels=labels))


def _title(d: ImageDraw.ImageDraw, view: SeatView, name: str | None, labels: Labels | None) -> None:
    total = sum(CARDS[c].value for c in view.hand)
    summary = label(
        labels, "hand_total", cards=counted(labels, "cards", len(view.hand)), total=total
    )
    m = Mirror(labels, WIDTH)  # right to left: the title on the right, the totals on the left
    right = WIDTH - MARGIN
    box = pill(d, (m.x(right), MARGIN + 2), summary, SMALL, PANEL, anchor=m.anchor("r")[0],
               max_width=300)  # fmt: skip
    w = text.draw(
        d, (m.x(MARGIN), MARGIN + 18), label(labels, "your_hand"), 26, INK, bold=True,
        anchor=m.anchor("lm"), max_width=200,
    )  # fmt: skip
    room = (box[0] if not m.on else WIDTH - box[2]) - MARGIN - w - 24
    who = label(labels, "only_you")
    if name and text.clean(name, SMALL):
        named = label(labels, "only_you_named", name=name)
        who = named if text.width(text.clean(named, SMALL), SMALL) <= room else who
    if room >= 80:
        text.draw(d, (m.x(MARGIN + w + 12), MARGIN + 18), who, SMALL, MUTED,
                  anchor=m.anchor("lm"), max_width=room)  # fmt: skip


Verdict = list[tuple[list[str], RGB, RGB]]


def _verdict(view: SeatView, slot: int, currency: Currency, labels: Labels | None) -> Verdict:
    """What this column says of its slot's building: lines of words in boxes (fill, ink)."""
    tile = view.market[slot] if slot < len(view.market) else None
    room = COL_W - 20
    if tile is None:
        return [(text.wrap(label(labels, "nothing_for_sale"), SMALL, room), PANEL, MUTED)]
    cost = TILES[tile].cost
    value = sum(CARDS[c].value for c in view.hand if CARDS[c].currency is currency)
    if not can_afford(view.hand, int(currency), cost):
        short = label(labels, "short_by", n=cost - value)
        return [(text.wrap(short, SMALL, room), BAD, (255, 255, 255))]
    out: Verdict = [(text.wrap(label(labels, "can_buy"), SMALL, room), GOOD, (255, 255, 255))]
    if has_exact_payment(view.hand, int(currency), cost):
        out.append((text.wrap(label(labels, "exact"), SMALL, room), PAPER_DARK, INK))
    else:
        out.append((text.wrap(label(labels, "no_exact"), SMALL, room), PANEL, MUTED))
    return out


def _verdict_height(verdict: Verdict) -> int:
    return sum(len(lines) * LINE + 10 + 6 for lines, _f, _i in verdict)


def _slot(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: SeatView,
    slot: int,
    left: int,
    y: int,
    verdict: Verdict,
    labels: Labels | None,
) -> None:
    """The building for sale in this column's slot, its price, and the verdict."""
    tile = view.market[slot] if slot < len(view.market) else None
    if tile is not None:
        paste(img, tile_sprite(tile, TILE), (left + 12, y))
        text.draw(
            d,
            (left + 12 + TILE + (COL_W - 12 - TILE) / 2, y + TILE / 2),
            str(TILES[tile].cost),
            30,
            INK,
            bold=True,
            anchor="mm",
        )
        y += TILE + 8
    for lines, fill, ink in verdict:
        h = len(lines) * LINE + 10
        d.rounded_rectangle(
            (left + 6, y, left + COL_W - 6, y + h), 8, fill=fill, outline=darker(fill, 0.8)
        )
        for i, line in enumerate(lines):
            text.draw(d, (left + COL_W / 2, y + 5 + i * LINE), line, SMALL, ink, anchor="mt")
        y += h + 6
