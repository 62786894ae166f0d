"""Names in any script: cleaned, shortened, drawn with a font that has the glyphs."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from engine import new_game
from render import fonts, render_table, reset_caches, text
from render.palette import PAPER


def _ink(name: str, size: int = 24) -> int:
    """How many pixels a name colours on a blank strip."""
    img = Image.new("RGB", (400, 60), PAPER)
    text.draw(ImageDraw.Draw(img), (10, 10), name, size, (0, 0, 0))
    return sum(n for n, colour in img.getcolors(1 << 16) if colour != PAPER)


def test_long_names_are_shortened_with_an_ellipsis():
    fitted = text.fit("Maximilian von Hohenzollern-Sigmaringen", 20, 150)
    assert fitted.endswith(text.ELLIPSIS)
    assert text.width(fitted, 20) <= 150
    assert text.fit("Ana", 20, 150) == "Ana"


def test_cleaning_drops_controls_overrides_and_undrawable_characters():
    assert text.clean("\u202eAna\u202c\n\tBob\x00") == "Ana Bob"
    assert text.clean("Joa\u0303o") == "João"  # composed, so the accent draws
    assert text.clean("🐉 Dragon 🔥") == "Dragon"
    assert text.clean("🐉🔥") == ""


def test_accented_and_arabic_names_draw_glyphs():
    assert _ink("João Conceição") > 200
    assert _ink("نور") > 50


def test_japanese_draws_real_glyphs_when_a_cjk_font_exists():
    if not fonts.has_cjk_font():
        # Without a CJK font the characters are dropped rather than drawn as boxes.
        assert text.clean("さくら") == ""
        pytest.skip("no CJK font installed (install fonts-noto-cjk or noto-cjk-sans-jp-regular)")
    assert text.clean("さくら") == "さくら"
    assert _ink("さくら") > 200
    # mixed scripts are split into runs of one font each
    runs = text.runs(text.clean("Ana さくら"), 20)
    assert len(runs) == 2 and runs[0][1] is not runs[1][1]


def test_configured_fonts_come_first_and_a_missing_font_is_skipped(monkeypatch):
    dejavu_bold = fonts.font_paths("bold")[:1]
    if not dejavu_bold:
        pytest.skip("no system font to configure")
    monkeypatch.setenv(fonts.FONTS_ENV, f"/nonexistent/font.ttf:{dejavu_bold[0]}")
    reset_caches()
    try:
        assert fonts.font_paths("regular")[0] == dejavu_bold[0]
    finally:
        monkeypatch.delenv(fonts.FONTS_ENV)
        reset_caches()


def test_without_any_font_file_pictures_still_draw(monkeypatch):
    monkeypatch.setenv(fonts.FONTS_ENV, "/nonexistent/font.ttf")
    monkeypatch.setenv(fonts.DEFAULTS_ENV, "0")
    reset_caches()
    try:
        assert fonts.font_paths("regular") == ()
        assert len(fonts.font_chain(20)) == 1  # Pillow's own font only
        png = render_table(new_game(3, 1).view(None), ["Ana", "さくら", "🐉"])
        assert png.startswith(b"\x89PNG")
        assert _ink("Ana") > 50
    finally:
        monkeypatch.delenv(fonts.FONTS_ENV)
        monkeypatch.delenv(fonts.DEFAULTS_ENV)
        reset_caches()


def test_japanese_lines_never_start_with_a_closing_bracket_nor_end_with_an_opening_one() -> None:
    """A placement prompt broke before its closing bracket, against Japanese line breaking
    (kinsoku): a closing bracket or stop goes on the line before, with the character it
    follows; an opening bracket goes on the line after."""
    from render import text as drawn

    opening, closing = "\uff08", "\uff09"  # fullwidth brackets
    prompt = f"庭園{opening}コスト9{closing}を印のマスに置いてください。"
    prompt += f"予備{opening}右{closing}にも置けます。"
    for max_width in range(90, 400, 7):
        lines = drawn.wrap(prompt, 24, max_width, max_lines=40)
        assert "".join(lines) == prompt, (max_width, lines)
        for line in lines[1:]:
            assert line[0] not in drawn.NO_LINE_START, (max_width, lines)
        for line in lines[:-1]:
            assert line[-1] not in drawn.NO_LINE_END, (max_width, lines)


@pytest.mark.parametrize("locale", ["en", "ja", "pt-BR", "fa"])
def test_the_tables_column_heads_fit_without_being_cut(locale: str) -> None:
    """ "Money p…" (English) and "po…" (Portuguese) were cut at their column's width: the
    pool's title and the points column's head fit whole in every language."""
    from bot.text import i18n
    from render.table import POOL_W, SCORE_W, SMALL

    labels = i18n.image_labels(locale)
    assert text.width(labels["money_pool"], SMALL) <= POOL_W - 6
    assert text.width(labels["pts"], SMALL, True) <= SCORE_W


def test_a_computer_players_name_drops_its_level_before_being_cut() -> None:
    """ "Bot Zaida (…" in the table and the score sheet: a name too long for its column loses
    its bracketed note (the level, which the texts say) rather than its end."""
    from render import render_scores
    from render.samples import late

    game = late(3, 2)
    names = ["ana", "bruno", "Bot Zaida (normal)"]
    for draw in (
        lambda: render_table(game.view(None), names),
        lambda: render_scores(game.view(None), names),
    ):
        reset_caches()
        with text.recording() as found:
            draw()
        drawn = [t for t, _ in found]
        cut = [t for t in drawn if t.startswith("Bot Zaida (") and t.endswith(text.ELLIPSIS)]
        assert "Bot Zaida" in drawn and not cut, drawn
    assert text.short_name("Bot Zaida (normal)", 24, 900) == "Bot Zaida (normal)"
