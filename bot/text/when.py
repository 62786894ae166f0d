"""Times and days in a text, as each language's readers can read them.

Discord shows `<t:…:R>` ("in 3 hours") and `<t:…:d>` (a date) in the reader's own client
language and time zone, which is what a reader of English, Japanese or Portuguese wants. It has
no client in some languages (`languages.Language.chosen_only`: Persian): a Persian text with a
Discord timestamp in it would read "نوبت شما in 10 seconds تمام می‌شود". Those languages get the
time written by the bot instead: a span in words from `now` ("۳ ساعت دیگر", "۲ روز پیش"), and a
day in the language's own calendar (the Solar Hijri calendar for Persian, "۱۳ خرداد ۱۴۰۳"),
with the language's digits (`i18n.t` writes numbers so).

A span is rounded as Discord rounds its own: seconds under a minute, minutes under an hour,
hours under a day, then days. A text written this way is true when it is written; the messages
that carry one (a turn held for its undo window, a reminder, a turn DM's deadline, `/alhambra
mygames`) are read soon after, or written again.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from . import i18n, languages

#: The months of the Solar Hijri calendar, Persian's own (the calendar's names: not words of
#: the catalogue, which every language would have to carry).
PERSIAN_MONTHS = (
    "فروردین",
    "اردیبهشت",
    "خرداد",
    "تیر",
    "مرداد",
    "شهریور",
    "مهر",
    "آبان",
    "آذر",
    "دی",
    "بهمن",
    "اسفند",
)


def in_words(locale: str) -> bool:
    """Whether `locale`'s texts write times out (Discord has no client in it) rather than as
    a Discord timestamp."""
    return i18n.normalise(locale) in i18n.CHOSEN_ONLY


def relative(locale: str, when: datetime, now: datetime) -> str:
    """`when` as a span from `now` ("in 3 hours", "2 days ago"): a Discord timestamp, or, in a
    language Discord has no client in, words ("۳ ساعت دیگر")."""
    if not in_words(locale):
        return f"<t:{int(when.timestamp())}:R>"
    seconds = round((when - now).total_seconds())
    direction = "in" if seconds >= 0 else "ago"
    count, unit = span(abs(seconds))
    return i18n.t(locale, f"time.{direction}.{unit}", count=count)


def span(seconds: int) -> tuple[int, str]:
    """A number of seconds as (count, unit), in the largest unit of which it rounds to at
    least one: 59 s → (59, "second"), 90 s → (2, "minute"), 90 min → (2, "hour")."""
    if seconds < 60:
        return seconds, "second"
    if (minutes := round(seconds / 60)) < 60:
        return minutes, "minute"
    if (hours := round(seconds / 3600)) < 24:
        return hours, "hour"
    return round(seconds / 86400), "day"


def day(locale: str, when: datetime, style: str = "d") -> str:
    """The day of `when`: a Discord timestamp (`style` "d" short, "D" long), or, in a language
    Discord has no client in, the date written out in its calendar (in UTC)."""
    if not in_words(locale):
        return f"<t:{int(when.timestamp())}:{style}>"
    moment = when.astimezone(UTC).date()
    if languages.BY_CODE[i18n.normalise(locale)].calendar == "persian":
        year, month, of_month = persian_date(moment)
        return i18n.t(locale, "time.date", day=of_month, month=PERSIAN_MONTHS[month - 1], year=year)
    return i18n.t(locale, "time.date", day=moment.day, month=moment.month, year=moment.year)


def persian_date(moment: date) -> tuple[int, int, int]:
    """The Solar Hijri (year, month, day) of a Gregorian date: the arithmetic conversion (the
    33-year cycle), exact for the years a game is played in (1979-2124)."""
    gy, gm, gd = moment.year, moment.month, moment.day
    days_before = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)
    gy2 = gy + 1 if gm > 2 else gy
    days = (
        355666
        + 365 * gy
        + (gy2 + 3) // 4
        - (gy2 + 99) // 100
        + (gy2 + 399) // 400
        + gd
        + days_before[gm - 1]
    )
    jy = -1595 + 33 * (days // 12053)
    days %= 12053
    jy += 4 * (days // 1461)
    days %= 1461
    if days > 365:
        jy += (days - 1) // 365
        days = (days - 1) % 365
    if days < 186:
        return jy, 1 + days // 31, 1 + days % 31
    return jy, 7 + (days - 186) // 30, 1 + (days - 186) % 30
