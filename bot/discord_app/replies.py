"""Ephemeral answers shared by slash commands and buttons: a player's hand, the score sheet,
every Alhambra, and the game log page by page (its Earlier / Later buttons live here)."""

from __future__ import annotations

import re

import discord

from ..core.errors import NotAPlayer
from ..text import i18n
from ..text.present import cards_text, log_paragraphs, pages_of, player_names
from .context import bot_of, bounded, handling, here, my_view, reply, user_locale
from .markup import public_names
from .pictures import alhambra_file, hand_file, scores_file

#: Characters of turns on one page of the log: Discord's 2,000 less room for the heading.
LOG_PAGE = 1_850
#: The most pages a log button may name (a whole game takes a few dozen in any language).
LOG_MAX_PAGE = 9_999


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


async def show_scores(interaction: discord.Interaction, game_id: int) -> None:
    """The score sheet of the game (of this channel), as the user may see it."""
    result = await my_view(interaction, game_id)
    locale = user_locale(interaction)
    picture = await scores_file(result.view, player_names(locale, result.game), locale)
    await reply(interaction, file=picture)


async def show_boards(interaction: discord.Interaction, game_id: int) -> None:
    """Every player's Alhambra in one answer (at most six pictures: Discord allows ten)."""
    result = await my_view(interaction, game_id)
    locale = user_locale(interaction)
    if not interaction.response.is_done():  # drawing up to six pictures: acknowledge first
        await interaction.response.defer(ephemeral=True, thinking=True)
    names = player_names(locale, result.game)
    files = [
        await alhambra_file(result.view, seat, name, locale) for seat, name in enumerate(names)
    ]
    text = i18n.t(
        locale, "results.boards", names=i18n.join(locale, public_names(result.game, locale))
    )
    await interaction.followup.send(bounded(text), files=files, ephemeral=True)


# --- the game log, page by page -----------------------------------------------------------------


class LogPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"alh:l:(?P<game>\d{1,18}):(?P<page>\d{1,4})",
):
    """Turns the log to another page: the custom id names the game and the page (from 1)."""

    def __init__(self, game_id: int, page: int, label: str = "…") -> None:
        self.game_id, self.page = game_id, page
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"alh:l:{game_id}:{page}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # discord.py's own examples narrow `item`
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> LogPageButton:
        return cls(int(match["game"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "log:page"):
            await show_log(interaction, self.game_id, self.page, turn=True)


async def show_log(
    interaction: discord.Interaction, game_id: int, page: int | None = None, *, turn: bool = False
) -> None:
    """A page of the game log (the last one unless `page` says which, from 1; a page past the
    end shows the last). `turn`: a page button was pressed, so its message turns the page."""
    locale = user_locale(interaction)
    service = bot_of(interaction).service
    here(interaction, await service.game(game_id))  # before replaying anything
    game_log = await service.log(game_id)
    pages = pages_of(
        log_paragraphs(locale, player_names(locale, game_log.game), game_log), LOG_PAGE
    )
    title = i18n.t(locale, "log.title")
    if not pages:
        await reply(interaction, f"**{title}**\n{i18n.t(locale, 'log.empty')}")
        return
    number = len(pages) if page is None else max(1, min(page, len(pages)))
    where = i18n.t(locale, "log.page", page=number, pages=len(pages))
    text = bounded(f"**{title}** · {where}\n{pages[number - 1]}")
    ui = discord.ui.View(timeout=None)
    if number > 1:
        ui.add_item(LogPageButton(game_id, number - 1, i18n.t(locale, "button.log_earlier")))
    if number < min(len(pages), LOG_MAX_PAGE):
        ui.add_item(LogPageButton(game_id, number + 1, i18n.t(locale, "button.log_later")))
    if turn:
        await interaction.response.edit_message(content=text, view=ui)
    else:
        await reply(interaction, text, view=ui)
