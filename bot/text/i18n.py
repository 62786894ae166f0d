"""The one catalogue of every string a user sees, in English, Japanese and Brazilian Portuguese.

Strings live in `bot/text/locales/<locale>.json`, flat `key -> text` with `{name}` placeholders.
English is complete by definition; the other locales fall back to it key by key, and a test
checks that they have every key with the same placeholders. Nothing here imports discord, so
the offline mode and the service's callers can use it too.

A text that counts something has a plural form per key: `notify.reminder_one` and
`notify.reminder_other`. `t(locale, "notify.reminder", count=n)` picks the form of the
language (`plural_form`); every locale has both keys, even one whose language has only one
form (Japanese). Lists are joined the language's way (`join`: "a, b" or "a、b").
"""

from __future__ import annotations

import json
import logging
import re
import string
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

log = logging.getLogger("alhambra.i18n")

DEFAULT = "en"
SUPPORTED: tuple[str, ...] = ("en", "ja", "pt-BR")
#: Each language by its own name, the same for every reader (to be found by those who read it).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ja": "日本語", "pt-BR": "Português (Brasil)"}

# Discord locales (and loose spellings) that map onto a catalogue.
_ALIASES = {"en-us": "en", "en-gb": "en", "en": "en", "ja": "ja", "pt-br": "pt-BR", "pt": "pt-BR"}


def normalise(locale: object) -> str:
    """A catalogue name for any locale value (discord.Locale, 'pt-BR', None...); English if
    the language is not one of ours."""
    if locale is None:
        return DEFAULT
    text = str(getattr(locale, "value", locale)).strip().lower().replace("_", "-")
    if text in _ALIASES:
        return _ALIASES[text]
    return _ALIASES.get(text.split("-")[0], DEFAULT)


@cache
def catalogue(locale: str) -> dict[str, str]:
    if locale not in SUPPORTED:
        raise ValueError(f"no catalogue for {locale!r}")
    raw = resources.files("bot.text").joinpath("locales", f"{locale}.json").read_text("utf-8")
    data = json.loads(raw)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{locale}.json must map keys to strings")
    return {str(k): str(v) for k, v in data.items()}


def has(key: str) -> bool:
    return key in catalogue(DEFAULT)


#: The plural forms of each language: "one" for a count of exactly one, else "other" (CLDR's
#: categories; Japanese has only "other"). Brazilian Portuguese says "0 jogos", as English does.
_SINGULAR = {"en": True, "pt-BR": True, "ja": False}
PLURAL_FORMS: tuple[str, ...] = ("one", "other")


def plural_form(locale: object, count: object) -> str:
    """'one' or 'other': which form of a counting text `count` takes in `locale`."""
    singular = _SINGULAR.get(normalise(locale), True)
    return "one" if singular and isinstance(count, int) and abs(count) == 1 else "other"


def plural_family(key: str) -> bool:
    """Whether `key` names texts with plural forms (`key_one`, `key_other`) rather than one."""
    return key not in catalogue(DEFAULT) and f"{key}_other" in catalogue(DEFAULT)


def join(locale: object, items: Iterable[object]) -> str:
    """Items as a list in `locale`: "a, b, c" in English, "a、b、c" in Japanese."""
    return t(locale, "list.separator").join(str(item) for item in items)


def t(locale: object, key: str, /, **params: Any) -> str:
    """The text of `key` in `locale` (falling back to English), with its placeholders filled.

    A key with plural forms (`key_one`, `key_other`) is asked for by its stem with a `count`.
    An unknown key is a programming error and raises KeyError, so tests catch it. A placeholder
    the caller did not pass is a programming error too, but one that must not cost a player
    their answer: it is shown as written (`{reason}`) and logged, and the catalogue tests
    render every key with the parameters the code passes.
    """
    loc = normalise(locale)
    if "count" in params and plural_family(key):
        key = f"{key}_{plural_form(loc, params['count'])}"
    text = catalogue(loc).get(key)
    if text is None:
        text = catalogue(DEFAULT)[key]
    if not params and "{" not in text:
        return text
    values = _Params(params)
    try:
        filled = text.format_map(values)
    except (IndexError, AttributeError, ValueError, KeyError) as exc:
        # A text the catalogue tests refuse ('{0}', '{a.b}', '{n:d}' without n, a lone brace).
        log.warning("catalogue text %s (%s) cannot be filled: %r", key, loc, exc)
        return text
    if values.missing:
        log.warning(
            "catalogue text %s (%s) was filled without %s", key, loc, ", ".join(values.missing)
        )
    return filled


class _Params(dict[str, Any]):
    """The parameters of one `t` call; a placeholder not among them stays visible as itself."""

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.missing: list[str] = []

    def __missing__(self, name: str) -> str:
        self.missing.append(name)
        return "{" + name + "}"


#: Prefix of the words drawn on pictures; `image_labels` hands them to `render` without it.
IMAGE_PREFIX = "img."
#: Names the pictures share with the messages, so a currency reads the same in both.
IMAGE_SHARED: tuple[str, ...] = tuple(
    f"currency.{c}" for c in ("crown", "dirham", "dinar", "ducat")
) + tuple(
    f"building.{b}" for b in ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
)


def image_labels(locale: object) -> dict[str, str]:
    """The words for `render`'s pictures in `locale` (English key by key where missing):
    every `img.*` text without its prefix, plus the currency and building-type names."""
    return dict(_image_labels(normalise(locale)))


@cache
def _image_labels(locale: str) -> tuple[tuple[str, str], ...]:
    english, texts = catalogue(DEFAULT), catalogue(locale)
    # Raw texts: render fills the placeholders itself.
    keys = [k for k in english if k.startswith(IMAGE_PREFIX)]
    pairs = [(k.removeprefix(IMAGE_PREFIX), texts.get(k, english[k])) for k in keys]
    return tuple(pairs + [(k, texts.get(k, english[k])) for k in IMAGE_SHARED])


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def renders(locale: object, text: str, prefix: str = "") -> bool:
    """Whether `text` is one of `locale`'s catalogue texts (keys starting with `prefix`) with
    its placeholders filled: how a message built by `t` is recognised as being in that
    language already, whoever built it."""
    return any(p.fullmatch(text) for p in _patterns(normalise(locale), prefix))


#: A text needs this many characters of its own (not placeholders, not spaces) to be
#: recognised: "{text}" alone would match anything.
_MIN_LITERAL = 8


@cache
def _patterns(locale: str, prefix: str) -> tuple[re.Pattern[str], ...]:
    out = []
    for key, text in catalogue(locale).items():
        if not key.startswith(prefix):
            continue
        try:
            fields = list(string.Formatter().parse(text))
        except ValueError:
            continue  # a malformed text (the catalogue tests refuse it)
        literal = "".join(lit for lit, _, _, _ in fields)
        if len("".join(literal.split())) < _MIN_LITERAL:
            continue
        pattern = "".join(
            re.escape(lit) + (".*" if name is not None else "") for lit, name, _, _ in fields
        )
        out.append(re.compile(pattern, re.DOTALL))
    return tuple(out)
