"""Games that span days: `/alhambra mygames` (every game waiting on me, with links),
`/alhambra vote` (abandon the game, or hand a silent player's seat to a computer player), and
`/alhambra settings` (turn and reminder preferences). Parsing and words here, rules in the
service, timing in `turns`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord
from discord import app_commands
from discord.ext import commands

from ..config import MAX_UNDO_WINDOW_S
from ..core.errors import BadSetting, InvalidRequest, ServiceError
from ..core.records import TURN_NOTICES, GameInfo, NotifySettings, UserSettings
from ..text import i18n
from ..text.present import echo
from ..text.settings import (
    OFF_WORDS,
    VacationTooLong,
    parse_quiet_hours,
    parse_vacation_end,
    quiet_text,
    time_zone_names,
)
from ..turns.policy import FIRST_REMINDER, REPEAT_REMINDER
from .announcer import retire
from .context import (
    BaseBot,
    bot_of,
    channel_locale,
    current_game,
    handling,
    note_choice,
    reply,
    user_locale,
)
from .markup import inert, jump_link, place_of, stamp, turn_link
from .translator import T

HOUR = 3600
Choices = list[app_commands.Choice[str]]


# --- /alhambra settings -------------------------------------------------------------------------


async def save_settings(
    interaction: discord.Interaction,
    *,
    auto_end_turn: bool | None = None,
    dms: bool | None = None,
    first_reminder: int | None = None,
    repeat: int | None = None,
    quiet_hours: str | None = None,
    timezone: str | None = None,
    vacation_until: str | None = None,
    language: str | None = None,
    undo_window: int | None = None,
    notify: str | None = None,
) -> str:
    """Check every option first (a bad one changes nothing), save, re-arm the timers of the
    user's waiting games, and return the reply listing the settings now in force."""
    locale = user_locale(interaction)
    user_id = interaction.user.id
    bot = bot_of(interaction)
    services = bot.services
    current = await services.people.notify_settings(user_id)
    changes: dict[str, Any] = {}
    if first_reminder is not None:
        changes["first_reminder_s"] = first_reminder * HOUR
    if repeat is not None:
        changes["repeat_reminder_s"] = repeat * HOUR
    if quiet_hours is not None:
        try:
            changes["quiet_hours"] = parse_quiet_hours(quiet_hours)
        except ValueError:
            raise BadSetting(
                i18n.t(locale, "error.bad_quiet_hours", text=echo(quiet_hours))
            ) from None
    zone = current.time_zone
    if timezone is not None:
        typed = str(timezone).strip()
        zone = None if typed.lower() in OFF_WORDS else typed
        if zone is not None:
            try:
                ZoneInfo(zone)
            except (ZoneInfoNotFoundError, ValueError, OSError):
                raise BadSetting(
                    i18n.t(locale, "error.bad_time_zone", text=echo(timezone))
                ) from None
        changes["time_zone"] = zone
    if vacation_until is not None:
        now = services.clock.now()
        settings = NotifySettings(user_id, time_zone=zone)
        try:
            away = parse_vacation_end(vacation_until, settings, now=now)
        except VacationTooLong:
            raise BadSetting(
                i18n.t(locale, "error.date_too_far", text=echo(vacation_until))
            ) from None
        except ValueError:
            raise BadSetting(i18n.t(locale, "error.bad_date", text=echo(vacation_until))) from None
        if away is not None and away <= now:
            raise BadSetting(i18n.t(locale, "error.date_passed", text=echo(vacation_until)))
        changes["vacation_until"] = away
    chosen: dict[str, Any] = {}
    if language is not None:  # a language of ours, or back to the Discord client's
        if language != FOLLOW_DISCORD and language not in i18n.SUPPORTED:
            raise InvalidRequest()
        chosen["locale"] = None if language == FOLLOW_DISCORD else language
    if undo_window is not None and auto_end_turn is None:
        auto_end_turn = True  # choosing a window is choosing that the turn ends by itself
    saved = await services.people.update_settings(
        user_id,
        auto_end_turn=auto_end_turn,
        dm_on_turn=dms,
        dm_reminders=dms,
        undo_window_s=undo_window,
        turn_notice=notify,
        **chosen,
    )
    if changes or dms is not None:
        prefs = await services.people.update_notify_settings(user_id, **changes)
        for waiting in await services.people.games_waiting_on(user_id):
            await bot.reminders.schedule_turn(waiting.game.id)
    else:
        prefs = current
    if language is not None:  # the reply, and the next ones, in a chosen Persian at once
        note_choice(bot, interaction, saved.locale)
        locale = user_locale(interaction)
    default_window = int(bot.flow.undo_window.total_seconds())
    text = settings_text(locale, saved, prefs, default_window)
    return text + "\n" + language_text(locale, await services.people.settings(user_id))


