"""Games that span days: `/alhambra mygames` (every game waiting on me, with links),
`/alhambra vote` (abandon the game, or hand a silent player's seat to a computer player), and
`/alhambra settings` (turn and reminder preferences: read and checked in the core, from the
options as they came). Words here and in `text`, rules in the services, timing in `turns`.
"""

from __future__ import annotations

from datetime import datetime

import discord
from discord import app_commands
from discord.ext import commands

from ..config import MAX_UNDO_WINDOW_S
from ..core.errors import BadSetting, ServiceError
from ..core.preferences import (
    FOLLOW_DISCORD,
    MAX_REMINDER_HOURS,
    SETTINGS,
    PreferenceChanges,
    rearms,
)
from ..core.records import GameInfo
from ..text import i18n
from ..text.present import echo
from ..text.settings import preferences_text, time_zone_names
from .announcer import retire
from .context import (
    BaseBot,
    bot_of,
    current_game,
    handling,
    note_choice,
    reply,
    user_locale,
)
from .markup import inert, jump_link, place_of, ratings_line, stamp, turn_link
from .translator import T

Choices = list[app_commands.Choice[str]]


# --- /alhambra settings -------------------------------------------------------------------------


async def save_settings(interaction: discord.Interaction, changes: PreferenceChanges) -> str:
    """Save the options given (the core reads and checks them: a bad one changes nothing),
    re-arm the timers of the user's waiting games if their reminders changed, and return the
    reply listing the settings now in force."""
    user_id = interaction.user.id
    bot = bot_of(interaction)
    people = bot.services.people
    saved = await people.update_preferences(user_id, changes)
    if rearms(changes):
        for waiting in await people.games_waiting_on(user_id):
            await bot.reminders.schedule_turn(waiting.game.id)
    if changes.get("language") is not None:  # the reply, and the next ones, in Persian at once
        note_choice(bot, interaction, saved.language)
    seen = (await people.notes(user_id)).discord_locale
    window = int(bot.flow.undo_window.total_seconds())
    return preferences_text(user_locale(interaction), saved, undo_default_s=window, seen=seen)


class AsyncCommands(commands.Cog):
    """Part of the `/alhambra` group cog (`group.AlhambraCog`)."""

    bot: BaseBot

    @app_commands.command(name=T("cmd.settings.name"), description=T("cmd.settings.description"))
    @app_commands.describe(**{s.name: T(f"cmd.settings.{s.name}.description") for s in SETTINGS})
    @app_commands.choices(
        **{
            s.name: [
                app_commands.Choice(name=T(f"choice.{s.name}.{value}"), value=value)
                for value in s.choices
            ]
            for s in SETTINGS
            if s.choices
        },
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
        first_reminder: app_commands.Range[int, 1, MAX_REMINDER_HOURS] | None = None,
        repeat: app_commands.Range[int, 1, MAX_REMINDER_HOURS] | None = None,
        quiet_hours: str | None = None,
        timezone: str | None = None,
        vacation_until: str | None = None,
        language: str | None = None,
    ) -> None:
        """Turn and reminder preferences: each option given goes to the core as it came."""
        async with handling(interaction, "settings"):
            changes = PreferenceChanges(
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
            await reply(interaction, await save_settings(interaction, changes))

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
        now = self.bot.services.clock.now()
        text = i18n.t(
            locale,
            "mygames.waiting_line",
            server=server,
            channel=channel,
            since=stamp(locale, since, now),
            link=turn_link(game, await self.bot.services.people.message_ref(game.id, "turn")),
        )
        if due is not None:
            text += " " + i18n.t(locale, "mygames.deadline", when=stamp(locale, due, now))
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
            locale = game.locale
            voter = inert(interaction.user.display_name)
            quiet = discord.AllowedMentions.none()
            # abandoning a rated game needs every player (`services.votes_needed`): say so
            rated_abandon = outcome.target is None and outcome.game.rated
            if outcome.passed and outcome.target is None:
                said = "vote.abandoned_rated" if rated_abandon else "vote.abandoned"
                text = i18n.t(locale, said)
                # the seats lost before count: how they moved the ratings
                archive = self.bot.services.archive
                changes = await archive.rating_changes(game.id) if rated_abandon else []
                if changes:
                    text += "\n" + ratings_line(locale, outcome.game, changes)
                await interaction.response.send_message(text, allowed_mentions=quiet)
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
