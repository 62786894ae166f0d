"""The worker pool: pictures byte-identical to the ones drawn in the bot's own process, the same
computer moves, a stuck job given up, workers replaced after a while, nothing left running."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time

import pytest

import render
from bot.core.errors import Busy
from bot.core.workers import Workers
from bot.turns.computers import choose
from engine import new_game
from render.samples import late, names, placing


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split()[2] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # gone, or being reaped as we look
        return False


async def _gone(pid: int, within: float = 10.0) -> bool:
    """Whether the process ends within `within` seconds (a replaced pool stops in a thread)."""
    deadline = time.monotonic() + within
    while _alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return not _alive(pid)


def _seconds(_: float) -> None:
    """The metric callback: these tests look at results, not timings."""


@pytest.fixture
async def pool():
    workers = Workers(1, timeout=20, initializer=render.warm_up)
    workers.start()
    try:
        yield workers
    finally:
        await workers.close()


async def test_pictures_from_the_pool_are_byte_identical(pool: Workers) -> None:
    game = late(4, 11)
    public, mine = game.view(None), game.view(game.current_seat)
    placed = placing(3, 8, 1)
    seat = placed.current_seat
    jobs = [
        (render.render_table, (public, names(4)), {}),
        (render.render_hand, (mine,), {"name": "Ana"}),
        (render.render_scores, (public, names(4)), {}),
        (render.render_points, (), {}),
        (
            render.render_alhambra,
            (placed.view(seat), seat),
            {"name": "Ana", "placing": placed.pending[0]},
        ),
    ]
    for fn, args, kwargs in jobs:
        drawn = await pool.run(_seconds, fn, *args, **kwargs)
        assert drawn == fn(*args, **kwargs), fn.__name__
    assert pool.pids() and os.getpid() not in pool.pids()


async def test_computer_players_decide_the_same_in_a_worker(pool: Workers) -> None:
    game = new_game(3, 17)
    for _ in range(12):
        seat = game.current_seat
        view = game.view(seat)
        history = tuple(game.setup_events())
        for level in ("easy", "normal"):
            action = await pool.run(_seconds, choose, level, 7, view, history)
            assert action == choose(level, 7, view, history)
        game.apply(choose("normal", 7, view, history))


async def _warm_up(workers: Workers) -> int:
    """The first job of a fresh pool, given the time a worker takes to start (a process
    spawned and the bot's modules imported: about a second, more on a loaded machine), so a
    test of a short timeout times its own jobs, not the start. Returns the worker's pid."""
    timeout, workers.timeout = workers.timeout, 60.0
    try:
        return await workers.run(_seconds, os.getpid)
    finally:
        workers.timeout = timeout


async def test_a_job_over_the_timeout_is_given_up_and_the_workers_start_again() -> None:
    workers = Workers(1, timeout=1.0)
    workers.start()
    try:
        first = await _warm_up(workers)
        with pytest.raises(Busy):
            await workers.run(_seconds, time.sleep, 30)
        assert await _gone(first), "the stuck worker was stopped"
        second = await _warm_up(workers)  # a fresh worker answers, once started
        assert second != first
    finally:
        await workers.close()


async def test_a_busy_queue_is_not_taken_for_a_stuck_worker() -> None:
    """Three jobs of 0.6 s each for one worker with a 1 s timeout: the last waits 1.2 s in
    the queue, but its own run is well within time, so nobody is told "busy" and the pool is
    not restarted (which would have dropped what it held, under load again and again)."""
    workers = Workers(1, timeout=1.0)
    workers.start()
    try:
        await _warm_up(workers)  # warmed up
        # (a function the worker has already: importing this module there would take time)
        done = await asyncio.gather(*(workers.run(_seconds, time.sleep, 0.6) for _ in range(3)))
        assert done == [None, None, None] and workers.restarts == 0
    finally:
        await workers.close()


async def test_a_worker_is_replaced_after_its_share_of_jobs() -> None:
    workers = Workers(1, max_tasks=2)
    workers.start()
    try:
        seen = [await workers.run(_seconds, os.getpid) for _ in range(5)]
        assert len(set(seen)) >= 3  # jobs 1-2, 3-4 and 5 in three processes
    finally:
        await workers.close()


async def test_closing_leaves_no_worker_process() -> None:
    workers = Workers(2)
    workers.start()
    await workers.run(_seconds, os.getpid)
    pids = workers.pids()
    assert pids
    await workers.close()
    assert not [pid for pid in pids if _alive(pid)]
    assert not workers.pids()


async def test_without_workers_jobs_run_in_a_thread_of_this_process() -> None:
    workers = Workers(0)
    workers.start()
    assert not workers.pooled
    assert await workers.run(_seconds, os.getpid) == os.getpid()


def test_sigterm_stops_the_bot_and_every_worker(tmp_path) -> None:
    """`docker stop`: the bot closes, its workers with it, and no process is left behind."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("pool_bot.py")), str(tmp_path / "db")],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert proc.stdout is not None
    try:
        line = proc.stdout.readline().split()
        assert line and line[0] == "READY", line
        pids = [int(p) for p in line[1:]]
        assert 1 <= len(pids) <= 2 and all(_alive(p) for p in pids)
        proc.send_signal(__import__("signal").SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not [pid for pid in pids if _alive(pid)], "a worker outlived the bot"


def test_workers_follow_a_killed_bot_out() -> None:
    """SIGKILL (the OOM killer, `docker kill`) gives the bot no chance to close its pool: its
    workers notice their parent is gone and exit by themselves."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    script = (
        "import asyncio, os, sys\n"
        "from bot.core.workers import Workers\n"
        "async def main():\n"
        "    w = Workers(2); w.start()\n"
        "    await asyncio.gather(*[w.run(print, os.getpid) for _ in range(4)])\n"
        "    print('READY', *w.pids(), flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert proc.stdout is not None
    line = ""
    try:
        while not line.startswith("READY"):  # (print is the metric callback: seconds first)
            line = proc.stdout.readline()
            assert line, "the script ended early"
        pids = [int(p) for p in line.split()[1:]]
        assert pids and all(_alive(p) for p in pids)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in pids if _alive(pid)], "a worker outlived a killed bot"


