"""Pieces every picture uses: a canvas, PNG bytes, small labelled chips."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from engine import Building

from . import text
from .palette import BUILDING_FILL, BUILDING_LETTER, BUILDING_TEXT, INK, PAPER, RGB, darker

#: The widest a picture may be: every canvas is clamped to it and the render tests check it.
#: Layouts aim well below it.
MAX_WIDTH = 1600


def new_canvas(
    width: int, height: int, color: RGB = PAPER
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (min(MAX_WIDTH, int(width)), int(height)), color)
    return img, ImageDraw.Draw(img)


def to_png(img: Image.Image) -> bytes:
    """PNG bytes, as a palette image when the picture has few enough colours.

    Pictures are flat colours plus anti-aliased edges. Keeping the 256 most frequent colours
    keeps every flat colour exact and maps rare edge shades to their nearest kept colour: the
    difference is invisible, and the file is smaller and encodes several times faster than RGB
    (PNG filtering works per byte), which matters when a picture is drawn on every move."""
    out = io.BytesIO()
    colours = img.getcolors(1 << 14) if img.mode == "RGB" else None
    if colours is None:
        img.save(out, format="PNG", compress_level=3)
        return out.getvalue()
    colours.sort(reverse=True)
    palette = Image.new("P", (1, 1))
    flat: list[int] = []
    for _n, rgb in colours[:256]:
        assert isinstance(rgb, tuple)  # an RGB image's colours are (r, g, b), never one number
        flat.extend(rgb)
    palette.putpalette(flat)
    img.quantize(palette=palette, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=3
    )
    return out.getvalue()


def building_chip(
    d: ImageDraw.ImageDraw, x: float, y: float, building: Building, size: int
) -> None:
    """A small square in the building's colour with its letter: the legend of counts."""
    fill = BUILDING_FILL[building]
    d.rounded_rectangle(
        (x, y, x + size - 1, y + size - 1), max(2, size // 5), fill=fill, outline=darker(fill, 0.6)
    )
    text.draw(
        d,
        (x + size / 2, y + size / 2),
        BUILDING_LETTER[building],
        round(size * 0.62),
        BUILDING_TEXT[building],
        bold=True,
        anchor="mm",
    )


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
