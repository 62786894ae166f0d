"""The lobby message: who has joined, the options, and Join / Leave / Start buttons.

The buttons are `DynamicItem`s: their custom id carries the game id and the version the message
was drawn for, so they keep working after a restart without any view kept in memory.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

import discord

from .. import i18n
from ..store import GameInfo

if TYPE_CHECKING:
    from ..app import AlhambraBot

LobbyOp = Literal["join", "leave", "start"]
LOBBY_COLOUR = discord.Colour.from_rgb(196, 120, 48)


def lobby_embed(game: GameInfo, locale: str) -> discord.Embed:
    embed = discord.Embed(title=i18n.t(locale, "lobby.title"), colour=LOBBY_COLOUR)
    host = next((s.name for s in game.seats if s.user_id == game.host_id), "?")
    embed.description = "\n".join(
        [
            i18n.t(locale, "lobby.host", name=host),
            i18n.t(locale, f"lobby.rule.{game.options.get('holes', 'classic')}"),
            i18n.t(locale, "lobby.deadline", deadline=_deadline(game, locale)),
            "",
            i18n.t(locale, "lobby.hint"),
        ]
    )
    lines = []
    for i, seat in enumerate(game.seats, 1):
        if seat.is_computer:
            level = i18n.t(locale, f"choice.level.{seat.level}") if seat.level else ""
            label = i18n.t(locale, "lobby.computer", name=seat.name, level=level)
        else:
            label = f"{seat.name} (<@{seat.user_id}>)"
        lines.append(f"{i}. {label}")
    embed.add_field(
        name=i18n.t(locale, "lobby.players", count=len(game.seats), max=game.max_players),
        value="\n".join(lines) or "-",
        inline=False,
    )
    embed.set_footer(text=f"#{game.id}")
    return embed


def _deadline(game: GameInfo, locale: str) -> str:
    hours = (game.turn_deadline_s or 0) // 3600
    key = f"choice.deadline.{hours}"
    return i18n.t(locale, key) if i18n.has(key) else f"{hours} h"


def closed_embed(game: GameInfo, locale: str, key: str) -> discord.Embed:
    embed = lobby_embed(game, locale)
    embed.title = i18n.t(locale, key)
    embed.colour = discord.Colour.dark_grey()
    embed.description = None
    return embed


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"alh:lobby:(?P<game>\d+):(?P<version>\d+):(?P<op>join|leave|start)",
):
    """One lobby button; what it does lives in the lobby cog (`bot.cogs.lobby`)."""

    STYLES: dict[str, discord.ButtonStyle] = {
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
                custom_id=f"alh:lobby:{game_id}:{version}:{op}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,
        match: re.Match[str],
        /,
    ) -> LobbyButton:
        op: LobbyOp = match["op"]  # type: ignore[assignment]
        return cls(int(match["game"]), int(match["version"]), op)

    async def callback(self, interaction: discord.Interaction) -> None:
        from ..cogs.lobby import lobby_button_clicked

        bot: AlhambraBot = interaction.client  # type: ignore[assignment]
        await lobby_button_clicked(bot, interaction, self.game_id, self.version, self.op)


def lobby_view(game: GameInfo, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start"):
        view.add_item(LobbyButton(game.id, game.version, op, i18n.t(locale, f"button.{op}")))  # type: ignore[arg-type]
    return view
