"""Finding fonts, once, and choosing one per character.

Pillow draws a string with a single font and shows a box for every character that font lacks.
Player names mix scripts (Latin, accented Portuguese, Japanese, Arabic, emoji), so text is drawn
with a *chain* of fonts: each character goes to the first font of the chain that has it. The
chain comes from `ALHAMBRA_FONTS` (paths or file names separated by the OS path separator),
then DejaVu Sans (Latin, Greek, Cyrillic, Arabic, Hebrew), then Noto Sans CJK (Japanese,
Chinese, Korean; Debian's `fonts-noto-cjk` or the `noto-cjk-sans-jp-regular` wheel), then
Pillow's built-in font, so rendering never fails for want of a font file.

Persian and Arabic letters go to Noto Sans Arabic first (Debian's `fonts-noto-core`, or the
`fontpkg-noto-sans-arabic` wheel, a variable font set to the weight asked for): DejaVu's
Arabic has the letters but not a Persian reader's shapes. `font_for` puts it ahead of the rest
of the chain for the characters of the Arabic script only, so Latin names keep DejaVu.

Everything is cached: fonts per (weight, size), coverage per (font, character).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONTS_ENV = "ALHAMBRA_FONTS"
#: Set to "0" to use only the fonts of ALHAMBRA_FONTS (then Pillow's own), not the system's.
DEFAULTS_ENV = "ALHAMBRA_FONT_DEFAULTS"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

_DEJAVU_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/TTF", "/usr/share/fonts")
_CJK_DIRS = (
    "/usr/share/fonts/opentype/noto",
    "/usr/share/fonts/noto-cjk",
    "/usr/share/fonts/google-noto-cjk",
    "/usr/share/fonts/truetype/noto",
)

#: Candidate files per weight, in order of preference within each script group.
_LATIN = {
    "regular": ("DejaVuSans.ttf",),
    "bold": ("DejaVuSans-Bold.ttf",),
}
_CJK = {
    "regular": ("NotoSansCJK-Regular.ttc", "NotoSansCJKjp-Regular.otf", "NotoSansJP-Regular.otf"),
    "bold": ("NotoSansCJK-Bold.ttc", "NotoSansCJKjp-Bold.otf", "NotoSansJP-Bold.otf"),
}


_ARABIC = {
    "regular": ("NotoSansArabic-Regular.ttf", "NotoSansArabicUI-Regular.ttf"),
    "bold": ("NotoSansArabic-Bold.ttf", "NotoSansArabicUI-Bold.ttf"),
}
_ARABIC_DIRS = ("/usr/share/fonts/truetype/noto", "/usr/share/fonts/noto", "/usr/share/fonts/TTF")
#: The Arabic script's blocks: Arabic, Supplement, Extended-A, Presentation Forms A and B.
_ARABIC_RANGES: tuple[tuple[int, int], ...] = (
    (0x0600, 0x06FF),
    (0x0750, 0x077F),
    (0x08A0, 0x08FF),
    (0xFB50, 0xFDFF),
    (0xFE70, 0xFEFF),
)
#: The weight axis value of the variable font for each weight.
_WEIGHTS = {"regular": 400, "bold": 700}


def is_arabic(char: str) -> bool:
    """Whether `char` is a letter, mark or digit of the Arabic script (Persian's too)."""
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _ARABIC_RANGES)


def _packaged_arabic() -> list[str]:
    """The variable Noto Sans Arabic of the optional `fontpkg-noto-sans-arabic` wheel."""
    try:
        mod = __import__("fontpkg_noto_sans_arabic")
    except ImportError:
        return []
    root = Path(str(getattr(mod, "ROOT", Path(str(mod.__file__)).parent))) / "files"
    return sorted(str(p) for p in root.glob("NotoSansArabic*.ttf"))


@lru_cache(maxsize=4)
def arabic_paths(weight: str = "regular") -> tuple[str, ...]:
    """The files that draw the Arabic script for a weight, best first (none: the chain's)."""
    if os.environ.get(DEFAULTS_ENV, "1").strip() == "0":
        return ()
    found = [p for name in _ARABIC[weight] if (p := _resolve(name, _ARABIC_DIRS))]
    return tuple(dict.fromkeys(found[:1] + _packaged_arabic()))


@lru_cache(maxsize=256)
def arabic_chain(size: int, bold: bool = False) -> tuple[Font, ...]:
    """Loaded Arabic-script fonts for this size; a variable one set to the weight."""
    weight = "bold" if bold else "regular"
    chain: list[Font] = []
    for path in arabic_paths(weight):
        try:
            font = ImageFont.truetype(path, size)
        except OSError:
            continue
        if "[" in Path(path).name:  # a variable font: its weight axis
            try:
                axes = font.get_variation_axes()
                font.set_variation_by_axes(
                    [
                        float(_WEIGHTS[weight] if a["name"] == b"Weight" else a["default"] or 0)
                        for a in axes
                    ]
                )
            except (OSError, AttributeError, KeyError):
                pass
        chain.append(font)
    return tuple(chain)


