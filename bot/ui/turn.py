"""The message that opens each turn in the channel: what just happened, who plays (a mention),
the table picture, and the turn's buttons.

Pictures are drawn in a worker thread so the event loop keeps answering other interactions.
The buttons are `DynamicItem`s carrying the game id and the version the message was drawn for;
a button on any message but the game's current turn message answers "no longer current".
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Literal

import discord

import render
from engine import Game, SeatView

from .. import i18n
from ..store import GameInfo

if TYPE_CHECKING:
    from ..app import AlhambraBot

TABLE_FILE = "table.png"
SCORES_FILE = "scores.png"
TURN_COLOUR = discord.Colour.from_rgb(46, 125, 50)
TurnOp = Literal["take", "buy", "redesign", "hand", "board", "log"]
TURN_OPS: tuple[TurnOp, ...] = ("take", "buy", "redesign", "hand", "board", "log")


def names_by_seat(game: GameInfo) -> list[str]:
    """Display names in engine seat order (turn order)."""
    seated = sorted((s for s in game.seats if s.seat is not None), key=lambda s: s.seat or 0)
    return [s.name for s in seated]


def mention_of(game: GameInfo, seat: int | None) -> str:
    player = next((s for s in game.seats if s.seat == seat), None) if seat is not None else None
    if player is None:
        return ""
    return f"<@{player.user_id}>" if player.user_id is not None else f"**{player.name}**"


async def table_file(view: SeatView, names: list[str], locale: str) -> discord.File:
    """The table picture with its words in `locale` (the reader's, or the game's in public)."""
    labels = i18n.image_labels(locale)
    png = await asyncio.to_thread(render.render_table, view, names, labels=labels)
    return discord.File(io.BytesIO(png), filename=TABLE_FILE)


async def scores_file(view: SeatView, names: list[str], locale: str) -> discord.File:
    labels = i18n.image_labels(locale)
    png = await asyncio.to_thread(render.render_scores, view, names, labels=labels)
    return discord.File(io.BytesIO(png), filename=SCORES_FILE)


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"alh:t:(?P<game>\d+):(?P<version>\d+):(?P<op>take|buy|redesign|hand|board|log)",
):
    STYLES: dict[str, discord.ButtonStyle] = {
        "take": discord.ButtonStyle.primary,
        "buy": discord.ButtonStyle.primary,
        "redesign": discord.ButtonStyle.primary,
    }

    def __init__(self, game_id: int, version: int, op: TurnOp, label: str | None = None) -> None:
        self.game_id, self.version, self.op = game_id, version, op
        super().__init__(
            discord.ui.Button(
                label=label or op,
                style=self.STYLES.get(op, discord.ButtonStyle.secondary),
                custom_id=f"alh:t:{game_id}:{version}:{op}",
                row=0 if op in ("take", "buy", "redesign") else 1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> TurnButton:
        op: TurnOp = match["op"]  # type: ignore[assignment]
        return cls(int(match["game"]), int(match["version"]), op)

    async def callback(self, interaction: discord.Interaction) -> None:
        from ..cogs.play import turn_button_clicked

        bot: AlhambraBot = interaction.client  # type: ignore[assignment]
        await turn_button_clicked(bot, interaction, self.game_id, self.version, self.op)


class BoardSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"alh:v:(?P<game>\d+):board"):
    """Anyone may look at any player's Alhambra."""

    def __init__(self, game_id: int, names: list[str] | None = None, hint: str = "…") -> None:
        self.game_id = game_id
        options = [
            discord.SelectOption(label=name[:100] or f"#{seat + 1}", value=str(seat))
            for seat, name in enumerate(names or [])
        ] or [discord.SelectOption(label="…", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"alh:v:{game_id}:board", placeholder=hint[:150], options=options
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> BoardSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from ..cogs.play import board_selected

        values = interaction.data.get("values") if interaction.data else None  # type: ignore[union-attr]
        bot: AlhambraBot = interaction.client  # type: ignore[assignment]
        await board_selected(bot, interaction, self.game_id, int(values[0]) if values else 0)


def turn_buttons(game: GameInfo, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in TURN_OPS:
        view.add_item(TurnButton(game.id, game.version, op, i18n.t(locale, f"button.{op}")))
    return view


async def turn_message(
    game: GameInfo, state: Game, locale: str, *, intro: str | None = None
) -> dict[str, object]:
    """Keyword arguments for `send(...)`: what happened, the mention, the table and buttons."""
    view = state.view(None)
    names = names_by_seat(game)
    seat = state.current_seat
    embed = discord.Embed(colour=TURN_COLOUR)
    lines = [intro] if intro else []
    if seat is not None:
        embed.title = i18n.t(locale, "game.turn_title", turn=view.turn_number, name=names[seat])
        key = "turn.final" if state.is_final_placement else "game.turn"
        lines.append(i18n.t(locale, key, mention=mention_of(game, seat)))
    embed.set_image(url=f"attachment://{TABLE_FILE}")
    embed.set_footer(text=f"#{game.id} · v{game.version}")
    return {
        "content": "\n".join(lines)[:2000],
        "embed": embed,
        "file": await table_file(view, names, locale),
        "view": turn_buttons(game, locale),
        "allowed_mentions": discord.AllowedMentions(users=True, roles=False, everyone=False),
    }
