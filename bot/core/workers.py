"""Pictures and computer players' decisions in worker processes, off the event loop.

Pillow's drawing and the computer players are Python code that holds the GIL, so worker
*threads* still stall the event loop while they run: measured with board-like pictures on two
cores, event-loop lag p99 was 38-81 ms with threads against 4-27 ms with a process pool whose
workers load fonts and sprites once. A stalled loop answers every other player late.

So the bot sends each such job, a plain module-level function and picklable arguments, to a
`ProcessPoolExecutor`: `size` workers (`ALHAMBRA_WORKERS`, default cores - 1), started with the
`spawn` method (no copy of the bot's sockets or database connection in a child), each warmed up
once by `initializer`, replaced after `max_tasks` jobs (a leak in a library cannot grow
forever), and each job given `timeout` seconds: past it the pool is torn down and started
again (a stuck worker cannot be cancelled otherwise) and the caller gets `Busy`. With size 0
the jobs run in a thread, as the terminal game and most tests do. A worker whose bot died
without closing the pool (SIGKILL) notices within a second and exits: no orphans.

The bot installs its pool with `install`; code that renders or decides asks `current()`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from . import metrics
from .errors import Busy

log = logging.getLogger("alhambra.workers")

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 30.0
#: Jobs a worker does before it is replaced by a fresh one.
MAX_TASKS_PER_WORKER = 500


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

    @property
    def pooled(self) -> bool:
        return self._pool is not None

    def start(self) -> None:
        """Start the worker processes (they warm up in the background)."""
        if self.size and self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_started,
                initargs=(os.getpid(), self.initializer),
                max_tasks_per_child=self.max_tasks,
            )
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
        pool = self._pool
        assert pool is not None
        future = asyncio.get_running_loop().run_in_executor(pool, call)
        try:
            return await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            metrics.POOL_TIMEOUTS.inc()
            log.error("a worker job ran over %.0f s: restarting the workers", self.timeout)
            self._restart(pool)
            raise Busy() from None
        except BrokenProcessPool:
            log.error("a worker process died: restarting the workers")
            self._restart(pool)
            raise Busy() from None

    def _restart(self, broken: ProcessPoolExecutor) -> None:
        """Replace the pool a job failed in, once: the other jobs that were in it fail too, and
        must not each start yet another pool."""
        if self._pool is not broken:
            return
        self._pool = None
        _stop(broken)
        self.start()

    async def close(self) -> None:
        """Stop the workers and wait for them: nothing is left running after the bot."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(_stop, pool)
            log.info("workers stopped")


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


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut a pool down now: queued jobs are dropped, running ones killed, processes reaped."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=2)
        if process.is_alive():
            process.terminate()
            process.join(timeout=2)
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
