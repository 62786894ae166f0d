"""The one catalogue of every string a user sees, in English, Japanese, Brazilian Portuguese and
Persian.

Strings live in `bot/text/locales/<locale>.json`, flat `key -> text` with `{name}` placeholders.
English is complete by definition; the other locales fall back to it key by key, and a test
checks that they have every key with the same placeholders. Nothing here imports discord, so
the offline mode and the service's callers can use it too.

A text that counts something has a plural form per key: `notify.reminder_one` and
`notify.reminder_other`. `t(locale, "notify.reminder", count=n)` picks the form of the
language (`plural_form`); every locale has both keys, even one whose language has only one
form (Japanese). Lists are joined the language's way (`join`: "a, b" or "a、b").

Persian (`fa`) is written right to left. Discord has no Persian client, so nobody's interaction
carries it: a user gets it only by choosing it in their settings (`CHOSEN_ONLY`), and it is
never sent to Discord with the commands. In a right-to-left text every filled placeholder (a
name, a mention, a cell code, a number) is wrapped in Unicode isolates (FSI ... PDI), so a
Latin name or a code at the start of a sentence neither turns the line left to right nor takes
the punctuation around it along (`ISOLATE_START`, `ISOLATE_END`).
"""

from __future__ import annotations

import json
import logging
import re
import string
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from . import languages

log = logging.getLogger("alhambra.i18n")

DEFAULT = languages.DEFAULT
#: The catalogues, English first (`languages.LANGUAGES`: one row per language).
SUPPORTED: tuple[str, ...] = tuple(language.code for language in languages.LANGUAGES)
#: Each language by its own name, the same for every reader (to be found by those who read it).
LANGUAGE_NAMES: dict[str, str] = {lang.code: lang.name for lang in languages.LANGUAGES}
#: Languages written right to left.
RTL: frozenset[str] = frozenset(
    lang.code for lang in languages.LANGUAGES if lang.direction == "rtl"
)
#: Languages Discord offers no client for: only a user's own choice in their settings selects
#: them, and then for their replies and panels too, not only their DMs. Never sent to Discord.
CHOSEN_ONLY: frozenset[str] = frozenset(
    lang.code for lang in languages.LANGUAGES if lang.chosen_only
)

#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, around each placeholder of an RTL text.
ISOLATE_START, ISOLATE_END = "\u2068", "\u2069"
#: RIGHT-TO-LEFT ISOLATE: opens each mixed line of an RTL text (closed by ISOLATE_END), so it
#: reads right to left even where Discord lays the message out left to right.
RTL_START = "\u2067"
#: The invisible marks the RTL texts carry.
MARKS = (ISOLATE_START, ISOLATE_END, RTL_START)

# Discord locales (and loose spellings) that map onto a catalogue.
_ALIASES = languages.spellings()


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
#: categories; a language without a form for one, Japanese, has only "other").
_SINGULAR = {language.code: language.singular for language in languages.LANGUAGES}
PLURAL_FORMS: tuple[str, ...] = ("one", "other")


def plural_form(locale: object, count: object) -> str:
    """'one' or 'other': which form of a counting text `count` takes in `locale`."""
    singular = _SINGULAR.get(normalise(locale), True)
    return "one" if singular and isinstance(count, int) and abs(count) == 1 else "other"


def plural_family(key: str) -> bool:
    """Whether `key` names texts with plural forms (`key_one`, `key_other`) rather than one."""
    return key not in catalogue(DEFAULT) and f"{key}_other" in catalogue(DEFAULT)


def join(locale: object, items: Iterable[object]) -> str:
    """Items as a list in `locale`: "a, b, c" in English, "a、b、c" in Japanese (and, right to
    left, one line in that direction)."""
    joined = t(locale, "list.separator").join(str(item) for item in items)
    return right_to_left(joined) if normalise(locale) in RTL else joined


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
        return right_to_left(text) if loc in RTL else text
    values = _Params(params)
    try:
        filled = (
            _FORMATTERS[loc].vformat(text, (), values) if loc in RTL else text.format_map(values)
        )
    except (IndexError, AttributeError, ValueError, KeyError) as exc:
        # A text the catalogue tests refuse ('{0}', '{a.b}', '{n:d}' without n, a lone brace).
        log.warning("catalogue text %s (%s) cannot be filled: %r", key, loc, exc)
        return text
    if values.missing:
        log.warning(
            "catalogue text %s (%s) was filled without %s", key, loc, ", ".join(values.missing)
        )
    if loc in RTL:  # what is typed is copied: no invisible marks inside a code span
        return right_to_left(_CODE.sub(lambda code: plain(code.group()), filled))
    return filled


#: a Markdown code span on one line: a command or a code the reader types as it is written
_CODE = re.compile(r"`[^`\n]+`")


