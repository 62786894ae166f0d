"""Pictures are read where Discord shows them: no text under 10 px on screen, on desktop or on a
phone, in every language; bounded landscape placement views; shapes beside colours that survive
colour blindness; the reader's words, not English letters."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.text import i18n
from engine import Building, Currency, new_game
from render import (
    alhambra_image,
    alhambra_layout,
    boards_image,
    hand_image,
    reset_caches,
    scores_image,
    stats_image,
    table_image,
    text,
)
from render.canvas import building_chip
from render.display import BOXES, DEVICES, MIN_SCREEN_PX, SHOWN, measure, preview, scale
from render.fonts import font_for, has_cjk_font
from render.gallery import main as gallery_main
from render.palette import PAPER
from render.review import stakes_image
from render.samples import gallery, grown_alhambra, late, names, play, unused_tiles, with_alhambra
from render.sprites import tile_sprite, value_card
from render.vision import DEFICIENCIES, simulate

LOCALES = ("en", "ja", "pt-BR", "fa")
#: A late 6-player game: the most players, the most buildings, the longest names.
PLAYERS, SEED = 6, 5


def _late_pictures(labels):
    """Every kind of picture the bot posts, drawn from a late 6-player game."""
    game = late(PLAYERS, SEED)
    public = game.view(None)
    seat = game.current_seat or 0
    mine = game.view(seat)
    over = play(PLAYERS, SEED).view(None)
    tiles = grown_alhambra(40, seed=40)
    reserve = unused_tiles(tiles, 6)
    big = with_alhambra(public, 1, tiles, reserve)
    nm = names(PLAYERS)
    return {
        "table": ("table", lambda: table_image(public, nm, labels=labels)),
        "table, game over": ("table", lambda: table_image(over, nm, labels=labels)),
        "hand": ("hand", lambda: hand_image(mine, name=nm[seat], labels=labels)),
        "alhambra": (
            "alhambra",
            lambda: alhambra_image(public, seat, name=nm[seat], labels=labels),
        ),
        "placement, 40 buildings": (
            "alhambra",
            lambda: alhambra_image(big, 1, name=nm[3], placing=reserve[0], labels=labels),
        ),
        "swap, 40 buildings": (
            "alhambra",
            lambda: alhambra_image(
                big, 1, name=nm[3], placing=reserve[1], mode="swap", labels=labels
            ),
        ),
        "remove, 40 buildings": (
            "alhambra",
            lambda: alhambra_image(big, 1, name=nm[3], mode="remove", labels=labels),
        ),
        "everyone's alhambra": ("boards", lambda: boards_image(public, nm, labels=labels)),
        "everyone's alhambra, 40 buildings": (
            "boards",
            lambda: boards_image(big, nm, labels=labels),
        ),
        "score sheet": ("scores", lambda: scores_image(public, nm, labels=labels)),
        "final score sheet": ("scores", lambda: scores_image(over, nm, labels=labels)),
        "record, 3 games": (
            "stats",
            lambda: stats_image(
                [over.scores[0], 88, 140],
                [True, False, True],
                (9.0, 30.5, None),
                (6.0, 4.5, 9.0, 7.25, 12.0, 15.5),
                name=nm[3],
                labels=labels,
            ),
        ),
        "record, 200 games": (
            "stats",
            lambda: stats_image(
                [40 + (k * 37) % 110 for k in range(200)],
                [k % 3 == 0 for k in range(200)],
                (12.5, 31.0, 52.75),
                (16.0, 14.5, 19.0, 17.25, 22.0, 25.5),
                name=nm[4],
                labels=labels,
            ),
        ),
        "review bars": (
            "stakes",
            lambda: stakes_image(
                [(t, (t * 7) % 23 / 1.5) for t in range(2, 120, 6)],
                [8, 44, 98],
                title=f"{labels.get('turn', 'Turn')} · {nm[0]}",
                axis=nm[1],
                last_turn=120,
            ),
        ),
    }


@pytest.mark.parametrize("locale", LOCALES)
def test_every_text_is_at_least_10_px_where_discord_shows_it(locale):
    labels = i18n.image_labels(locale)
    for what, (kind, draw) in _late_pictures(labels).items():
        img, legible = measure(draw, SHOWN[kind])
        for device in DEVICES:
            on_screen = legible.screen[device]
            assert on_screen >= MIN_SCREEN_PX - 1e-9, (
                f"{what} ({locale}) on {device}: {legible.text!r} drawn at {legible.size} px "
                f"is {on_screen:.1f} px in a {img.size} picture"
            )


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_everyones_alhambra_is_legible_at_preview_size_for_any_number_of_players(locale, players):
    """One picture with every Alhambra, read without opening it: no text under 10 px on a
    desktop or a phone, whatever the number of players, and it fits the attachment box."""
    labels = i18n.image_labels(locale)
    view = late(players, SEED).view(None)
    img, legible = measure(lambda: boards_image(view, names(players), labels=labels), "attachment")
    assert legible.worst >= MIN_SCREEN_PX - 1e-9, (players, legible)
    assert scale(img.size, "attachment", "desktop") >= 0.75


def test_the_measure_catches_small_text():
    """The check can fail: a 12 px word on a 720 px wide embed is 5 px on a phone."""

    def tiny() -> Image.Image:
        img = Image.new("RGB", (720, 400), PAPER)
        text.draw(ImageDraw.Draw(img), (10, 10), "tiny", 12, (0, 0, 0))
        return img

    _img, legible = measure(tiny, "embed")
    assert legible.text == "tiny" and legible.size == 12
    assert legible.screen["phone"] == pytest.approx(12 * 300 / 720)
    assert legible.worst < MIN_SCREEN_PX
    assert scale((720, 400), "embed", "desktop") == pytest.approx(400 / 720)
    assert scale((300, 200), "attachment", "desktop") == 1.0


def test_placement_views_stay_landscape_and_bounded_however_big_the_alhambra():
    view = new_game(3, 2).view(None)
    sizes = set()
    for n in (0, 10, 20, 30, 40, 45, 54):
        tiles = grown_alhambra(n, seed=n)
        reserve = unused_tiles(tiles, 4)
        grown = with_alhambra(view, 2, tiles, reserve)
        for tile in reserve[:2] or (None,):
            img = alhambra_image(grown, 2, name="Big", placing=tile)
            layout = alhambra_layout(grown, 2, placing=tile)
            sizes.add(img.size)
            assert img.width > img.height
            # every code is written in a cell big enough to hold it
            for code, (left, _top, right, _bottom) in layout.labels.items():
                assert text.width(code, 20) <= right - left - 4, code
    assert sizes == {(640, 420)}


@pytest.mark.parametrize("locale", ["ja", "pt-BR", "fa"])
def test_every_gallery_sample_speaks_the_readers_language(locale):
    labels = i18n.image_labels(locale)
    english = {i18n.t("en", f"building.{b.label}") for b in Building} - set(labels.values())
    for sample in gallery():
        reset_caches()
        with text.recording() as found:
            sample.image(labels)
        drawn = {t for t, _s in found}
        assert not drawn & english, (sample.name, drawn & english)
        assert not any(t in {"P", "S", "A", "C", "G", "T"} and sample.kind != "alhambra"
                       for t in drawn), sample.name  # fmt: skip


@pytest.mark.parametrize("locale", ["ja", "pt-BR", "fa"])
def test_no_english_words_or_abbreviations_in_other_languages(locale):
    labels = i18n.image_labels(locale)
    english = {"CRO", "DIR", "DIN", "DUC", "pts", "wall", "Reserve", "Money pool"}
    english |= {i18n.t("en", f"building.{b.label}") for b in Building}
    english |= {i18n.t("en", f"currency.{c.label}") for c in Currency}
    english -= set(labels.values())  # words that are the same in both (Dinar, Dirham in pt-BR)
    for what, (_kind, draw) in _late_pictures(labels).items():
        reset_caches()  # sprites draw their marks anew, inside the recording
        with text.recording() as found:
            draw()
        drawn = {t for t, _s in found}
        assert not drawn & english, (what, drawn & english)
        if what in ("table", "hand"):  # the currencies by the reader's names
            assert {i18n.t(locale, f"currency.{c.label}") for c in Currency} <= drawn


def test_buildings_and_cards_carry_shapes_not_letters():
    """A tile draws no text at all (its type is a shape); a card only its value's digits."""
    reset_caches()
    with text.recording() as found:
        for tile in range(1, 55):
            tile_sprite(tile, 64)
        for currency in Currency:
            value_card(currency, 7, 40, 56)
    assert found and all(t.isdigit() for t, _s in found)
    assert {t for t, _s in found} == {"7"}


