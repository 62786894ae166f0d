"""The channel side of a game (`turns.ports.Announcer` for Discord): the summary of each
finished turn, scoring rounds, the results, the next turn's message, short notices."""

from __future__ import annotations

import logging
from typing import Any

import discord

from engine import ScoringHeld

from ..core.records import GameInfo
from ..core.results import ActResult, LoggedTurn
from ..core.services import Services
from ..text import i18n
from ..text.present import hints_line, player_names, results_lines, told_lines, untold
from ..turns.ports import Spawn
from ..turns.reminders import notice_for
from .followers import tell_followers
from .markup import inert, jump_link, pinging, place_of, public_names
from .pictures import growth_file, scores_file
from .results_message import results_buttons
from .turn_message import turn_message

log = logging.getLogger("alhambra.play")


class ChannelAnnouncer:
    """Posts in the game's channel through `client`; the old turn message loses its buttons."""

    def __init__(self, client: discord.Client, services: Services, spawn: Spawn) -> None:
        self.client = client
        self.services = services
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
        if guild is None or guild.owner_id is None or await self.services.people.meta(key):
            return
        server, channel = place_of(self.client, game)
        text = i18n.t(locale, "notify.no_permission", server=inert(server), channel=inert(channel))
        try:
            dm = await self.client.create_dm(discord.Object(guild.owner_id))
            await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not tell the owner of server %s about channel %s", guild.id, channel)
            return
        await self.services.people.set_meta(key, str(game.id))

    async def _turn_over(self, result: ActResult, locale: str) -> None:
        """Post what the channel has not been told, and the next person's turn message.

        A turn that hands the move to a computer player posts nothing but its scoring round,
        if it held one: its moves are told in the next person's turn message, so the channel
        gets one message per person's turn (and per scoring round), not one per seat."""
        game, state = result.game, result.state
        names = public_names(game, locale)
        channel = self.client.get_partial_messageable(game.channel_id)
        end = result.end_events
        public = state.view(None)
        scoring = any(isinstance(e, ScoringHeld) for e in end)
        next_player = game.current_player if not state.is_over else None
        computer_next = next_player is not None and next_player.is_computer
        previous = await self.services.people.message_ref(game.id, "turn")
        if computer_next and not scoring:
            if previous is not None:  # nobody may act on it while the computers play
                await self.services.people.forget_message(game.id, "turn")
                self._spawn(retire(self.client, previous))
            return
        turns = await self._untold(result)
        intro: str | None = "\n".join(told_lines(locale, names, turns))
        if state.is_over or scoring:
            lines = told_lines(locale, names, turns)
            if state.is_over:
                lines += ["", f"**{i18n.t(locale, 'results.title')}**"]
                lines += results_lines(locale, names, public)
                hints = await self.services.play.hints_of_game(game.id)
                if hints:  # the game's statistics: who asked the computer for help
                    lines.append(hints_line(locale, names, hints))
            # the results offer the finished game's score sheet, log and boards
            extra: dict[str, Any] = {"view": results_buttons(game, locale)} if state.is_over else {}
            # the round just held in detail, with the counts and ranks behind its points
            held = [e.round_no for e in end if isinstance(e, ScoringHeld)]
            sheet = await scores_file(
                public, player_names(locale, game), locale, detail=held[-1] if held else None
            )
            files = [sheet]
            if state.is_over:  # and every Alhambra growing, turn by turn
                try:
                    growth = await self.services.archive.growth(game.id)
                    files.append(await growth_file(growth, player_names(locale, game), locale))
                except Exception:  # a nicety: it never holds the results back
                    log.exception("the growth animation of game %s failed", game.id)
            told = await channel.send(
                "\n".join(lines)[:2000],
                files=files,
                allowed_mentions=discord.AllowedMentions.none(),
                **extra,
            )
            intro = None
        if state.is_over or computer_next:  # nobody may act on the old one meanwhile
            await self.services.people.forget_message(game.id, "turn")
        else:
            ping = next_player is None or next_player.user_id is None
            if next_player is not None and next_player.user_id is not None:
                notice = await notice_for(self.services, game.id, next_player.user_id)
                ping = notice.mention
            message = await turn_message(game, state, locale, intro=intro or None, ping=ping)
            sent = await channel.send(
                message.content,
                embed=message.embed,
                file=message.file,
                view=message.view,
                allowed_mentions=message.allowed_mentions,
            )
            await self.services.people.remember_message(game.id, "turn", game.channel_id, sent.id)
            told = sent
        if previous is not None:  # cosmetic, and Discord may retry it for seconds: background
            self._spawn(retire(self.client, previous))
        # the game's followers read what the channel was just told, each in their DMs
        link = jump_link(game.guild_id, game.channel_id, told.id)
        self._spawn(tell_followers(self.client, self.services, game, turns, state, link))

    async def _untold(self, result: ActResult) -> list[LoggedTurn]:
        """The turns to tell now: the one that just ended, and any computer players' turns
        before it that were not told (read from the log only when there can be some)."""
        game = result.game
        this = LoggedTurn(
            result.seat.seat if result.seat.seat is not None else -1,
            list(result.turn_events),
            result.end_events,
            result.version,
        )
        if not result.seat.is_computer:
            return [this]  # a person's turn starts right after the channel was told
        computers = {s.seat for s in game.seats if s.is_computer and s.seat is not None}
        return untold((await self.services.play.log(game.id)).turns(), computers) or [this]

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
