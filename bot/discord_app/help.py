"""The help: `/alhambra help`, and the Help button on the lobby and results messages.

Both answer the one who asked, privately and in their own language (not the game's: a Persian
reader in an English game gets Persian help). The words are `text.help`'s; this module only
lays them out as an embed.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..text.help import help_text
from .components import GameItem
from .context import BaseBot, handling, reply, user_locale
from .translator import T

HELP_COLOUR = discord.Colour.from_rgb(196, 120, 48)


def help_embed(locale: str) -> discord.Embed:
    words = help_text(locale)
    embed = discord.Embed(title=words.title, description=words.intro, colour=HELP_COLOUR)
    for topic in words.topics:
        embed.add_field(name=topic.title, value=f"{topic.body}\n{topic.example}", inline=False)
    embed.set_footer(text=words.footer)
    return embed


async def show_help(interaction: discord.Interaction, command: str) -> None:
    async with handling(interaction, command):
        await reply(interaction, embed=help_embed(user_locale(interaction)))


class HelpButton(GameItem[discord.ui.Button[discord.ui.View]], custom_id="alh:help"):
    """The same help as the command, one click from where a new player first looks."""

    def __init__(self, label: str = "Help", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=self.custom_id_for(),
                row=row,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_help(interaction, "help:button")


class HelpCommands(commands.Cog):
    """Part of the `/alhambra` group cog (`group.AlhambraCog`)."""

    bot: BaseBot

    @app_commands.command(name=T("cmd.help.name"), description=T("cmd.help.description"))
    async def help(self, interaction: discord.Interaction) -> None:
        await show_help(interaction, "help")
