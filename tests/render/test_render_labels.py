"""The words on the pictures: any language the caller passes, English for whatever is missing."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from bot.text import i18n
from render import (
    alhambra_image,
    hand_image,
    render_alhambra,
    render_hand,
    render_scores,
    render_table,
    scores_image,
    table_image,
    text,
)
from render.fonts import has_cjk_font
from render.labels import DEFAULT_LABELS, counted, label
from render.samples import late, names


def _differs(a, b) -> bool:
    """Whether two pictures differ: in size (longer words may wrap onto another line) or in
    any pixel."""
    if a.size != b.size:
        return True
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None


def test_missing_or_broken_labels_fall_back_to_english() -> None:
    assert label(None, "money_pool") == "Money"
    assert label({}, "turn", n=4) == "Turn 4"
    assert label({"turn": "Tour {n}"}, "turn", n=4) == "Tour 4"
    # A translation naming the wrong placeholder must not cost the picture.
    assert label({"turn": "Tour {count}"}, "turn", n=4) == "Turn 4"
    assert label({"turn": "Tour {n"}, "turn", n=4) == "Turn 4"
    assert counted(None, "cards", 1) == "1 card" and counted(None, "cards", 0) == "0 cards"
    with pytest.raises(KeyError):
        label(None, "no_such_label")


def test_every_default_label_can_be_filled() -> None:
    params = {"n": 2, "name": "Ana", "names": "Ana & Bo", "building": "Garden", "cost": 8}
    params |= {"cards": "3 cards", "total": 11, "codes": "→ K12"}
    for key in DEFAULT_LABELS:
        assert label(None, key, **params).strip(), key


@pytest.mark.skipif(not has_cjk_font(), reason="no Japanese font installed")
def test_every_japanese_label_is_drawable() -> None:
    """No character of a Japanese label is dropped for want of a glyph."""
    for key, value in i18n.image_labels("ja").items():
        assert text.clean(value, 15) == " ".join(value.split()), key
        assert text.clean(value, 15, True) == " ".join(value.split()), key


@pytest.mark.parametrize("locale", ["ja", "pt-BR"])
def test_translated_pictures_draw_at_the_english_size_with_other_words(
    games, locale: str, decode
) -> None:
    labels = i18n.image_labels(locale)
    end = games[6]["end"].view(None)
    middle = games[4]["middle"].view(None)
    for draw in (table_image, scores_image):
        for view in (middle, end):
            english, translated = (
                draw(view, names(len(view.table))),
                draw(view, names(len(view.table)), labels=labels),
            )
            assert _differs(english, translated), (draw.__name__, locale)
    decode(render_table(end, names(6), labels=labels))
    decode(render_scores(middle, names(4), labels=labels))
    seat = middle.current_seat or 0
    tile = middle.market[0] or 1
    plain = alhambra_image(middle, seat, name="Ana", placing=tile)
    translated = alhambra_image(middle, seat, name="Ana", placing=tile, labels=labels)
    assert _differs(plain, translated)
    decode(render_alhambra(middle, seat, name="Ana", mode="remove", labels=labels))
    game = late(4, 11)
    hand_view = game.view(game.current_seat)
    assert _differs(
        hand_image(hand_view, name="Ana"), hand_image(hand_view, name="Ana", labels=labels)
    )
    decode(render_hand(hand_view, name="Ana", labels=labels))


def test_english_labels_draw_the_same_picture_as_none(games) -> None:
    view = games[3]["middle"].view(None)
    english = i18n.image_labels("en")
    assert not _differs(table_image(view, names(3)), table_image(view, names(3), labels=english))
