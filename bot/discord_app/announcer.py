"""The channel side of a game (`turns.ports.Announcer` for Discord): the summary of each
finished turn, scoring rounds, the results, the next turn's message, short notices."""

from __future__ import annotations

import logging
from typing import Any

import discord

from engine import ScoringHeld

from ..core.records import GameInfo
from ..core.results import ActResult
from ..text import i18n
from ..text.help import results_pointer
from ..text.present import hints_line, player_names, results_lines, short_lines, told_lines
from ..turns.ports import ChannelRefused, MessageRef, Spawn
from ..turns.telling import Telling
from .followers import tell_followers
from .markup import inert, jump_link, pinging, place_of, public_names, ratings_line
from .pictures import growth_file, scores_file
from .results_message import results_buttons
from .turn_message import turn_message

log = logging.getLogger("alhambra.play")


class ChannelAnnouncer:
    """Posts in the game's channel through `client`; the old turn message loses its buttons.
    It holds no service: what it posts is in the turn's result and its `Telling`."""

    def __init__(self, client: discord.Client, spawn: Spawn) -> None:
        self.client = client
        self._spawn = spawn

    async def turn_over(
        self, result: ActResult, telling: Telling, locale: str
    ) -> MessageRef | None:
        try:
            return await self._turn_over(result, telling, locale)
        except discord.Forbidden:  # a moderator took the bot's permissions in that channel
            game = result.game
            guild = self.client.get_guild(game.guild_id) if game.guild_id else None
            server, channel = place_of(self.client, game)
            owner = guild.owner_id if guild is not None else None
            raise ChannelRefused(owner, inert(server), inert(channel)) from None

    async def _turn_over(
        self, result: ActResult, telling: Telling, locale: str
    ) -> MessageRef | None:
        """Post what the channel has not been told, and the next person's turn message.

        A turn that hands the move to a computer player posts nothing but its scoring round,
        if it held one: its moves are told in the next person's turn message, so the channel
        gets one message per person's turn (and per scoring round), not one per seat."""
        game, public = result.game, result.public
        assert result.told is not None
        names = public_names(game, locale)
        channel = self.client.get_partial_messageable(game.channel_id)
        end = result.end_events
        previous = result.told.message
        if not telling.post:
            if previous is not None:  # nobody may act on it while the computers play
                self._spawn(retire(self.client, previous))
            return None
        turns = telling.turns
        # a line per turn: the whole story is behind the turn message's Details
        intro: str | None = "\n".join(short_lines(locale, names, turns))
        shown: MessageRef | None = None
        if telling.over or telling.scoring:
            lines = told_lines(locale, names, turns)
            if telling.over:
                lines += ["", f"**{i18n.t(locale, 'results.title')}**"]
                lines += results_lines(locale, names, public)
                if telling.hints:  # the game's statistics: who asked the computer for help
                    lines.append(hints_line(locale, names, telling.hints))
                if telling.ratings:  # a rated game: how it moved each player's rating
                    lines.append(ratings_line(locale, game, telling.ratings, public.ranks))
                lines.append(results_pointer(locale, game.id))
            # the results offer the finished game's score sheet, log and boards
            extra: dict[str, Any] = {"view": results_buttons(game, locale)} if telling.over else {}
            # the round just held in detail, with the counts and ranks behind its points
            held = [e.round_no for e in end if isinstance(e, ScoringHeld)]
            sheet = await scores_file(
                public, player_names(locale, game), locale, detail=held[-1] if held else None
            )
            # the sheet alone in its message: two files share a message's width, which showed
            # the final scores at less than half their size (a quarter on a phone)
            told = await channel.send(
                "\n".join(lines)[:2000],
                file=sheet,
                allowed_mentions=discord.AllowedMentions.none(),
                **extra,
            )
            if telling.growth is not None:  # and every Alhambra growing, in a message of its own
                await self._growth(channel, game, telling, locale)
            intro = None
        if not (telling.over or telling.computer_next):
            upcoming = result.told.next
            message = await turn_message(
                game,
                public,
                upcoming.view if upcoming is not None else None,
                locale,
                intro=intro or None,
                ping=telling.ping,
            )
            sent = await channel.send(
                message.content,
                embed=message.embed,
                file=message.file,
                view=message.view,
                allowed_mentions=message.allowed_mentions,
            )
            shown = (game.channel_id, sent.id)
            told = sent
        if previous is not None:  # cosmetic, and Discord may retry it for seconds: background
            self._spawn(retire(self.client, previous))
        # the game's followers read what the channel was just told, each in their DMs
        if telling.followers:
            link = jump_link(game.guild_id, game.channel_id, told.id)
            self._spawn(
                tell_followers(
                    self.client, game, turns, public, link, telling.followers, telling.ratings
                )
            )
        return shown

    async def _growth(
        self, channel: discord.PartialMessageable, game: GameInfo, telling: Telling, locale: str
    ) -> None:
        """Every Alhambra growing, turn by turn: a nicety that never holds the results back."""
        assert telling.growth is not None
        try:
            growth = await growth_file(telling.growth, player_names(locale, game), locale)
            await channel.send(file=growth, allowed_mentions=discord.AllowedMentions.none())
        except Exception:
            log.exception("the growth animation of game %s failed", game.id)

    async def notice(
        self, game: GameInfo, locale: str, key: str, *, mention: int | None = None, **params: object
    ) -> None:
        words = {k: inert(v) if isinstance(v, str) else v for k, v in params.items()}
        if mention is not None:
            words["mention"] = f"<@{mention}>"
        channel = self.client.get_partial_messageable(game.channel_id)
        await channel.send(i18n.t(locale, key, **words), allowed_mentions=pinging(mention))


async def retire(client: discord.Client, ref: tuple[int, int]) -> None:
    """Take the buttons and the picture off an old turn message (its clicks are refused
    anyway): what it said stays, so someone catching up reads a few lines per turn and sees
    one picture, the current one."""
    channel_id, message_id = ref
    try:
        message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
        await message.edit(view=None, embed=None, attachments=[])
    except discord.HTTPException:
        log.info("could not retire turn message %s", message_id)
