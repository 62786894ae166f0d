"""When to remind, when a deadline passes, whether a timer still matters: pure functions of a
user's `Preferences` (and what the bot noted about them, `UserNotes`), the game and a time,
tested without any clock or adapter.

None of them raises for a stored value, however absurd: a vacation counts for at most
`LONGEST_VACATION` from the moment considered, spans are clamped, and no time goes past
`LATEST`. (A vacation near the year 9999 was once accepted and stored; its arithmetic
overflowed on every turn start of that player.)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from ..core.preferences import FIRST_REMINDER_S, REPEAT_REMINDER_S, Preferences
from ..core.records import DeadlineRules, GameInfo, SeatInfo, TimerRow, UserNotes

#: Defaults for multi-day play (the settings' defaults): the first reminder half a day into a
#: turn, then one a day.
FIRST_REMINDER = timedelta(seconds=FIRST_REMINDER_S)
REPEAT_REMINDER = timedelta(seconds=REPEAT_REMINDER_S)
#: At most one reminder DM per user in this span, whatever the number of games.
MIN_GAP = timedelta(hours=3)
#: After a DM was refused (403, code 50007), DMs are not tried again for this long (or until
#: the user changes their settings).
DM_RETRY = timedelta(days=7)
#: A player who made a move in the game this recently is at the table: no turn DM.
LIVE_WINDOW = timedelta(minutes=5)
#: The longest a vacation delays reminders or pauses a deadline, from the moment considered.
#: Above the 366 days `bot.core.typed` accepts (plus the last day in any time zone), so a
#: vacation set today is never shortened; one stored before that limit counts as this long.
#: Capping rather than ignoring such a vacation keeps what the player asked for (no
#: reminders, a paused deadline) for over a year, and never arms a timer in the year 9999.
LONGEST_VACATION = timedelta(days=400)
#: No time computed here is later: two days before the end of `datetime`, so a conversion to
#: any time zone and the next local day stay in range.
LATEST = datetime.max.replace(tzinfo=UTC) - timedelta(days=2)
#: Longer spans are absurd (longer than `datetime`'s range) and would not fit a timedelta.
_LONGEST_SPAN_S = 10_000 * 366 * 86_400
_DAY_MINUTES = 24 * 60


def _span(seconds: int) -> timedelta:
    """A stored number of seconds as a span, clamped to what a timedelta holds (and >= 0)."""
    return timedelta(seconds=min(max(seconds, 0), _LONGEST_SPAN_S))


def _later(when: datetime, span: timedelta) -> datetime:
    """`when + span`, or `LATEST` if that is later (or past the end of `datetime`)."""
    try:
        return min(when + span, LATEST)
    except OverflowError:
        return LATEST


def _vacation_end(settings: Preferences, when: datetime) -> datetime | None:
    """The end of the user's vacation if it is after `when`, at most `LONGEST_VACATION` on."""
    away = settings.vacation_until
    if away is None or away <= when:
        return None
    return min(away, _later(when, LONGEST_VACATION))


def quiet_until(when: datetime, settings: Preferences) -> datetime | None:
    """The end of the quiet hours `when` falls in (UTC), or None outside quiet hours."""
    if settings.quiet_hours is None:
        return None
    start, end = settings.quiet_hours
    if start == end:
        return None
    if not (0 <= start < _DAY_MINUTES and 0 <= end < _DAY_MINUTES) or when > LATEST:
        return None  # not a time of day (a stored oddity), or the end of time: no quiet
    tz = settings.zone
    try:
        local = when.astimezone(tz)
        minute = local.hour * 60 + local.minute
        if start < end:
            quiet = start <= minute < end
            day = local.date()
        else:  # over midnight, e.g. 22:00-07:00
            quiet = minute >= start or minute < end
            day = local.date() + timedelta(days=1) if minute >= start else local.date()
        if not quiet:
            return None
        return datetime.combine(day, time(end // 60, end % 60), tzinfo=tz).astimezone(UTC)
    except OverflowError:  # the first day of `datetime`, west of UTC
        return None


def on_vacation(settings: Preferences, now: datetime) -> bool:
    return settings.vacation_until is not None and settings.vacation_until > now


def dms_blocked(notes: UserNotes, now: datetime) -> bool:
    """Whether a refused DM is recent enough not to try again."""
    return notes.dm_blocked_at is not None and now - notes.dm_blocked_at < DM_RETRY


@dataclass(frozen=True, slots=True)
class TurnNotice:
    """How a player is told that their turn started: at most these two, usually one."""

    dm: bool
    mention: bool


def turn_notice(
    prefs: Preferences, notes: UserNotes, *, now: datetime, last_action: datetime | None
) -> TurnNotice:
    """One notification per turn, the one the player chose: a DM (the default), a mention
    in the game's channel, or both. A DM that cannot or need not be sent (DMs switched off or
    refused lately, or the player moved in this game minutes ago: they are at the table)
    becomes a mention, so nobody is left untold; a player on vacation is told nothing."""
    if on_vacation(prefs, now):
        return TurnNotice(dm=False, mention=False)
    live = last_action is not None and now - last_action < LIVE_WINDOW
    choice = prefs.notify
    dm = choice in ("dm", "both") and prefs.dms and not dms_blocked(notes, now) and not live
    return TurnNotice(dm=dm, mention=choice in ("mention", "both") or not dm)


def deliverable(when: datetime, settings: Preferences) -> datetime:
    """The first moment at or after `when` a reminder may be sent: after a vacation, and
    outside quiet hours."""
    when = _vacation_end(settings, when) or when
    return quiet_until(when, settings) or when


def first_reminder_at(turn_started: datetime, settings: Preferences) -> datetime:
    first = _span(settings.first_reminder) if settings.first_reminder else FIRST_REMINDER
    return deliverable(_later(turn_started, first), settings)


def next_reminder_at(now: datetime, settings: Preferences) -> datetime:
    repeat = _span(settings.repeat) if settings.repeat else REPEAT_REMINDER
    return deliverable(_later(now, repeat), settings)


def deadline_at(
    turn_started: datetime, rules: DeadlineRules, settings: Preferences
) -> datetime | None:
    """When the turn's deadline passes; a vacation pauses it if the game says so."""
    if not rules.turn_deadline_s:
        return None
    span = _span(rules.turn_deadline_s)
    away = _vacation_end(settings, turn_started)
    if rules.vacation_policy == "pause" and away is not None:
        return _later(away, span)
    return _later(turn_started, span)


def still_current(game: GameInfo, timer: TimerRow) -> SeatInfo | None:
    """The human whose turn the timer was set for, if that turn is still going."""
    if game.status != "active" or timer.seat is None or game.current_seat != timer.seat:
        return None
    if game.turn_started_at is not None and game.turn_started_at > timer.created_at:
        return None
    player = game.current_player
    return player if player is not None and player.user_id is not None else None
