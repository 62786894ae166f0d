"""Turn deadlines: what the bot does when a player lets one pass.

The game's policy decides: a computer player plays that turn for them (the default), the turn is
skipped, or the game waits. After the game's number of missed deadlines in a row the seat goes to
a computer player for the rest of the game, and the channel is told. A player on vacation has
their deadline paused if the game's vacation policy says so.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from engine import EndTurn, Skip
from engine.ai import make_player

from . import i18n
from .ai_runner import choose_in_thread
from .computer import player_seed, public_history
from .errors import ServiceError
from .notify import _fresh, on_vacation
from .results import ActResult
from .store import TimerRow

if TYPE_CHECKING:
    from .app import AlhambraBot

log = logging.getLogger("alhambra.deadlines")
#: The strength of the computer player that stands in for a silent human.
STAND_IN_LEVEL = "normal"


async def deadline_passed(bot: AlhambraBot, timer: TimerRow) -> None:
    """A deadline timer fired: settle the turn per the game's rules and tell the channel."""
    from .cogs.play import announce_turn, play_computers

    service = bot.service
    game = await service.game(timer.game_id)
    player = _fresh(game, timer)
    if player is None or player.user_id is None or player.seat is None:
        return
    rules = await service.deadline_rules(game.id)
    prefs = await service.notify_settings(player.user_id)
    now = service.clock.now()
    if rules.vacation_policy == "pause" and on_vacation(prefs, now) and rules.turn_deadline_s:
        assert prefs.vacation_until is not None
        due = prefs.vacation_until + timedelta(seconds=rules.turn_deadline_s)
        await service.set_turn_timers(game.id, [("deadline", due, player.seat)], ("deadline",))
        return
    locale = await bot.game_locale(game.id)
    channel = bot.get_partial_messageable(game.channel_id)
    quiet = discord.AllowedMentions.none()
    streak = await service.record_missed_deadline(game.id, player.seat)
    if rules.missed_limit is not None and streak >= rules.missed_limit:
        await service.hand_over(game.id, player.seat, STAND_IN_LEVEL)
        text = i18n.t(locale, "deadline.handed_over", name=player.name, count=streak)
        await channel.send(text, allowed_mentions=quiet)
        bot.spawn(play_computers(bot, game.id, locale))
        return
    if rules.policy == "wait":
        mention = f"<@{player.user_id}>"
        await channel.send(
            i18n.t(locale, "deadline.wait", mention=mention),
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        )
        return
    text = i18n.t(locale, f"deadline.{rules.policy}", name=player.name)
    await channel.send(text, allowed_mentions=quiet)
    try:
        if rules.policy == "skip":
            result = await skip_turn(bot, game.id, player.seat)
        else:
            result = await play_turn_for(bot, game.id, player.seat)
    except ServiceError as exc:  # the player moved at the last second: their move stands
        log.info("deadline of game %s not applied: %s", game.id, exc.code)
        return
    if result is not None:
        await announce_turn(bot, result, result.turn_events, result.events, locale)
    bot.spawn(play_computers(bot, game.id, locale))


async def skip_turn(bot: AlhambraBot, game_id: int, seat: int) -> ActResult:
    """Skip the turn; a turn only waiting for its confirmation is ended as played instead."""
    viewed = await bot.service.seat_view(game_id, seat)
    confirm = any(isinstance(a, EndTurn) for a in viewed.view.legal)
    action = EndTurn() if confirm else Skip()
    return await bot.service.act_for_timeout(game_id, seat, action, viewed.game.version)


async def play_turn_for(bot: AlhambraBot, game_id: int, seat: int) -> ActResult | None:
    """A computer player finishes the human's turn (from wherever they left it)."""
    service = bot.service
    while True:
        viewed = await service.seat_view(game_id, seat)
        game = viewed.game
        if game.status != "active" or game.current_seat != seat:
            return None
        game_log = await service.log(game_id)
        player = make_player(STAND_IN_LEVEL, player_seed(game.seed, seat))
        history = public_history(game_log.setup, game_log.entries)
        action = await choose_in_thread(player, viewed.view, history)
        result = await service.act_for_timeout(game_id, seat, action, game.version)
        if result.turn_ended or result.state.is_over:
            return result
