"""Pictures and computer players' decisions in worker processes, off the event loop.

Pillow's drawing and the computer players are Python code that holds the GIL, so worker
*threads* still stall the event loop while they run: measured with board-like pictures on two
cores, event-loop lag p99 was 38-81 ms with threads against 4-27 ms with a process pool whose
workers load fonts and sprites once. A stalled loop answers every other player late.

So the bot sends each such job, a plain module-level function and picklable arguments, to a
`ProcessPoolExecutor`: `size` workers (`ALHAMBRA_WORKERS`, default cores - 1), started with the
`spawn` method (no copy of the bot's sockets or database connection in a child), each warmed up
once by `initializer`, replaced after about `max_tasks` jobs each (a leak in a library cannot
grow forever), and each job given `timeout` seconds (and as much again per round of jobs queued
ahead of it, so a long queue is not mistaken for a stuck worker): past it the pool is torn down
and started again (a stuck worker cannot be cancelled otherwise) and the caller gets `Busy`.
With size 0 the jobs run in a thread, as the terminal game and most tests do. A worker whose
bot died without closing the pool (SIGKILL) notices within a second and exits: no orphans.

The pool heals itself. A worker that dies (the OOM killer, a crash in a library, `kill -9`)
breaks a `ProcessPoolExecutor` for good: every later submit raises `BrokenProcessPool`. So a
job that meets a broken pool, at submit or while it runs, gets a fresh pool and one more try
(jobs are pure functions: running one twice is safe), and `Busy` only if that fails too; and
`supervise` looks every few seconds, so a worker that died while idle is replaced before a
user meets it. A replaced pool is stopped in a thread, its processes killed and its queue told
not to flush into them, so neither the event loop nor the bot's exit waits on a dead pool.

Workers are replaced by retiring the whole pool, not by `max_tasks_per_child`: on CPython 3.11 a
pool whose worker exits after its quota while jobs are queued can lose a job for good (measured:
one worker, a quota of 5, seven jobs at a time: every round hung until the timeout), which under
load showed as a 30 s wait and a restart every few thousand pictures. A retired pool finishes
what it holds while a fresh one takes new jobs.

The bot installs its pool with `install`; code that renders or decides asks `current()`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..ops import metrics, tasks
from .errors import Busy

log = logging.getLogger("alhambra.workers")

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 30.0
#: Jobs a worker does before it is replaced by a fresh one.
MAX_TASKS_PER_WORKER = 500
#: Seconds between two looks at the pool's health (`Workers.supervise`).
SUPERVISE_EVERY_S = 5.0


class Workers:
    """A pool of worker processes (or, with size 0, a thread per job)."""

    def __init__(
        self,
        size: int = 0,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_tasks: int = MAX_TASKS_PER_WORKER,
        initializer: Callable[[], None] | None = None,
    ) -> None:
        self.size = max(0, size)
        self.timeout = timeout
        self.max_tasks = max_tasks
        self.initializer = initializer
        self._pool: ProcessPoolExecutor | None = None
        self._pending = 0
        #: jobs sent to the current pool (it is retired after `size * max_tasks`)
        self._jobs = 0
        self._closed = False
        #: pools being stopped in the background after a restart (`close` waits for them)
        self._stopping: set[asyncio.Future[None]] = set()
        #: pools retired after their quota of jobs, finishing what they hold
        self._retiring: set[ProcessPoolExecutor] = set()
        #: how many times the pool was replaced (for logs, tests and health checks)
        self.restarts = 0

    @property
    def pooled(self) -> bool:
        return self._pool is not None

    def start(self) -> None:
        """Start the worker processes (they warm up in the background)."""
        if self.size and self._pool is None and not self._closed:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_started,
                initargs=(os.getpid(), self.initializer),
            )
            self._jobs = 0
            # the pool starts a process per job up to its size: start them all now, so they
            # warm up before the first picture (or the first one after a restart) waits
            for _ in range(self.size):
                self._pool.submit(os.getpid).add_done_callback(_ignore)
            log.info("workers started: %d processes", self.size)

    def pids(self) -> list[int]:
        """The worker processes alive now (for tests and health checks)."""
        if self._pool is None:
            return []
        processes = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None and p.is_alive()]

    async def run(
        self, metric: Callable[[float], None], fn: Callable[..., T], /, *args: Any, **kw: Any
    ) -> T:
        """`fn(*args, **kw)` in a worker; `metric` gets the seconds it took, waiting included.
        Raises `Busy` when it took longer than the timeout."""
        call = functools.partial(fn, *args, **kw)
        started = time.perf_counter()
        self._pending += 1
        metrics.POOL_QUEUE.set(self._pending)
        try:
            if self._pool is None:
                result = await asyncio.to_thread(call)
            else:
                result = await self._in_pool(call)
        finally:
            self._pending -= 1
            metrics.POOL_QUEUE.set(self._pending)
        metric(time.perf_counter() - started)
        return result

    async def _in_pool(self, call: Callable[[], T]) -> T:
        """`call` in the pool; a pool found broken (a worker died, now or while idle) is
        replaced and the job tried once more on the fresh one."""
        loop = asyncio.get_running_loop()
        # the timeout is for a job's own run: one that waits behind others in the queue gets
        # a turn of `timeout` per round of jobs ahead of it, so a busy queue is not taken
        # for a stuck worker (a restart would drop every job queued, and each would wait
        # again). A stuck job itself went in when the queue was as it was: it is found as soon.
        allowed = self.timeout * max(1, math.ceil(self._pending / self.size))
        for attempt in (1, 2):
            pool = self._pool
            if pool is None:
                raise Busy()  # closed: the bot is stopping
            self._jobs += 1
            if self._jobs > self.size * self.max_tasks:
                self._retire(pool)
                pool = self._pool
                if pool is None:
                    raise Busy()
                self._jobs += 1
            try:
                # raises at once if the pool broke while idle, or was just replaced
                future = loop.run_in_executor(pool, call)
            except RuntimeError:  # BrokenProcessPool, or "cannot schedule ... after shutdown"
                pass
            else:
                try:
                    return await asyncio.wait_for(future, allowed)
                except TimeoutError:
                    metrics.POOL_TIMEOUTS.inc()
                    log.error("a worker job ran over %.0f s: restarting the workers", allowed)
                    self._restart(pool)
                    raise Busy() from None
                except BrokenProcessPool:
                    pass
                except asyncio.CancelledError:
                    if tasks.being_cancelled():
                        raise  # the caller is being cancelled: let it go
                    # the job waited in a pool replaced meanwhile (another job ran over its
                    # time), which dropped what it had queued: try it in the fresh one
                    if attempt == 1:
                        log.warning("a job queued in a replaced pool: trying it again")
                        continue
                    raise Busy() from None
            log.error(
                "a worker process died: restarting the workers%s",
                ", and trying the job again" if attempt == 1 else "",
            )
            self._restart(pool)
        raise Busy()

    def check(self) -> bool:
        """Replace the pool if a worker died (while idle, or killed from outside); returns
        whether it was healthy."""
        pool = self._pool
        if pool is None:
            return True
        broken = getattr(pool, "_broken", False)
        processes = list((getattr(pool, "_processes", None) or {}).values())
        crashed = [p.pid for p in processes if p.exitcode is not None and p.exitcode != 0]
        if not broken and not crashed:
            return True
        log.error("a worker process died (%s): restarting the workers", broken or crashed)
        self._restart(pool)
        return False

    async def supervise(self, every: float = SUPERVISE_EVERY_S) -> None:
        """Look at the pool every `every` seconds, for as long as the bot runs (a task of
        its own, cancelled at close)."""
        while not self._closed:
            await asyncio.sleep(every)
            try:
                self.check()
            except Exception:
                log.exception("checking the workers failed")

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        """Replace the pool a job failed in, once: the other jobs that were in it fail too, and
        must not each start yet another pool. The old one is stopped in a thread: joining
        its processes must not hold up the event loop."""
        if self._pool is not broken:
            if broken in self._retiring:  # a retired pool stuck on its last jobs
                self._retiring.discard(broken)
                self._in_background(_stop, broken, False)
            return
        self._pool = None
        self.restarts += 1
        metrics.POOL_RESTARTS.inc()
        self.start()
        self._in_background(_stop, broken, False)

    def _in_background(self, fn: Callable[..., None], *args: Any) -> None:
        """Stop a pool in a thread; `close` waits for it."""
        stopping = asyncio.get_running_loop().run_in_executor(None, fn, *args)
        self._stopping.add(stopping)
        stopping.add_done_callback(self._stopping.discard)

    def _retire(self, old: ProcessPoolExecutor) -> None:
        """Send new jobs to a fresh pool; the old one finishes the jobs it holds, then its
        processes exit (waited for in a thread, and by `close`)."""
        self._pool = None
        self.start()
        log.info("workers replaced after %d jobs each", self.max_tasks)
        self._retiring.add(old)
        self._in_background(_retired, old, self._retiring)

    async def close(self) -> None:
        """Stop the workers and wait for them: nothing is left running after the bot."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(_stop, pool, True)
            log.info("workers stopped")
        for retired in list(self._retiring):  # two seconds to finish, as the current pool
            await asyncio.to_thread(_stop, retired, True)
        if self._stopping:
            await asyncio.gather(*self._stopping, return_exceptions=True)


