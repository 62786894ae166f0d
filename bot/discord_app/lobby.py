"""Lobby commands: `/alhambra new, join, leave, add-bot, start, status, abandon, rules`. Each
turns an interaction into one service call and the result into messages (the lobby message and
its buttons are `lobby_message`'s)."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands
from discord.ext import commands

from ..core.errors import NoGameHere
from ..core.records import DeadlinePolicy, DeadlineRules, VacationPolicy
from ..core.service import check_deadline_rules
from ..text import i18n
from ..text.present import leaders_line, player_name, player_names, points_table
from .context import (
    BaseBot,
    bounded,
    channel_id_of,
    channel_locale,
    current_game,
    handling,
    reply,
    user_locale,
)
from .lobby_message import announce_start, lobby_embed, lobby_view, refresh_lobby
from .markup import inert, public_names
from .pictures import table_file
from .translator import T

RULES_COLOUR = discord.Colour.from_rgb(196, 120, 48)
#: Discord refuses an embed field value longer than this.
FIELD_LIMIT = 1024


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
        vacation=T("cmd.new.vacation.description"),
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
        vacation: str = "pause",
    ) -> None:
        async with handling(interaction, "new"):
            rules = DeadlineRules(
                turn_deadline_s=deadline * 3600 or None,
                # the choices are the policies; check_deadline_rules refuses anything else
                policy=cast(DeadlinePolicy, deadline_policy),
                missed_limit=missed_deadlines or None,
                vacation_policy=cast(VacationPolicy, vacation),
            )
            check_deadline_rules(rules)  # before anything is created
            channel_id = channel_id_of(interaction)
            game = await self.bot.service.create_game(
                channel_id=channel_id,
                guild_id=interaction.guild_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                options={"holes": holes},
                max_players=max_players,
                deadline_rules=rules,
            )
            interaction.extras["game_id"] = game.id
            locale = channel_locale(interaction)
            await interaction.response.send_message(
                embed=lobby_embed(game, locale),
                view=lobby_view(game, locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            message = await interaction.original_response()
            await self.bot.service.remember_message(game.id, "lobby", channel_id, message.id)
            await self.bot.service.set_game_locale(game.id, locale)

    @app_commands.command(name=T("cmd.join.name"), description=T("cmd.join.description"))
    async def join(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "join"):
            game = await current_game(interaction)
            user = interaction.user
            game = await self.bot.service.join(game.id, user.id, user.display_name)
            await reply(interaction, i18n.t(user_locale(interaction), "reply.joined"))
            await refresh_lobby(self.bot, game, channel_locale(interaction))

    @app_commands.command(name=T("cmd.leave.name"), description=T("cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "leave"):
            game = await current_game(interaction)
            game = await self.bot.service.leave(game.id, interaction.user.id)
            closed = game.status != "lobby"
            key = "reply.left_closed" if closed else "reply.left"
            await reply(interaction, i18n.t(user_locale(interaction), key))
            await refresh_lobby(
                self.bot, game, channel_locale(interaction), "lobby.closed" if closed else None
            )

    @app_commands.command(name=T("cmd.add_bot.name"), description=T("cmd.add_bot.description"))
    @app_commands.describe(level=T("cmd.add_bot.level.description"))
    @app_commands.choices(
        level=[
            app_commands.Choice(name=T(f"choice.level.{level}"), value=level)
            for level in ("random", "easy", "normal", "hard")
        ]
    )
    async def add_bot(self, interaction: discord.Interaction, level: str = "easy") -> None:
        async with handling(interaction, "add-bot"):
            game = await current_game(interaction)
            game = await self.bot.service.add_computer(game.id, interaction.user.id, level)
            locale = channel_locale(interaction)
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
            result = await self.bot.service.start(game.id, interaction.user.id)
            await interaction.response.defer(thinking=True)
            await refresh_lobby(self.bot, result.game, channel_locale(interaction), "lobby.started")
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
                await reply(interaction, embed=lobby_embed(game, locale))
                return
            result = await self.bot.service.view(game.id, interaction.user.id)
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
            text += "\n" + leaders_line(locale, public_names(game, locale), view)
            picture = await table_file(view, names, locale)
            await interaction.followup.send(bounded(text), file=picture, ephemeral=True)

    @app_commands.command(name=T("cmd.abandon.name"), description=T("cmd.abandon.description"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "abandon"):
            game = await current_game(interaction)
            manager = bool(interaction.permissions and interaction.permissions.manage_guild)
            was_lobby = game.status == "lobby"
            game = await self.bot.service.abandon(game.id, interaction.user.id, is_manager=manager)
            locale = channel_locale(interaction)
            await interaction.response.send_message(
                i18n.t(locale, "reply.abandoned", name=inert(interaction.user.display_name)),
                allowed_mentions=discord.AllowedMentions.none(),
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
            await reply(interaction, embed=embed)
