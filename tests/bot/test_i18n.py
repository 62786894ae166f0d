"""The catalogue: every locale has every key, with the same placeholders."""

from __future__ import annotations

import pytest

from bot import i18n


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_every_locale_has_every_key_with_the_same_placeholders(locale: str) -> None:
    english = i18n.catalogue("en")
    other = i18n.catalogue(locale)
    assert set(other) == set(english), set(english) ^ set(other)
    for key, text in english.items():
        assert i18n.placeholders(other[key]) == i18n.placeholders(text), key
        assert other[key].strip(), key


def test_translations_are_not_just_english() -> None:
    for locale in ("ja", "pt-BR"):
        same = [k for k, v in i18n.catalogue(locale).items() if v == i18n.catalogue("en")[k]]
        assert len(same) <= 3, same


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
