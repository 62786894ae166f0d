"""Pieces every picture uses: a canvas, PNG bytes, chips with a shape, pills with a word."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from engine import Building, Currency

from . import text
from .palette import (
    BUILDING_FILL,
    BUILDING_TEXT,
    CURRENCY_FILL,
    CURRENCY_TEXT,
    INK,
    PAPER,
    RGB,
    darker,
)
from .symbols import building_symbol, currency_symbol

#: The widest a picture may be: every canvas is clamped to it and the render tests check it.
#: Layouts aim well below it.
MAX_WIDTH = 1600


def new_canvas(
    width: int, height: int, color: RGB = PAPER
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (min(MAX_WIDTH, int(width)), int(height)), color)
    return img, ImageDraw.Draw(img)


def to_png(img: Image.Image) -> bytes:
    """PNG bytes, RGB, at a fast compression level.

    A palette PNG would be smaller, but Pillow maps colours to a palette through a coarse
    cache that can swap a flat colour for a close neighbour (a label's yellow for the shade of
    its anti-aliased edge), and players and tests rely on flat colours being exact. Level 1
    encodes a table in about the time the palette took, at 30-70 KiB, far under Discord's
    limits."""
    out = io.BytesIO()
    img.convert("RGB").save(out, format="PNG", compress_level=1)
    return out.getvalue()


def building_chip(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, building: Building, size: int
) -> None:
    """A square in the building's colour with its shape: the head of a column of counts."""
    fill = BUILDING_FILL[building]
    d.rounded_rectangle(
        (x, y, x + size - 1, y + size - 1), max(2, size // 5), fill=fill, outline=darker(fill, 0.6)
    )
    mark = round(size * 0.7)
    off = (size - mark) // 2
    paste(img, building_symbol(building, mark, BUILDING_TEXT[building]), (x + off, y + off))


def currency_chip(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, currency: Currency, size: int
) -> None:
    """A disc in the currency's colour with its shape."""
    fill = CURRENCY_FILL[currency]
    d.ellipse((x, y, x + size - 1, y + size - 1), fill=fill, outline=darker(fill, 0.6))
    mark = round(size * 0.62)
    off = (size - mark) // 2
    paste(img, currency_symbol(currency, mark, CURRENCY_TEXT[currency]), (x + off, y + off))


def paste(canvas: Image.Image, sprite: Image.Image, xy: tuple[float, float]) -> None:
    canvas.paste(sprite, (int(xy[0]), int(xy[1])), sprite)


def pill(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    label: str,
    size: int,
    fill: RGB,
    ink: RGB = INK,
    *,
    bold: bool = True,
    anchor: str = "l",
    max_width: int | None = None,
) -> tuple[int, int, int, int]:
    """A rounded label; returns its box. `anchor` places its left (l), centre (m) or right (r)
    edge at x; y is its top."""
    pad = round(size * 0.5)
    w = (
        text.width(text.fit(label, size, max_width, bold), size, bold)
        if max_width
        else text.width(text.clean(label, size, bold), size, bold)
    )
    h = round(size * 1.5)
    x, y = xy
    if anchor == "m":
        x -= (w + 2 * pad) / 2
    elif anchor == "r":
        x -= w + 2 * pad
    box = (round(x), round(y), round(x + w + 2 * pad), round(y + h))
    d.rounded_rectangle(box, h // 2, fill=fill, outline=darker(fill, 0.75))
    text.draw(
        d,
        (x + pad, y + h / 2),
        label,
        size,
        ink,
        bold=bold,
        anchor="lm",
        max_width=max_width,
    )
    return box
