"""Following a game without a seat: `/alhambra follow` and the Follow button.

A watcher chooses how: by DM (each time the channel is told about the game, they get the same
public summary, in their own language, with a button to stop), or in the game's thread (the
bot adds them to it, and Discord tells them of new messages as it does for any thread they are
in). Everything a follower gets is what the channel reads: never a hand, never a private panel.
Who follows is stored (`People.follow`); how they are reached is this module's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from engine import SeatView

from ..core.errors import FollowRefused, NoGameHere
from ..core.ratings import RatingChange
from ..core.records import GameInfo
from ..core.results import LoggedTurn
from ..ops import metrics
from ..text import i18n
from ..text.help import results_pointer
from ..text.present import bounded, results_lines, told_lines
from .components import GameItem
from .context import BaseBot, bot_of, handling, reply, user_locale
from .dms import send_dm
from .markup import button, inert, place_of, public_names, ratings_line
from .sight import seen_game
from .translator import T

log = logging.getLogger("alhambra.follow")

#: what a Follow button does: offer the ways, follow by one, or stop
FollowOp = Literal["ask", "dm", "thread", "stop"]


class FollowButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:f:{game_id}:{op}",
    op="ask|dm|thread|stop",
):
    """On the lobby and turn messages (`ask`), in the choice it opens (`dm`, `thread`, `stop`)
    and under every DM a follower gets (`stop`). The custom id names the game; who follows is
    always the user who pressed it."""

    def __init__(
        self, game_id: int, op: FollowOp, label: str = "…", row: int | None = None
    ) -> None:
        self.game_id, self.op = game_id, op
        super().__init__(button(self.custom_id_for(game_id=game_id, op=op), label, row=row))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, f"follow:{self.op}"):
            if self.op == "ask":
                await offer_ways(interaction, self.game_id)
            elif self.op == "stop":
                await stop_following(interaction, self.game_id)
            else:
                await start_following(interaction, self.game_id, self.op)


def follow_button(game_id: int, locale: str, row: int | None = None) -> FollowButton:
    return FollowButton(game_id, "ask", i18n.t(locale, "button.follow"), row)


async def game_thread(client: discord.Client, game: GameInfo) -> discord.Thread | None:
    """The thread the game is played in, or None when it is played in a channel."""
    channel = client.get_channel(game.channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(game.channel_id)
        except discord.HTTPException:
            return None
    return channel if isinstance(channel, discord.Thread) else None


async def offer_ways(interaction: discord.Interaction, game_id: int) -> None:
    """The Follow button's answer: the ways to follow this game, only to the one who asked."""
    bot = bot_of(interaction)
    await seen_game(interaction, await bot.services.lobby.game(game_id))
    game, following = await bot.services.people.following(game_id, interaction.user.id)
    locale = user_locale(interaction)
    ui = discord.ui.View(timeout=None)
    ui.add_item(FollowButton(game.id, "dm", i18n.t(locale, "button.follow_dm")))
    if await game_thread(bot, game) is not None:
        ui.add_item(FollowButton(game.id, "thread", i18n.t(locale, "button.follow_thread")))
    if following is not None:
        ui.add_item(FollowButton(game.id, "stop", i18n.t(locale, "button.unfollow")))
    key = f"follow.ask_{following}" if following else "follow.ask"
    await reply(interaction, i18n.t(locale, key, game=game.id), view=ui)


async def start_following(interaction: discord.Interaction, game_id: int, how: str) -> None:
    bot = bot_of(interaction)
    game = await seen_game(interaction, await bot.services.lobby.game(game_id))
    thread = await game_thread(bot, game) if how == "thread" else None
    if how == "thread" and thread is None:
        raise FollowRefused(variant="not_thread")
    _, before = await bot.services.people.following(game.id, interaction.user.id)
    await bot.services.people.follow(game.id, interaction.user.id, how)  # checks the way too
    if thread is not None:
        try:
            await thread.add_user(discord.Object(interaction.user.id))
        except discord.HTTPException:
            log.warning("could not add user %s to thread %s", interaction.user.id, thread.id)
            await bot.services.people.unfollow(game.id, interaction.user.id)
            raise FollowRefused(variant="thread_refused") from None
    elif before == "thread":  # from the thread to DMs: leave the thread the bot put them in
        await _leave_thread(bot, game, interaction.user.id)
    locale = user_locale(interaction)
    await reply(interaction, i18n.t(locale, f"follow.now_{how}", game=game.id))