#: The `language` choice that goes back to the language of the user's Discord client.
FOLLOW_DISCORD = "discord"


def language_text(locale: str, settings: UserSettings) -> str:
    """Which language the user's DMs are in, and whether they chose it."""
    if settings.locale is not None:
        name = i18n.LANGUAGE_NAMES.get(settings.locale, settings.locale)
        return i18n.t(locale, "reply.settings_language", language=name)
    seen = settings.discord_locale or locale
    name = i18n.LANGUAGE_NAMES.get(seen, seen)
    return i18n.t(locale, "reply.settings_language_auto", language=name)


def settings_text(
    locale: str, saved: UserSettings, prefs: NotifySettings, default_window: int
) -> str:
    """The settings now in force, in sentences: how a turn ends, how the user is told it is
    their turn, then their reminders."""

    def word(flag: bool) -> str:
        return i18n.t(locale, "word.yes" if flag else "word.no")

    window = default_window if saved.undo_window_s is None else saved.undo_window_s
    if not saved.auto_end_turn:
        ending = i18n.t(locale, "reply.end_turn.ask")
    elif window == 0:
        ending = i18n.t(locale, "reply.end_turn.now")
    else:
        ending = i18n.t(locale, "reply.end_turn.after", count=window)
    notice = i18n.t(locale, f"reply.notice.{saved.turn_notice}")

    first = (prefs.first_reminder_s or int(FIRST_REMINDER.total_seconds())) // HOUR
    again = (prefs.repeat_reminder_s or int(REPEAT_REMINDER.total_seconds())) // HOUR
    away = prefs.vacation_until
    return "\n".join(
        [
            i18n.t(locale, "reply.settings", ending=ending, notice=notice),
            i18n.t(
                locale,
                "reply.settings_reminders",
                dms=word(saved.dm_reminders),
                first=first,
                repeat=again,
                quiet=quiet_text(prefs) or word(False),
                zone=prefs.time_zone or "UTC",
                vacation=stamp(away, "D") if away is not None else word(False),
            ),
        ]
    )


