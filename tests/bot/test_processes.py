"""Several bot processes on one database, as real OS processes (tests/bot/process_worker.py),
on each engine: racing clicks apply once per version, due timers fire once each, and a process
killed while it holds a timer's lease neither loses the timer nor sends its DM twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from service_helpers import HOST, dump, started

from bot.core.clock import SystemClock
from bot.core.services import Services
from bot.core.store import Store
from bot.core.verify import verify_database

WORKER = Path(__file__).with_name("process_worker.py")
ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 4


def _spawn(*args: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert json.loads(line or "{}").get("ready"), proc.communicate(timeout=30)
    return proc


def _together(go: Path, procs: list[subprocess.Popen[str]]) -> list[dict[str, object]]:
    """Let every (ready) process start at once; their reports once they are done."""
    go.touch()
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err[-3000:]
        outs.append(json.loads(out.strip().splitlines()[-1]))
    return outs


async def test_racing_processes_apply_one_act_per_version(
    services: Services, db_target: str, tmp_path: Path
) -> None:
    game = await started(services)
    rounds = 12
    go = tmp_path / "go"
    procs = [
        _spawn("race", db_target, str(go), str(game.id), str(rounds)) for _ in range(PROCESSES)
    ]
    outs = _together(go, procs)
    wins = sorted(v for out in outs for v in out["wins"])  # type: ignore[attr-defined]
    assert wins == list(range(rounds)), "exactly one act applied per version"
    outdated = sum(int(out["outdated"]) for out in outs)  # type: ignore[call-overload]
    assert outdated == PROCESSES * 50 * rounds - rounds  # every other click was told so
    assert [r[1] for r in sorted(dump(db_target)["actions"])] == list(range(1, rounds + 1))
    assert (await services.lobby.game(game.id)).version == rounds
    report = verify_database(db_target)
    assert report.ok, report.problems


async def test_due_timers_fire_once_each_across_processes(
    services: Services, db_target: str, tmp_path: Path
) -> None:
    games = [await started(services, channel=c) for c in range(1, 11)]
    due = services.clock.now() - timedelta(minutes=1)
    async with services.store.write() as tx:
        for i in range(5000):
            await tx.insert_timer(
                games[i % len(games)].id,
                kind="reminder",
                due_at=due,
                seat=0,
                version=0,
                now=due,
            )
    go = tmp_path / "go"
    procs = [_spawn("timers", db_target, str(go)) for _ in range(PROCESSES)]
    outs = _together(go, procs)
    fired = [t for out in outs for t in out["fired"]]  # type: ignore[attr-defined]
    assert len(fired) == 5000 and len(set(fired)) == 5000, "each timer fired exactly once"
    assert all(out["fired"] for out in outs), "the work was shared"
    async with services.store.read() as tx:
        assert (await tx.rows("SELECT COUNT(*) FROM timers"))[0][0] == 0


async def _waiting_twice(db_target: str) -> tuple[Store, Services, list[int], int]:
    """A user whose turn it is in two games (on the real clock, as the processes' is)."""
    store = await Store.open(db_target)
    services = Services.build(store, SystemClock())
    by_user: dict[int, list[int]] = {}
    for channel in range(1, 20):  # whoever starts is drawn: play on until one user has two
        game = await started(services, channel=channel)
        assert game.current_player is not None and game.current_player.user_id is not None
        user = game.current_player.user_id
        by_user.setdefault(user, []).append(game.id)
        if len(by_user[user]) == 2:
            others = [g for u, ids in by_user.items() if u != user for g in ids]
            for other in others:  # only these two games are waiting on anyone
                await services.lobby.abandon(other, HOST)
            return store, services, by_user[user], user
    raise AssertionError("no user started twice in 19 games")


async def _due_reminders(services: Services, game_ids: list[int]) -> list[int]:
    now = services.clock.now() - timedelta(seconds=1)
    ids = []
    for game_id in game_ids:
        game = await services.lobby.game(game_id)
        assert game.current_player is not None
        ids += await services.schedule.set_turn_timers(
            game_id, [("reminder", now, game.current_player.seat)], kinds=("reminder",)
        )
    return ids


async def test_a_killed_claimant_s_timer_fires_again_after_its_lease(
    db_target: str, tmp_path: Path
) -> None:
    store, services, game_ids, user = await _waiting_twice(db_target)
    game_id = game_ids[0]
    try:
        [timer_id] = await _due_reminders(services, [game_id])
        dms, go = tmp_path / "dms.txt", tmp_path / "go"
        first = _spawn("remind", db_target, str(go), str(dms), "before")
        go.touch()
        assert first.stdout is not None
        assert json.loads(first.stdout.readline()) == {"claimed": timer_id}
        first.send_signal(signal.SIGKILL)  # dies holding the lease, the timer not handled
        first.communicate(timeout=30)
        assert first.returncode == -signal.SIGKILL
        assert timer_id in [t.id for t in await services.schedule.timers_of(game_id)]
        assert await services.schedule.claim_timers("someone", lease=timedelta(seconds=10)) == []

        second = _spawn("remind", db_target, str(tmp_path / "go2"), str(dms), "no")
        [out] = _together(tmp_path / "go2", [second])
        assert out == {"fired": 1}, "the timer fired again once the lease ran out"
        assert dms.read_text().splitlines() == [f"reminder {user} {sorted(game_ids)}"]
        timers = await services.schedule.timers_of(game_id)
        assert timer_id not in [t.id for t in timers], "the second firing finished it"
        assert [t.kind for t in timers] == ["reminder"]  # the next reminder, after the gap
        assert timers[0].due_at > services.clock.now() + timedelta(hours=1)
    finally:
        await store.close()


async def test_two_processes_reminding_one_user_send_one_dm(db_target: str, tmp_path: Path) -> None:
    """Both of a user's games have a reminder due; two processes fire them at once."""
    store, services, game_ids, user = await _waiting_twice(db_target)
    try:
        dms, go = tmp_path / "dms.txt", tmp_path / "go"
        for _ in range(3):  # three rounds, each with a fresh pair of due reminders
            await _due_reminders(services, game_ids)
            async with store.write() as tx:  # as if the last reminder were long ago
                await tx.run("UPDATE notify_settings SET last_reminder_at = NULL")
            procs = [_spawn("remind", db_target, str(go), str(dms), "no") for _ in range(2)]
            outs = _together(go, procs)
            go.unlink()
            assert sum(int(o["fired"]) for o in outs) >= 1  # type: ignore[call-overload]
        assert dms.read_text().splitlines() == [f"reminder {user} {sorted(game_ids)}"] * 3
    finally:
        await store.close()
