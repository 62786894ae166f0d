"""Reading and showing the reminder settings a user types: quiet hours, a vacation's last day,
time zone names. The words for "off" come from every language the bot speaks."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import available_timezones

from ..core.records import NotifySettings
from .present import echo

#: ASCII digits only: `\d` alone also reads Arabic-Indic and fullwidth digits.
_QUIET = re.compile(r"\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*", re.ASCII)
OFF_WORDS = frozenset({"off", "none", "no", "-", "0", "なし", "オフ", "nenhum", "não", "desligado"})


#: The furthest a vacation may end: a year, leap day included, after the user's today. The
#: timing rules (`bot.turns.policy.LONGEST_VACATION`) cap one stored before this limit.
MAX_VACATION = timedelta(days=366)


class VacationTooLong(ValueError):
    """A vacation that would end more than `MAX_VACATION` after today."""


def parse_quiet_hours(text: object) -> tuple[int, int] | None:
    """'22-7' or '22:30-07:00' as minutes after midnight; 'off' for none. ValueError for
    anything else, an option that is not text included."""
    if not isinstance(text, str):
        raise ValueError("quiet hours are text, like 22-7")
    if text.strip().lower() in OFF_WORDS:
        return None
    match = _QUIET.fullmatch(text)
    if not match:
        raise ValueError(f"not quiet hours: {echo(text)}")
    h1, m1, h2, m2 = (int(g) if g else 0 for g in match.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise ValueError(f"not a time of day: {echo(text)}")
    start, end = h1 * 60 + m1, h2 * 60 + m2
    if start == end:
        raise ValueError(f"quiet hours need a different start and end: {echo(text)}")
    return start, end


def parse_vacation_end(text: object, settings: NotifySettings, *, now: datetime) -> datetime | None:
    """'2024-06-30': away until the end of that day in the user's time zone; 'off' for back.

    ValueError for anything else (an option that is not text included), and
    `VacationTooLong` (a ValueError) for a day more than `MAX_VACATION` after the user's
    today at `now`: far dates would overflow the timers' arithmetic (9999-12-31 did here). A
    day in the past is returned as read: refusing it is the caller's business.
    """
    if not isinstance(text, str):
        raise ValueError("a date is text, like 2025-08-31")
    typed = text.strip()
    if typed.lower() in OFF_WORDS:
        return None
    try:
        if not typed.isascii() or len(typed) > len("2025-08-31"):
            raise ValueError(typed)
        day = date.fromisoformat(typed)
    except ValueError:
        raise ValueError(f"not a date: {echo(text)}") from None
    zone = settings.zone
    try:
        if day - now.astimezone(zone).date() > MAX_VACATION:
            raise VacationTooLong(f"{day.isoformat()} is more than a year away")
        midnight = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone)
        return midnight.astimezone(UTC)
    except OverflowError:  # only with a `now` near the end of time
        raise VacationTooLong(f"{day.isoformat()} is too far away") from None


def time_zone_names(typed: str, limit: int = 25) -> list[str]:
    """IANA zone names containing what the user typed (for autocomplete)."""
    needle = typed.strip().lower().replace(" ", "_")
    names = sorted(n for n in available_timezones() if "/" in n or n == "UTC")
    return [n for n in names if needle in n.lower()][:limit]


def quiet_text(settings: NotifySettings) -> str | None:
    if settings.quiet_start is None or settings.quiet_end is None:
        return None
    s, e = settings.quiet_start, settings.quiet_end
    return f"{s // 60:02d}:{s % 60:02d}-{e // 60:02d}:{e % 60:02d}"
