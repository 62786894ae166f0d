"""The catalogue: every locale has every key, with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.text import i18n, languages
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
    for locale in ("ja", "pt-BR", "fa"):
        same = [
            k
            for k, v in i18n.catalogue(locale).items()
            if v == i18n.catalogue("en")[k]
            and k not in SAME_IN_PORTUGUESE
            and _has_words(v)
            and not (locale == "fa" and _command_name(k))
            and not _typed(v)
        ]
        assert len(same) <= 3, same
    assert not _has_words("{name} ({cost})") and _has_words("Dinar")


def _typed(text: str) -> bool:
    """A text that is only what a reader types (a command in code marks, as the help's
    examples are): the same in a language whose command names are English."""
    return re.fullmatch(r"(`[^`]+`\W*)+", text) is not None


def _command_name(key: str) -> bool:
    """A command's name: Persian readers type the English ones (Discord has no Persian client,
    so it shows them the English command tree)."""
    return key.startswith("cmd.") and key.endswith(".name")


def test_persian_keeps_the_english_command_names_and_the_codes_players_type() -> None:
    english, persian = i18n.catalogue("en"), i18n.catalogue("fa")
    assert all(persian[k] == english[k] for k in english if _command_name(k))
    # Latin digits in what players type: cell codes (K11), money codes (CR5), times (22-7)
    assert "CR5+CR3" in persian["error.plan.bad_cards"]
    assert "22-7" in persian["error.bad_quiet_hours"]
    # Persian digits in prose, never the Arabic-Indic ones, which Persian does not write
    assert "\u06f2 تا \u06f6" in persian["lobby.hint"]
    assert not [k for k, v in persian.items() if re.search("[\u0660-\u0669]", v)]
    # A command the texts name is an English one, however the sentence around it reads.
    assert "/alhambra new" in persian["status.none"]
    assert "how:Stop following" in persian["follow.now_dm"]


def test_persian_numbers_are_written_with_persian_digits_and_codes_as_typed() -> None:
    """CLDR's default numbering for Persian is its own digits (arabext), and Persian readers
    expect them in running text: a number `t` fills in is written with them, a code is not."""
    placed = i18n.plain(i18n.t("fa", "log.placed", name="ana", building="برج (11)", cell="K11"))
    assert placed == "ana برج (11) را در K11 گذاشت."  # texts passed in stay as they are
    twelve = "\u06f1\u06f2"
    reminder = i18n.plain(i18n.t("fa", "notify.reminder", count=12))
    assert reminder.startswith(f"الحمرا: {twelve} بازی")
    assert i18n.t("en", "notify.reminder", count=12).startswith("Alhambra: 12 games")
    assert i18n.number("fa", 3.5) == "\u06f3\u066b\u06f5" and i18n.number("ja", 3.5) == "3.5"


def test_persian_is_chosen_only_and_right_to_left() -> None:
    assert "fa" in i18n.SUPPORTED and i18n.LANGUAGE_NAMES["fa"] == "فارسی"
    assert i18n.normalise("fa") == i18n.normalise("fa-IR") == i18n.normalise("FA_ir") == "fa"
    assert i18n.direction("fa") == "rtl" and i18n.direction("pt-BR") == i18n.direction(None)
    assert i18n.CHOSEN_ONLY == {"fa"} <= i18n.RTL


def test_a_persian_sentence_isolates_what_it_is_filled_with() -> None:
    """A Latin name or a code at the start of a Persian sentence must not turn it left to
    right: each placeholder is an isolate (FSI ... PDI), each mixed line a right-to-left one."""
    fsi, pdi, rli = i18n.ISOLATE_START, i18n.ISOLATE_END, i18n.RTL_START
    placed = i18n.t("fa", "log.placed", name="ana", building="برج (11)", cell="K11")
    assert placed == f"{rli}{fsi}ana{pdi} {fsi}برج (11){pdi} را در {fsi}K11{pdi} گذاشت.{pdi}"
    assert i18n.plain(placed) == "ana برج (11) را در K11 گذاشت."
    turn = i18n.t("fa", "game.turn", mention="<@123>")
    assert f"{fsi}<@123>{pdi}" in turn  # the mention stays whole, so Discord still finds it
    assert i18n.t("fa", "button.take") == "برداشتن پول"  # Persian alone: nothing to set apart
    two_lines = i18n.t("fa", "hint.answer", level="سخت", action="CR5", reason="دلیل")
    assert all(line.startswith(rli) for line in two_lines.split("\n"))
    # Nothing changes for the left-to-right languages.
    english = i18n.t("en", "log.placed", name="ana", building="x", cell="K11")
    assert english == "ana placed x at K11."
    assert i18n.renders("fa", i18n.t("fa", "error.illegal_move", reason="CR5"), prefix="error.")


def test_the_pictures_english_words_are_the_catalogues() -> None:
    """render keeps its own English (it cannot import the bot); it must be the catalogue's."""
    english = i18n.catalogue("en")
    drawn = {k.removeprefix("img."): v for k, v in english.items() if k.startswith("img.")}
    drawn |= {k: english[k] for k in i18n.IMAGE_SHARED}
    assert drawn | {"direction": "ltr", "digits": "0123456789"} == DEFAULT_LABELS
    assert i18n.image_labels("en") == DEFAULT_LABELS