class AsyncCommands(commands.Cog):
    """Part of the `/alhambra` group cog (`group.AlhambraCog`)."""

    bot: BaseBot

    @app_commands.command(name=T("cmd.settings.name"), description=T("cmd.settings.description"))
    @app_commands.describe(
        auto_end_turn=T("cmd.settings.auto_end_turn.description"),
        undo_window=T("cmd.settings.undo_window.description"),
        notify=T("cmd.settings.notify.description"),
        dms=T("cmd.settings.dms.description"),
        first_reminder=T("cmd.settings.first_reminder.description"),
        repeat=T("cmd.settings.repeat.description"),
        quiet_hours=T("cmd.settings.quiet_hours.description"),
        timezone=T("cmd.settings.timezone.description"),
        vacation_until=T("cmd.settings.vacation_until.description"),
        language=T("cmd.settings.language.description"),
    )
    @app_commands.choices(
        notify=[
            app_commands.Choice(name=T(f"choice.notify.{notice}"), value=notice)
            for notice in TURN_NOTICES
        ],
        language=[
            *(app_commands.Choice(name=i18n.LANGUAGE_NAMES[c], value=c) for c in i18n.SUPPORTED),
            app_commands.Choice(name=T("choice.language.discord"), value=FOLLOW_DISCORD),
        ],
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        auto_end_turn: bool | None = None,
        undo_window: app_commands.Range[int, 0, MAX_UNDO_WINDOW_S] | None = None,
        notify: str | None = None,
        dms: bool | None = None,
        first_reminder: app_commands.Range[int, 1, 336] | None = None,
        repeat: app_commands.Range[int, 1, 336] | None = None,
        quiet_hours: str | None = None,
        timezone: str | None = None,
        vacation_until: str | None = None,
        language: str | None = None,
    ) -> None:
        """Turn and reminder preferences."""
        async with handling(interaction, "settings"):
            text = await save_settings(
                interaction,
                auto_end_turn=auto_end_turn,
                undo_window=undo_window,
                notify=notify,
                dms=dms,
                first_reminder=first_reminder,
                repeat=repeat,
                quiet_hours=quiet_hours,
                timezone=timezone,
                vacation_until=vacation_until,
                language=language,
            )
            await reply(interaction, text)

    @settings.autocomplete("timezone")
    async def _settings_timezone(self, interaction: discord.Interaction, current: str) -> Choices:
        return [app_commands.Choice(name=n, value=n) for n in time_zone_names(current)]

    @app_commands.command(name=T("cmd.mygames.name"), description=T("cmd.mygames.description"))
    async def mygames(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "mygames"):
            locale = user_locale(interaction)
            mine = await self.bot.services.people.my_games(interaction.user.id)
            waiting = [g for g in mine if g.waiting]
            lines = [
                f"**{i18n.t(locale, 'mygames.waiting', count=len(waiting))}**"
                if waiting
                else i18n.t(locale, "mygames.none")
            ]
            for item in waiting:
                lines.append(await self._waiting_line(locale, item.game))
            others = [g for g in mine if not g.waiting]
            if others:
                lines += ["", f"**{i18n.t(locale, 'mygames.others')}**"]
                for item in others:
                    server, channel = place_of(self.bot, item.game)
                    status = i18n.t(locale, f"mygames.status.{item.game.status}")
                    link = jump_link(item.game.guild_id, item.game.channel_id)
                    lines.append(
                        i18n.t(
                            locale,
                            "mygames.line",
                            server=server,
                            channel=channel,
                            status=status,
                            link=link,
                        )
                    )
            await reply(interaction, "\n".join(lines)[:2000])

    async def _waiting_line(self, locale: str, game: GameInfo) -> str:
        server, channel = place_of(self.bot, game)
        timers = await self.bot.services.schedule.timers_of(game.id)
        due = next((t.due_at for t in timers if t.kind == "deadline"), None)
        since: datetime = game.turn_started_at or game.updated_at
        text = i18n.t(
            locale,
            "mygames.waiting_line",
            server=server,
            channel=channel,
            since=stamp(since),
            link=turn_link(game, await self.bot.services.people.message_ref(game.id, "turn")),
        )
        if due is not None:
            text += " " + i18n.t(locale, "mygames.deadline", when=stamp(due))
        return text

    @app_commands.command(name=T("cmd.vote.name"), description=T("cmd.vote.description"))
    @app_commands.describe(
        motion=T("cmd.vote.motion.description"), player=T("cmd.vote.player.description")
    )
    @app_commands.choices(
        motion=[
            app_commands.Choice(name=T("choice.motion.abandon"), value="abandon"),
            app_commands.Choice(name=T("choice.motion.hand_over"), value="hand_over"),
        ]
    )
    async def vote(
        self, interaction: discord.Interaction, motion: str, player: str | None = None
    ) -> None:
        async with handling(interaction, "vote"):
            mine = user_locale(interaction)
            game = await current_game(interaction)
            seat = None
            if motion == "hand_over":
                wanted = str(player or "").strip().lower()
                if not wanted:
                    raise BadSetting(i18n.t(mine, "error.vote_needs_player"))
                names = game.names
                seat = next((s for s, n in enumerate(names) if n.lower() == wanted), None)
                if seat is None:
                    raise BadSetting(i18n.t(mine, "error.unknown_player", name=echo(player)))
            outcome = await self.bot.services.play.vote(game.id, interaction.user.id, motion, seat)
            locale = channel_locale(interaction)
            voter = inert(interaction.user.display_name)
            quiet = discord.AllowedMentions.none()
            # abandoning a rated game needs every player (`services.votes_needed`): say so
            rated_abandon = outcome.target is None and outcome.game.rated
            if outcome.passed and outcome.target is None:
                said = "vote.abandoned_rated" if rated_abandon else "vote.abandoned"
                await interaction.response.send_message(
                    i18n.t(locale, said), allowed_mentions=quiet
                )
                await self._retire_turn_message(game.id)
            elif outcome.passed and outcome.target is not None:
                said = "vote.handed_over_rated" if outcome.game.rated else "vote.handed_over"
                await interaction.response.send_message(
                    i18n.t(locale, said, name=inert(outcome.target.name)),
                    allowed_mentions=quiet,
                )
                await self.bot.flow.seat_handed_over(game.id, locale)
            else:
                what = (
                    i18n.t(locale, "vote.motion.abandon")
                    if outcome.target is None
                    else i18n.t(locale, "vote.motion.hand_over", name=inert(outcome.target.name))
                )
                text = i18n.t(
                    locale,
                    "vote.recorded",
                    name=voter,
                    motion=what,
                    votes=outcome.votes,
                    needed=outcome.needed,
                )
                if rated_abandon:
                    text += " " + i18n.t(locale, "vote.rule.rated_abandon")
                await interaction.response.send_message(text, allowed_mentions=quiet)

    @vote.autocomplete("player")
    async def _vote_player(self, interaction: discord.Interaction, current: str) -> Choices:
        try:
            game = await current_game(interaction)
        except ServiceError:
            return []
        return [
            app_commands.Choice(name=s.name[:100], value=s.name[:100])
            for s in game.by_seat
            if not s.is_computer
            and s.user_id != interaction.user.id
            and current.lower() in s.name.lower()
        ][:25]

    async def _retire_turn_message(self, game_id: int) -> None:
        ref = await self.bot.services.people.message_ref(game_id, "turn")
        if ref is None:
            return
        await self.bot.services.people.forget_message(game_id, "turn")
        await retire(self.bot, ref)
