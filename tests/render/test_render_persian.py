"""Persian in the pictures: shaped and ordered right to left by Raqm, drawn from a font that has
Persian letters (never boxes), mixed with Latin names and cell codes that stay readable, and
the layouts that read in a direction mirrored."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bot.text import i18n
from render import bidi, fonts, reset_caches, text
from render.canvas import to_png
from render.labels import Mirror, label
from render.palette import PAPER
from render.samples import gallery, late, names
from render.scores import RANK_FILL, scores_image

LABELS = i18n.image_labels("fa")

pytestmark = pytest.mark.skipif(
    not fonts.has_arabic_font(),
    reason="no Persian font installed (fontpkg-noto-sans-arabic, or Debian's fonts-noto-core)",
)


def _persian(ch: str) -> bool:
    return "\u0600" <= ch <= "\u06ff"


def test_every_persian_sample_decodes_and_draws_persian_from_a_persian_font() -> None:
    """Each picture of the gallery, in Persian: a PNG that decodes, with Persian words in it,
    every Persian letter of them drawn by an Arabic-script font that has its glyph (not the
    missing-glyph box of a font without it)."""
    for sample in gallery():
        reset_caches()
        with text.recording() as found:
            png = to_png(sample.image(LABELS))
        img = Image.open(io.BytesIO(png))
        img.load()
        assert img.width > 0 and img.height > 0
        persian = [(t, size) for t, size in found if any(_persian(ch) for ch in t)]
        assert persian, sample.name
        for drawn, size in persian:
            for ch in {ch for ch in drawn if _persian(ch)}:
                for bold in (False, True):
                    font = fonts.font_for(ch, size, bold)
                    assert any(font is f for f in fonts.arabic_chain(size, bold)), (sample.name, ch)
                    assert font is not None and fonts.has_glyph(font, ch), (sample.name, ch)


def test_persian_letters_are_joined_not_drawn_one_by_one() -> None:
    """Shaped: a joined word is narrower than its letters drawn apart, and differs from them."""
    font = fonts.arabic_chain(24)[0]
    word = "کرون"
    joined = font.getlength(word, direction="rtl")
    apart = sum(font.getlength(ch, direction="rtl") for ch in word)
    assert joined < apart


def test_a_persian_line_with_a_latin_name_is_ordered_right_to_left() -> None:
    line = label(LABELS, "title_final_placement", name="ana")  # "{name}: چیدمان پایانی"
    parts = text.ordered(text.clean(line, 28, True), 28, True)
    # drawn from the left: the Persian words (right to left), then the name at the right end
    assert parts[-1][0] == "ana" and not parts[-1][2]
    assert any(_persian(ch) for ch in parts[0][0]) and parts[0][2]
    # the cell code stays one piece, read left to right, inside a Persian sentence
    levels = bidi.levels("\u200fبرج را در K11 گذاشت")
    assert bidi.first_strong("\u200f\u2068ana\u2069 برج") == "R"
    code = "\u200fبرج را در K11 گذاشت".index("K11")
    assert levels[code] == levels[code + 1] == levels[code + 2] == 2
    assert bidi.visual_split("abc") == ((0, 3, 0),)  # a left-to-right line is left alone


def test_numbers_stay_whole_in_a_right_to_left_line() -> None:
    drawn = "\u200fبرد 1,250 و 22:30 و 50%"
    levels = bidi.levels(drawn)
    for number in ("1,250", "22:30", "50%"):
        at = drawn.index(number)
        assert {levels[i] for i in range(at, at + len(number))} == {2}, number


def _ink_columns(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, ...]) -> int:
    """How many pixels of `colour` the box holds."""
    return sum(1 for px in img.crop(box).getdata() if tuple(px)[:3] == colour)


def test_the_ranking_reads_from_the_right_in_persian() -> None:
    """The first place's gold disc sits at the left end of the ranking in English, at the right
    end in Persian; the words of the other languages are not mirrored."""
    view = late(4, 3).view(None)
    english = scores_image(view, names(4)).convert("RGB")
    persian = scores_image(view, names(4), labels=LABELS).convert("RGB")
    w, band = english.width, (0, 40, 0, 200)
    gold = RANK_FILL[0]
    left = (0, band[1], w // 8, band[3])
    right = (w - w // 8, band[1], w, band[3])
    assert _ink_columns(english, left, gold) > 50 and _ink_columns(english, right, gold) == 0
    assert _ink_columns(persian, right, gold) > 50 and _ink_columns(persian, left, gold) == 0
    mirror = Mirror(LABELS, 640)
    assert (mirror.x(10), mirror.anchor("lm")) == (630, "rm")
    assert (Mirror(i18n.image_labels("ja"), 640).x(10), Mirror(None, 640).anchor("rm")) == (
        10,
        "rm",
    )


def test_persian_draws_ink_at_preview_size() -> None:
    """The words still draw at the smallest size the pictures use."""
    img = Image.new("RGB", (300, 40), PAPER)
    text.draw(ImageDraw.Draw(img), (290, 20), "پول روی میز", 12, (0, 0, 0), anchor="rm")
    inked = sum(n for n, colour in img.getcolors(1 << 16) or [] if colour != PAPER)
    assert inked > 60
