"""The message that opens each turn in the channel: who plays (a mention) and the table picture.

Pictures are drawn in a worker thread so the event loop keeps answering other interactions.
"""

from __future__ import annotations

import asyncio
import io

import discord

import render
from engine import Game, SeatView

from .. import i18n
from ..store import GameInfo

TABLE_FILE = "table.png"
TURN_COLOUR = discord.Colour.from_rgb(46, 125, 50)


def names_by_seat(game: GameInfo) -> list[str]:
    """Display names in engine seat order (turn order)."""
    seated = sorted((s for s in game.seats if s.seat is not None), key=lambda s: s.seat or 0)
    return [s.name for s in seated]


def mention_of(game: GameInfo, seat: int | None) -> str:
    player = next((s for s in game.seats if s.seat == seat), None) if seat is not None else None
    if player is None:
        return ""
    return f"<@{player.user_id}>" if player.user_id is not None else f"**{player.name}**"


async def table_file(view: SeatView, names: list[str]) -> discord.File:
    png = await asyncio.to_thread(render.render_table, view, names)
    return discord.File(io.BytesIO(png), filename=TABLE_FILE)


async def turn_message(
    game: GameInfo, state: Game, locale: str, *, intro: str | None = None
) -> dict[str, object]:
    """Keyword arguments for `send(...)`: content with the mention, an embed and the table."""
    view = state.view(None)
    names = names_by_seat(game)
    seat = state.current_seat
    embed = discord.Embed(colour=TURN_COLOUR)
    lines = [intro] if intro else []
    if seat is not None:
        embed.title = i18n.t(locale, "game.turn_title", turn=view.turn_number, name=names[seat])
        lines.append(i18n.t(locale, "game.turn", mention=mention_of(game, seat)))
    embed.set_image(url=f"attachment://{TABLE_FILE}")
    embed.set_footer(text=f"#{game.id} · v{game.version}")
    return {
        "content": "\n".join(lines),
        "embed": embed,
        "file": await table_file(view, names),
        "allowed_mentions": discord.AllowedMentions(users=True, roles=False, everyone=False),
    }
