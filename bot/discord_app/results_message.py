"""The buttons under a finished game's results: its score sheet, its log and every Alhambra.

They keep answering after a restart and after a new game starts in the channel (their custom id
names the finished game), for anyone in that game's own channel and server.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import discord

from ..core.errors import InvalidRequest
from ..core.ratings import RatingChange
from ..core.records import GameInfo
from ..text import i18n
from ..text.ratings import change_line
from .components import GameItem
from .context import bot_of, handling, here
from .markup import public_names
from .replies import show_boards, show_log, show_scores

ResultsOp = Literal["scores", "log", "boards"]
RESULTS_OPS: tuple[ResultsOp, ...] = ("scores", "log", "boards")


class ResultsButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:r:{game_id}:{op}",
    op="scores|log|boards",
):
    def __init__(self, game_id: int, op: ResultsOp, label: str | None = None) -> None:
        self.game_id, self.op = game_id, op
        super().__init__(
            discord.ui.Button(
                label=(label or op)[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=self.custom_id_for(game_id=game_id, op=op),
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await results_button_clicked(interaction, self.game_id, self.op)


async def results_button_clicked(
    interaction: discord.Interaction, game_id: int, op: ResultsOp
) -> None:
    async with handling(interaction, f"results:{op}"):
        game = here(interaction, await bot_of(interaction).services.lobby.game(game_id))
        if game.status != "finished":  # only a game with results has this message
            raise InvalidRequest()
        if op == "scores":
            await show_scores(interaction, game_id)
        elif op == "log":
            await show_log(interaction, game_id)
        else:
            await show_boards(interaction, game_id)


def results_buttons(game: GameInfo, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in RESULTS_OPS:
        view.add_item(ResultsButton(game.id, op, i18n.t(locale, f"button.{op}")))
    return view


def ratings_line(
    locale: str,
    game: GameInfo,
    changes: Sequence[RatingChange],
    ranks: Sequence[int] | None = None,
) -> str:
    """How a rated game moved its players' ratings: the players in the order they finished
    (`ranks` per seat), or, for a game that ended without a finish, the biggest gain first; one
    whose seat a computer took is named by mention (the bot never pings in these posts)."""
    names = public_names(game, locale)
    moved = {c.user_id: c.delta for c in changes}
    seated = [s for s in game.seats if s.seat is not None and s.user_id is not None]
    if ranks is not None:
        seated.sort(key=lambda s: (ranks[s.seat] if s.seat is not None else 0, s.seat))
    else:
        seated.sort(key=lambda s: (-moved.get(s.user_id or 0, 0), s.seat))
    by_user = {s.user_id: names[s.seat] for s in seated if s.user_id and s.seat is not None}
    return change_line(locale, changes[0].season, by_user, changes)
