"""Lobby commands: `/alhambra new, join, leave, start, status, abandon, rules`, and the lobby
buttons. Thin: each turns an interaction into one service call and the result into messages."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from .. import i18n, notify
from ..errors import NoGameHere, ServiceError
from ..service import check_deadline_rules
from ..store import DeadlineRules, GameInfo
from ..translator import T
from ..ui.lobby import LobbyOp, closed_embed, lobby_embed, lobby_view
from ..ui.respond import channel_locale, handling, reply, user_locale
from ..ui.turn import names_by_seat, table_file, turn_message

if TYPE_CHECKING:
    from ..app import AlhambraBot

log = logging.getLogger("alhambra.lobby")


class GuildOnly(ServiceError):
    code = "guild_only"
    default = "Alhambra games are played in server channels, not in direct messages."


def channel_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise GuildOnly()
    return interaction.channel_id


async def current_game(bot: AlhambraBot, interaction: discord.Interaction) -> GameInfo:
    game = await bot.service.game_in_channel(channel_id_of(interaction))
    interaction.extras["game_id"] = game.id
    return game


async def refresh_lobby(bot: AlhambraBot, game: GameInfo, locale: str, closed: str | None = None):
    """Redraw the lobby message of a game (after a join or leave by command, a start, an
    abandon). A lobby message someone deleted is simply forgotten."""
    ref = await bot.service.message_ref(game.id, "lobby")
    if ref is None:
        return
    channel_id, message_id = ref
    message = bot.get_partial_messageable(channel_id).get_partial_message(message_id)
    try:
        if closed:
            await message.edit(embed=closed_embed(game, locale, closed), view=None)
        else:
            await message.edit(embed=lobby_embed(game, locale), view=lobby_view(game, locale))
    except discord.NotFound:
        await bot.service.forget_message(game.id, "lobby")
    except discord.HTTPException:
        log.warning("could not update the lobby message of game %s", game.id)


async def announce_start(
    bot: AlhambraBot, interaction: discord.Interaction, game: GameInfo, state
) -> None:
    """The first turn message, posted as a followup of the interaction that started the game."""
    locale = channel_locale(interaction)
    names = names_by_seat(game)
    order = ", ".join(f"{i + 1}. {name}" for i, name in enumerate(names))
    payload = await turn_message(
        game, state, locale, intro=i18n.t(locale, "game.started", order=order)
    )
    message = await interaction.followup.send(wait=True, **payload)  # type: ignore[arg-type]
    await bot.service.remember_message(game.id, "turn", message.channel.id, message.id)
    from .play import play_computers

    await notify.turn_started(bot, game.id, locale)  # timers for the first turn, the player's DM
    bot.spawn(play_computers(bot, game.id, locale))


async def lobby_button_clicked(
    bot: AlhambraBot, interaction: discord.Interaction, game_id: int, version: int, op: LobbyOp
) -> None:
    interaction.extras["game_id"] = game_id
    async with handling(interaction, f"lobby:{op}"):
        locale = channel_locale(interaction)
        user = interaction.user
        if op == "join":
            game = await bot.service.join(game_id, user.id, user.display_name)
        elif op == "leave":
            game = await bot.service.leave(game_id, user.id)
        else:
            result = await bot.service.start(game_id, user.id)
            await interaction.response.edit_message(
                embed=closed_embed(result.game, locale, "lobby.started"), view=None
            )
            await announce_start(bot, interaction, result.game, result.state)
            return
        if game.status == "lobby":
            await interaction.response.edit_message(
                embed=lobby_embed(game, locale), view=lobby_view(game, locale)
            )
        else:
            await interaction.response.edit_message(
                embed=closed_embed(game, locale, "lobby.closed"), view=None
            )


class LobbyCommands:
    """Mixed into the `/alhambra` group cog (`bot.cogs.AlhambraCog`)."""

    bot: AlhambraBot

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
        holes=[
            app_commands.Choice(name=T("choice.holes.classic"), value="classic"),
            app_commands.Choice(name=T("choice.holes.strict"), value="strict"),
        ],
        deadline=[
            app_commands.Choice(name=T(f"choice.deadline.{hours}"), value=hours)
            for hours in (0, 24, 48, 72, 168)
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
                policy=deadline_policy,  # type: ignore[arg-type]
                missed_limit=missed_deadlines or None,
                vacation_policy=vacation,  # type: ignore[arg-type]
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
            await self.bot.service.set_meta(f"locale:{game.id}", locale)

    @app_commands.command(name=T("cmd.join.name"), description=T("cmd.join.description"))
    async def join(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "join"):
            game = await current_game(self.bot, interaction)
            user = interaction.user
            game = await self.bot.service.join(game.id, user.id, user.display_name)
            await reply(interaction, i18n.t(user_locale(interaction), "reply.joined"))
            await refresh_lobby(self.bot, game, channel_locale(interaction))

    @app_commands.command(name=T("cmd.leave.name"), description=T("cmd.leave.description"))
    async def leave(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "leave"):
            game = await current_game(self.bot, interaction)
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
            game = await current_game(self.bot, interaction)
            game = await self.bot.service.add_computer(game.id, interaction.user.id, level)
            added = game.seats[-1].name
            await interaction.response.send_message(
                i18n.t(channel_locale(interaction), "reply.bot_added", name=added),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await refresh_lobby(self.bot, game, channel_locale(interaction))

    @app_commands.command(name=T("cmd.start.name"), description=T("cmd.start.description"))
    async def start(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "start"):
            game = await current_game(self.bot, interaction)
            result = await self.bot.service.start(game.id, interaction.user.id)
            await interaction.response.defer(thinking=True)
            await refresh_lobby(self.bot, result.game, channel_locale(interaction), "lobby.started")
            await announce_start(self.bot, interaction, result.game, result.state)

    @app_commands.command(name=T("cmd.status.name"), description=T("cmd.status.description"))
    async def status(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "status"):
            locale = user_locale(interaction)
            try:
                game = await current_game(self.bot, interaction)
            except NoGameHere:
                await reply(interaction, i18n.t(locale, "status.none"))
                return
            if game.status == "lobby":
                await reply(interaction, embed=lobby_embed(game, locale))
                return
            result = await self.bot.service.view(game.id, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            names = names_by_seat(game)
            view = result.view
            scores = ", ".join(f"{n} {s}" for n, s in zip(names, view.scores, strict=True))
            current = names[view.current_seat] if view.current_seat is not None else "-"
            text = i18n.t(locale, "status.turn", turn=view.turn_number, name=current, scores=scores)
            await interaction.followup.send(
                text, file=await table_file(view, names, locale), ephemeral=True
            )

    @app_commands.command(name=T("cmd.abandon.name"), description=T("cmd.abandon.description"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "abandon"):
            game = await current_game(self.bot, interaction)
            manager = bool(interaction.permissions and interaction.permissions.manage_guild)
            was_lobby = game.status == "lobby"
            game = await self.bot.service.abandon(game.id, interaction.user.id, is_manager=manager)
            locale = channel_locale(interaction)
            await interaction.response.send_message(
                i18n.t(locale, "reply.abandoned", name=interaction.user.display_name),
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
                colour=discord.Colour.from_rgb(196, 120, 48),
            )
            await reply(interaction, embed=embed)
