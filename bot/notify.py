"""Telling players it is their turn, without spamming them: turn-start DMs, reminders by DM
(one message for all the games waiting on a user), quiet hours, vacations, and a channel mention
instead of a DM for users who do not accept DMs from the bot.

The timing rules are pure functions of a user's `NotifySettings` and a time, so they are tested
without Discord; the rest sends messages and stores what it sent, so that a restart, a blocked
DM or a quiet night never leads to a DM per game or per cycle.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord

import render
from engine import ScoringHeld, TurnEnded, Undo

from . import i18n
from .present import scoring_lines, turn_summary
from .results import GameLog
from .store import DeadlineRules, GameInfo, NotifySettings, SeatInfo, TimerRow
from .ui.turn import TABLE_FILE, names_by_seat

if TYPE_CHECKING:
    from .app import AlhambraBot

log = logging.getLogger("alhambra.notify")

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
#: How many lines of "since your last turn" a DM carries.
SUMMARY_LINES = 20


# --- timing, pure -------------------------------------------------------------------------------


def zone_of(settings: NotifySettings) -> ZoneInfo:
    try:
        return ZoneInfo(settings.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def quiet_until(when: datetime, settings: NotifySettings) -> datetime | None:
    """The end of the quiet hours `when` falls in (UTC), or None outside quiet hours."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None or start == end:
        return None
    tz = zone_of(settings)
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


_QUIET = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*$")
OFF_WORDS = frozenset({"off", "none", "no", "-", "0", "なし", "オフ", "nenhum", "não", "desligado"})