@pytest.mark.parametrize("locale", ["ja", "pt-BR", "fa"])
def test_image_labels_are_translated_with_the_same_placeholders(locale: str) -> None:
    labels = i18n.image_labels(locale)
    assert set(labels) == set(DEFAULT_LABELS)
    assert labels["money_pool"] == i18n.t(locale, "img.money_pool") != DEFAULT_LABELS["money_pool"]
    assert labels["currency.crown"] == i18n.t(locale, "currency.crown")
    for key, text in labels.items():
        assert i18n.placeholders(text) == i18n.placeholders(DEFAULT_LABELS[key]), key
    assert labels["direction"] == ("rtl" if locale == "fa" else "ltr")
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


# --- one table of languages ---------------------------------------------------------------------


def test_the_languages_table_is_the_one_list_of_languages() -> None:
    """Every catalogue on disk is a row of the table and every row has a catalogue; the names,
    directions, plural rules and chosen-only languages all come from the rows."""
    on_disk = {p.stem for p in (Path(i18n.__file__).parent / "locales").glob("*.json")}
    assert on_disk == set(i18n.SUPPORTED) == set(languages.BY_CODE)
    assert i18n.SUPPORTED[0] == i18n.DEFAULT == "en"
    for language in languages.LANGUAGES:
        assert i18n.LANGUAGE_NAMES[language.code] == language.name
        assert i18n.direction(language.code) == language.direction
        assert (language.code in i18n.CHOSEN_ONLY) == (not language.discord)
        assert i18n.plural_form(language.code, 1) == ("one" if language.singular else "other")
        assert len(language.digits) == 10 and language.digits[0] != language.digits[1]
        for locale in (language.code, *language.discord, *language.aliases):
            assert i18n.normalise(locale) == language.code, locale


async def test_commands_are_translated_for_exactly_the_discord_locales_of_the_table() -> None:
    """A language's commands reach every Discord client locale its row names, and no other
    (pt-PT's clients are not sent Brazilian Portuguese); English is the commands' own text."""
    import discord
    from discord import app_commands

    from bot.discord_app.translator import CatalogueTranslator, T

    translator = CatalogueTranslator()
    name = T("cmd.new.name")
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )
    wanted = {
        locale: language.code for language in languages.LANGUAGES[1:] for locale in language.discord
    }
    assert wanted  # some language besides English has a Discord client
    for locale in discord.Locale:
        got = await translator.translate(name, locale, context)
        if locale.value in wanted:
            assert got == i18n.catalogue(wanted[locale.value])["cmd.new.name"], locale
        else:
            assert got is None, locale


def test_a_new_language_row_reaches_the_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Adding a language is a row (and its catalogue): the translator's locales follow it."""
    german = languages.Language("de", "Deutsch", ("de",))
    monkeypatch.setattr(languages, "LANGUAGES", (*languages.LANGUAGES, german))
    assert languages.translated_discord_locales()["de"] == "de"
    assert languages.spellings()["de"] == "de"


def test_small_wording_kept_consistent() -> None:
    """Japanese says コンピューター everywhere (not コンピュータ in some texts), its hint is a
    sentence with a verb, and the Persian hand picture says "no exact payment possible" as the
    panel does."""
    japanese, persian = i18n.catalogue("ja"), i18n.catalogue("fa")
    assert not [k for k, v in japanese.items() if re.search("コンピュータ(?!ー)", v)]
    assert japanese["hint.answer"].split("\n")[0].endswith("を選びます。")
    assert persian["img.no_exact"] == persian["panel.slot_hint"]