def _packaged_cjk() -> list[str]:
    """Font files shipped by the optional `noto-cjk-sans-jp-*` wheels, if installed."""
    found = []
    for module in ("noto_cjk_sans_jp_bold", "noto_cjk_sans_jp_regular"):
        try:
            mod = __import__(module)
        except ImportError:
            continue
        path = getattr(mod, "FONT_PATH", None)
        if path is not None and Path(str(path)).is_file():
            found.append(str(path))
    return found


def _resolve(name: str, dirs: tuple[str, ...]) -> str | None:
    """A usable path for a file name or path, or None when it is nowhere to be found."""
    if os.sep in name and Path(name).is_file():
        return name
    for d in dirs:
        p = Path(d) / name
        if p.is_file():
            return str(p)
    try:  # Pillow also searches the usual system font folders by file name
        path = ImageFont.truetype(name, 10).path
    except OSError:
        return None
    return path if isinstance(path, str) else None  # a str name gives a str path


@lru_cache(maxsize=4)
def font_paths(weight: str = "regular") -> tuple[str, ...]:
    """The files of the fallback chain for a weight ("regular" or "bold"), best first."""
    paths: list[str] = []
    for entry in os.environ.get(FONTS_ENV, "").split(os.pathsep):
        entry = entry.strip()
        if entry and (p := _resolve(entry, _DEJAVU_DIRS + _CJK_DIRS)):
            paths.append(p)
    if os.environ.get(DEFAULTS_ENV, "1").strip() == "0":
        return tuple(dict.fromkeys(paths))
    for name in _LATIN[weight]:
        if p := _resolve(name, _DEJAVU_DIRS):
            paths.append(p)
            break
    cjk = [p for name in _CJK[weight] if (p := _resolve(name, _CJK_DIRS))]
    packaged = _packaged_cjk()
    if weight == "regular":
        packaged.reverse()  # prefer the regular weight's own file
    paths.extend(cjk or packaged)
    return tuple(dict.fromkeys(paths))


@lru_cache(maxsize=256)
def font_chain(size: int, bold: bool = False) -> tuple[Font, ...]:
    """Loaded fonts for this size, best first; always ends with Pillow's own font."""
    chain: list[Font] = []
    for path in font_paths("bold" if bold else "regular"):
        try:
            chain.append(ImageFont.truetype(path, size))
        except OSError:
            continue
    chain.append(_builtin(size))
    return tuple(chain)


def _builtin(size: int) -> Font:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType: the fixed-size bitmap font
        return ImageFont.load_default()


def primary(size: int, bold: bool = False) -> Font:
    return font_chain(size, bold)[0]


@lru_cache(maxsize=16)
def _notdef(font: Font) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask("\U0010fffd")
    return mask.size, bytes(mask)


@lru_cache(maxsize=65536)
def has_glyph(font: Font, char: str) -> bool:
    """Whether the font draws this character as something other than its missing-glyph box.

    Pillow has no API for a font's character map, so a glyph is compared with what the font
    draws for a code point no font maps (a private-use character)."""
    if char.isspace():
        return True
    if not isinstance(font, ImageFont.FreeTypeFont):
        return char.isascii() and char.isprintable()
    mask = font.getmask(char)
    return (mask.size, bytes(mask)) != _notdef(font)


def font_for(char: str, size: int, bold: bool = False) -> Font | None:
    """The first font of the chain that has `char`, None when no font has it (most emoji);
    for the Arabic script, an Arabic font first."""
    if is_arabic(char):
        for font in arabic_chain(size, bold):
            if has_glyph(font, char):
                return font
    for font in font_chain(size, bold):
        if has_glyph(font, char):
            return font
    return None


def has_cjk_font() -> bool:
    """Whether some font of the chain draws Japanese (so tests know what to expect)."""
    return any(has_glyph(f, "漢") and has_glyph(f, "か") for f in font_chain(16))


def has_arabic_font() -> bool:
    """Whether a dedicated Arabic-script font draws Persian (so tests know what to expect)."""
    return any(has_glyph(f, "گ") and has_glyph(f, "پ") for f in arabic_chain(16))


def reset() -> None:
    """Forget every font decision, e.g. after changing ALHAMBRA_FONTS."""
    for cached in (font_paths, font_chain, arabic_paths, arabic_chain, _notdef, has_glyph):
        cached.cache_clear()


def describe() -> Iterator[str]:
    """The font files in use, for logs and the gallery."""
    yield from font_paths("regular")
    yield from font_paths("bold")
    yield from arabic_paths("regular")
