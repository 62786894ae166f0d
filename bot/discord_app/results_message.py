"""The buttons under a finished game's results: its score sheet, its log and every Alhambra.

They keep answering after a restart and after a new game starts in the channel (their custom id
names the finished game), for anyone in that game's own channel and server.
"""

from __future__ import annotations

from typing import Literal

import discord

from ..core.errors import InvalidRequest
from ..core.records import GameInfo
from ..text import i18n
from .components import GameItem
from .context import bot_of, handling, here
from .help import HelpButton
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
    view.add_item(HelpButton(i18n.t(locale, "button.help")))
    return view
