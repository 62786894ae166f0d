"""The catalogue: every locale has every key, with the same placeholders."""

from __future__ import annotations

import re

import pytest

from bot.text import i18n
from render.labels import DEFAULT_LABELS


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_every_locale_has_every_key_with_the_same_placeholders(locale: str) -> None:
    english = i18n.catalogue("en")
    other = i18n.catalogue(locale)
    assert set(other) == set(english), set(english) ^ set(other)
    for key, text in english.items():
        assert i18n.placeholders(other[key]) == i18n.placeholders(text), key
        assert other[key].strip(), key


#: Texts that are rightly the same in Portuguese: names and words spelled alike.
SAME_IN_PORTUGUESE = {"img.title", "img.dirk", "img.col_total"}


def _has_words(text: str) -> bool:
    """Whether a text has words of its own (not only placeholders, spaces and punctuation, as
    the formats "{name} ({cost})" and ", " have)."""
    return any(ch.isalpha() for ch in re.sub(r"\{[^{}]*\}", "", text))


def test_translations_are_not_just_english() -> None:
    for locale in ("ja", "pt-BR"):
        same = [
            k
            for k, v in i18n.catalogue(locale).items()
            if v == i18n.catalogue("en")[k] and k not in SAME_IN_PORTUGUESE and _has_words(v)
        ]
        assert len(same) <= 3, same
    assert not _has_words("{name} ({cost})") and _has_words("Dinar")


def test_the_pictures_english_words_are_the_catalogues() -> None:
    """render keeps its own English (it cannot import the bot); it must be the catalogue's."""
    english = i18n.catalogue("en")
    drawn = {k.removeprefix("img."): v for k, v in english.items() if k.startswith("img.")}
    drawn |= {k: english[k] for k in i18n.IMAGE_SHARED}
    assert drawn == DEFAULT_LABELS
    assert i18n.image_labels("en") == DEFAULT_LABELS


@pytest.mark.parametrize("locale", ["ja", "pt-BR"])
def test_image_labels_are_translated_with_the_same_placeholders(locale: str) -> None:
    labels = i18n.image_labels(locale)
    assert set(labels) == set(DEFAULT_LABELS)
    assert labels["money_pool"] == i18n.t(locale, "img.money_pool") != DEFAULT_LABELS["money_pool"]
    assert labels["currency.crown"] == i18n.t(locale, "currency.crown")
    for key, text in labels.items():
        assert i18n.placeholders(text) == i18n.placeholders(DEFAULT_LABELS[key]), key
    labels["money_pool"] = "changed"  # a copy: the caller may keep or change it
    assert i18n.image_labels(locale)["money_pool"] != "changed"


def test_image_labels_of_an_unknown_locale_are_english() -> None:
    assert i18n.image_labels("de") == i18n.image_labels(None) == DEFAULT_LABELS


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("ja", "ja"),
        ("pt-BR", "pt-BR"),
        ("pt_br", "pt-BR"),
        ("en-US", "en"),
        ("de", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_map_to_a_catalogue(raw: str | None, expected: str) -> None:
    assert i18n.normalise(raw) == expected


def test_text_is_filled_and_unknown_keys_fail_loudly() -> None:
    assert i18n.t("ja", "lobby.players", count=2, max=6).endswith("2/6\uff09")
    assert i18n.t("fr", "button.join") == "Join"
    with pytest.raises(KeyError):
        i18n.t("en", "no.such.key")


@pytest.mark.parametrize(
    ("locale", "one", "two"),
    [
        ("en", "Alhambra: 1 game waiting for your move:", "Alhambra: 2 games waiting"),
        ("pt-BR", "Alhambra: 1 jogo esperando a sua jogada:", "Alhambra: 2 jogos esperando"),
        ("ja", "ゲームが1件あります", "ゲームが2件あります"),
    ],
)
def test_counting_texts_take_the_plural_form_of_the_language(
    locale: str, one: str, two: str
) -> None:
    assert one in i18n.t(locale, "notify.reminder", count=1)
    assert two in i18n.t(locale, "notify.reminder", count=2)
    assert i18n.plural_form(locale, 0) == "other"
    assert i18n.plural_form(locale, 1) == ("other" if locale == "ja" else "one")


def test_every_counting_text_has_every_form_and_no_text_hedges_its_plural() -> None:
    english = i18n.catalogue("en")
    # the pictures' words (img.*) are chosen by render, in its own way
    stems = {
        k.rsplit("_", 1)[0]
        for k in english
        if k.endswith(("_one", "_other")) and not k.startswith(i18n.IMAGE_PREFIX)
    }
    assert "notify.reminder" in stems
    for stem in stems:
        assert i18n.plural_family(stem), stem
        assert {f"{stem}_{form}" for form in i18n.PLURAL_FORMS} <= set(english), stem
    for locale in i18n.SUPPORTED:
        hedged = [k for k, v in i18n.catalogue(locale).items() if re.search(r"\w\((s|es)\)", v)]
        assert not hedged, (locale, hedged)


def test_lists_are_joined_the_way_of_the_language() -> None:
    assert i18n.join("en", ["ana", "bruno", 3]) == "ana, bruno, 3"
    assert i18n.join("pt-BR", ["ana", "bruno"]) == "ana, bruno"
    assert i18n.join("ja", ["ana", "bruno"]) == "ana、bruno"
    assert i18n.join("ja", []) == ""