async def stop_following(interaction: discord.Interaction, game_id: int) -> None:
    """Stop following: from the game's server or from a follower's DM (whoever presses it stops
    only their own following)."""
    bot = bot_of(interaction)
    game = await bot.services.lobby.game(game_id)
    if interaction.guild_id is not None:
        await seen_game(interaction, game)
    how = await bot.services.people.unfollow(game.id, interaction.user.id)
    if how == "thread":
        await _leave_thread(bot, game, interaction.user.id)
    await reply(interaction, i18n.t(user_locale(interaction), "follow.stopped", game=game.id))


async def _leave_thread(client: discord.Client, game: GameInfo, user_id: int) -> None:
    thread = await game_thread(client, game)
    if thread is None:
        return
    try:
        await thread.remove_user(discord.Object(user_id))
    except discord.HTTPException:  # they may have left it themselves, or it is archived
        log.info("could not take user %s out of thread %s", user_id, thread.id)


async def tell_followers(
    client: discord.Client,
    game: GameInfo,
    turns: list[LoggedTurn],
    public: SeatView,
    link: str,
    followers: Sequence[tuple[int, str]],
    ratings: Sequence[RatingChange] = (),
) -> None:
    """DM each follower by DM what the channel was just told about these turns (and the
    results, when the game is over), each in their own language (`followers`: user and
    language): public words only."""
    server, channel = place_of(client, game)
    for user_id, locale in followers:
        names = public_names(game, locale)
        lines = [
            i18n.t(
                locale,
                "follow.dm_title",
                game=game.id,
                server=inert(server),
                channel=inert(channel),
                link=link,
            ),
            *told_lines(locale, names, turns),
        ]
        if public.is_over:
            lines += ["", f"**{i18n.t(locale, 'results.title')}**"]
            lines += results_lines(locale, names, public)
            if ratings:  # a rated game: how it moved each rating, as the channel was told
                lines.append(ratings_line(locale, game, ratings, public.ranks))
            lines.append(results_pointer(locale, game.id))
        ui = discord.ui.View(timeout=None)
        ui.add_item(FollowButton(game.id, "stop", i18n.t(locale, "button.unfollow")))
        delivery = await send_dm(client, user_id, content=bounded("\n".join(lines)), view=ui)
        metrics.DMS.labels(delivery.value).inc()


class FollowCommands(commands.Cog):
    """Part of the `/alhambra` group cog (`group.AlhambraCog`)."""

    bot: BaseBot

    @app_commands.command(name=T("cmd.follow.name"), description=T("cmd.follow.description"))
    @app_commands.describe(
        how=T("cmd.follow.how.description"), game=T("cmd.follow.game.description")
    )
    @app_commands.choices(
        how=[
            app_commands.Choice(name=T("choice.follow.dm"), value="dm"),
            app_commands.Choice(name=T("choice.follow.thread"), value="thread"),
            app_commands.Choice(name=T("choice.follow.stop"), value="stop"),
        ]
    )
    async def follow(
        self,
        interaction: discord.Interaction,
        how: str = "dm",
        game: app_commands.Range[int, 1, 10**15] | None = None,
    ) -> None:
        async with handling(interaction, "follow"):
            if game is None:
                channel = interaction.channel_id
                if interaction.guild_id is None or channel is None:
                    raise NoGameHere()
                game_id = (await self.bot.services.lobby.game_to_show(channel)).id
            else:
                game_id = game
            if how == "stop":
                await stop_following(interaction, game_id)
            else:  # an unknown way is refused by the service, with the ways it knows
                await start_following(interaction, game_id, how)
