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
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Literal

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
from ..core.records import GameInfo, Shards, TimerRow
from ..core.results import ActResult, GameLog
from ..core.services import Services
from ..ops import logs, metrics, tasks
from .computers import decide
from .ports import Announcer, ChannelRefused, Delivery, MessageRef, Messenger, Spawn, Wake
from .reminders import Reminders
from .telling import Telling, TurnDm, soonest, tell
from .timers import retry_delay

log = logging.getLogger("alhambra.turns")

#: start-up recovery that failed is tried again after this many seconds, doubling, at most
STARTUP_WAIT_FIRST = 1.0
STARTUP_WAIT_MOST = 30.0
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
#: failed tries in a row after which a computer player's decision is a cheap level's
CHEAPER_AFTER = 3
CHEAP_LEVELS = frozenset({"random", "easy"})
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
        #: the failed tries in a row of each game's computer player (none once one moves)
        self._computer_failures: dict[int, int] = {}
        #: turns this process posted whose note it could not write yet (game id to version and
        #: the message on show): a retry notes it without posting the turn twice
        self._posted: dict[int, tuple[int, MessageRef | None]] = {}
        #: the turn each game is at, as this process last told it (when it started): a turn
        #: DM waiting in the background is not sent once a later turn was told
        self._current: dict[int, datetime | None] = {}

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
        result = await self.services.play.act(
            game_id, user_id, action, version, undo_window=self.undo_window
        )
        # Saved. From here on nothing may raise: the player must never hear that a move the
        # store accepted failed, and what follows it heals by itself when it fails.
        try:
            if result.ends_at is not None and self.wake is not None:
                self.wake(result.ends_at)
            if result.end_now:
                result = await self._end_at_once(result, user_id)
            if result.turn_over:
                result = await self.turn_over(result, locale)
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
                self.wake(due)
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
        return await self.turn_over(result, locale)

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

    async def turn_over(
        self, result: ActResult, locale: str, *, drive: bool = True, follow_up: bool = True
    ) -> ActResult:
        """Tell the table about a finished turn, then everything that follows it; returns the
        result with all that telling it needed (`ActResult.told`).

        What is told and to whom is `telling.tell`'s decision, from the result alone (the move
        read all it needs); the announcer posts it and says which turn message is on show; one
        write then notes the turn told, keeps that message and arms the next turn's reminder
        and deadline; then the next person gets their DM (`follow_up`), or their plan plays
        (`follow_up`), or the computer players move (`drive`). The move is saved before this
        runs, so nothing here may raise or wait for the world: its transaction recorded that
        the turn must be told (an `announce` timer), so a post that fails, or a note that
        cannot be written, is tried again (`deliver`), and turns left without timers are
        found by the sweep (`Reminders.recover`)."""
        game = result.game
        try:
            if result.told is None:
                result = replace(result, told=await self.services.play.told(result))
            telling = await self._telling(result, locale)
        except Exception:  # a fault of ours: the announce timer tells the turn later
            log.exception(
                "game %s: could not decide how to tell version %s", game.id, result.version
            )
            if drive:
                self.drive_computers(game.id, locale)
            return result
        message = await self._announce(result, telling, locale)
        await self._note_told(result, telling, message)
        self._current[game.id] = game.turn_started_at
        if follow_up and telling.plan:  # its moves are a turn of their own
            if self._spawn is not None:
                self._spawn(self._plan_turn(result, locale))
            else:
                await self._plan_turn(result, locale)
        elif follow_up and telling.dm is not None and self.messenger is not None:
            shown = message if isinstance(message, tuple) else None
            if self._spawn is not None:
                self._spawn(self._turn_dm(telling.dm, shown))
            else:
                await self._turn_dm(telling.dm, shown)
        if drive and telling.computer_next:
            self.drive_computers(game.id, locale)
        return result

    async def _telling(self, result: ActResult, locale: str) -> Telling:
        """`telling.tell` for `result`, with the game's log when a computer player's turns
        must be told together, and the results' animation frames when the game is over."""
        told = result.told
        assert told is not None
        log_ = None
        if result.seat.is_computer and told.actions is not None:
            log_ = await asyncio.to_thread(GameLog.rebuild, result.game, told.actions)
        telling = tell(result, self.services.clock.now(), locale, log_)
        if telling.over:
            try:
                telling = replace(
                    telling, growth=await self.services.archive.growth(result.game.id)
                )
            except Exception:  # a nicety: it never holds the results back
                log.exception("the growth animation of game %s failed", result.game.id)
        return telling

    async def _announce(
        self, result: ActResult, telling: Telling, locale: str
    ) -> MessageRef | Literal["kept"] | None:
        """Post what `telling` says; the turn message now on show (None: none), or "kept" when
        the channel could not be told (left to the `announce` timer). A turn this process
        already posted, whose note failed, is not posted again."""
        game_id = result.game.id
        posted = self._posted.get(game_id)
        if posted is not None and posted[0] >= result.version:
            return posted[1]
        try:
            shown = await self.announcer.turn_over(result, telling, locale)
        except ChannelRefused as refused:
            log.warning("game %s: %s; it will be told again later", game_id, refused)
            await self._tell_owner(result.game, refused, locale)
            return "kept"
        except Exception:
            log.exception(
                "could not announce the end of turn of game %s (version %s is saved; "
                "it will be announced again)",
                game_id,
                result.version,
            )
            return "kept"
        self._posted[game_id] = (result.version, shown)
        return shown

    async def _note_told(
        self, result: ActResult, telling: Telling, message: MessageRef | Literal["kept"] | None
    ) -> None:
        """One write after telling: the turn noted as told with its message on show, and the
        next turn's reminder and deadline. If it fails, the `announce` timer notes the turn
        again (without posting it twice) and the sweep arms the timers."""
        game = result.game
        timers = telling.timers if self.reminders is not None else ()
        try:
            await self.services.schedule.turn_told(
                game.id,
                version=result.version,
                turn_started_at=game.turn_started_at,
                message=message,
                timers=timers,
            )
        except Exception:
            log.exception(
                "game %s: told version %s, but could not note it (the note is tried again)",
                game.id,
                result.version,
            )
            return
        if message != "kept" and self._posted.get(game.id, (-1, None))[0] == result.version:
            del self._posted[game.id]
        due = soonest(timers)
        if due is not None and self.wake is not None:
            self.wake(due)

    async def _turn_dm(self, dm: TurnDm, shown: MessageRef | None) -> None:
        """The DM opening a person's turn, unless the turn is already over; a refused DM makes
        a mention in the channel instead. Never raises."""
        try:
            if self._current.get(dm.game.id) != dm.game.turn_started_at:
                return  # a later turn was told meanwhile: this one is over
            if dm.log is None and dm.actions is not None:
                dm = replace(dm, log=await asyncio.to_thread(GameLog.rebuild, dm.game, dm.actions))
            assert self.messenger is not None
            delivery = await self.messenger.turn_dm(dm, shown)
            if delivery is Delivery.REFUSED and self.reminders is not None:
                await self.reminders.dm_refused(dm.game, dm.user_id)
        except Exception:
            log.exception("turn DM of game %s failed", dm.game.id)

    async def _tell_owner(self, game: GameInfo, refused: ChannelRefused, locale: str) -> None:
        """Tell the server's owner, once per channel, that the bot may not post there."""
        if self.messenger is None or refused.owner_id is None:
            return
        key = f"told-owner:{game.channel_id}"
        try:
            if await self.services.people.meta(key):
                return
            delivery = await self.messenger.owner_notice(
                refused.owner_id, locale, refused.server, refused.channel
            )
            if delivery is Delivery.SENT:
                await self.services.people.set_meta(key, str(game.id))
        except Exception:
            log.exception("game %s: could not tell the server's owner", game.id)

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
        if result.is_over or player is None or player.user_id is None:
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
                    view = moved.own
            except ServiceError as exc:  # the player moved first (or the rest was refused)
                log.info("game %s: the plan of seat %s stopped: %s", game.id, player.seat, exc.code)
            report = PlanReport(plan, skipped, tuple(steps), turn_left)
            if steps and turn_left and self.reminders is not None:
                await self.reminders.schedule_turn(game.id)  # their turn's deadline, no DM
            if self.messenger is not None:
                mine = await self.services.people.dm_locale(player.user_id, locale)
                shown = await self.services.people.message_ref(game.id, "turn")
                await self.messenger.plan_report(game, player.user_id, report, mine, shown)
            return bool(steps)
        except Exception:
            log.exception("the plan of game %s, seat %s failed", game.id, player.seat)
            return False

    async def deliver(self, timer: TimerRow) -> None:
        """An `announce` timer fired: the channel was not told about a finished turn (the post
        was refused, or the bot stopped first), or the note that it was told failed. Tell it
        the game as it is now, after its last finished turn (once: a turn this process posted
        is only noted); if that fails again, try later, waiting twice as long each time. The
        next player was told of their turn when it began; the computers move if it is theirs."""
        game_id = timer.game_id
        result = await self.services.play.last_turn(game_id)
        if result is None:
            return
        locale = await self.services.people.game_locale(game_id)
        telling = await self._telling(result, locale)
        message = await self._announce(result, telling, locale)
        if message == "kept":
            waited = timer.due_at - timer.created_at
            again = min(max(waited * 2, ANNOUNCE_RETRY), ANNOUNCE_RETRY_MAX)
            log.warning("game %s: announcing failed again, next try in %s", game_id, again)
            version = timer.version if timer.version is not None else result.version
            now = self.services.clock.now()
            await self.services.schedule.announce_later(game_id, version, now + again)
            return
        # if this fails, the dispatcher tries the timer again: the post is not repeated
        await self.services.schedule.turn_told(
            game_id,
            version=result.version,
            turn_started_at=result.game.turn_started_at,
            message=message,
            timers=telling.timers if self.reminders is not None else (),
        )
        if self._posted.get(game_id, (-1, None))[0] == result.version:
            del self._posted[game_id]
        if telling.computer_next:
            self.drive_computers(game_id, locale)

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
        # a sweep or a restart of the drive starts at 0: the failures in a row are this
        # process's count, so the cheaper level still comes after the same few tries
        attempt = max(attempt, self._computer_failures.get(game_id, 0))
        try:
            async with self._computer_locks.setdefault(game_id, asyncio.Lock()):
                while (
                    step := await self.computer_step(game_id, locale, attempt=attempt)
                ) is not None:
                    if step.turn_over:  # the turn went through: a later failure is a first one
                        attempt = 0  # (within the turn, a cheaper level decides to its end)
                        self._computer_failures.pop(game_id, None)
            self._computer_failures.pop(game_id, None)
        except MOVED_ON as exc:  # a human acted meanwhile, or the game ended: nothing to do
            self._computer_failures.pop(game_id, None)
            log.info("computer player of game %s stopped: %s", game_id, exc.code)
        except (Exception, asyncio.CancelledError) as exc:
            if isinstance(exc, asyncio.CancelledError) and tasks.being_cancelled():
                raise  # the bot is stopping
            if isinstance(exc, ServiceError):
                log.warning("computer player of game %s failed: %s", game_id, exc.code)
            else:
                log.exception("computer player of game %s failed", game_id)
            self._computer_failures[game_id] = attempt + 1
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
        idle = [g for g in game_ids if not self._driving(g)]
        locales = await self.services.people.game_locales(idle) if idle else {}
        for game_id in idle:
            if self._driving(game_id):
                continue  # being played right now
            self.drive_computers(game_id, locales[game_id])
            started += 1
        return started

    def _driving(self, game_id: int) -> bool:
        lock = self._computer_locks.get(game_id)
        return lock is not None and lock.locked()

    async def start_up(
        self,
        shards: Shards | None = None,
        *,
        stop: Callable[[], bool] = lambda: False,
        first_wait: float = STARTUP_WAIT_FIRST,
        most_wait: float = STARTUP_WAIT_MOST,
    ) -> tuple[int, int, int] | None:
        """What a start-up owes the games of its servers (`shards`): turns left without timers
        get them (`Reminders.recover`), computer players move and held turns end (`resume`).
        A failure (the database gone for a moment) is tried again after a doubling wait, until
        it succeeds or `stop()` (the bot closing: None). Returns (turns armed, computer players
        set going, turns ended)."""
        wait, attempt = first_wait, 1
        while True:
            try:
                armed = await self.reminders.recover(shards) if self.reminders is not None else 0
                started, ended = await self.resume(shards)
                return armed, started, ended
            except Exception as exc:
                if stop():
                    return None
                log.warning(
                    "start-up recovery failed (%s: %s): trying again in %.0f s (attempt %d)",
                    type(exc).__name__,
                    exc,
                    wait,
                    attempt,
                )
            await asyncio.sleep(wait)
            if stop():
                return None
            wait, attempt = min(wait * 2, most_wait), attempt + 1

    async def resume(self, shards: Shards | None = None) -> tuple[int, int]:
        """At start-up, for the games of the servers on `shards` (all, if None): computer
        players whose turn came while the bot was down play it now, and a turn a stop left
        waiting for a confirmation its player never wants to give is ended. Each kind is found
        in one query, so the work is the games that need it, not every game. Returns (computer
        players set going, turns ended)."""
        schedule = self.services.schedule
        started = await self.sweep_computers(await schedule.games_waiting_on_computers(shards))
        ended = 0
        waiting = await schedule.games_waiting_on_humans(shards=shards, mid_turn=True)
        locales = await self.services.people.game_locales(waiting) if waiting else {}
        for game_id in waiting:
            if await self.finish_automatic_turn(game_id, locales[game_id]) is not None:
                ended += 1
        return started, ended

    async def computer_step(
        self, game_id: int, locale: str, *, attempt: int = 0
    ) -> ActResult | None:
        """One decision of the computer player whose turn it is (announced if it ends the
        turn); None if a human is to play or the game is over. After `CHEAPER_AFTER` failed
        tries in a row (`attempt`) the decision is the `easy` level's, which takes
        milliseconds: a machine too loaded for a `hard` decision within the workers' time
        would otherwise hold the game for as long as the load lasts."""
        game = await self.services.lobby.game(game_id)
        if game.status != "active" or game.current_seat is None:
            return None
        seat = game.at_seat(game.current_seat)
        if seat is None or not seat.is_computer:
            return None
        level = seat.level or "easy"
        if attempt >= CHEAPER_AFTER and level not in CHEAP_LEVELS:
            log.warning(
                "game %s: the %s computer player failed %d times in a row: easy decides",
                game_id,
                level,
                attempt,
            )
            metrics.COMPUTER_CHEAPER.inc()
            level = "easy"
        decision = await decide(self.services, game_id, game.current_seat, level)
        if decision is None:
            return None
        result = await self.services.play.act_for_computer(
            game_id, game.current_seat, decision.action, decision.version
        )
        if result.turn_over:
            result = await self.turn_over(result, locale, drive=False)  # this driver goes on
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
                return await self.turn_over(result, locale)

    async def skip(self, game_id: int, seat: int, locale: str) -> ActResult:
        """Skip a human's turn; a turn only waiting for its confirmation is ended as played."""
        viewed = await self.services.play.seat_view(game_id, seat)
        confirm = any(isinstance(a, EndTurn) for a in viewed.view.legal)
        action = EndTurn() if confirm else Skip()
        result = await self.services.play.act_for_timeout(
            game_id, seat, action, viewed.game.version
        )
        return await self.turn_over(result, locale)
