"""Drawing text that players wrote: any script, any length, never a crash.

A name is cleaned first (normalised, control and bidi-override characters removed, characters no
font can draw dropped), then split into runs that share a font, measured, shortened with an
ellipsis to the room it has, and drawn run by run on a common baseline. A run in one font is
drawn by Pillow's Raqm layout when available, which joins Arabic letters.

A line with right-to-left letters (Persian, Arabic, Hebrew) or direction marks is drawn in the
order `render.bidi` gives its parts, each run laid out by Raqm in its own direction; the marks
(isolates, RLM) steer that order and are never drawn. The zero-width non-joiner that Persian
words need ("می‌خرید") is kept.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, ParamSpec, TypeVar

from PIL import Image, ImageDraw, ImageFont, features

from . import bidi
from .fonts import Font, font_chain, font_for, primary

Color = tuple[int, int, int] | tuple[int, int, int, int]
Run = tuple[str, Font]

ELLIPSIS = "…"

#: While `recording` runs, `draw` notes (text, size) of everything it draws: how the tests and
#: the gallery learn the smallest text of a picture (`render.display`) without reading pixels.
_records: list[list[tuple[str, int]]] = []
#: While `placing` runs, `draw` notes (text, left x, right x) of everything it draws.
_places: list[list[tuple[str, float, float]]] = []


@contextmanager
def recording() -> Iterator[list[tuple[str, int]]]:
    """Collect (text, font size in px) of every text drawn inside the block."""
    found: list[tuple[str, int]] = []
    _records.append(found)
    try:
        yield found
    finally:
        _records.remove(found)


@contextmanager
def placing() -> Iterator[list[tuple[str, float, float]]]:
    """Collect (text, left x, right x) of every text drawn inside the block: where a layout
    puts its words (the tests of the right-to-left mirroring)."""
    found: list[tuple[str, float, float]] = []
    _places.append(found)
    try:
        yield found
    finally:
        _places.remove(found)


_DROP_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
#: Invisible characters that are kept: the joiners Persian spelling needs, and the marks
#: `render.bidi` orders a line by.
_JOINERS = frozenset({"\u200c", "\u200d"})
_KEPT = _JOINERS | bidi.MARKS
#: Raqm lays out right-to-left runs; without it Pillow draws every run left to right.
RAQM = features.check("raqm") is True


#: The digits the picture being drawn writes numbers with, zero first, when they are not the
#: ASCII ones (Persian's own, `labels["digits"]`); set for one picture by `in_its_digits`.
_DIGITS: ContextVar[str | None] = ContextVar("render_digits", default=None)
ASCII_DIGITS = "0123456789"
#: A number standing alone: not the digits of a code such as K11 or CR5, which players type.
_NUMBER = re.compile(r"(?<![A-Za-z0-9])[0-9]+(?:\.[0-9]+)?")
#: The decimal separator of the languages with digits of their own (Persian's).
_DECIMAL = "\u066b"

P = ParamSpec("P")
R = TypeVar("R")


def in_its_digits(draw_picture: Callable[P, R]) -> Callable[P, R]:
    """A picture function whose numbers are written with its `labels`' digits (a keyword
    argument, as every `render_*` takes it): each text drawn or measured while it runs is
    given them (`localised`)."""

    @functools.wraps(draw_picture)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> R:
        if "labels" not in kwargs:  # called inside another picture: its digits hold
            return draw_picture(*args, **kwargs)
        labels: Any = kwargs["labels"]
        wanted = labels.get("digits") if labels is not None else None
        table = wanted if isinstance(wanted, str) and len(wanted) == 10 else None
        token = _DIGITS.set(None if table == ASCII_DIGITS else table)
        try:
            return draw_picture(*args, **kwargs)
        finally:
            _DIGITS.reset(token)

    return drawn


def current_digits() -> str | None:
    """The digits of the picture being drawn, if not ASCII: part of the key of anything cached
    that draws a number (a card's value)."""
    return _DIGITS.get()


def localised(text: str) -> str:
    """The text with each number in the picture's digits (none but ASCII: unchanged)."""
    table = _DIGITS.get()
    if table is None:
        return text
    if text == "·":  # "none" in a cell: a dot would read as a Persian zero
        return "\u2013"  # an en dash
    if not any(ch in ASCII_DIGITS for ch in text):
        return text
    digits = str.maketrans({**dict(zip(ASCII_DIGITS, table, strict=True)), ".": _DECIMAL})
    return _NUMBER.sub(lambda number: number[0].translate(digits), text)


def plain(text: str) -> str:
    """The text without the direction marks (what is measured and drawn)."""
    return "".join(ch for ch in text if ch not in bidi.MARKS)


@lru_cache(maxsize=4096)
def clean(text: str, size: int = 16, bold: bool = False) -> str:
    """The text as it will be drawn: NFC, one line, without invisible or undrawable characters."""
    text = unicodedata.normalize("NFC", text)
    out: list[str] = []
    for ch in text:
        if ch in "\t\n\r\u2028\u2029":
            ch = " "
        if ch in _KEPT:
            out.append(ch)
            continue
        if unicodedata.category(ch) in _DROP_CATEGORIES:
            continue
        if unicodedata.category(ch) == "Mn" and out:  # keep accents that NFC could not compose
            out.append(ch)
            continue
        if not ch.isspace() and font_for(ch, size, bold) is None:
            continue  # emoji and other characters no font has
        out.append(ch)
    cleaned = " ".join("".join(out).split())
    return cleaned if plain(cleaned).strip(" \u200c\u200d") else ""


@lru_cache(maxsize=4096)
def runs(text: str, size: int, bold: bool = False) -> tuple[Run, ...]:
    """Consecutive characters that share a font. Spaces join the run they are in."""
    first = primary(size, bold)
    result: list[Run] = []
    for ch in plain(text):
        joins = ch.isspace() or ch in _JOINERS
        font = first if joins else (font_for(ch, size, bold) or first)
        if result and (result[-1][1] is font or joins):
            result[-1] = (result[-1][0] + ch, result[-1][1])
        else:
            result.append((ch, font))
    return tuple(result)


def width(text: str, size: int, bold: bool = False) -> int:
    """The drawn width of a text, in the picture's digits."""
    return _width(localised(text), size, bold)


@lru_cache(maxsize=8192)
def _width(text: str, size: int, bold: bool = False) -> int:
    return round(sum(f.getlength(s) for s, f in runs(text, size, bold)))


@lru_cache(maxsize=4096)
def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """The cleaned text, cut and ended with an ellipsis if it is wider than `max_width`."""
    text = clean(text, size, bold)
    if _width(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if _width(text[:mid].rstrip() + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


@lru_cache(maxsize=64)
def metrics(size: int, bold: bool = False) -> tuple[int, int]:
    """(ascent, descent) of the primary font: lines are placed by these whatever the script."""
    font = font_chain(size, bold)[0]
    if hasattr(font, "getmetrics"):
        ascent, descent = font.getmetrics()
        return ascent, descent
    return size, 0


def draw(
    canvas: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Color,
    *,
    bold: bool = False,
    anchor: str = "lt",
    max_width: int | None = None,
) -> int:
    """Draw text and return its width. `anchor`: horizontal l/m/r, vertical t/m/s (baseline)/b,
    as in Pillow, but measured with the primary font so mixed scripts share one baseline."""
    text = localised(text)
    text = fit(text, size, max_width, bold) if max_width is not None else clean(text, size, bold)
    if not text:
        return 0
    for found in _records:
        found.append((text, size))
    total = _width(text, size, bold)
    x, y = xy
    h, v = anchor[0], anchor[1]
    if h == "m":
        x -= total / 2
    elif h == "r":
        x -= total
    for placed in _places:
        placed.append((text, x, x + total))
    ascent, descent = metrics(size, bold)
    if v == "t":
        y += ascent
    elif v == "m":
        y += (ascent - descent) / 2
    elif v == "b":
        y -= descent
    for s, font, rtl in ordered(text, size, bold):
        if isinstance(font, ImageFont.FreeTypeFont):
            mask, (left, top) = glyphs(s, font, rtl)
            canvas.bitmap((round(x) + left, round(y) + top), mask, fill=fill)
        else:  # Pillow's bitmap font has no anchors: let it draw itself
            canvas.text((x, y), s, font=font, fill=fill, anchor="ls")
        x += font.getlength(s)
    return total


@lru_cache(maxsize=4096)
def ordered(text: str, size: int, bold: bool = False) -> tuple[tuple[str, Font, bool], ...]:
    """The runs of a line in the order they are drawn from left to right, each with whether
    it runs right to left. A line without right-to-left letters or marks is its runs as they
    are; another is cut where its direction changes (`bidi.visual_split`), and the runs of a
    right-to-left stretch go from its right end."""
    if not bidi.has_rtl(text):
        return tuple((s, font, False) for s, font in runs(text, size, bold))
    out: list[tuple[str, Font, bool]] = []
    for start, end, level in bidi.visual_split(text):
        rtl = level % 2 == 1
        pieces = [(s, font, rtl) for s, font in runs(text[start:end], size, bold)]
        out += reversed(pieces) if rtl else pieces
    return tuple(out)


@lru_cache(maxsize=4096)
def glyphs(
    run: str, font: ImageFont.FreeTypeFont, rtl: bool = False
) -> tuple[Image.Image, tuple[int, int]]:
    """A run of text as a coverage mask and its offset from the baseline origin, made once:
    every picture draws the same digits, codes and words again and again, and pasting a mask
    costs a fraction of laying the text out anew. A right-to-left run is laid out so by Raqm
    (joined letters, mirrored brackets)."""
    raqm = RAQM and getattr(font, "layout_engine", None) == ImageFont.Layout.RAQM
    direction = ("rtl" if rtl else "ltr") if raqm else None
    left, top, right, bottom = (
        round(v) for v in font.getbbox(run, anchor="ls", direction=direction)
    )
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), run, font=font, fill=255, anchor="ls", direction=direction
    )
    return mask, (left, top)


#: A name with a note in brackets at its end: a computer player's level, "Bot Zaida (normal)".
_NOTED = re.compile(r"^(?P<name>.*\S)\s*[(\uff08][^()\uff08\uff09]*[)\uff09]\W*$")


def short_name(name: str, size: int, max_width: int, bold: bool = False) -> str:
    """A player's name that fits `max_width`: as it is if it fits, else without its bracketed
    note ("Bot Zaida" rather than "Bot Zaida (…"), which the texts and descriptions still say;
    a name too long in any case is cut by `fit` where it is drawn."""
    name = clean(localised(name), size, bold)  # as it will be drawn: one line, drawable
    if width(name, size, bold) <= max_width:
        return name
    found = _NOTED.match(plain(name))
    return found["name"] if found else name


#: What a line may not start with, and end with, in Japanese (JIS X 4051's basic set).
NO_LINE_START = frozenset(
    "\uff09\u300d\u300f\u3011\u3015\u3009\u300b\uff3d\uff5d\u3001\u3002\uff0c\uff0e\u30fb"
    "\uff1a\uff1b\uff1f\uff01\u30fc\u3005\u309d\u309e\u3041\u3043\u3045\u3047\u3049\u3063"
    "\u3083\u3085\u3087\u30a1\u30a3\u30a5\u30a7\u30a9\u30c3\u30e3\u30e5\u30e7)]"
    "}"
)
NO_LINE_END = frozenset("\uff08\u300c\u300e\u3010\u3014\u3008\u300a\uff3b\uff5b([{")


def wrap(text: str, size: int, max_width: int, bold: bool = False, max_lines: int = 3) -> list[str]:
    """The cleaned text in lines no wider than `max_width`: broken at spaces, or between any
    two characters of a word too long for a line (Japanese has no spaces); the last line ends
    with an ellipsis when the text needs more than `max_lines`."""
    words = clean(localised(text), size, bold).split(" ")
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if _width(candidate, size, bold) <= max_width:
            line = candidate
            continue
        if line:
            lines.append(line)
            line = ""
        for ch in word:  # a word longer than a line: break it anywhere
            if _width(line + ch, size, bold) <= max_width or not line:
                line += ch
                continue
            # Japanese line breaking (kinsoku): a closing bracket or stop never starts a line
            # and an opening bracket never ends one, so the character before goes along too
            carried = ""
            while len(line) > 1 and (ch in NO_LINE_START or line[-1] in NO_LINE_END):
                carried, line = line[-1] + carried, line[:-1]
                if line[-1] not in NO_LINE_END:
                    break
            lines.append(line)
            line = carried + ch
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        rest = " ".join(lines[max_lines - 1 :])
        lines = [*lines[: max_lines - 1], fit(rest, size, max_width, bold)]
    return lines
