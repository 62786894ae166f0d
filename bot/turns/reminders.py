"""Telling players it is their turn, without spamming them: turn-start DMs, reminders (one
message for all the games waiting on a user), quiet hours, vacations, and a channel mention
instead of a DM for users who do not accept DMs from the bot.

The timing rules are pure (`policy.py`); this module keeps the timers of each turn and decides
who is told what and when, storing what it sent, so that a restart, a blocked DM or a quiet night
never leads to a DM per game or per cycle. The messages themselves are the `Messenger`'s.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import datetime

from ..core.preferences import Preferences
from ..core.records import GameInfo, SeatInfo, Shards, TimerKind, TimerRow, UserNotes
from ..core.services import Services
from .policy import (
    MIN_GAP,
    TurnNotice,
    deadline_at,
    deliverable,
    dms_blocked,
    first_reminder_at,
    next_reminder_at,
    still_current,
    turn_notice,
)
from .ports import Delivery, Messenger, Spawn, Wake
from .telling import TurnDm

log = logging.getLogger("alhambra.notify")


async def notice_for(services: Services, game_id: int, user_id: int) -> TurnNotice:
    """How this user is told now that their turn in this game started (`policy.turn_notice`):
    the channel's turn message pings them only if this says so, and the DM goes out only if it
    says so, so a turn makes one notification, the one they chose."""
    return _notice(
        *await services.people.preferences_and_notes(user_id),
        services.clock.now(),
        await services.schedule.last_action_at(game_id, user_id),
    )


def _notice(
    prefs: Preferences, notes: UserNotes, now: datetime, last: datetime | None
) -> TurnNotice:
    return turn_notice(prefs, notes, now=now, last_action=last)


class Reminders:
    """The reminder and deadline timers of each turn, and the DMs that go with them."""

    def __init__(self, services: Services, messenger: Messenger, *, spawn: Spawn) -> None:
        self.services = services
        self.messenger = messenger
        self._spawn = spawn
        #: set by the timer dispatcher's owner: look at the timers again after arming some
        self.wake: Wake | None = None
        #: one arming at a time per game; a lock lives only while someone holds it
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def turn_started(self, game_id: int, locale: str) -> None:
        """A turn was just shown: arm its reminder and deadline timers, and DM the player (in
        the background). Never raises: a notification must not break a move."""
        try:
            async with self._locks.setdefault(game_id, asyncio.Lock()):  # one arming at a time
                game = await self.schedule_turn(game_id)
            player = game.current_player if game is not None else None
            if game is not None and player is not None and player.user_id is not None:
                self._spawn(self._turn_dm(game, player, locale))
        except Exception:
            log.exception("could not arm the timers of game %s", game_id)

    async def schedule_turn(self, game_id: int) -> GameInfo | None:
        """Replace the game's timers by those of its current turn (none if a computer plays or
        the game is over). Idempotent: it reads the game as it is now."""
        services = self.services
        game = await services.lobby.game(game_id)
        player = game.current_player if game.status == "active" else None
        timers: list[tuple[TimerKind, datetime, int | None]] = []
        if player is not None and player.user_id is not None and game.turn_started_at is not None:
            settings = await services.people.preferences(player.user_id)
            timers.append(
                ("reminder", first_reminder_at(game.turn_started_at, settings), player.seat)
            )
            rules = await services.schedule.deadline_rules(game_id)
            due = deadline_at(game.turn_started_at, rules, settings)
            if due is not None:
                timers.append(("deadline", due, player.seat))
        if game.is_open:
            await services.schedule.set_turn_timers(game_id, timers)
        if self.wake is not None:
            self.wake()
        return game if game.status == "active" else None

    async def _turn_dm(self, game: GameInfo, player: SeatInfo, locale: str) -> None:
        try:
            await self.turn_dm(game, player, locale)
        except Exception:
            log.exception("turn DM of game %s failed", game.id)

    async def turn_dm(self, game: GameInfo, player: SeatInfo, locale: str) -> None:
        """The DM opening a turn, if that is how the player is told (`notice_for`) and the
        turn is not already over."""
        services, user_id = self.services, player.user_id
        assert user_id is not None and player.seat is not None
        now = services.clock.now()
        prefs, notes = await services.people.preferences_and_notes(user_id)
        last = await services.schedule.last_action_at(game.id, user_id)
        if not _notice(prefs, notes, now, last).dm:
            return
        current = await services.lobby.game(game.id)
        if current.current_seat != player.seat or current.turn_started_at != game.turn_started_at:
            return  # the turn is already over
        rules = await services.schedule.deadline_rules(game.id)
        due = deadline_at(game.turn_started_at or now, rules, prefs)
        game_log = await services.play.log(game.id)
        viewed = await services.play.view(game.id, user_id)
        dm = TurnDm(
            current,
            user_id,
            player.seat,
            player.name,
            viewed.view,
            prefs.dm_locale(locale, notes.discord_locale),
            due,
            None,
            game_log,
        )
        shown = await services.people.message_ref(game.id, "turn")
        delivery = await self.messenger.turn_dm(dm, shown)
        if delivery is Delivery.REFUSED:  # the turn message did not ping them: mention them
            await self.dm_refused(current, user_id)

    async def dm_refused(self, game: GameInfo, user_id: int) -> None:
        """A turn DM was refused (the user accepts no DMs from the bot): DMs rest for a while,
        and the turn message, which did not ping them, is followed by a mention."""
        await self._refused(user_id)
        await self.nudge(game, user_id)

    async def remind(self, timer: TimerRow) -> None:
        """A reminder timer fired: one DM listing every game waiting on that user (or one
        channel mention per game and turn if they refuse DMs), then every such game's next
        reminder."""
        services = self.services
        game = await services.lobby.game(timer.game_id)
        player = still_current(game, timer)
        if player is None or player.user_id is None:
            return
        user_id = player.user_id
        now = services.clock.now()
        prefs, notes = await services.people.preferences_and_notes(user_id)
        later = deliverable(now, prefs)
        if notes.last_reminder_at is not None and now - notes.last_reminder_at < MIN_GAP:
            later = max(later, deliverable(notes.last_reminder_at + MIN_GAP, prefs))
        if later > now:  # away, asleep, or just reminded: come back then
            await services.schedule.set_turn_timers(
                game.id, [("reminder", later, timer.seat)], kinds=("reminder",)
            )
            return
        waiting = [g.game for g in await services.people.games_waiting_on(user_id)]
        following = next_reminder_at(now, prefs)
        for other in waiting:
            seat = other.seat_of(user_id)
            await services.schedule.set_turn_timers(
                other.id,
                [("reminder", following, seat.seat if seat else None)],
                kinds=("reminder",),
            )
        if not waiting or not prefs.dms:
            return
        if not dms_blocked(notes, now):
            claimed = await services.schedule.claim_reminder(user_id, MIN_GAP)
            if claimed is None:
                return  # another process (or this timer's earlier firing) just reminded them
            fallback = await services.people.game_locale(waiting[0].id)
            locale = prefs.dm_locale(fallback, notes.discord_locale)
            shown = [(g, await services.people.message_ref(g.id, "turn")) for g in waiting]
            delivery = await self.messenger.reminder(user_id, locale, shown)
            if delivery is Delivery.SENT:
                await services.schedule.note_reminded(user_id)
                return
            if delivery is Delivery.FAILED:
                await services.schedule.unclaim_reminder(claimed)
                return  # trouble on the way: the next reminder tries again
            await self._refused(user_id)
        for other in waiting:  # refuses DMs: one mention per game and turn
            await self.nudge(other, user_id)

    async def nudge(self, game: GameInfo, user_id: int) -> bool:
        """Mention the player in the game's channel, at most once per turn."""
        seat = game.seat_of(user_id)
        if seat is None or seat.seat is None or game.turn_started_at is None:
            return False
        key = int(game.turn_started_at.timestamp() * 1000)
        if not await self.services.schedule.nudge_once(game.id, seat.seat, key):
            return False
        locale = await self.services.people.game_locale(game.id)
        shown = await self.services.people.message_ref(game.id, "turn")
        return await self.messenger.nudge(game, user_id, locale, shown)

    async def recover(self, shards: Shards | None = None) -> int:
        """Games whose turn has no timers (the bot stopped, or arming them failed, between a
        move and arming them; or the game predates them) get their turn's timers: at start-up
        and in the periodic sweep, those of the servers on `shards` (all, if None), found in
        one query. Returns how many."""
        untimed = await self.services.schedule.games_waiting_on_humans(untimed=True, shards=shards)
        for game_id in untimed:
            await self.schedule_turn(game_id)
        return len(untimed)

    async def _refused(self, user_id: int) -> None:
        await self.services.schedule.note_dm_blocked(user_id)
        log.info("user %s does not accept DMs: falling back to channel mentions", user_id)