def isolate(value: object) -> str:
    """`value` as text set apart from the right-to-left sentence around it (FSI ... PDI): its
    own direction inside, none outside. A value of several lines, or one isolate already, or
    empty, is left alone (a line break ends every isolate, and Markdown needs its line
    starts)."""
    text = str(value)
    if not text or "\n" in text or _wrapped(text):
        return text
    return ISOLATE_START + text + ISOLATE_END


def right_to_left(text: str) -> str:
    """Each line of a right-to-left text that mixes directions (a Latin name, a code, digits,
    an isolated placeholder) as a right-to-left isolate of its own: the words keep their order
    whatever direction the reader's client gives the message. A line of Persian words alone
    reads right already and is left as it is."""
    return "\n".join(_rtl_line(line) for line in text.split("\n"))


def _rtl_line(line: str) -> str:
    if line.startswith(RTL_START) and _wrapped(line):
        return line
    marked = any(ch in MARKS for ch in line)
    if not marked and not any(_rtl(ch) for ch in line):
        return line  # no Persian and nothing filled in: nothing to order
    if not marked and not any(ch.isdigit() or _ltr(ch) for ch in line):
        return line
    return RTL_START + line + ISOLATE_END


def _wrapped(text: str) -> bool:
    """Whether the whole text is one isolate: its first mark is closed by its last character."""
    if not text.startswith((ISOLATE_START, RTL_START)) or not text.endswith(ISOLATE_END):
        return False
    depth = 0
    for i, ch in enumerate(text):
        if ch in (ISOLATE_START, RTL_START):
            depth += 1
        elif ch == ISOLATE_END:
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


def _rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _ltr(ch: str) -> bool:
    return unicodedata.bidirectional(ch) == "L"


def plain(text: str) -> str:
    """A text without the invisible direction marks of `right_to_left` and `isolate`."""
    for mark in MARKS:
        text = text.replace(mark, "")
    return text


class _Isolating(string.Formatter):
    """`str.format_map` for right-to-left texts: each filled placeholder isolated, and each
    number written with the language's digits (`digits`)."""

    def __init__(self, digits: str = languages.WESTERN_DIGITS, decimal: str = ".") -> None:
        super().__init__()
        self.digits, self.decimal = digits, decimal

    def format_field(self, value: Any, format_spec: str) -> str:
        text = super().format_field(value, format_spec)
        if isinstance(value, int | float) and not isinstance(value, bool):
            text = number_text(text, self.digits, self.decimal)
        return isolate(text)

    def get_value(self, key: int | str, args: Any, kwargs: Any) -> Any:
        if isinstance(key, int):
            raise IndexError(key)  # '{0}': refused, as str.format_map refuses it
        return kwargs[key]


def number_text(text: str, digits: str, decimal: str = ".") -> str:
    """A number written with other `digits` (zero first) and `decimal` separator."""
    if digits == languages.WESTERN_DIGITS and decimal == ".":
        return text
    table: dict[str, str | int | None] = dict(zip("0123456789", digits, strict=True))
    table["."] = decimal
    return text.translate(str.maketrans(table))


def number(locale: object, value: int | float) -> str:
    """A number as `locale` writes it (in Persian with its own digits and decimal separator),
    for texts built outside `t`."""
    language = languages.BY_CODE[normalise(locale)]
    return number_text(str(value), language.digits, language.decimal)


#: A formatter per right-to-left language, with its digits.
_FORMATTERS: dict[str, _Isolating] = {
    lang.code: _Isolating(lang.digits, lang.decimal) for lang in languages.LANGUAGES
}


def direction(locale: object) -> str:
    """'rtl' or 'ltr': how `locale`'s texts run."""
    return "rtl" if normalise(locale) in RTL else "ltr"


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
    every `img.*` text without its prefix, plus the currency and building-type names, the
    language's `direction` ("ltr" or "rtl") and the `digits` its numbers are drawn with."""
    return dict(_image_labels(normalise(locale)))


@cache
def _image_labels(locale: str) -> tuple[tuple[str, str], ...]:
    english, texts = catalogue(DEFAULT), catalogue(locale)
    # Raw texts: render fills the placeholders itself.
    keys = [k for k in english if k.startswith(IMAGE_PREFIX)]
    pairs = [(k.removeprefix(IMAGE_PREFIX), texts.get(k, english[k])) for k in keys]
    pairs += [(k, texts.get(k, english[k])) for k in IMAGE_SHARED]
    digits = languages.BY_CODE[locale].digits
    return (("direction", direction(locale)), ("digits", digits), *pairs)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def renders(locale: object, text: str, prefix: str = "") -> bool:
    """Whether `text` is one of `locale`'s catalogue texts (keys starting with `prefix`) with
    its placeholders filled: how a message built by `t` is recognised as being in that
    language already, whoever built it."""
    loc = normalise(locale)
    if loc in RTL:
        text = plain(text)
    return any(p.fullmatch(text) for p in _patterns(loc, prefix))


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