@pytest.mark.skipif(not has_cjk_font(), reason="no Japanese font installed")
def test_japanese_bold_is_drawn_with_a_bold_face():
    bold, regular = font_for("庭", 20, True), font_for("庭", 20, False)
    assert bold is not None and regular is not None
    assert "bold" in str(getattr(bold, "path", "")).lower()
    assert bold is not regular


def _chip(building: Building) -> Image.Image:
    img = Image.new("RGB", (40, 40), PAPER)
    building_chip(img, ImageDraw.Draw(img), 2, 2, building, 36)
    return img


def _card(currency: Currency) -> Image.Image:
    img = Image.new("RGB", (40, 56), PAPER)
    card = value_card(currency, 5, 40, 56)
    img.paste(card, (0, 0), card)
    return img


#: Where the mark is drawn on a chip and on a card (`_chip`, `_card`): what is compared.
CHIP_MARK = (7, 7, 32, 32)
CARD_MARK = (11, 4, 28, 21)


def _apart(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ clearly between two pictures of the same size."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return diff.histogram()[255] / (a.width * a.height)


@pytest.mark.parametrize("kind", DEFICIENCIES)
def test_every_type_and_currency_stays_distinguishable_with_colour_blindness(kind):
    """Shapes carry what colours lose: under each simulated deficiency, and even in greyscale,
    the marks of every pair differ clearly in at least one pixel of eight (two types with the
    same shape and colours that merge would differ in almost none)."""
    chips = [_chip(b).crop(CHIP_MARK) for b in Building]
    cards = [_card(c).crop(CARD_MARK) for c in Currency]
    for group in (chips, cards):
        for a, b in itertools.combinations(group, 2):
            assert _apart(simulate(a, kind), simulate(b, kind)) > 0.125
            assert _apart(a.convert("L").convert("RGB"), b.convert("L").convert("RGB")) > 0.125


def test_colour_alone_would_not_do():
    """Why shapes are needed: with deuteranopia the crown, dirham and ducat colours come close."""
    from render.palette import CURRENCY_FILL
    from render.vision import simulate_colour

    seen = {c: simulate_colour(CURRENCY_FILL[c], "deuteranopia") for c in Currency}
    dirham, ducat = seen[Currency.DIRHAM], seen[Currency.DUCAT]
    assert sum(abs(x - y) for x, y in zip(dirham, ducat, strict=True)) < 120


def test_every_gallery_sample_is_legible_at_preview_size():
    for sample in gallery():
        shown = SHOWN[sample.kind]
        img, legible = measure(lambda s=sample: s.image(None), shown)
        assert legible.worst >= MIN_SCREEN_PX - 1e-9, (sample.name, legible)
        for device in DEVICES:
            small = preview(img, shown, device)
            box_w, box_h = BOXES[shown][device]
            assert small.width <= box_w and small.height <= box_h


def test_gallery_writes_previews_and_colour_blind_views(tmp_path, capsys):
    out = tmp_path / "out"
    assert gallery_main([str(out), "--preview", "--colour-blind"]) == 0
    for suffix in ("desktop", "phone", *DEFICIENCIES):
        shot = Image.open(out / f"table_6p_end.{suffix}.png")
        if suffix == "phone":
            assert shot.width <= BOXES["embed"]["phone"][0]
    printed = capsys.readouterr().out
    assert "smallest text on screen" in printed and "under 10 px" not in printed
