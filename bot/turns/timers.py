"""The durable timer dispatcher: one task that sleeps until the soonest timer in the database.

Reminders and deadlines are rows of the `timers` table, so they survive restarts. The
dispatcher knows timer kinds, not what they do: its owner hands it one handler per kind. It
claims due timers with a lease (processes sharing the database claim different ones), handles
them, then deletes them. A process that dies holding a claim leaves its timers to be fired again
once the lease runs out, so a timer fires at least once and exactly once while processes live;
the handlers check the game's version, so a second firing changes nothing. At start-up overdue
timers fire at once. Adding a sooner timer calls `wake()`, which cuts the sleep short; on
PostgreSQL every process also hears of the timers any other process writes or gives back
(`Schedule.timer_listener`: NOTIFY at commit, one listening connection that reconnects by
itself) and re-plans, so a timer another process wrote, or left behind when it died, fires when
it is due (or, when its claimant died holding it, when the lease runs out: the sleep is bounded
by the soonest due time or lease end, `next_timer_due`), not at the next poll. The poll
(`max_sleep`) stays as the fallback, for SQLite and while the listener reconnects. Time
comes from the services' injected clock: tests move a `ManualClock` and `await run_due()`
instead of sleeping for hours.

Nothing here waits for a restart. A handler that raises (a worker pool down, a full disk, a
database blip) leaves its timer due again after a back-off that doubles with each failure
(`retry_delay`), instead of losing it: a deadline, a held turn or an announcement happens late,
never not at all. A run that fails as a whole (claiming is a write) is tried again within
seconds (`FAILED_RUN_WAIT`), not after the longest sleep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta

from ..core.records import TimerKind, TimerRow
from ..core.services import Services
from ..ops import logs, metrics, tasks

log = logging.getLogger("alhambra.timers")

Handler = Callable[[TimerRow], Awaitable[None]]

#: how long a claimed timer is this process's: longer than any handler takes (a computer move
#: for a missed deadline, a DM), short enough that a crash delays a reminder only a little
DEFAULT_LEASE = timedelta(minutes=2)
#: A failed handler's timer is due again after this, doubling with each failure, up to the most.
RETRY_FIRST = timedelta(seconds=5)
RETRY_MOST = timedelta(minutes=5)
#: After a run that failed as a whole: wait this long, doubling, up to the most (seconds).
FAILED_RUN_WAIT = 1.0
FAILED_RUN_WAIT_MOST = 10.0


def retry_delay(
    attempts: int, first: timedelta = RETRY_FIRST, most: timedelta = RETRY_MOST
) -> timedelta:
    """How long to wait before the try that follows `attempts` failures: `first`, doubling."""
    return min(first * (1 << min(attempts, 20)), most)


def process_name() -> str:
    """Who claims: this host and process, and a random tag (a pid can be reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class TimerDispatcher:
    """Fires the timers of `services` through the handler of their kind, each exactly once.

    `ready` is awaited before the first run (the bot's connection), `on_start` once after it
    (re-arming what a stop left without timers). `max_sleep` bounds a sleep, so a clock that
    jumps (a suspended laptop) is noticed; a real timer never depends on it. `listen=False`
    leaves other processes' timers to that poll (as before the listener; for measuring it).
    """

    def __init__(
        self,
        services: Services,
        handlers: Mapping[TimerKind, Handler],
        *,
        ready: Callable[[], Awaitable[object]] | None = None,
        on_start: Callable[[], Awaitable[object]] | None = None,
        max_sleep: float = 300.0,
        lease: timedelta = DEFAULT_LEASE,
        owner: str | None = None,
        batch: int = 50,
        listen: bool = True,
    ) -> None:
        self.services = services
        self.lease = lease
        #: timers claimed at a time (others' to claim meanwhile)
        self.batch = batch
        #: the name this dispatcher claims timers under
        self.owner = owner or process_name()
        self._handlers = dict(handlers)
        self._ready = ready
        self._on_start = on_start
        self.max_sleep = max_sleep
        self._wake = asyncio.Event()
        #: set when a timer heard of moved the next look earlier (sleep on, to the new time)
        self._replan = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        #: whether to hear of other processes' timers (False: find them by polling only)
        self.listen = listen
        self._stopping = False
        #: when the loop looks at the timers next (None: it is looking now, or has not slept)
        self._next_look: datetime | None = None
        #: how many timers this dispatcher has fired (for logs and tests)
        self.fired = 0
        self.started = asyncio.Event()

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None:
            self._task = loop.create_task(self._run(), name="timers")
        if self._listener is None and self.listen:
            listening = self.services.schedule.timer_listener(self.heard)
            if listening is not None:
                self._listener = loop.create_task(listening, name="timer-listener")

    def heard(self, due: datetime | None) -> None:
        """Another process (or this one) wrote a timer due at `due`, or gave timers back, or
        the listener reconnected (`None`: look again now). A timer due later than the next look
        changes nothing; one due sooner, but not yet, only moves the next look earlier (no
        query: a busy cluster writes timers all the time); one due now is looked at now."""
        if self._stopping:
            return
        if due is None or due <= self.services.clock.now():
            self.wake()
        elif self._next_look is not None and due < self._next_look:
            self._next_look = due
            self._replan.set()

    def wake(self, due: datetime | None = None) -> None:
        """Look at the timers again now (one was added or moved sooner); given `due`, the
        soonest of the timers just armed, only if that is before the next look anyway."""
        if due is not None and self._next_look is not None and due >= self._next_look:
            return
        self._wake.set()

    async def stop(self, timeout: float = 10.0) -> None:
        """Let a timer being handled finish, then end the task."""
        self._stopping = True
        self._wake.set()
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await listener
        task, self._task = self._task, None
        if task is None:
            return
        if not self.started.is_set():  # still waiting for the bot to be ready: nothing to finish
            task.cancel()
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        except asyncio.CancelledError:
            if not task.cancelled():
                raise
        except Exception:
            log.exception("the timer dispatcher failed")
        with contextlib.suppress(Exception):  # claimed and not handled: others may take them
            await self.services.schedule.release_timers(self.owner)

    async def run_due(self) -> int:
        """Fire every timer due now, soonest first; returns how many fired."""
        fired = 0
        async with self._lock:
            while not self._stopping:
                due = await self.services.schedule.claim_timers(
                    self.owner, lease=self.lease, limit=self.batch
                )
                if not due:
                    break
                for timer in due:
                    if self._stopping:
                        break
                    if not await self.services.schedule.holds_timer(timer.id, self.owner):
                        continue  # an earlier handler of this batch re-armed or ended it
                    fired += 1
                    self.fired += 1
                    late = (self.services.clock.now() - timer.due_at).total_seconds()
                    metrics.TIMER_LAG.observe(max(0.0, late))
                    handler = self._handlers.get(timer.kind)
                    if handler is None:
                        log.warning("no handler for %s timers (timer %s)", timer.kind, timer.id)
                    elif not await self._handle(handler, timer):
                        # failed: due again later, never lost (handlers are idempotent)
                        metrics.TIMER_RETRIES.inc()
                        again = self.services.clock.now() + retry_delay(timer.attempts)
                        await self.services.schedule.retry_timer(
                            timer.id, self.owner, again, timer.attempts + 1
                        )
                        continue
                    await self.services.schedule.finish_timer(timer.id, self.owner)
        return fired

    async def _handle(self, handler: Handler, timer: TimerRow) -> bool:
        """Run the timer's handler; False if it raised (logged)."""
        # what the handler logs says which timer and game it was for
        with logs.bound(timer=timer.kind, game=timer.game_id):
            try:
                await handler(timer)
            except (Exception, asyncio.CancelledError) as exc:
                if isinstance(exc, asyncio.CancelledError) and tasks.being_cancelled():
                    raise  # the dispatcher is stopping
                log.exception(
                    "timer %s (%s, game %s) failed (attempt %d): trying again in %s",
                    timer.id,
                    timer.kind,
                    timer.game_id,
                    timer.attempts + 1,
                    retry_delay(timer.attempts),
                )
                return False
        return True

    async def _run(self) -> None:
        if self._ready is not None:
            await self._ready()
        if self._on_start is not None:
            try:
                await self._on_start()
            except Exception:
                log.exception("re-arming timers at start-up failed")
        self.started.set()
        failed_wait = FAILED_RUN_WAIT
        while not self._stopping:
            self._wake.clear()
            self._next_look = None
            delay = self.max_sleep
            try:
                await self.run_due()
                soonest = await self.services.schedule.next_timer_due()
            except (Exception, asyncio.CancelledError) as exc:
                if isinstance(exc, asyncio.CancelledError) and tasks.being_cancelled():
                    raise  # stopped: the loop ends
                # the database refused (full, or gone for a moment): look again in seconds
                log.exception("timer dispatcher run failed: trying again in %.0f s", failed_wait)
                delay, failed_wait = failed_wait, min(failed_wait * 2, FAILED_RUN_WAIT_MOST)
            else:
                failed_wait = FAILED_RUN_WAIT
                if soonest is not None:
                    left = (soonest - self.services.clock.now()).total_seconds()
                    # a handler that re-armed a timer in the past must not make this spin
                    delay = min(self.max_sleep, max(left, 1.0))
            if self._stopping:
                break
            self._next_look = self.services.clock.now() + timedelta(seconds=delay)
            await self._sleep()

    async def _sleep(self) -> None:
        """Until the next look, or a wake; a timer heard of that is due sooner moves the next
        look earlier (`heard`) and the sleep goes on to it."""
        while not self._stopping and not self._wake.is_set():
            assert self._next_look is not None
            left = max(0.0, (self._next_look - self.services.clock.now()).total_seconds())
            self._replan.clear()
            woken = asyncio.ensure_future(self._wake.wait())
            replanned = asyncio.ensure_future(self._replan.wait())
            try:
                done, _ = await asyncio.wait(
                    {woken, replanned}, timeout=left, return_when=asyncio.FIRST_COMPLETED
                )
            finally:
                woken.cancel()
                replanned.cancel()
            if not done:
                return  # time to look
