"""The `/alhambra` command group: one group cog assembled from a mixin per feature.

discord.py builds a group cog's commands from every class in its MRO, so each feature keeps its
commands in its own module and they still share the single `/alhambra` group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from ..translator import T
from .asynchronous import AsyncCommands
from .lobby import LobbyCommands
from .play import PlayCommands

if TYPE_CHECKING:
    from ..app import AlhambraBot


@app_commands.guild_only()
class AlhambraCog(
    LobbyCommands,
    PlayCommands,
    AsyncCommands,
    commands.GroupCog,
    group_name="alhambra",
    group_description=T("cmd.group.description"),
):
    def __init__(self, bot: AlhambraBot) -> None:
        self.bot = bot
        super().__init__()
