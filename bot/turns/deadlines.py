"""Turn deadlines: what happens when a player lets one pass.

The game's policy decides: a computer player plays that turn for them (the default), the turn is
skipped, or the game waits. After the game's number of missed deadlines in a row the seat goes to
a computer player for the rest of the game, and the channel is told. Either computer player is of
the game's stand-in level (`DeadlineRules.stand_in`: normal unless the host chose another). A
player on vacation has their deadline paused if the game's vacation policy says so.
"""

from __future__ import annotations

import logging

from ..core.errors import IllegalMove
from ..core.records import TimerRow
from .flow import MOVED_ON, TurnFlow
from .policy import deadline_at, on_vacation, still_current

log = logging.getLogger("alhambra.deadlines")


async def deadline_passed(flow: TurnFlow, timer: TimerRow) -> None:
    """A deadline timer fired: settle the turn per the game's rules and tell the channel."""
    services, announcer = flow.services, flow.announcer
    game = await services.lobby.game(timer.game_id)
    player = still_current(game, timer)
    if player is None or player.user_id is None or player.seat is None:
        return
    rules = await services.schedule.deadline_rules(game.id)
    prefs = await services.people.notify_settings(player.user_id)
    now = services.clock.now()
    if rules.vacation_policy == "pause" and on_vacation(prefs, now) and rules.turn_deadline_s:
        due = deadline_at(now, rules, prefs)  # the deadline counts from their return
        if due is not None:
            await services.schedule.set_turn_timers(
                game.id, [("deadline", due, player.seat)], ("deadline",)
            )
            return
    locale = await services.people.game_locale(game.id)
    streak = await services.play.record_missed_deadline(game.id, player.seat)
    if rules.missed_limit is not None and streak >= rules.missed_limit:
        await services.play.hand_over(game.id, player.seat, rules.stand_in)
        said = "deadline.handed_over_rated" if game.rated else "deadline.handed_over"
        await announcer.notice(game, locale, said, name=player.name, count=streak)
        flow.drive_computers(game.id, locale)
        return
    if rules.policy == "wait":
        await announcer.notice(game, locale, "deadline.wait", mention=player.user_id)
        return
    await announcer.notice(game, locale, f"deadline.{rules.policy}", name=player.name)
    try:
        if rules.policy == "skip":
            await flow.skip(game.id, player.seat, locale)
        else:
            await flow.play_for(game.id, player.seat, locale, rules.stand_in)
    except (*MOVED_ON, IllegalMove) as exc:  # the player moved at the last second: it stands
        log.info("deadline of game %s not applied: %s", game.id, exc.code)
        return
    # any other failure (a worker down, a full disk) raises: the timer is tried again; the
    # turn's end lets the computer players move if they are next
