"""Building tiles, the fountain and money cards, each drawn once per size and then pasted.

A sprite is an RGBA image of one square cell (or one card). Pictures paste sprites with their
alpha as mask, so the same tile at the same size is never drawn twice in a process.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine import CARDS, TILES, Building, Currency, Side

from . import text
from .canvas import paste
from .palette import (
    BUILDING_FILL,
    BUILDING_TEXT,
    CURRENCY_FILL,
    CURRENCY_TEXT,
    PAPER_DARK,
    WALL,
    WATER,
    darker,
    lighter,
)
from .symbols import building_symbol, currency_symbol

#: Tiles at least this big show their type's shape.
SYMBOL_MIN = 12


def wall_thickness(size: int) -> int:
    """Wall bars: thick enough to read at a glance, thin enough to leave room for the letter."""
    return max(2, round(size / 9))


def inset(size: int) -> int:
    """The gap between neighbouring tiles, so the grid stays visible."""
    return 1 if size < 24 else 2


def wall_box(size: int, side: Side, x: int = 0, y: int = 0) -> tuple[int, int, int, int]:
    """The rectangle of a wall bar on `side` of a cell whose top-left corner is (x, y)."""
    t = wall_thickness(size)
    last = size - 1
    if side is Side.N:
        return x, y, x + last, y + t - 1
    if side is Side.S:
        return x, y + size - t, x + last, y + last
    if side is Side.W:
        return x, y, x + t - 1, y + last
    return x + size - t, y, x + last, y + last


@lru_cache(maxsize=1024)
def tile_sprite(tile: int, size: int) -> Image.Image:
    """One building (or the fountain, tile 0) filling a size x size cell, walls included.

    The building's type is its colour and its shape (`render.symbols`), never a letter: the
    same tile reads in every language. Costs are drawn by the pictures that need them, at a
    size they know to be legible."""
    if tile == 0:
        return fountain_sprite(size)
    info = TILES[tile]
    assert info.building is not None
    fill = BUILDING_FILL[info.building]
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    g = inset(size)
    radius = max(2, size // 8)
    d.rounded_rectangle(
        (g, g, size - 1 - g, size - 1 - g), radius, fill=fill, outline=darker(fill, 0.6)
    )
    if size >= 28:  # a lighter inner frame gives the tile some body
        k = g + max(3, size // 12)
        d.rounded_rectangle(
            (k, k, size - 1 - k, size - 1 - k),
            max(2, radius - 2),
            outline=lighter(fill, 0.35) if info.building is not Building.CHAMBERS else (210,) * 3,
            width=1,
        )
    if size >= SYMBOL_MIN:
        mark = round(size * 0.56)
        symbol = building_symbol(info.building, mark, BUILDING_TEXT[info.building])
        paste(img, symbol, ((size - mark) // 2, (size - mark) // 2))
    for side in info.walls:
        d.rectangle(wall_box(size, side), fill=WALL)
    return img


@lru_cache(maxsize=64)
def fountain_sprite(size: int) -> Image.Image:
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    g = inset(size)
    d.rounded_rectangle((g, g, size - 1 - g, size - 1 - g), max(2, size // 8), fill=PAPER_DARK)
    c = size / 2
    for r, color in ((0.40, (200, 190, 170)), (0.32, WATER), (0.12, (230, 245, 255))):
        rr = size * r
        d.ellipse((c - rr, c - rr, c + rr, c + rr), fill=color)
    if size >= 28:
        rr = size * 0.40
        d.ellipse((c - rr, c - rr, c + rr, c + rr), outline=darker(WATER, 0.7), width=1)
    return img


def card_sprite(card: int, width: int, height: int) -> Image.Image:
    """A money card: its currency's colour, its value large, the currency's initial small."""
    info = CARDS[card]
    return value_card(info.currency, info.value, width, height)


def value_card(currency: Currency, value: int, width: int, height: int) -> Image.Image:
    """The value large in the middle and the currency's shape above it, so a card reads in any
    language and to any eye (never an abbreviation like DIR / DIN); in the digits of the
    picture being drawn (a card drawn for a Persian picture is not an English one's)."""
    return _value_card(currency, value, width, height, text.current_digits())


@lru_cache(maxsize=512)
def _value_card(
    currency: Currency, value: int, width: int, height: int, digits: str | None
) -> Image.Image:
    fill = CURRENCY_FILL[currency]
    ink = CURRENCY_TEXT[currency]
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(3, min(width, height) // 7)
    d.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius, fill=fill, outline=darker(fill, 0.55), width=2
    )
    d.rounded_rectangle(
        (3, 3, width - 4, height - 4), max(2, radius - 2), outline=lighter(fill, 0.4), width=1
    )
    mark = max(6, round(min(width * 0.5, height * 0.3)))
    symbol = currency_symbol(currency, mark, ink)
    paste(img, symbol, ((width - mark) // 2, round(height * 0.07)))
    value_size = value_font(width, height)
    text.draw(d, (width / 2, height * 0.66), str(value), value_size, ink, bold=True, anchor="mm")
    return img


def value_font(width: int, height: int) -> int:
    """The size a card's value is drawn at: two digits fit its width."""
    return max(6, min(round(height * 0.46), round(width * 0.62)))