def _ignore(future: Future[int]) -> None:
    """A warm-up job's outcome: nobody waits for it (a pool broken meanwhile is replaced)."""
    if not future.cancelled():
        future.exception()


def _worker_started(parent: int, initializer: Callable[[], None] | None) -> None:
    """In each worker: follow the bot out if it dies without closing the pool (SIGKILL, the
    OOM killer), then warm up."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    if initializer is not None:
        initializer()


def _retired(pool: ProcessPoolExecutor, retiring: set[ProcessPoolExecutor]) -> None:
    """A retired pool: its queued and running jobs finish, then its workers exit."""
    pool.shutdown(wait=True)
    retiring.discard(pool)


def _stop(pool: ProcessPoolExecutor, graceful: bool) -> None:
    """Shut a pool down now: queued jobs are dropped, running ones killed, processes reaped.

    `graceful` (the bot is closing, its jobs are done) gives the workers two seconds to finish;
    a pool being replaced is broken or stuck, so its workers are killed at once (SIGKILL ends
    a stopped process too). Either way its queue must not wait to flush a job into a worker
    that will never read it: the interpreter's exit joins the pool's threads, and would wait
    for that forever."""
    call_queue = getattr(pool, "_call_queue", None)
    if call_queue is not None:
        call_queue.cancel_join_thread()
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + (2.0 if graceful else 0.0)
    for process in processes:
        process.join(timeout=max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join()


_current = Workers(0)


def current() -> Workers:
    """The workers of this process: the bot's pool once installed, else a thread per job."""
    return _current


def install(workers: Workers) -> None:
    global _current
    _current = workers
