"""The lobby message: who has joined, the options, and Join / Leave / Start buttons, what the
buttons do, and the first turn message when the game starts.

The buttons are `DynamicItem`s: their custom id carries the game id and the version the message
was drawn for, so they keep working after a restart without any view kept in memory.
"""

from __future__ import annotations

import logging
from typing import Literal

import discord

from engine import GameStarted

from ..core.records import DeadlineRules, GameInfo
from ..core.results import StartResult
from ..text import i18n
from ..text.present import computer_name, level_name, start_lines
from ..turns.reminders import notice_for
from .components import GameItem
from .context import BaseBot, bot_of, handling, here
from .followers import follow_button
from .help import HelpButton
from .markup import public_names
from .turn_message import turn_message

log = logging.getLogger("alhambra.lobby")

LobbyOp = Literal["join", "leave", "start"]
LOBBY_OPS: tuple[LobbyOp, ...] = ("join", "leave", "start")
LOBBY_COLOUR = discord.Colour.from_rgb(196, 120, 48)


def lobby_embed(game: GameInfo, locale: str, rules: DeadlineRules | None) -> discord.Embed:
    """The lobby: host, options, the deadline and who stands in for a missed one (`rules`: the
    game's deadline rules; None leaves the stand-in out), and the players who joined."""
    embed = discord.Embed(title=i18n.t(locale, "lobby.title"), colour=LOBBY_COLOUR)
    host = next((s.name for s in game.seats if s.user_id == game.host_id), "?")
    embed.description = "\n".join(
        [
            i18n.t(locale, "lobby.host", name=host),
            i18n.t(locale, f"lobby.rule.{game.options.get('holes', 'classic')}"),
            i18n.t(locale, "lobby.deadline", deadline=_deadline(game, locale)),
            i18n.t(locale, "lobby.language", language=i18n.LANGUAGE_NAMES.get(game.locale, "?")),
            *_stand_in(game, locale, rules),
            *([i18n.t(locale, "lobby.rated")] if game.rated else []),
            "",
            i18n.t(locale, "lobby.hint"),
        ]
    )
    lines = []
    for i, seat in enumerate(game.seats, 1):
        if seat.is_computer:
            level = level_name(locale, seat.level) if seat.level else "?"
            label = i18n.t(locale, "lobby.computer", name=computer_name(seat), level=level)
        else:  # the name once (an embed's mention pings nobody, and would say it again)
            label = seat.name
        lines.append(f"{i18n.number(locale, i)}. {label}")
    embed.add_field(
        name=i18n.t(locale, "lobby.players", count=len(game.seats), max=game.max_players),
        value="\n".join(lines) or "-",
        inline=False,
    )
    embed.set_footer(text=f"#{i18n.number(locale, game.id)}")
    return embed


def _deadline(game: GameInfo, locale: str) -> str:
    hours = (game.turn_deadline_s or 0) // 3600
    key = f"choice.deadline.{hours}"
    return i18n.t(locale, key) if i18n.has(key) else f"{hours} h"


def _stand_in(game: GameInfo, locale: str, rules: DeadlineRules | None) -> list[str]:
    """Who plays for a player who lets a deadline pass, if a computer player ever does: it
    plays the missed turn (policy "computer") and/or takes the seat after the missed limit."""
    if rules is None or not game.turn_deadline_s:
        return []
    level = level_name(locale, rules.stand_in)
    limit = rules.missed_limit
    if rules.policy == "computer" and limit is not None:
        return [i18n.t(locale, "lobby.stand_in.play_seat", level=level, count=limit)]
    if rules.policy == "computer":
        return [i18n.t(locale, "lobby.stand_in.play", level=level)]
    if limit is not None:
        return [i18n.t(locale, "lobby.stand_in.seat", level=level, count=limit)]
    return []


def closed_embed(game: GameInfo, locale: str, key: str) -> discord.Embed:
    embed = lobby_embed(game, locale, None)
    embed.title = i18n.t(locale, key)
    embed.colour = discord.Colour.dark_grey()
    embed.description = None
    return embed


class LobbyButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:lobby:{game_id}:{version}:{op}",
    op="join|leave|start",
):
    """One lobby button; what it does is `lobby_button_clicked`."""

    STYLES: dict[LobbyOp, discord.ButtonStyle] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, game_id: int, version: int, op: LobbyOp, label: str | None = None) -> None:
        self.game_id, self.version, self.op = game_id, version, op
        super().__init__(
            discord.ui.Button(
                label=label or op.title(),
                style=self.STYLES[op],
                custom_id=self.custom_id_for(game_id=game_id, version=version, op=op),
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await lobby_button_clicked(interaction, self.game_id, self.op)


def lobby_view(game: GameInfo, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in LOBBY_OPS:
        view.add_item(LobbyButton(game.id, game.version, op, i18n.t(locale, f"button.{op}")))
    view.add_item(follow_button(game.id, locale))
    view.add_item(HelpButton(i18n.t(locale, "button.help")))
    return view


async def refresh_lobby(
    bot: BaseBot, game: GameInfo, locale: str, closed: str | None = None
) -> None:
    """Redraw the lobby message of a game (after a join or leave by command, a start, an
    abandon). A lobby message someone deleted is simply forgotten."""
    services = bot.services
    ref = await services.people.message_ref(game.id, "lobby")
    if ref is None:
        return
    channel_id, message_id = ref
    message = bot.get_partial_messageable(channel_id).get_partial_message(message_id)
    try:
        if closed:
            await message.edit(embed=closed_embed(game, locale, closed), view=None)
        else:
            rules = await services.schedule.deadline_rules(game.id)
            embed = lobby_embed(game, locale, rules)
            await message.edit(embed=embed, view=lobby_view(game, locale))
    except discord.NotFound:
        await services.people.forget_message(game.id, "lobby")
    except discord.HTTPException:
        log.warning("could not update the lobby message of game %s", game.id)


async def announce_start(interaction: discord.Interaction, started: StartResult) -> None:
    """The first turn message, posted as a followup of the interaction that started the game."""
    bot = bot_of(interaction)
    game = started.game
    locale = game.locale
    setup = next(e for e in started.events if isinstance(e, GameStarted))
    intro = "\n".join(start_lines(locale, public_names(game, locale), setup))
    first = game.current_player
    ping = first is not None and first.user_id is not None
    if first is not None and first.user_id is not None:
        ping = (await notice_for(bot.services, game.id, first.user_id)).mention
    message = await turn_message(
        game, started.public, started.first, locale, intro=intro, ping=ping
    )
    try:
        if not message.for_person:
            # a computer opens: the order and the money only. A table naming it "to play"
            # would stay at the top of the game for good (this is no turn message to retire),
            # and the next person's turn message shows the table a moment later
            await interaction.followup.send(
                message.content, allowed_mentions=discord.AllowedMentions.none(), wait=True
            )
        else:
            sent = await interaction.followup.send(
                message.content,
                embed=message.embed,
                file=message.file,
                view=message.view,
                allowed_mentions=message.allowed_mentions,
                wait=True,
            )
            await bot.services.people.remember_message(game.id, "turn", sent.channel.id, sent.id)
    except discord.HTTPException:  # the game has started all the same: it must not stall
        log.exception("could not post the first turn message of game %s", game.id)
    await bot.flow.game_started(game.id, locale)


async def lobby_button_clicked(interaction: discord.Interaction, game_id: int, op: LobbyOp) -> None:
    async with handling(interaction, f"lobby:{op}"):
        services = bot_of(interaction).services
        locale = here(interaction, await services.lobby.game(game_id)).locale
        user = interaction.user
        if op == "join":
            game = await services.lobby.join(game_id, user.id, user.display_name)
        elif op == "leave":
            game = await services.lobby.leave(game_id, user.id)
        else:
            started = await services.lobby.start(game_id, user.id)
            await interaction.response.edit_message(
                embed=closed_embed(started.game, locale, "lobby.started"), view=None
            )
            await announce_start(interaction, started)
            return
        if game.status == "lobby":
            rules = await services.schedule.deadline_rules(game_id)
            await interaction.response.edit_message(
                embed=lobby_embed(game, locale, rules), view=lobby_view(game, locale)
            )
        else:
            await interaction.response.edit_message(
                embed=closed_embed(game, locale, "lobby.closed"), view=None
            )
