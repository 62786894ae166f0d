"""The message that opens each turn in the channel: what just happened, who plays (a mention),
the table picture, and the turn's buttons.

The buttons are `DynamicItem`s carrying the game id and the version the message was drawn for;
a button on any message but the game's current turn message answers "no longer current".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import discord

from engine import PlaceFromReserve, RemoveToReserve, SeatView, Swap

from ..core.errors import Outdated
from ..core.records import GameInfo
from ..text import i18n
from ..text.present import player_names, progress_line
from .components import GameItem
from .context import acknowledge, bot_of, handling, here, note_game
from .followers import follow_button
from .markup import mention_of, pinging, public_names
from .panel import open_panel
from .pictures import TABLE_FILE, table_file
from .replies import show_details, show_glance, show_hand, show_log

TURN_COLOUR = discord.Colour.from_rgb(46, 125, 50)
TurnOp = Literal["take", "buy", "redesign", "place", "hand", "board", "details", "log"]
TURN_OPS: tuple[TurnOp, ...] = (
    "take",
    "buy",
    "redesign",
    "place",
    "hand",
    "board",
    "details",
    "log",
)
#: the buttons that open the private panel (first row); the others look at the table
PLAY_OPS: tuple[TurnOp, ...] = ("take", "buy", "redesign", "place")


class TurnButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:t:{game_id}:{version}:{op}",
    op="take|buy|redesign|place|hand|board|details|log",
):
    STYLES: dict[str, discord.ButtonStyle] = {
        "take": discord.ButtonStyle.primary,
        "buy": discord.ButtonStyle.primary,
        "redesign": discord.ButtonStyle.primary,
        "place": discord.ButtonStyle.success,
    }

    def __init__(self, game_id: int, version: int, op: TurnOp, label: str | None = None) -> None:
        self.game_id, self.version, self.op = game_id, version, op
        super().__init__(
            discord.ui.Button(
                label=label or op,
                style=self.STYLES.get(op, discord.ButtonStyle.secondary),
                custom_id=self.custom_id_for(game_id=game_id, version=version, op=op),
                row=0 if op in PLAY_OPS else 1,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await turn_button_clicked(interaction, self.game_id, self.op)


async def turn_button_clicked(interaction: discord.Interaction, game_id: int, op: TurnOp) -> None:
    async with handling(interaction, f"turn:{op}"):
        # every button here answers with a private message drawn from the database, most with a
        # picture: tell Discord it is coming before queueing for either
        await acknowledge(interaction)
        bot = bot_of(interaction)
        note_game(interaction, game_id)
        # only a message older than the one on show is outdated: a newer one, or one while none
        # is on record yet, is the turn just posted, whose record may still be on its way
        # (Discord's ids grow with time); what it opens checks the game itself
        current = await bot.services.people.message_ref(game_id, "turn")
        if (
            interaction.message is not None
            and current is not None
            and interaction.message.id < current[1]
        ):
            raise Outdated(i18n.t("en", "reply.stale"))
        # the panel and the hand read the game through my_view, which checks where it is asked
        if op in PLAY_OPS:
            await open_panel(interaction, game_id, "main" if op == "place" else op)
        elif op == "hand":
            await show_hand(interaction, game_id)
        elif op == "board":  # everyone's Alhambra in one picture, with the menu to look closer
            await show_glance(interaction, game_id)
        elif op == "details":
            await show_details(interaction, game_id)
        else:
            here(interaction, await bot.services.lobby.game(game_id))
            await show_log(interaction, game_id)


def turn_ops(public: SeatView, own: SeatView | None) -> tuple[TurnOp, ...]:
    """The buttons that apply to the turn beginning in `public` (`own`: what its player sees):
    the final placement only places; a redesign is offered when one is possible (it depends on
    the Alhambra and the reserve, which everyone sees). Buy stays, as whether one is
    affordable is private: its panel says why when nothing is."""
    if public.final_placement:
        return ("place", "hand", "board", "details", "log")
    kinds = {type(a) for a in own.legal} if own is not None else set()
    redesign: tuple[TurnOp, ...] = (
        ("redesign",) if kinds & {RemoveToReserve, PlaceFromReserve, Swap} else ()
    )
    return ("take", "buy", *redesign, "hand", "board", "details", "log")


def turn_buttons(
    game: GameInfo, locale: str, ops: tuple[TurnOp, ...] = TURN_OPS
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in ops:
        key = {"place": "button.place_received", "board": "button.boards"}.get(op, f"button.{op}")
        view.add_item(TurnButton(game.id, game.version, op, i18n.t(locale, key)))
    view.add_item(follow_button(game.id, locale, row=1))  # with the looking, not the play
    return view


@dataclass(frozen=True)
class TurnMessage:
    """What to post: the text (what happened, the mention), the embed, the table, the buttons.
    `for_person` is False when a computer player is to move: the message then only shows the
    table (the game's first message when a computer opens it), and is no turn message."""

    content: str
    embed: discord.Embed
    file: discord.File
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions
    for_person: bool = True


async def turn_message(
    game: GameInfo,
    public: SeatView,
    own: SeatView | None,
    locale: str,
    *,
    intro: str | None = None,
    ping: bool = True,
) -> TurnMessage:
    """The message opening the turn of the current player of `public` (drawn as a spectator
    sees the game; `own` is what that player sees, for the buttons). It names them; it pings
    them only with `ping` (when a mention is how they are told that it is their turn)."""
    names = public_names(game, locale)
    seat = public.current_seat
    player = game.at_seat(seat) if seat is not None else None
    person = player is not None and not player.is_computer
    embed = discord.Embed(colour=TURN_COLOUR)
    lines = [intro] if intro else []
    if seat is not None:
        embed.title = i18n.t(locale, "game.turn_title", turn=public.turn_number, name=names[seat])
        if person:
            key = "turn.final" if public.final_placement else "game.turn"
            lines.append(i18n.t(locale, key, mention=mention_of(game, seat, locale)))
    # what changed and whose turn it is, and how far the game is: a phone's screen. The market,
    # the pool and who leads each type are in the picture, and in words behind Details
    embed.description = progress_line(locale, public) or None
    embed.set_image(url=f"attachment://{TABLE_FILE}")
    embed.set_footer(text=f"#{i18n.number(locale, game.id)}")  # the game's number, as typed
    return TurnMessage(
        content="\n".join(lines)[:2000],
        embed=embed,
        file=await table_file(public, player_names(locale, game), locale),
        view=turn_buttons(game, locale, turn_ops(public, own)) if person else discord.ui.View(),
        allowed_mentions=pinging(
            player.user_id if ping and person and player is not None else None
        ),
        for_person=person,
    )
