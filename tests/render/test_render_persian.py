"""Persian in the pictures: shaped and ordered right to left by Raqm, drawn from a font that has
Persian letters (never boxes), mixed with Latin names and cell codes that stay readable, and
the layouts that read in a direction mirrored."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

from bot.text import i18n
from engine import Currency
from render import bidi, fonts, reset_caches, text
from render.alhambra import SIDE_X, alhambra_image, alhambra_layout
from render.alhambra import WIDTH as ALHAMBRA_W
from render.canvas import to_png
from render.growth import render_growth
from render.labels import Mirror, currency_name, label
from render.palette import PAPER, TURN
from render.review import stakes_image
from render.samples import gallery, late, middle, names, placing
from render.scores import RANK_FILL, points_image, scores_image
from render.stats import stats_image
from render.table import HEAD_H, MARKET_H, ROW_H, TOP, table_image
from render.table import WIDTH as TABLE_W

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


def _placed(draw: Callable[[], object]) -> list[tuple[str, float, float]]:
    """(text, left x, right x) of every text the picture draws."""
    reset_caches()
    with text.placing() as found:
        draw()
    return found


def test_the_table_lines_read_from_the_right_in_persian() -> None:
    """The current player's name sits in the left half of the table in English and in the right
    half in Persian, the figures after it and the arrow before it; the market keeps slot 1 on
    the left in every language (the hand's columns and the commands count from there)."""
    game = middle(4, 3)
    view = game.view(None)
    seat = view.current_seat
    assert seat is not None
    short = ["Ana", "Bo", "Cy", "Di"]
    for labels, right_half in ((None, False), (i18n.image_labels("en"), False), (LABELS, True)):
        found = _placed(lambda labels=labels: table_image(view, short, labels=labels))
        (name,) = [(left, right) for t, left, right in found if t == short[seat]]
        if right_half:
            assert name[0] > TABLE_W / 2 and name[1] == pytest.approx(TABLE_W - 14 - 38)
        else:
            assert name[1] < TABLE_W / 2 and name[0] == pytest.approx(14 + 38)
        pts = text.clean(label(labels, "pts"), 24, True)  # the head of the points column
        ((head, _r),) = [(left, right) for t, left, right in found if t == pts]
        assert (head < name[0]) if right_half else (head > name[1])
        # the arrow at the current player's line, on the side where the name starts
        img = table_image(view, short, labels=labels).convert("RGB")
        mid = TOP + MARKET_H + 12 + HEAD_H + seat * ROW_H + ROW_H // 2
        near, far = (TABLE_W - 26, 26) if right_half else (26, TABLE_W - 26)
        assert img.getpixel((near, mid)) == TURN and img.getpixel((far, mid)) != TURN
        currencies = [text.clean(currency_name(labels, c), 24, True) for c in Currency]
        xs = [next(x for t, x, _r in found if t == c) for c in currencies]
        assert xs == sorted(xs), "the market's slots keep their order in every language"


def test_the_alhambra_side_panel_is_right_aligned_in_persian() -> None:
    """The name, the prompt's lines and the reserve's title start at the side panel's right
    edge in Persian, at its left edge otherwise; the grid stays where it is."""
    game = placing(4, 11, 2)
    seat = game.current_seat
    assert seat is not None and game.pending
    view, spare = game.view(seat), game.pending[0]
    right_edge = ALHAMBRA_W - 12
    for labels, rtl in ((None, False), (LABELS, True)):
        found = _placed(
            lambda labels=labels: alhambra_image(
                view, seat, name="Ana", placing=spare, labels=labels
            )
        )
        side = [(t, left, right) for t, left, right in found if left >= SIDE_X - 1]
        (name,) = [(left, right) for t, left, right in side if t == "Ana"]
        reserve = text.clean(label(labels, "reserve"), 20, True)
        (title,) = [(left, right) for t, left, right in side if t == reserve]
        if rtl:
            assert name[1] == pytest.approx(right_edge) and title[1] == pytest.approx(right_edge)
        else:
            assert name[0] == pytest.approx(SIDE_X) and title[0] == pytest.approx(SIDE_X)
        # the prompt's lines, inside its box (8 px in from the panel's edge)
        starts = [right for _t, _left, right in side] if rtl else [left for _t, left, _r in side]
        edge = right_edge - 8 if rtl else SIDE_X + 8
        assert sum(1 for x in starts if x == pytest.approx(edge)) >= 2
    assert alhambra_layout(view, seat, placing=spare).grid_x < SIDE_X


def test_the_record_review_and_growth_read_from_the_right_in_persian() -> None:
    """A player's record: the name at the right edge; a review's title at the right edge; the
    growth animation's first seat in the rightmost panel. Not so in English."""
    frames = [[{(0, 0): 0}, {(0, 0): 0}, {(0, 0): 0}]]
    for labels, rtl in ((None, False), (LABELS, True)):
        found = _placed(
            lambda labels=labels: stats_image(
                [80, 95, 110], [False, True, False], [10.0, 30.0, None], [5.0] * 6,
                name="Ana", labels=labels,
            )
        )  # fmt: skip
        ((left, right),) = [(x0, x1) for t, x0, x1 in found if t == "Ana"]
        assert (right > 600) if rtl else (left < 40)
        title = i18n.t("fa" if rtl else "en", "review.chart_title", name="Ana")
        found = _placed(
            lambda labels=labels, title=title: stakes_image(
                [(1, 2.0), (3, 5.0)], [3], title=title, axis="turn", last_turn=5, labels=labels
            )
        )
        ((left, right),) = [(x0, x1) for t, x0, x1 in found if "Ana" in t]
        assert (right > 600) if rtl else (left < 40)
        found = _placed(
            lambda labels=labels: render_growth(frames, ["Ana", "Bo", "Cy"], labels=labels)
        )
        ((left, right),) = [(x0, x1) for t, x0, x1 in found if t == "Ana"]
        assert (left > 400) if rtl else (right < 200)


def test_the_points_table_reads_from_the_right_in_persian() -> None:
    """The scoring table: the building types on the right in Persian, on the left otherwise."""
    for labels, rtl in ((None, False), (LABELS, True)):
        found = _placed(lambda labels=labels: points_image(labels=labels))
        pavilion = text.clean(label(labels, "building.pavilion"), 20)
        ((left, right),) = [(x0, x1) for t, x0, x1 in found if t == pavilion]
        assert (left > 320) if rtl else (right < 320)


def test_persian_pictures_write_numbers_with_persian_digits() -> None:
    """Scores, counts, prices and card values are drawn with Persian digits, as the Persian
    texts write them; the codes players type (K11, and the cell codes of a placement) stay
    Latin. English pictures keep ASCII digits."""
    import re

    number = re.compile(r"(?<![A-Za-z0-9])[0-9]")
    for sample in gallery():
        reset_caches()
        with text.recording() as found:
            sample.image(LABELS)
        drawn = [t for t, _ in found]
        assert not [t for t in drawn if number.search(text.plain(t))], (sample.name, drawn[:40])
        if sample.name.startswith(("table", "scores")):
            assert any(re.search("[\u06f0-\u06f9]", t) for t in drawn), sample.name
        with text.recording() as found:
            sample.image(i18n.image_labels("en"))
        assert not any(re.search("[\u06f0-\u06f9]", t) for t, _ in found), sample.name
    assert text.localised("12") == "12"  # outside a picture: as it is


def test_a_persian_picture_leaves_no_persian_digits_in_the_next_english_one() -> None:
    """Sprites are cached (a card's value): the cache keeps each language's digits apart, so a
    worker that drew a Persian table draws the same English table as a fresh one."""
    english = i18n.image_labels("en")
    table = next(s for s in gallery() if s.name.startswith("table"))
    reset_caches()
    fresh = to_png(table.image(english))
    to_png(table.image(LABELS))
    assert to_png(table.image(english)) == fresh


def test_the_whole_score_sheet_reads_from_the_right_in_persian() -> None:
    """Both tables of the score sheet are mirrored in Persian, not only the standings: each
    name sits at the right end of its row in the round's table too (left in English), and
    its "round" column at the left end."""
    view = late(4, 3).view(None)
    short = ["Ana", "Bo", "Cy", "Di"]
    for labels, rtl in ((i18n.image_labels("en"), False), (LABELS, True)):
        found = _placed(lambda labels=labels: scores_image(view, short, labels=labels))
        image_w = scores_image(view, short, labels=labels).width
        spots = [(left, right) for t, left, right in found if t == "Ana"]
        assert len(spots) == 2, spots  # the standings, the round's table
        for left, right in spots:
            assert (left > image_w / 2) if rtl else (right < image_w / 2), (labels, spots)
        heading = text.clean(label(labels, "col_round"), 24, True)
        ((left, right),) = [(x0, x1) for t, x0, x1 in found if t == heading]
        assert (right < image_w / 4) if rtl else (left > image_w * 3 / 4)
    # no dot for "none" beside Persian digits, where it reads as a zero
    drawn = _placed(lambda: scores_image(view, short, labels=LABELS))
    assert not [t for t, _l, _r in drawn if t == "·"]
