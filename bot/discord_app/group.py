"""The `/alhambra` command group: one group cog assembled from a cog per feature.

discord.py builds a group cog's commands from every class in its MRO, so each feature keeps its
commands in its own module and they still share the single `/alhambra` group.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from .context import BaseBot
from .followers import FollowCommands
from .help import HelpCommands
from .lobby import LobbyCommands
from .long_games import AsyncCommands
from .play_commands import PlayCommands
from .translator import T


@app_commands.guild_only()
class AlhambraCog(
    LobbyCommands,
    PlayCommands,
    AsyncCommands,
    FollowCommands,
    HelpCommands,
    commands.GroupCog,
    group_name="alhambra",
    group_description=T("cmd.group.description"),
):
    def __init__(self, bot: BaseBot) -> None:
        self.bot = bot
        super().__init__()
