"""Ephemeral answers shared by slash commands and buttons: a player's hand, an Alhambra, the
game log."""

from __future__ import annotations

import discord

from ..core.errors import NotAPlayer
from ..text import i18n
from ..text.present import cards_text, log_paragraphs, player_names
from .context import bot_of, my_view, reply, user_locale
from .pictures import hand_file

#: How many finished turns the game log shows (Discord's 2,000 characters allow no more).
LOG_TURNS = 8


async def show_hand(interaction: discord.Interaction, game_id: int) -> None:
    result = await my_view(interaction, game_id)
    if result.seat is None:
        raise NotAPlayer()
    locale = user_locale(interaction)
    view = result.view
    picture = await hand_file(view, result.game.name_at(result.seat), locale)
    text = (
        i18n.t(locale, "reply.hand", cards=cards_text(locale, view.hand))
        if view.hand
        else i18n.t(locale, "reply.hand_empty")
    )
    await reply(interaction, text, file=picture)


async def show_log(interaction: discord.Interaction, game_id: int) -> None:
    locale = user_locale(interaction)
    game_log = await bot_of(interaction).service.log(game_id)
    turns = log_paragraphs(locale, player_names(locale, game_log.game), game_log)
    text = "\n\n".join(turns[-LOG_TURNS:]) if turns else i18n.t(locale, "log.empty")
    await reply(interaction, f"**{i18n.t(locale, 'log.title')}**\n{text}"[:2000])
