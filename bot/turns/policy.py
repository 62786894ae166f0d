"""When to remind, when a deadline passes, whether a timer still matters: pure functions of a
user's `NotifySettings`, the game and a time, tested without any clock or adapter."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from ..core.records import DeadlineRules, GameInfo, NotifySettings, SeatInfo, TimerRow

#: Defaults for multi-day play: the first reminder half a day into a turn, then one a day.
FIRST_REMINDER = timedelta(hours=12)
REPEAT_REMINDER = timedelta(hours=24)
#: At most one reminder DM per user in this span, whatever the number of games.
MIN_GAP = timedelta(hours=3)
#: After a DM was refused (403, code 50007), DMs are not tried again for this long (or until
#: the user changes their settings).
DM_RETRY = timedelta(days=7)
#: A player who made a move in the game this recently is at the table: no turn DM.
LIVE_WINDOW = timedelta(minutes=5)


def quiet_until(when: datetime, settings: NotifySettings) -> datetime | None:
    """The end of the quiet hours `when` falls in (UTC), or None outside quiet hours."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None or start == end:
        return None
    tz = settings.zone
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


def on_vacation(settings: NotifySettings, now: datetime) -> bool:
    return settings.vacation_until is not None and settings.vacation_until > now


def dms_blocked(settings: NotifySettings, now: datetime) -> bool:
    """Whether a refused DM is recent enough not to try again."""
    return settings.dm_blocked_at is not None and now - settings.dm_blocked_at < DM_RETRY


def deliverable(when: datetime, settings: NotifySettings) -> datetime:
    """The first moment at or after `when` a reminder may be sent: after a vacation, and
    outside quiet hours."""
    if settings.vacation_until is not None and settings.vacation_until > when:
        when = settings.vacation_until
    return quiet_until(when, settings) or when


def first_reminder_at(turn_started: datetime, settings: NotifySettings) -> datetime:
    first = timedelta(seconds=settings.first_reminder_s) if settings.first_reminder_s else None
    return deliverable(turn_started + (first or FIRST_REMINDER), settings)


def next_reminder_at(now: datetime, settings: NotifySettings) -> datetime:
    repeat = timedelta(seconds=settings.repeat_reminder_s) if settings.repeat_reminder_s else None
    return deliverable(now + (repeat or REPEAT_REMINDER), settings)


def deadline_at(
    turn_started: datetime, rules: DeadlineRules, settings: NotifySettings
) -> datetime | None:
    """When the turn's deadline passes; a vacation pauses it if the game says so."""
    if not rules.turn_deadline_s:
        return None
    span = timedelta(seconds=rules.turn_deadline_s)
    away = settings.vacation_until
    if rules.vacation_policy == "pause" and away is not None and away > turn_started:
        return away + span
    return turn_started + span


def still_current(game: GameInfo, timer: TimerRow) -> SeatInfo | None:
    """The human whose turn the timer was set for, if that turn is still going."""
    if game.status != "active" or timer.seat is None or game.current_seat != timer.seat:
        return None
    if game.turn_started_at is not None and game.turn_started_at > timer.created_at:
        return None
    player = game.current_player
    return player if player is not None and player.user_id is not None else None
