"""Lobby commands: `/alhambra new, join, leave, add-bot, start, status, abandon, rules`. Each
turns an interaction into one service call and the result into messages (the lobby message and
its buttons are `lobby_message`'s).

Where a new game lives: by default in a public thread of its own, so the channel keeps one line
per game (who opened it, the options, "join in the thread") and the thread gets everything
else. The game's `channel_id` is the thread's id: a thread is a channel to Discord and to the
store (one open game per channel), so a channel can have several games at once, one per
thread. Without the permissions a thread needs, inside a thread already, or with
`thread:False`, the game is played right where the command was used, as it always was.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Final, cast

import discord
from discord import app_commands
from discord.ext import commands

from ..core.errors import NoGameHere
from ..core.records import (
    STAND_IN_LEVELS,
    DeadlinePolicy,
    DeadlineRules,
    GameInfo,
    VacationPolicy,
)
from ..core.services import check_new_game, clean_name
from ..text import i18n
from ..text.present import bounded, leaders_line, player_name, player_names, points_table
from .context import (
    BaseBot,
    acknowledge,
    channel_id_of,
    current_game,
    game_language,
    handling,
    note_game,
    reply,
    user_locale,
)
from .lobby_message import announce_start, lobby_embed, lobby_view, refresh_lobby
from .markup import inert, jump_link, public_names, ratings_line
from .pictures import POINTS_FILE, points_file, table_file
from .sight import view_channel
from .translator import T

log = logging.getLogger("alhambra.lobby")

RULES_COLOUR = discord.Colour.from_rgb(196, 120, 48)
#: Discord refuses an embed field value longer than this.
FIELD_LIMIT = 1024
#: Discord refuses a thread name longer than this.
THREAD_NAME_LIMIT = 100
#: A game's thread is archived after a week without a message (Discord's longest choice); the
#: next turn message brings it back.
THREAD_ARCHIVE_MINUTES: Final = 10080


def missing_for_thread(permissions: discord.Permissions) -> str | None:
    """The catalogue key saying which permission the bot lacks for a game thread in this
    channel (creating a public thread, and posting in it), or None if it has both."""
    create, send = permissions.create_public_threads, permissions.send_messages_in_threads
    if create and send:
        return None
    if not create and not send:
        return "thread.in_channel.both"
    return "thread.in_channel.send" if create else "thread.in_channel.create"


def opening_line(locale: str, host: str, holes: str, max_players: int, hours: int) -> str:
    """The one line a game in a thread leaves in its channel: who opened it, its options in a
    few words, and where to join."""
    key = f"choice.deadline.{hours}"
    if not hours:
        deadline = i18n.t(locale, "thread.option.no_deadline")
    else:
        length = i18n.t(locale, key) if i18n.has(key) else f"{hours} h"
        deadline = i18n.t(locale, "thread.option.deadline", deadline=length)
    options = i18n.join(
        locale,
        [
            i18n.t(locale, f"thread.option.{holes}"),
            i18n.t(locale, "thread.option.players", max=max_players),
            deadline,
        ],
    )
    return i18n.t(locale, "thread.opening", host=inert(host), options=options)


def thread_name(locale: str, host: str) -> str:
    """The game thread's name ("Alhambra · ann"): a name cannot ping, but it is shown inert
    all the same, and cut to what Discord accepts."""
    return i18n.t(locale, "thread.name", host=inert(host))[:THREAD_NAME_LIMIT]


async def open_thread(
    interaction: discord.Interaction, opening: str, name: str
) -> tuple[discord.Thread | None, str | None]:
    """Post the opening line as the answer to the command and start a public thread from it.

    Returns the thread, or None and the catalogue key of why there is none (Discord refused:
    a permission taken away since the command was sent, or Discord failing). The opening line
    stays posted either way: the caller turns it into the lobby or takes it back."""
    await interaction.response.send_message(
        opening, allowed_mentions=discord.AllowedMentions.none()
    )
    message = await interaction.original_response()
    try:
        thread = await message.create_thread(
            name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
        )
    except discord.Forbidden:
        return None, "thread.in_channel.create"
    except discord.HTTPException:
        log.warning("could not open a game thread in channel %s", interaction.channel_id)
        return None, "thread.in_channel.failed"
    return thread, None


async def take_back(interaction: discord.Interaction, thread: discord.Thread | None) -> None:
    """Remove what was posted for a game that could not be opened after all: the thread (if
    the bot may delete it) and the opening line. Never raises: the user is told of the
    failure that led here."""
    if thread is not None:
        with contextlib.suppress(discord.HTTPException):
            await thread.delete()
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()


class LobbyCommands(commands.Cog):
    """Part of the `/alhambra` group cog (`group.AlhambraCog`)."""

    bot: BaseBot

    @app_commands.command(name=T("cmd.new.name"), description=T("cmd.new.description"))
    @app_commands.describe(
        holes=T("cmd.new.holes.description"),
        max_players=T("cmd.new.max_players.description"),
        deadline=T("cmd.new.deadline.description"),
        deadline_policy=T("cmd.new.deadline_policy.description"),
        missed_deadlines=T("cmd.new.missed_deadlines.description"),
        stand_in=T("cmd.new.stand_in.description"),
        vacation=T("cmd.new.vacation.description"),
        thread=T("cmd.new.thread.description"),
        rated=T("cmd.new.rated.description"),
        language=T("cmd.new.language.description"),
    )
    @app_commands.choices(
        deadline=[
            app_commands.Choice(name=T(f"choice.deadline.{hours}"), value=hours)
            for hours in (0, 24, 48, 72, 168)
        ]
    )
    @app_commands.choices(
        holes=[
            app_commands.Choice(name=T("choice.holes.classic"), value="classic"),
            app_commands.Choice(name=T("choice.holes.strict"), value="strict"),
        ],
        deadline_policy=[
            app_commands.Choice(name=T(f"choice.policy.{policy}"), value=policy)
            for policy in ("computer", "skip", "wait")
        ],
        stand_in=[
            app_commands.Choice(name=T(f"choice.level.{level}"), value=level)
            for level in STAND_IN_LEVELS
        ],
        vacation=[
            app_commands.Choice(name=T(f"choice.vacation.{policy}"), value=policy)
            for policy in ("pause", "continue")
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        holes: str = "classic",
        max_players: app_commands.Range[int, 2, 6] = 6,
        deadline: int = 0,
        deadline_policy: str = "computer",
        missed_deadlines: app_commands.Range[int, 0, 20] = 3,
        stand_in: str = "normal",
        vacation: str = "pause",
        thread: bool = True,
        rated: bool = False,
        language: str | None = None,
    ) -> None:
        async with handling(interaction, "new"):
            rules = DeadlineRules(
                turn_deadline_s=deadline * 3600 or None,
                # the choices are the policies; check_deadline_rules refuses anything else
                policy=cast(DeadlinePolicy, deadline_policy),
                missed_limit=missed_deadlines or None,
                vacation_policy=cast(VacationPolicy, vacation),
                stand_in=stand_in,  # checked with the rest: a forged level is refused
            )
            # everything the service could refuse is refused before anything is posted
            channel_id = channel_id_of(interaction)
            host = clean_name(interaction.user.display_name)
            check_new_game({"holes": holes}, max_players, rules)
            locale = game_language(interaction, language)
            home: discord.Thread | None = None
            why: str | None = None  # why a game meant for a thread is in the channel
            # no thread inside a thread, nor where Discord has none (a voice channel's chat)
            if thread and isinstance(interaction.channel, discord.TextChannel):
                why = missing_for_thread(interaction.app_permissions)
                if why is None:
                    opening = opening_line(locale, host, holes, max_players, deadline)
                    home, why = await open_thread(interaction, opening, thread_name(locale, host))
            if home is None:
                await self._lobby_here(
                    interaction, channel_id, holes, max_players, rules, rated, locale
                )
            else:
                await self._lobby_in(interaction, home, holes, max_players, rules, rated, locale)
            if home is not None:
                link = jump_link(interaction.guild_id, home.id)
                text = i18n.t(user_locale(interaction), "thread.opened", link=link)
                await interaction.followup.send(text, ephemeral=True)
            elif why is not None:
                await interaction.followup.send(
                    i18n.t(user_locale(interaction), why), ephemeral=True
                )

    @new.autocomplete("language")
    async def _new_language(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The languages a game can be played in, each by its own name, as the host types
        (offered rather than fixed choices: `/alhambra` is near Discord's 4,000 characters;
        `game_language` refuses anything else)."""
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=name, value=code)
            for code, name in i18n.LANGUAGE_NAMES.items()
            if typed in name.lower() or typed in code.lower()
        ]

    async def _create(
        self,
        interaction: discord.Interaction,
        channel_id: int,
        holes: str,
        max_players: int,
        rules: DeadlineRules,
        rated: bool,
        locale: str,
    ) -> GameInfo:
        # who may look back at the game from elsewhere: who may view the command's channel,
        # the parent of the game's new thread; or, for a game where the command was used, who
        # may view that channel (a public thread's parent: `view_channel`)
        view = interaction.channel_id
        if channel_id == interaction.channel_id and interaction.channel is not None:
            view = view_channel(interaction.channel)
        game = await self.bot.services.lobby.create_game(
            channel_id=channel_id,
            view_channel_id=view,
            guild_id=interaction.guild_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            options={"holes": holes},
            max_players=max_players,
            deadline_rules=rules,
            rated=rated,
            locale=locale,
        )
        note_game(interaction, game.id, game.version)
        return game

    async def _lobby_here(
        self,
        interaction: discord.Interaction,
        channel_id: int,
        holes: str,
        max_players: int,
        rules: DeadlineRules,
        rated: bool,
        locale: str,
    ) -> GameInfo:
        """The game in the channel the command was used in, its lobby the command's answer
        (the opening line turned into it, if one was posted for a thread that failed)."""
        try:
            game = await self._create(
                interaction, channel_id, holes, max_players, rules, rated, locale
            )
        except Exception:
            if interaction.response.is_done():  # the channel has a game already, say
                await take_back(interaction, None)
            raise
        embed, view = lobby_embed(game, locale, rules), lobby_view(game, locale)
        quiet = discord.AllowedMentions.none()
        if interaction.response.is_done():
            message: discord.Message = await interaction.edit_original_response(
                content=None, embed=embed, view=view, allowed_mentions=quiet
            )
        else:
            await interaction.response.send_message(embed=embed, view=view, allowed_mentions=quiet)
            message = await interaction.original_response()
        await self.bot.services.people.remember_message(game.id, "lobby", channel_id, message.id)
        return game

    async def _lobby_in(
        self,
        interaction: discord.Interaction,
        home: discord.Thread,
        holes: str,
        max_players: int,
        rules: DeadlineRules,
        rated: bool,
        locale: str,
    ) -> GameInfo:
        """The game in its new thread, with its lobby posted there. If either fails, the game
        is closed and the thread and opening line taken back: no game is left bound to a thread
        nobody can find, nor a thread without its game."""
        try:
            game = await self._create(
                interaction, home.id, holes, max_players, rules, rated, locale
            )
        except Exception:
            await take_back(interaction, home)
            raise
        try:
            message = await home.send(
                embed=lobby_embed(game, locale, rules),
                view=lobby_view(game, locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            try:
                await self.bot.services.lobby.abandon(game.id, interaction.user.id)
            except Exception:
                log.exception("could not close game %s after its lobby failed", game.id)
            await take_back(interaction, home)
            raise
        await self.bot.services.people.remember_message(game.id, "lobby", home.id, message.id)
        return game

    @app_commands.command(name=T("cmd.join.name"), description=T("cmd.join.description"))
    async def join(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "join"):
            game = await current_game(interaction)
            user = interaction.user
            game = await self.bot.services.lobby.join(game.id, user.id, user.display_name)
            await reply(interaction, i18n.t(user_locale(interaction), "reply.joined"))
            await refresh_lobby(self.bot, game, game.locale)

    @app_commands.command(name=T("cmd.leave.name"), description=T("cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "leave"):
            game = await current_game(interaction)
            game = await self.bot.services.lobby.leave(game.id, interaction.user.id)
            closed = game.status != "lobby"
            key = "reply.left_closed" if closed else "reply.left"
            await reply(interaction, i18n.t(user_locale(interaction), key))
            await refresh_lobby(self.bot, game, game.locale, "lobby.closed" if closed else None)

    @app_commands.command(name=T("cmd.add_bot.name"), description=T("cmd.add_bot.description"))
    @app_commands.describe(level=T("cmd.add_bot.level.description"))
    @app_commands.choices(
        level=[
            app_commands.Choice(name=T(f"choice.level.{level}"), value=level)
            for level in ("random", "easy", "normal", "hard", "expert")
        ]
    )
    async def add_bot(self, interaction: discord.Interaction, level: str = "easy") -> None:
        async with handling(interaction, "add-bot"):
            game = await current_game(interaction)
            game = await self.bot.services.lobby.add_computer(game.id, interaction.user.id, level)
            locale = game.locale
            added = player_name(locale, game.seats[-1])
            await interaction.response.send_message(
                i18n.t(locale, "reply.bot_added", name=added),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await refresh_lobby(self.bot, game, locale)

    @app_commands.command(name=T("cmd.start.name"), description=T("cmd.start.description"))
    async def start(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "start"):
            game = await current_game(interaction)
            result = await self.bot.services.lobby.start(game.id, interaction.user.id)
            await interaction.response.defer(thinking=True)
            await refresh_lobby(self.bot, result.game, result.game.locale, "lobby.started")
            await announce_start(interaction, result)

    @app_commands.command(name=T("cmd.status.name"), description=T("cmd.status.description"))
    async def status(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "status"):
            locale = user_locale(interaction)
            try:
                game = await current_game(interaction)
            except NoGameHere:
                await reply(interaction, i18n.t(locale, "status.none"))
                return
            if game.status == "lobby":
                rules = await self.bot.services.schedule.deadline_rules(game.id)
                await reply(interaction, embed=lobby_embed(game, locale, rules))
                return
            result = await self.bot.services.play.view(game.id, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            names = player_names(locale, game)
            view = result.view
            scores = i18n.join(
                locale,
                (
                    i18n.t(locale, "status.score", name=n, score=s)
                    for n, s in zip(names, view.scores, strict=True)
                ),
            )
            current = names[view.current_seat] if view.current_seat is not None else "-"
            text = i18n.t(locale, "status.turn", turn=view.turn_number, name=current, scores=scores)
            if leaders := leaders_line(locale, public_names(game, locale), view):
                text += "\n" + leaders
            picture = await table_file(view, names, locale)
            await interaction.followup.send(bounded(text), file=picture, ephemeral=True)

    @app_commands.command(name=T("cmd.abandon.name"), description=T("cmd.abandon.description"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "abandon"):
            game = await current_game(interaction)
            manager = bool(interaction.permissions and interaction.permissions.manage_guild)
            was_lobby = game.status == "lobby"
            game = await self.bot.services.lobby.abandon(
                game.id, interaction.user.id, is_manager=manager
            )
            locale = game.locale
            forfeited = (
                game.rated
                and interaction.user.id in await self.bot.services.archive.forfeits(game.id)
            )
            said = "reply.abandoned_rated" if forfeited else "reply.abandoned"
            text = i18n.t(locale, said, name=inert(interaction.user.display_name))
            # a rated game that ran: how it moved the ratings, as results say
            rated = game.rated and not was_lobby
            changes = await self.bot.services.archive.rating_changes(game.id) if rated else []
            if changes:
                text += "\n" + ratings_line(locale, game, changes)
            await interaction.response.send_message(
                text, allowed_mentions=discord.AllowedMentions.none()
            )
            if was_lobby:
                await refresh_lobby(self.bot, game, locale, "lobby.closed")

    @app_commands.command(name=T("cmd.rules.name"), description=T("cmd.rules.description"))
    async def rules(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "rules"):
            locale = user_locale(interaction)
            embed = discord.Embed(
                title=i18n.t(locale, "rules.title"),
                description=i18n.t(locale, "rules.body"),
                colour=RULES_COLOUR,
            )
            embed.add_field(
                name=i18n.t(locale, "rules.points.title"),
                value="\n".join(points_table(locale))[:FIELD_LIMIT],
                inline=False,
            )
            embed.add_field(
                name=i18n.t(locale, "rules.plans.title"),
                value=i18n.t(locale, "rules.plans.body"),
                inline=False,
            )
            embed.set_image(url=f"attachment://{POINTS_FILE}")
            await acknowledge(interaction)
            await reply(interaction, embed=embed, file=await points_file(locale))
