"""Reading what a user types for a setting: quiet hours, a vacation's last day, a time zone.

Pure functions that return the value or raise a `ValueError` (never anything else, whatever
they are given); the preferences' registry (`core.preferences`) turns that into the refusal a
user reads. The words for "off" come from every language the bot speaks.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

#: ASCII digits only: `\d` alone also reads Arabic-Indic and fullwidth digits.
_QUIET = re.compile(r"\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*", re.ASCII)
OFF_WORDS = frozenset({"off", "none", "no", "-", "0", "なし", "オフ", "nenhum", "não", "desligado"})

#: The furthest a vacation may end: a year, leap day included, after the user's today. The
#: timing rules (`bot.turns.policy.LONGEST_VACATION`) cap one stored before this limit.
MAX_VACATION = timedelta(days=366)


class VacationTooLong(ValueError):
    """A vacation that would end more than `MAX_VACATION` after today."""


class Zoned(Protocol):
    """Whatever knows the user's time zone (their `Preferences`)."""

    @property
    def zone(self) -> ZoneInfo: ...


def _shown(text: str) -> str:
    """What was typed, short, for a `ValueError`'s message (logs, never a user's reply)."""
    return repr(text[:40] + ("…" if len(text) > 40 else ""))


def is_off(text: str) -> bool:
    """Whether the user typed a word for "none" ("off", "なし", "desligado"...)."""
    return text.strip().lower() in OFF_WORDS


def parse_quiet_hours(text: object) -> tuple[int, int] | None:
    """'22-7' or '22:30-07:00' as minutes after midnight; 'off' for none. ValueError for
    anything else, an option that is not text included."""
    if not isinstance(text, str):
        raise ValueError("quiet hours are text, like 22-7")
    if is_off(text):
        return None
    match = _QUIET.fullmatch(text)
    if not match:
        raise ValueError(f"not quiet hours: {_shown(text)}")
    h1, m1, h2, m2 = (int(g) if g else 0 for g in match.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise ValueError(f"not a time of day: {_shown(text)}")
    start, end = h1 * 60 + m1, h2 * 60 + m2
    if start == end:
        raise ValueError(f"quiet hours need a different start and end: {_shown(text)}")
    return start, end


def parse_time_zone(text: object) -> str | None:
    """An IANA zone name this system knows ("Asia/Tokyo"); 'off' for none (UTC)."""
    if not isinstance(text, str):
        raise ValueError("a time zone is text, like Europe/Lisbon")
    typed = text.strip()
    if is_off(typed):
        return None
    try:
        ZoneInfo(typed)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"not a time zone: {_shown(text)}") from None
    return typed


def parse_vacation_end(text: object, settings: Zoned, *, now: datetime) -> datetime | None:
    """'2024-06-30': away until the end of that day in the user's time zone; 'off' for back.

    ValueError for anything else (an option that is not text included), and
    `VacationTooLong` (a ValueError) for a day more than `MAX_VACATION` after the user's
    today at `now`: far dates would overflow the timers' arithmetic (9999-12-31 did here). A
    day in the past is returned as read: refusing it is the caller's business.
    """
    if not isinstance(text, str):
        raise ValueError("a date is text, like 2025-08-31")
    typed = text.strip()
    if is_off(typed):
        return None
    try:
        if not typed.isascii() or len(typed) > len("2025-08-31"):
            raise ValueError(typed)
        day = date.fromisoformat(typed)
    except ValueError:
        raise ValueError(f"not a date: {_shown(text)}") from None
    zone = settings.zone
    try:
        if day - now.astimezone(zone).date() > MAX_VACATION:
            raise VacationTooLong(f"{day.isoformat()} is more than a year away")
        midnight = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone)
        return midnight.astimezone(UTC)
    except OverflowError:  # only with a `now` near the end of time
        raise VacationTooLong(f"{day.isoformat()} is too far away") from None
