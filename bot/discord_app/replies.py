"""Ephemeral answers shared by slash commands and buttons: a player's hand, the score sheet,
every Alhambra (one at a time, its menu of players lives here), and the game log page by page
(its Earlier / Later buttons live here)."""

from __future__ import annotations

import discord

from ..core.errors import InvalidRequest, NotAPlayer
from ..text import i18n
from ..text.present import (
    bounded,
    cards_text,
    leaders_line,
    log_paragraphs,
    pages_of,
    player_names,
    progress_line,
    since_last_turn,
    table_lines,
    told_lines,
)
from .components import GameItem
from .context import (
    acknowledge,
    bot_of,
    handling,
    here,
    my_view,
    redraw,
    reply,
    selected,
    user_locale,
)
from .markup import button, public_names
from .pictures import alhambra_file, boards_file, hand_file, scores_file
from .plan_panel import plan_button

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
    await acknowledge(interaction)
    picture = await hand_file(view, result.game.name_at(result.seat), locale)
    text = (
        i18n.t(locale, "reply.hand", cards=cards_text(locale, view.hand))
        if view.hand
        else i18n.t(locale, "reply.hand_empty")
    )
    ui = None
    if result.game.status == "active" and view.current_seat != result.seat:
        ui = discord.ui.View(timeout=None)  # while one waits: plan the next turn from here
        ui.add_item(plan_button(game_id, locale))
    await reply(interaction, text, file=picture, view=ui)


async def show_scores(interaction: discord.Interaction, game_id: int) -> None:
    """The score sheet of the game (of this channel), as the user may see it."""
    result = await my_view(interaction, game_id)
    locale = user_locale(interaction)
    await acknowledge(interaction)
    picture = await scores_file(result.view, player_names(locale, result.game), locale)
    await reply(interaction, file=picture)


async def show_boards(interaction: discord.Interaction, game_id: int) -> None:
    """Every player's Alhambra at the end of the game: all of them in one picture, and a menu
    of players to see one of them larger."""
    result = await my_view(interaction, game_id)
    locale = user_locale(interaction)
    names = player_names(locale, result.game)
    await acknowledge(interaction)
    picture = await boards_file(result.view, names, locale)
    text = i18n.t(
        locale, "results.boards", names=i18n.join(locale, public_names(result.game, locale))
    )
    await reply(interaction, text, file=picture, view=board_picker(game_id, names, locale))


async def show_details(interaction: discord.Interaction, game_id: int) -> None:
    """What the turn message leaves out to fit a phone's screen, to the asker alone: the whole
    story since their last turn (a spectator: the last round of turns) with its payments and
    refills, the market and the pool in words, who leads each type and what the next scoring
    would pay, and the game's progress."""
    result = await my_view(interaction, game_id)
    locale = user_locale(interaction)
    services = bot_of(interaction).services
    game_log = await services.play.log(game_id)
    names = public_names(result.game, locale)
    view = result.view
    if result.seat is not None:
        story = [i18n.t(locale, "turn.details_since")]
        story += since_last_turn(locale, names, game_log, result.seat)
    else:
        story = [i18n.t(locale, "turn.details_recent")]
        story += told_lines(locale, names, game_log.turns()[-len(view.table) :])
    lines = [i18n.t(locale, "turn.details_title", turn=view.turn_number)]
    if len(story) > 1:
        lines += [*story, ""]
    if not view.is_over:
        lines += table_lines(locale, view)
    lines += [leaders_line(locale, names, view), progress_line(locale, view)]
    await reply(interaction, bounded("\n".join(lines).strip()))


async def show_glance(interaction: discord.Interaction, game_id: int) -> None:
    """Everyone's Alhambra in one picture, to the asker alone, with the menu of players to see
    one of them larger."""
    result = await my_view(interaction, game_id)
    locale = user_locale(interaction)
    names = player_names(locale, result.game)
    await acknowledge(interaction)
    picture = await boards_file(result.view, names, locale)
    await reply(
        interaction,
        i18n.t(locale, "boards.title"),
        file=picture,
        view=board_picker(game_id, names, locale),
    )


def board_picker(game_id: int, names: list[str], locale: str) -> discord.ui.View:
    """The menu of players whose Alhambra to show."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(BoardSelect(game_id, names, i18n.t(locale, "panel.board")))
    return ui


class BoardSelect(
    GameItem[discord.ui.Select[discord.ui.View]],
    custom_id="alh:v:{game_id}:board",
):
    """Anyone may look at any player's Alhambra."""

    def __init__(self, game_id: int, names: list[str] | None = None, hint: str = "…") -> None:
        self.game_id = game_id
        options = [
            discord.SelectOption(label=name[:100] or f"#{seat + 1}", value=str(seat))
            for seat, name in enumerate(names or [])
        ] or [discord.SelectOption(label="…", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=self.custom_id_for(game_id=game_id),
                placeholder=hint[:150],
                options=options,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        values = selected(interaction)
        seat = values[0] if values else ""
        await board_selected(interaction, self.game_id, seat)


async def board_selected(interaction: discord.Interaction, game_id: int, value: str) -> None:
    async with handling(interaction, "board"):
        result = await my_view(interaction, game_id)
        names = player_names(user_locale(interaction), result.game)
        seat = int(value) if value.isascii() and value.isdigit() and len(value) == 1 else -1
        if not 0 <= seat < len(names):
            raise InvalidRequest()
        await acknowledge(interaction, update=True)  # checked: now the picture
        picture = await alhambra_file(result.view, seat, names[seat], user_locale(interaction))
        await redraw(interaction, content=names[seat], attachments=[picture])


# --- the game log, page by page -----------------------------------------------------------------


class LogPageButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:l:{game_id}:{page}",
    page=r"\d{1,4}",
):
    """Turns the log to another page: the custom id names the game and the page (from 1)."""

    def __init__(self, game_id: int, page: int, label: str = "…") -> None:
        self.game_id, self.page = game_id, page
        super().__init__(button(self.custom_id_for(game_id=game_id, page=page), label))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "log:page"):
            await show_log(interaction, self.game_id, self.page, turn=True)


async def show_log(
    interaction: discord.Interaction, game_id: int, page: int | None = None, *, turn: bool = False
) -> None:
    """A page of the game log (the last one unless `page` says which, from 1; a page past the
    end shows the last). `turn`: a page button was pressed, so its message turns the page."""
    locale = user_locale(interaction)
    services = bot_of(interaction).services
    here(interaction, await services.lobby.game(game_id))  # before replaying anything
    game_log = await services.play.log(game_id)
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
