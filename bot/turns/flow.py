"""The life of a turn, written once: a move, the automatic end of the turn, telling the table,
arming the next turn's timers, and the computer players who move next.

Discord, the terminal game, deadlines and the computer players all go through `TurnFlow`, so a
rule such as "a player who asked for it has their turn ended for them" or "every finished turn
is announced, then the computers play" exists in one place. What is said and how is the
`Announcer`'s business; when reminders fire is `Reminders`'.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import timedelta
from typing import Any

from engine import Action, EndTurn, Skip

from ..core.errors import (
    GameOver,
    IllegalMove,
    NoGameHere,
    NotYourTurn,
    Outdated,
    ServiceError,
)
from ..core.plans import PlanReport, PlanStep, next_step, skipped_rules
from ..core.records import TimerRow
from ..core.results import ActResult
from ..core.services import Services
from ..ops import logs, metrics
from .computers import decide
from .ports import Announcer, Messenger, Spawn, Wake
from .reminders import Reminders
from .timers import retry_delay

log = logging.getLogger("alhambra.turns")
#: The strength of the computer player that stands in for a silent human unless the game's
#: rules name another (`DeadlineRules.stand_in`, chosen by the host).
STAND_IN_LEVEL = "normal"
#: Waits between attempts to tell a channel about a turn: doubling from one to the other.
ANNOUNCE_RETRY = timedelta(minutes=1)
ANNOUNCE_RETRY_MAX = timedelta(hours=6)
#: moves a plan may make in one turn: two purchases, a take, two placements, and room to spare
MAX_PLAN_STEPS = 8
#: A computer player whose turn failed tries again after this, doubling, up to the most: short,
#: so a game is moving again within a minute of the trouble passing.
COMPUTER_RETRY = timedelta(seconds=2)
COMPUTER_RETRY_MOST = timedelta(seconds=30)
#: A turn its player wants ended, left waiting because ending it failed, is ended this much later.
END_TURN_RETRY = timedelta(seconds=5)
#: Refusals that mean the game moved on without the computer player (a person acted, another
#: process played its move, the game ended): nothing to try again.
MOVED_ON = (NotYourTurn, Outdated, GameOver, NoGameHere)


class TurnFlow:
    """Moves and their consequences for the games of one `Services` bundle.

    `spawn` runs the computer players in the background after a human's move; without it (the
    terminal game) the caller drives them with `computer_step`. `reminders` arms the timers of
    each new turn; without it no timers are kept.
    """

    def __init__(
        self,
        services: Services,
        announcer: Announcer,
        *,
        spawn: Spawn | None = None,
        reminders: Reminders | None = None,
        messenger: Messenger | None = None,
        undo_window: timedelta = timedelta(0),
    ) -> None:
        self.services = services
        self.announcer = announcer
        self.reminders = reminders
        #: tells a player what their plan did (no messenger: nobody is told)
        self.messenger = messenger
        self._spawn = spawn
        #: how long a finished turn waits for an undo before it ends, for users who did not
        #: choose (the operator's default); zero ends it at once
        self.undo_window = undo_window
        #: set by the timer dispatcher's owner: look at the timers again after arming one
        self.wake: Wake | None = None
        #: one driver of computer players per game; a lock lives only while someone holds it
        self._computer_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        #: turns this process posted whose `announce` timer it could not clear yet (game id to
        #: version): a retry clears the timer without posting the turn twice
        self._told: dict[int, int] = {}

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Action | dict[str, Any],
        version: int,
        *,
        locale: str,
    ) -> ActResult:
        """A player's move; if it leaves nothing but the confirmation and they asked for it,
        their turn ends too: after their undo window (`ActResult.ends_at`, an `end_turn` timer
        written with the move), or at once if the window is zero. A finished turn is told in
        `locale` and the computers move."""
        logs.bind(game=game_id, version=version)
        settings = await self.services.people.preferences(user_id)
        window = (
            self.undo_window
            if settings.undo_window is None
            else timedelta(seconds=settings.undo_window)
        )
        hold = window if settings.auto_end_turn and window > timedelta(0) else None
        result = await self.services.play.act(game_id, user_id, action, version, hold=hold)
        # Saved. From here on nothing may raise: the player must never hear that a move the
        # store accepted failed, and what follows it heals by itself when it fails.
        try:
            if result.ends_at is not None and self.wake is not None:
                self.wake()
            if (
                not result.turn_over
                and result.state.phase == "confirm"
                and settings.auto_end_turn
                and hold is None
            ):
                result = await self._end_at_once(result, user_id)
            if result.turn_over:
                await self.turn_over(result, locale)
                self.drive_computers(game_id, locale)
        except Exception:
            log.exception(
                "game %s: what follows the saved move (version %s) failed", game_id, result.version
            )
        return result

    async def _end_at_once(self, result: ActResult, user_id: int) -> ActResult:
        """End the turn of a player who wants no undo window; if that fails, the move stays
        saved and an `end_turn` timer ends the turn a few seconds later."""
        try:
            return await self.services.play.end_turn(result.game.id, user_id, result.version)
        except Exception as exc:
            log.warning(
                "game %s: ending the turn after version %s failed (%s): trying again shortly",
                result.game.id,
                result.version,
                getattr(exc, "code", type(exc).__name__),
            )
            seat = result.seat.seat
            due = self.services.clock.now() + END_TURN_RETRY
            await self.services.schedule.set_turn_timers(
                result.game.id, [("end_turn", due, seat)], kinds=("end_turn",)
            )
            if self.wake is not None:
                self.wake()
            return result

    async def finish_automatic_turn(self, game_id: int, locale: str) -> ActResult | None:
        """End the current turn if it only waits for a confirmation its player said they never
        want to give: a stop between a move and the automatic end of its turn left it so."""
        viewed = await self.services.play.view(game_id, None)
        player = viewed.game.current_player
        if viewed.view.phase != "confirm" or player is None or player.user_id is None:
            return None
        if not (await self.services.people.preferences(player.user_id)).auto_end_turn:
            return None
        if any(t.kind == "end_turn" for t in await self.services.schedule.timers_of(game_id)):
            return None  # its undo window is still open: the timer ends it
        try:
            result = await self.services.play.end_turn(game_id, player.user_id, viewed.game.version)
        except ServiceError:  # the player (or another process) got there first
            return None
        await self.turn_over(result, locale)
        self.drive_computers(game_id, locale)
        return result

    async def end_held_turn(self, timer: TimerRow) -> None:
        """An `end_turn` timer fired: the player's undo window is over, so their turn ends,
        unless anything happened since (an undo, or the player ended it: the version moved)."""
        game = await self.services.lobby.game(timer.game_id)
        player = game.current_player
        if (
            game.status != "active"
            or game.version != timer.version
            or player is None
            or player.seat != timer.seat
            or player.user_id is None
        ):
            return
        try:
            result = await self.services.play.end_turn(game.id, player.user_id, game.version)
        except (*MOVED_ON, IllegalMove) as exc:  # the player got there first, here or elsewhere
            log.info("game %s: the held turn was already moved on (%s)", game.id, exc.code)
            return
        # any other failure (a full disk, a database blip) raises: the timer is tried again
        locale = await self.services.people.game_locale(game.id)
        await self.turn_over(result, locale)
        self.drive_computers(game.id, locale)

    async def turn_over(self, result: ActResult, locale: str) -> None:
        """Tell the table about a finished turn, then arm the timers of the next one.

        The move is saved before this runs, so what follows it must not depend on the world
        accepting a message: the move's transaction recorded that this turn must be told (an
        `announce` timer), which is cleared once the channel was told. An announcement that
        fails is logged and left to that timer (`deliver` tries again with back-off), and the
        timers and the computer players go on."""
        await self._announce(result, locale)
        player = result.game.current_player
        try:
            planned = (
                not result.state.is_over
                and player is not None
                and player.user_id is not None
                and player.seat is not None
                and await self.services.play.has_plan(result.game.id, player.seat)
            )
        except Exception:  # the plan waits for the player's next turn; they are told as usual
            log.exception("game %s: could not look for a plan", result.game.id)
            planned = False
        if planned:  # its moves are a turn of their own: not in the way of the move that led here
            if self._spawn is not None:
                self._spawn(self._plan_turn(result, locale))
            else:
                await self._plan_turn(result, locale)
            return
        if self.reminders is not None:
            await self.reminders.turn_started(result.game.id, locale)

    async def _announce(self, result: ActResult, locale: str) -> None:
        """Tell the channel, then clear the turn's `announce` timer. Never raises: either
        failure leaves the timer to try again (`deliver`), which does not post twice what
        this process has already posted."""
        game_id = result.game.id
        if self._told.get(game_id, -1) < result.version:
            try:
                await self.announcer.turn_over(result, locale)
            except Exception:
                log.exception(
                    "could not announce the end of turn of game %s (version %s is saved; "
                    "it will be announced again)",
                    game_id,
                    result.version,
                )
                return
            self._told[game_id] = result.version
        try:
            await self.services.schedule.announced(game_id, result.version)
        except Exception:
            log.exception(
                "game %s: told the channel about version %s, but could not note it (the note "
                "is tried again)",
                game_id,
                result.version,
            )
            return
        if self._told.get(game_id) == result.version:
            del self._told[game_id]

    async def _plan_turn(self, result: ActResult, locale: str) -> None:
        if not await self.play_plan(result, locale) and self.reminders is not None:
            await self.reminders.turn_started(result.game.id, locale)

    # --- plans --------------------------------------------------------------------------------

    async def play_plan(self, result: ActResult, locale: str) -> bool:
        """The turn that begins after `result` is a person's with a plan: take the plan (it
        is for this turn only) and play what it chooses from their own view, as their own
        moves (announced, undoable in their window), then tell them what it did. Returns
        whether it moved; never raises."""
        game = result.game
        player = game.current_player
        if result.state.is_over or player is None or player.user_id is None:
            return False
        assert player.seat is not None
        try:
            plan = await self.services.play.take_plan(game.id, player.seat)
            if plan is None:
                return False
            viewed = await self.services.play.seat_view(game.id, player.seat)
            if viewed.game.current_seat != player.seat:
                return False  # someone moved on meanwhile
            view, version = viewed.view, viewed.game.version
            skipped = skipped_rules(plan, view)
            steps: list[PlanStep] = []
            turn_left = True
            try:
                while len(steps) < MAX_PLAN_STEPS and (step := next_step(plan, view, steps)):
                    moved = await self.act(
                        game.id, player.user_id, step.move, version, locale=locale
                    )
                    steps.append(step)
                    version = moved.version
                    if moved.turn_over:
                        turn_left = False
                        break
                    view = moved.state.view(player.seat)
            except ServiceError as exc:  # the player moved first (or the rest was refused)
                log.info("game %s: the plan of seat %s stopped: %s", game.id, player.seat, exc.code)
            report = PlanReport(plan, skipped, tuple(steps), turn_left)
            if steps and turn_left and self.reminders is not None:
                await self.reminders.schedule_turn(game.id)  # their turn's deadline, no DM
            if self.messenger is not None:
                await self.messenger.plan_report(game, player, report, locale)
            return bool(steps)
        except Exception:
            log.exception("the plan of game %s, seat %s failed", game.id, player.seat)
            return False

    async def deliver(self, timer: TimerRow) -> None:
        """An `announce` timer fired: the channel was not told about a finished turn (the post
        was refused, or the bot stopped first). Tell it the game as it is now, after its last
        finished turn; if that fails again, try later, waiting twice as long each time."""
        game_id = timer.game_id
        result = await self.services.play.last_turn(game_id)
        if result is None:
            return
        locale = await self.services.people.game_locale(game_id)
        if self._told.get(game_id, -1) < result.version:
            try:
                await self.announcer.turn_over(result, locale)
            except Exception:
                waited = timer.due_at - timer.created_at
                again = min(max(waited * 2, ANNOUNCE_RETRY), ANNOUNCE_RETRY_MAX)
                log.warning("game %s: announcing failed again, next try in %s", game_id, again)
                version = timer.version if timer.version is not None else result.version
                now = self.services.clock.now()
                await self.services.schedule.announce_later(game_id, version, now + again)
                return
            self._told[game_id] = result.version
        # if this fails, the dispatcher tries the timer again: the post is not repeated
        await self.services.schedule.announced(game_id, result.version)
        if self._told.get(game_id) == result.version:
            del self._told[game_id]

    async def game_started(self, game_id: int, locale: str) -> None:
        """The first turn was shown: arm its timers and let a computer player open."""
        if self.reminders is not None:
            await self.reminders.turn_started(game_id, locale)
        self.drive_computers(game_id, locale)

    async def seat_handed_over(self, game_id: int, locale: str) -> None:
        """A computer player took over a seat: re-arm the timers, let it play if it is its turn."""
        if self.reminders is not None:
            await self.reminders.schedule_turn(game_id)
        self.drive_computers(game_id, locale)

    # --- computer players -------------------------------------------------------------------------

    def drive_computers(self, game_id: int, locale: str) -> None:
        """Let the computer players move in the background (if this flow has a background)."""
        if self._spawn is not None:
            self._spawn(self.play_computers(game_id, locale))

    async def play_computers(self, game_id: int, locale: str, *, attempt: int = 0) -> None:
        """Computer players take their turns, each announced, until a human is to play. One
        driver per game at a time; never raises. A turn that fails for any reason but the game
        moving on (a worker hung or dead, a full disk, a lost database connection) is tried
        again by a durable `computer` timer, sooner after a first failure than after the next
        (`attempt` counts them), and the periodic sweep would find the game anyway."""
        try:
            async with self._computer_locks.setdefault(game_id, asyncio.Lock()):
                while await self.computer_step(game_id, locale) is not None:
                    attempt = 0  # a move went through: any later failure is a first one
        except MOVED_ON as exc:  # a human acted meanwhile, or the game ended: nothing to do
            log.info("computer player of game %s stopped: %s", game_id, exc.code)
        except Exception as exc:
            if isinstance(exc, ServiceError):
                log.warning("computer player of game %s failed: %s", game_id, exc.code)
            else:
                log.exception("computer player of game %s failed", game_id)
            await self._computers_later(game_id, attempt)

    async def _computers_later(self, game_id: int, attempt: int) -> None:
        delay = retry_delay(attempt, COMPUTER_RETRY, COMPUTER_RETRY_MOST)
        metrics.COMPUTER_RETRIES.inc()
        try:
            due = self.services.clock.now() + delay
            await self.services.schedule.computers_later(game_id, due, attempt + 1)
        except Exception:  # the database refuses too: the sweep finds the game
            log.exception("game %s: could not arm the computer player's next try", game_id)
            return
        log.info("game %s: the computer player tries again in %s", game_id, delay)
        if self.wake is not None:
            self.wake()

    async def computers_due(self, timer: TimerRow) -> None:
        """A `computer` timer fired: the computer player whose turn failed tries again."""
        locale = await self.services.people.game_locale(timer.game_id)
        if self._spawn is not None:
            self._spawn(self.play_computers(timer.game_id, locale, attempt=timer.attempts))
        else:
            await self.play_computers(timer.game_id, locale, attempt=timer.attempts)

    async def sweep_computers(self, game_ids: list[int]) -> int:
        """Drive the computer players of these games (each waiting on one) that no driver of
        this process is moving now: whatever stopped them (a failure whose retry could not
        even be written, a lost task) they go on. Returns how many were started."""
        started = 0
        for game_id in game_ids:
            lock = self._computer_locks.get(game_id)
            if lock is not None and lock.locked():
                continue  # being played right now
            self.drive_computers(game_id, await self.services.people.game_locale(game_id))
            started += 1
        return started

    async def computer_step(self, game_id: int, locale: str) -> ActResult | None:
        """One decision of the computer player whose turn it is (announced if it ends the
        turn); None if a human is to play or the game is over."""
        game = await self.services.lobby.game(game_id)
        if game.status != "active" or game.current_seat is None:
            return None
        seat = game.at_seat(game.current_seat)
        if seat is None or not seat.is_computer:
            return None
        decision = await decide(self.services, game_id, game.current_seat, seat.level or "easy")
        if decision is None:
            return None
        result = await self.services.play.act_for_computer(
            game_id, game.current_seat, decision.action, decision.version
        )
        if result.turn_over:
            await self.turn_over(result, locale)
        return result

    # --- a silent player's turn -------------------------------------------------------------------

    async def play_for(
        self, game_id: int, seat: int, locale: str, level: str = STAND_IN_LEVEL
    ) -> ActResult | None:
        """A computer player of `level` (the game's stand-in) finishes a human's turn from
        wherever they left it."""
        while True:
            decision = await decide(self.services, game_id, seat, level)
            if decision is None:
                return None
            result = await self.services.play.act_for_timeout(
                game_id, seat, decision.action, decision.version
            )
            if result.turn_over:
                await self.turn_over(result, locale)
                return result

    async def skip(self, game_id: int, seat: int, locale: str) -> ActResult:
        """Skip a human's turn; a turn only waiting for its confirmation is ended as played."""
        viewed = await self.services.play.seat_view(game_id, seat)
        confirm = any(isinstance(a, EndTurn) for a in viewed.view.legal)
        action = EndTurn() if confirm else Skip()
        result = await self.services.play.act_for_timeout(
            game_id, seat, action, viewed.game.version
        )
        await self.turn_over(result, locale)
        return result