async def test_jobs_caught_in_a_restart_start_one_new_pool_not_many() -> None:
    workers = Workers(2, timeout=1.0)
    workers.start()
    try:
        await _warm_up(workers)
        stuck = [workers.run(_seconds, time.sleep, 30) for _ in range(3)]
        results = await asyncio.gather(*stuck, return_exceptions=True)
        assert all(isinstance(r, Busy) for r in results)
        assert workers.pooled and len(workers.pids()) <= 2
        assert await _warm_up(workers) in workers.pids()  # one fresh pool, starting up
    finally:
        await workers.close()


# --- a pool that heals itself ---------------------------------------------------------------------


def _die_once(marker: str) -> int:
    """A job whose first run kills its worker (a crash in a library); it succeeds when tried
    again."""
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return os.getpid()


def _always_die() -> None:
    os._exit(1)


async def _until(condition, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return bool(condition())


async def test_a_worker_that_died_while_idle_is_replaced_by_the_next_job() -> None:
    """The OOM killer (or `kill -9`) takes the only worker between two jobs: the next job is
    not refused but runs in a fresh pool, and so do the ones after it."""
    workers = Workers(1, timeout=20)
    workers.start()
    try:
        first = await workers.run(_seconds, os.getpid)
        os.kill(first, signal.SIGKILL)
        assert await _gone(first)
        second = await workers.run(_seconds, os.getpid)
        assert second != first and _alive(second)
        assert workers.restarts == 1
        assert await workers.run(_seconds, os.getpid) == second
    finally:
        await workers.close()


async def test_a_job_whose_worker_dies_gets_one_more_try_on_a_fresh_pool(tmp_path) -> None:
    workers = Workers(1, timeout=20)
    workers.start()
    try:
        pid = await workers.run(_seconds, _die_once, str(tmp_path / "died"))
        assert _alive(pid) and workers.restarts == 1
        with pytest.raises(Busy):  # dies every time: tried twice, then "busy"
            await workers.run(_seconds, _always_die)
        assert workers.restarts == 3
        assert await workers.run(_seconds, os.getpid)  # and the pool still works
    finally:
        await workers.close()


async def test_the_supervisor_replaces_a_dead_pool_before_anyone_meets_it() -> None:
    workers = Workers(2, timeout=20)
    workers.start()
    watching = asyncio.create_task(workers.supervise(every=0.1))
    try:
        assert await _until(lambda: len(workers.pids()) == 2)  # started and warming up
        first = workers.pids()
        os.kill(first[0], signal.SIGKILL)
        # replaced by itself, and the fresh pool's workers are started at once
        assert await _until(lambda: workers.restarts == 1)
        assert await _until(
            lambda: len(workers.pids()) == 2 and not set(workers.pids()) & set(first)
        )
        assert await _warm_up(workers) in workers.pids()  # one fresh pool, starting up
    finally:
        watching.cancel()
        await workers.close()


def test_sigterm_stops_the_bot_at_once_after_its_stuck_pool_was_replaced(tmp_path) -> None:
    """Under load, the workers are stopped (SIGSTOP) so their jobs time out and the pool is
    replaced; then the fresh workers are stopped too, with jobs queued for them. SIGTERM still
    ends the bot promptly, with status 0, and no worker, stopped or not, outlives it."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("pool_bot.py")),
            str(tmp_path / "db"),
            "--load",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert proc.stdout is not None
    stopped: list[int] = []
    try:
        line = proc.stdout.readline().split()
        assert line and line[0] == "READY", line
        for pid in map(int, line[1:]):
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        line = proc.stdout.readline().split()  # the jobs timed out: a fresh pool took over
        assert line and line[0] == "RESTARTED", line
        for pid in map(int, line[1:]):
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        time.sleep(1.5)  # jobs queue up for the stopped workers, and time out again
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in stopped:  # a worker left behind must not stay stopped forever
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
    assert not [pid for pid in stopped if _alive(pid)], "a worker outlived the bot"


async def test_jobs_queued_behind_a_stuck_one_run_in_the_fresh_pool() -> None:
    """One job runs over its time and the pool is replaced: the jobs queued behind it in the
    old pool were dropped with it, and must not surface as a cancellation (which would stop
    a timer dispatcher or leave a click unanswered): they run again in the fresh pool."""
    workers = Workers(1, timeout=1.0)
    workers.start()
    try:
        await _warm_up(workers)  # warmed up

        async def queued(delay: float) -> object:
            await asyncio.sleep(delay)  # submitted while the stuck job holds the only worker
            return await workers.run(_seconds, abs, -7)

        # more than the pool hands its worker ahead of time: some wait in the pool itself
        stuck, *rest = await asyncio.gather(
            workers.run(_seconds, time.sleep, 5),
            *(queued(0.2 + i / 20) for i in range(4)),
            return_exceptions=True,
        )
        assert isinstance(stuck, Busy)
        assert rest == [7, 7, 7, 7], rest
    finally:
        await workers.close()


async def test_a_cancelled_caller_is_not_retried() -> None:
    workers = Workers(1, timeout=20)
    workers.start()
    try:
        await workers.run(_seconds, os.getpid)
        job = asyncio.ensure_future(workers.run(_seconds, time.sleep, 2))
        await asyncio.sleep(0.2)
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
    finally:
        await workers.close()


async def test_workers_are_replaced_after_their_quota_without_losing_a_job() -> None:
    """Seven jobs at a time through one worker with a quota of five: every job answers at
    once and the worker is a new process after the quota (a pool that let its worker exit at
    the quota lost a queued job and waited for the timeout every round)."""
    workers = Workers(1, timeout=10, max_tasks=5)
    workers.start()
    try:
        seen: set[int] = set()
        started = time.monotonic()
        for _ in range(6):
            pids = await asyncio.gather(*(workers.run(_seconds, os.getpid) for _ in range(7)))
            seen.update(pids)
        assert time.monotonic() - started < 8  # no job waited for the timeout
        assert len(seen) >= 5 and workers.restarts == 0
    finally:
        await workers.close()
    assert not any(_alive(pid) for pid in seen)
