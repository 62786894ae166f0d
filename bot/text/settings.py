"""A user's preferences in words: the settings command's reply, and time zone names for its
autocomplete. What a user types is read in the core (`core.preferences`, `core.typed`).

The reply is the catalogue's summary lines (`SUMMARY`), each filled with the words of the
settings it names by their names (`{notify}`, `{quiet_hours}`...), then a line
`reply.setting.<name>` for every setting the summary does not name, so a new setting is shown
without a change here: its value in words by its kind (yes or no, a choice's words
`choice.<name>.<value>`, a number, a day).
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import available_timezones

from ..core.preferences import HOUR, SETTINGS, Preferences, Setting
from . import i18n
from .when import day

#: The lines that sum the settings up, in order; their placeholders are settings' names.
SUMMARY = ("reply.settings", "reply.settings_reminders")
#: Settings the summary shows in other words than a placeholder: the undo window in how a turn
#: ends (`{auto_end_turn}`), the language in a line of its own (`language_text`).
SHOWN_ELSEWHERE = frozenset({"undo_window", "language"})


def time_zone_names(typed: str, limit: int = 25) -> list[str]:
    """IANA zone names containing what the user typed (for autocomplete)."""
    needle = typed.strip().lower().replace(" ", "_")
    names = sorted(n for n in available_timezones() if "/" in n or n == "UTC")
    return [n for n in names if needle in n.lower()][:limit]


def quiet_text(settings: Preferences) -> str | None:
    if settings.quiet_hours is None:
        return None
    s, e = settings.quiet_hours
    return f"{s // 60:02d}:{s % 60:02d}-{e // 60:02d}:{e % 60:02d}"


def summarised() -> frozenset[str]:
    """The settings the summary lines show (the placeholders of its English lines)."""
    english = i18n.catalogue(i18n.DEFAULT)
    named = {p for key in SUMMARY for p in i18n.placeholders(english[key])}
    return frozenset(named) | SHOWN_ELSEWHERE


def preferences_text(
    locale: str, prefs: Preferences, *, undo_default_s: int, seen: str | None
) -> str:
    """The settings in force, in sentences: how a turn ends and how the user is told it is
    their turn, their reminders, any other setting, then the language of their DMs (`seen`:
    their Discord client's, as last noted)."""
    words = {s.name: _words(locale, s, getattr(prefs, s.name)) for s in SETTINGS}
    words.update(_summary_words(locale, prefs, undo_default_s))
    lines = [
        i18n.t(locale, key, **{p: words[p] for p in i18n.placeholders(i18n.catalogue("en")[key])})
        for key in SUMMARY
    ]
    shown = summarised()
    lines += [_own_line(locale, s.name, words[s.name]) for s in SETTINGS if s.name not in shown]
    return "\n".join([*lines, language_text(locale, prefs, seen)])


def _own_line(locale: str, name: str, value: str) -> str:
    """The line of a setting the summary does not name: `reply.setting.<name>`, filled with its
    value in words (`{value}`). No setting needs one today (the summary names them all), so the
    key is a family with no member yet; `tests/bot/test_preferences.py` checks its words."""
    key = f"reply.setting.{name}"
    return i18n.t(locale, key, value=value)


def language_text(locale: str, prefs: Preferences, seen: str | None) -> str:
    """Which language the user's DMs are in, and whether they chose it."""
    if prefs.language is not None:
        name = i18n.LANGUAGE_NAMES.get(prefs.language, prefs.language)
        return i18n.t(locale, "reply.settings_language", language=name)
    seen = seen or locale
    name = i18n.LANGUAGE_NAMES.get(seen, seen)
    return i18n.t(locale, "reply.settings_language_auto", language=name)


def _summary_words(locale: str, prefs: Preferences, undo_default_s: int) -> dict[str, str]:
    """The words of the settings the summary names in a way of their own."""
    window = undo_default_s if prefs.undo_window is None else prefs.undo_window
    if not prefs.auto_end_turn:
        ending = i18n.t(locale, "reply.end_turn.ask")
    elif window == 0:
        ending = i18n.t(locale, "reply.end_turn.now")
    else:
        ending = i18n.t(locale, "reply.end_turn.after", count=window)
    return {
        "auto_end_turn": ending,
        "notify": i18n.t(locale, f"reply.notice.{prefs.notify}"),
        "first_reminder": str(prefs.first_reminder // HOUR),
        "repeat": str(prefs.repeat // HOUR),
        "quiet_hours": quiet_text(prefs) or _yes_no(locale, False),
        "timezone": prefs.timezone or "UTC",
    }


def _words(locale: str, setting: Setting, value: object) -> str:
    """A setting's value in words, by its kind."""
    if isinstance(value, bool) or value is None:
        return _yes_no(locale, bool(value))
    if isinstance(value, datetime):
        return day(locale, value, "D")  # Discord shows it in the reader's own words, or we do
    if setting.choices and i18n.has(f"choice.{setting.name}.{value}"):
        return i18n.t(locale, f"choice.{setting.name}.{value}")
    return str(value)


def _yes_no(locale: str, flag: bool) -> str:
    return i18n.t(locale, "word.yes" if flag else "word.no")
