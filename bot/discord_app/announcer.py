"""The channel side of a game (`turns.ports.Announcer` for Discord): the summary of each
finished turn, scoring rounds, the results, the next turn's message, short notices."""

from __future__ import annotations

import logging

import discord

from engine import ScoringHeld

from ..core.records import GameInfo
from ..core.results import ActResult
from ..core.service import GameService
from ..text import i18n
from ..text.present import player_names, results_lines, turn_lines, turn_summary
from ..turns.ports import Spawn
from .markup import inert, pinging, place_of, public_names
from .pictures import scores_file
from .turn_message import turn_message

log = logging.getLogger("alhambra.play")


class ChannelAnnouncer:
    """Posts in the game's channel through `client`; the old turn message loses its buttons."""

    def __init__(self, client: discord.Client, service: GameService, spawn: Spawn) -> None:
        self.client = client
        self.service = service
        self._spawn = spawn

    async def turn_over(self, result: ActResult, locale: str) -> None:
        try:
            await self._turn_over(result, locale)
        except discord.Forbidden:  # a moderator took the bot's permissions in that channel
            await self._tell_owner(result.game, locale)
            raise

    async def _tell_owner(self, game: GameInfo, locale: str) -> None:
        """Tell the server's owner, once per channel, that the bot may not post there."""
        key = f"told-owner:{game.channel_id}"
        guild = self.client.get_guild(game.guild_id) if game.guild_id else None
        if guild is None or guild.owner_id is None or await self.service.meta(key):
            return
        server, channel = place_of(self.client, game)
        text = i18n.t(locale, "notify.no_permission", server=inert(server), channel=inert(channel))
        try:
            dm = await self.client.create_dm(discord.Object(guild.owner_id))
            await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell the owner of server %s about channel %s", guild.id, channel)
            return
        await self.service.set_meta(key, str(game.id))

    async def _turn_over(self, result: ActResult, locale: str) -> None:
        game, state = result.game, result.state
        names = public_names(game, locale)
        channel = self.client.get_partial_messageable(game.channel_id)
        end = result.end_events
        public = state.view(None)
        intro: str | None = "\n".join(turn_summary(locale, names, result.turn_events, end))
        if state.is_over or any(isinstance(e, ScoringHeld) for e in end):
            lines = turn_lines(locale, names, result.turn_events, end)
            if state.is_over:
                lines += ["", f"**{i18n.t(locale, 'results.title')}**"]
                lines += results_lines(locale, names, public)
            await channel.send(
                "\n".join(lines)[:2000],
                # pictures show names as typed
                file=await scores_file(public, player_names(locale, game), locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            intro = None
        previous = await self.service.message_ref(game.id, "turn")
        if state.is_over:
            await self.service.forget_message(game.id, "turn")
        else:
            message = await turn_message(game, public, locale, intro=intro or None)
            sent = await channel.send(
                message.content,
                embed=message.embed,
                file=message.file,
                view=message.view,
                allowed_mentions=message.allowed_mentions,
            )
            await self.service.remember_message(game.id, "turn", game.channel_id, sent.id)
        if previous is not None:  # cosmetic, and Discord may retry it for seconds: background
            self._spawn(retire(self.client, previous))

    async def notice(
        self, game: GameInfo, locale: str, key: str, *, mention: int | None = None, **params: object
    ) -> None:
        words = {k: inert(v) if isinstance(v, str) else v for k, v in params.items()}
        if mention is not None:
            words["mention"] = f"<@{mention}>"
        channel = self.client.get_partial_messageable(game.channel_id)
        await channel.send(i18n.t(locale, key, **words), allowed_mentions=pinging(mention))


async def retire(client: discord.Client, ref: tuple[int, int]) -> None:
    """Take the buttons off an old turn message (its clicks are refused anyway)."""
    channel_id, message_id = ref
    try:
        message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
        await message.edit(view=None)
    except discord.HTTPException:
        log.info("could not retire turn message %s", message_id)
