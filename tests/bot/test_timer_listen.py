"""On PostgreSQL every process hears at once of the timers any process writes (NOTIFY at commit,
one listening connection per process that reconnects by itself): a survivor fires what a killed
process left behind when it is due, or when the dead claimant's lease runs out, not at its next
poll five minutes later. Real server, real processes (tests/bot/process_worker.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import asyncpg
import pytest
from service_helpers import add_timer, started
from test_processes import _spawn

from bot.core.clock import SystemClock
from bot.core.services import Services
from bot.core.store import Store

#: how late a timer may fire in the survivor (the dispatcher sleeps at least 1 s between looks
#: when a handler re-arms a timer in the past; a shared two-core machine adds some)
SOON = 2.5


async def _listening(store: Store, heard: list[datetime | None]) -> asyncio.Task[None]:
    listener = store.timer_listener(heard.append)
    assert listener is not None, "PostgreSQL listens"
    task = asyncio.get_running_loop().create_task(listener)
    await _until(lambda: None in heard)  # connected: told to look once
    return task


async def _until(condition: object, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def test_a_timer_written_in_one_store_is_heard_in_another(postgres_url: str) -> None:
    writer, listener_store = await Store.open(postgres_url), await Store.open(postgres_url)
    heard: list[datetime | None] = []
    task = await _listening(listener_store, heard)
    try:
        services = Services.build(writer, SystemClock())
        game = await started(services)
        due = SystemClock().now() + timedelta(seconds=30)
        heard.clear()
        await add_timer(services, game.id, "reminder", due, seat=0)
        await _until(lambda: heard)
        assert [abs((h - due).total_seconds()) < 0.002 for h in heard if h] == [True]
        # a transaction that writes no timer says nothing; one that writes several, one thing
        heard.clear()
        await services.schedule.next_timer_due()
        await services.schedule.set_turn_timers(
            game.id, [("reminder", due, 0), ("deadline", due - timedelta(seconds=5), 0)]
        )
        await _until(lambda: heard)
        await asyncio.sleep(0.2)
        [soonest] = heard  # one notification, the soonest due time written
        assert soonest is not None
        assert abs((soonest - (due - timedelta(seconds=5))).total_seconds()) < 0.002
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await writer.close()
        await listener_store.close()


async def test_the_listener_reconnects_after_its_connection_is_cut(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="alhambra.db")
    store = await Store.open(postgres_url)
    heard: list[datetime | None] = []
    task = await _listening(store, heard)
    admin = await asyncpg.connect(postgres_url)
    try:
        services = Services.build(store, SystemClock())
        game = await started(services)
        for _ in range(2):  # cut twice: it keeps coming back
            heard.clear()
            cut = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'alhambra-timers' AND datname = current_database()"
            )
            assert cut == 1
            await _until(lambda: None in heard)  # connected again, and told to look
            heard.clear()
            due = SystemClock().now() + timedelta(minutes=5)
            await add_timer(services, game.id, "reminder", due, seat=0)
            await _until(lambda: any(h is not None for h in heard))
        assert "listening for timer changes stopped" in caplog.text
        assert "listening for timer changes again" in caplog.text
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await admin.close()
        await store.close()


async def _dead_process_s_timers(
    postgres_url: str, tmp_path: Path, *, listen: bool
) -> tuple[dict[str, float], dict[int, float]]:
    """A survivor sleeping its longest sleep; another process writes a timer due in 2 s and
    one due now that it claims for 3 s, and is SIGKILLed. Returns what the dead one wrote and
    when the survivor fired each timer (unix time)."""
    store = await Store.open(postgres_url)
    try:
        services = Services.build(store, SystemClock())
        game = await started(services)
        out = tmp_path / "fired.txt"
        survivor = _spawn(
            "serve", postgres_url, str(tmp_path / "go"), str(out), "2", "yes" if listen else "no"
        )
        (tmp_path / "go").touch()
        await _until(lambda: out.with_suffix(".ready").exists())  # it looked, and sleeps
        leaver = _spawn("leave", postgres_url, str(tmp_path / "go2"), str(game.id), "2", "3")
        (tmp_path / "go2").touch()
        assert leaver.stdout is not None
        wrote = json.loads(leaver.stdout.readline())
        leaver.send_signal(signal.SIGKILL)
        leaver.communicate(timeout=30)
        with contextlib.suppress(AssertionError):  # none fired, if it only polls
            await _until(
                lambda: out.exists() and len(out.read_text().splitlines()) >= 2, 12 if listen else 7
            )
        fired = {
            int(i): float(t)
            for i, t in (
                line.split() for line in (out.read_text() if out.exists() else "").splitlines()
            )
        }
        survivor.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            survivor.communicate(timeout=30)
        return wrote, fired
    finally:
        await store.close()


async def test_a_killed_process_s_timers_fire_in_the_survivor_when_due(
    postgres_url: str, tmp_path: Path
) -> None:
    wrote, fired = await _dead_process_s_timers(postgres_url, tmp_path, listen=True)
    later, held = int(wrote["later"]), int(wrote["held"])
    assert set(fired) == {later, held}, (wrote, fired)
    assert 0 <= fired[later] - wrote["later_due"] < SOON, "fired when due, not at the next poll"
    assert 0 <= fired[held] - wrote["lease_end"] < SOON, "fired when the dead one's lease ended"


async def test_without_listening_the_survivor_waits_for_its_poll(
    postgres_url: str, tmp_path: Path
) -> None:
    """What the listener fixes: polling alone, the survivor does not hear of them for minutes."""
    wrote, fired = await _dead_process_s_timers(postgres_url, tmp_path, listen=False)
    assert fired == {}, (wrote, fired)


async def test_a_timer_heard_of_costs_no_query_until_it_is_due(postgres_url: str) -> None:
    """A busy cluster writes timers all the time: hearing of one only moves the next look
    earlier; the dispatcher queries when it is due, and fires it then."""
    from test_start_up import Counted

    from bot.core.records import TimerRow
    from bot.turns.timers import TimerDispatcher

    mine, other = await Store.open(postgres_url), await Store.open(postgres_url)
    fired: list[tuple[int, float]] = []

    async def record(timer: TimerRow) -> None:
        fired.append((timer.id, SystemClock().now().timestamp()))

    services = Services.build(mine, SystemClock())
    dispatcher = TimerDispatcher(services, {"reminder": record}, max_sleep=300)
    counter = Counted(mine)
    try:
        writer = Services.build(other, SystemClock())
        game = await started(writer)
        dispatcher.start()
        await dispatcher.started.wait()
        await asyncio.sleep(0.5)  # it looked, and sleeps
        with counter.measuring():
            due = SystemClock().now() + timedelta(seconds=2)
            timer = await add_timer(writer, game.id, "reminder", due, seat=0)
            await asyncio.sleep(1.0)
            assert counter.count == 0, "heard, and only re-planned"
            await _until(lambda: fired, 5)
        [(fired_id, at)] = fired
        assert fired_id == timer and 0 <= at - due.timestamp() < 1.0
    finally:
        await dispatcher.stop()
        await mine.close()
        await other.close()


async def test_the_listener_comes_back_after_postgresql_restarts(tmp_path: Path) -> None:
    """A real blip: the whole server restarted under the listener (and the pool)."""
    from postgres_server import PostgresServer

    with PostgresServer() as server:
        store = await Store.open(server.url())
        heard: list[datetime | None] = []
        task = await _listening(store, heard)
        try:
            services = Services.build(store, SystemClock())
            game = await started(services)
            heard.clear()
            await asyncio.to_thread(
                server._run,
                *("pg_ctl", "-D", str(server.data), "-l", str(server.root / "server.log")),
                *("-m", "fast", "-w", "restart"),
            )
            await _until(lambda: None in heard, 30)  # connected again, and told to look
            heard.clear()
            due = SystemClock().now() + timedelta(minutes=5)
            for _ in range(50):  # the pool's connections died too: the first use may fail
                with contextlib.suppress(Exception):
                    await add_timer(services, game.id, "reminder", due, seat=0)
                    break
                await asyncio.sleep(0.1)
            await _until(lambda: any(h is not None for h in heard))
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await store.close()