def parse_quiet_hours(text: str) -> tuple[int, int] | None:
    """'22-7' or '22:30-07:00' as minutes after midnight; 'off' for none. ValueError else."""
    if text.strip().lower() in OFF_WORDS:
        return None
    match = _QUIET.match(text)
    if not match:
        raise ValueError(text)
    h1, m1, h2, m2 = (int(g) if g else 0 for g in match.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise ValueError(text)
    start, end = h1 * 60 + m1, h2 * 60 + m2
    if start == end:
        raise ValueError(text)
    return start, end


def parse_vacation_end(text: str, settings: NotifySettings) -> datetime | None:
    """'2024-06-30': away until the end of that day in the user's time zone; 'off' for back."""
    if text.strip().lower() in OFF_WORDS:
        return None
    day = date.fromisoformat(text.strip())
    midnight = datetime.combine(day + timedelta(days=1), time(0), tzinfo=zone_of(settings))
    return midnight.astimezone(UTC)


def time_zone_names(typed: str, limit: int = 25) -> list[str]:
    """IANA zone names containing what the user typed (for autocomplete)."""
    from zoneinfo import available_timezones

    needle = typed.strip().lower().replace(" ", "_")
    names = sorted(n for n in available_timezones() if "/" in n or n == "UTC")
    return [n for n in names if needle in n.lower()][:limit]


def stamp(when: datetime, style: str = "R") -> str:
    """Discord renders this in every reader's own time zone and language."""
    return f"<t:{int(when.timestamp())}:{style}>"


def quiet_text(settings: NotifySettings) -> str | None:
    if settings.quiet_start is None or settings.quiet_end is None:
        return None
    s, e = settings.quiet_start, settings.quiet_end
    return f"{s // 60:02d}:{s % 60:02d}-{e // 60:02d}:{e % 60:02d}"


def jump_link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    where = f"{guild_id or '@me'}/{channel_id}"
    return f"https://discord.com/channels/{where}" + (f"/{message_id}" if message_id else "")


def since_last_turn(locale: str, names: Sequence[str], game_log: GameLog, seat: int) -> list[str]:
    """What the other players did (and any scoring) since `seat` last ended a turn."""
    turns: list[tuple[int, list[str]]] = []
    steps: list[list] = []
    for entry in game_log.entries:
        if isinstance(entry.action, Undo):
            if steps:
                steps.pop()
            continue
        ended = next((e for e in entry.events if isinstance(e, TurnEnded)), None)
        if ended is None:
            steps.append(list(entry.events))
            continue
        lines = turn_summary(locale, names, [e for s in steps for e in s], list(entry.events))
        for event in entry.events:
            if isinstance(event, ScoringHeld):
                lines += scoring_lines(locale, names, event)
        turns.append((ended.seat, lines))
        steps = []
    mine = max((i for i, (who, _) in enumerate(turns) if who == seat), default=-1)
    out = [line for _, lines in turns[mine + 1 :] for line in lines]
    return out[-SUMMARY_LINES:]


# --- talking to Discord -----------------------------------------------------------------------


def place_of(bot: AlhambraBot, game: GameInfo) -> tuple[str, str]:
    """(server name, channel name) as the bot sees them, with ids as a fallback."""
    guild = bot.get_guild(game.guild_id) if game.guild_id else None
    channel = bot.get_channel(game.channel_id)
    server = guild.name if guild is not None else str(game.guild_id or "DM")
    name = getattr(channel, "name", None) or str(game.channel_id)
    return server, name


async def turn_link(bot: AlhambraBot, game: GameInfo) -> str:
    ref = await bot.service.message_ref(game.id, "turn")
    if ref is None:
        return jump_link(game.guild_id, game.channel_id)
    return jump_link(game.guild_id, ref[0], ref[1])


async def send_dm(bot: AlhambraBot, user_id: int, **kwargs: object) -> bool | None:
    """True if the DM went out; False if the user refuses DMs (remembered); None on another
    failure (Discord trouble: tried again at the next occasion)."""
    try:
        channel = await bot.create_dm(discord.Object(user_id))
        await channel.send(**kwargs)  # type: ignore[arg-type]
    except discord.Forbidden as exc:
        if exc.code == 50007:
            await bot.service.note_dm_blocked(user_id)
            log.info("user %s does not accept DMs: falling back to channel mentions", user_id)
            return False
        log.warning("DM to user %s refused: %s", user_id, exc)
        return None
    except discord.HTTPException as exc:
        log.warning("DM to user %s failed: %s", user_id, exc)
        return None
    return True


async def turn_started(bot: AlhambraBot, game_id: int, locale: str) -> None:
    """A turn message was just posted: arm the turn's reminder and deadline timers, and DM
    the player (in the background). Never raises: a notification must not break a move."""
    try:
        # one arming at a time per game, on this bot (a lock belongs to one event loop)
        locks: dict[int, asyncio.Lock] = bot.__dict__.setdefault("_turn_timer_locks", {})
        async with locks.setdefault(game_id, asyncio.Lock()):
            game = await schedule_turn(bot, game_id)
        player = game.current_player if game is not None else None
        if game is not None and player is not None and player.user_id is not None:
            bot.spawn(_turn_dm(bot, game, player, locale))
    except Exception:
        log.exception("could not arm the timers of game %s", game_id)


async def schedule_turn(bot: AlhambraBot, game_id: int) -> GameInfo | None:
    """Replace the game's timers by those of its current turn (none if a computer plays or the
    game is over). Idempotent: it reads the game as it is now."""
    service = bot.service
    game = await service.game(game_id)
    player = game.current_player if game.status == "active" else None
    timers: list = []
    if player is not None and player.user_id is not None and game.turn_started_at is not None:
        settings = await service.notify_settings(player.user_id)
        timers.append(("reminder", first_reminder_at(game.turn_started_at, settings), player.seat))
        due = deadline_at(game.turn_started_at, await service.deadline_rules(game_id), settings)
        if due is not None:
            timers.append(("deadline", due, player.seat))
    if game.is_open:
        await service.set_turn_timers(game_id, timers)
    wake = getattr(getattr(bot, "timers", None), "wake", None)
    if wake is not None:
        wake()
    return game if game.status == "active" else None


async def _turn_dm(bot: AlhambraBot, game: GameInfo, player: SeatInfo, locale: str) -> None:
    try:
        await send_turn_dm(bot, game, player, locale)
    except Exception:
        log.exception("turn DM of game %s failed", game.id)


async def send_turn_dm(bot: AlhambraBot, game: GameInfo, player: SeatInfo, locale: str) -> None:
    """The DM opening a turn: where, what happened since the player's last turn, the table."""
    service, user_id = bot.service, player.user_id
    assert user_id is not None and player.seat is not None
    now = service.clock.now()
    settings = await service.settings(user_id)
    prefs = await service.notify_settings(user_id)
    if not settings.dm_on_turn or dms_blocked(prefs, now) or on_vacation(prefs, now):
        return
    last = await service.last_action_at(game.id, user_id)
    if last is not None and now - last < LIVE_WINDOW:
        return  # playing live: the channel mention is enough
    current = await service.game(game.id)
    if current.current_seat != player.seat or current.turn_started_at != game.turn_started_at:
        return  # the turn is already over
    loc = settings.locale or locale
    server, channel = place_of(bot, game)
    names = names_by_seat(game)
    lines = [
        i18n.t(loc, "notify.turn", server=server, channel=channel, link=await turn_link(bot, game))
    ]
    rules = await service.deadline_rules(game.id)
    due = deadline_at(game.turn_started_at or now, rules, prefs)
    if due is not None:
        lines.append(i18n.t(loc, "notify.deadline", when=stamp(due)))
    since = since_last_turn(loc, names, await service.log(game.id), player.seat)
    if since:
        lines += ["", f"**{i18n.t(loc, 'notify.since')}**", *since]
    viewed = await service.view(game.id, user_id)
    labels = i18n.image_labels(loc)
    png = await asyncio.to_thread(render.render_table, viewed.view, names, labels=labels)
    await send_dm(
        bot,
        user_id,
        content="\n".join(lines)[:2000],
        file=discord.File(io.BytesIO(png), filename=TABLE_FILE),
        allowed_mentions=discord.AllowedMentions.none(),
    )


def _fresh(game: GameInfo, timer: TimerRow) -> SeatInfo | None:
    """The human whose turn the timer was set for, if that turn is still going."""
    if game.status != "active" or timer.seat is None or game.current_seat != timer.seat:
        return None
    if game.turn_started_at is not None and game.turn_started_at > timer.created_at:
        return None
    player = game.current_player
    return player if player is not None and player.user_id is not None else None


async def remind(bot: AlhambraBot, timer: TimerRow) -> None:
    """A reminder timer fired: one DM listing every game waiting on that user (or one channel
    mention per game and turn if they refuse DMs), then every such game's next reminder."""
    service = bot.service
    game = await service.game(timer.game_id)
    player = _fresh(game, timer)
    if player is None or player.user_id is None:
        return
    user_id = player.user_id
    now = service.clock.now()
    prefs = await service.notify_settings(user_id)
    later = deliverable(now, prefs)
    if prefs.last_reminder_at is not None and now - prefs.last_reminder_at < MIN_GAP:
        later = max(later, deliverable(prefs.last_reminder_at + MIN_GAP, prefs))
    if later > now:  # away, asleep, or just reminded: come back then
        await service.set_turn_timers(
            game.id, [("reminder", later, timer.seat)], kinds=("reminder",)
        )
        return
    waiting = [g.game for g in await service.games_waiting_on(user_id)]
    following = next_reminder_at(now, prefs)
    for other in waiting:
        seat = other.seat_of(user_id)
        await service.set_turn_timers(
            other.id, [("reminder", following, seat.seat if seat else None)], kinds=("reminder",)
        )
    if not waiting or not (await service.settings(user_id)).dm_reminders:
        return
    if not dms_blocked(prefs, now):
        sent = await send_dm(
            bot,
            user_id,
            content=await reminder_text(bot, user_id, waiting),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if sent:
            await service.note_reminded(user_id)
            return
        if sent is None:
            return  # Discord trouble: the next reminder tries again
    for other in waiting:  # refuses DMs: one mention per game and turn
        await nudge(bot, other, user_id)


async def reminder_text(bot: AlhambraBot, user_id: int, games: list[GameInfo]) -> str:
    settings = await bot.service.settings(user_id)
    loc = settings.locale or await bot.game_locale(games[0].id)
    lines = [i18n.t(loc, "notify.reminder", count=len(games))]
    for game in games:
        server, channel = place_of(bot, game)
        since = game.turn_started_at or game.updated_at
        line = i18n.t(
            loc,
            "notify.reminder_line",
            server=server,
            channel=channel,
            since=stamp(since),
            link=await turn_link(bot, game),
        )
        lines.append(line)
    return "\n".join(lines)[:2000]


async def nudge(bot: AlhambraBot, game: GameInfo, user_id: int) -> bool:
    """Mention the player in the game's channel, at most once per turn."""
    seat = game.seat_of(user_id)
    if seat is None or seat.seat is None or game.turn_started_at is None:
        return False
    key = int(game.turn_started_at.timestamp() * 1000)
    if not await bot.service.nudge_once(game.id, seat.seat, key):
        return False
    locale = await bot.game_locale(game.id)
    try:
        await bot.get_partial_messageable(game.channel_id).send(
            i18n.t(
                locale, "notify.nudge", mention=f"<@{user_id}>", link=await turn_link(bot, game)
            ),
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
    except discord.HTTPException as exc:
        log.warning("could not mention user %s in game %s: %s", user_id, game.id, exc)
        return False
    return True


async def recover(bot: AlhambraBot) -> None:
    """At start-up: games whose turn has no timers (the bot stopped between a move and arming
    them, or the game predates them) get their turn's timers."""
    for game_id in await bot.service.games_waiting_on_humans():
        if not await bot.service.timers_of(game_id):
            await schedule_turn(bot, game_id)
