"""A process killed with SIGKILL at a random moment loses no acknowledged action."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.core.services import Services
from bot.core.store import Store
from bot.core.verify import verify_database

WORKER = Path(__file__).with_name("kill_worker.py")
ROOT = Path(__file__).resolve().parents[2]


def _run_and_kill(db: Path, seed: int, rng: random.Random) -> list[tuple[int, int, str]]:
    """Start the worker, let it commit a random number of actions, SIGKILL it mid-flight."""
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), str(db), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    acked: list[tuple[int, int, str]] = []
    try:
        assert proc.stdout.readline().strip() == "READY"
        target = rng.randint(30, 600)
        while len(acked) < target:
            line = proc.stdout.readline()
            assert line.startswith("ACK "), f"worker stopped: {line!r}"
            _, game, seq, action = line.rstrip("\n").split(" ", 3)
            acked.append((int(game), int(seq), action))
        time.sleep(rng.random() * 0.02)  # land somewhere inside the next transaction
    finally:
        proc.send_signal(signal.SIGKILL)
        rest, _ = proc.communicate(timeout=30)
    for line in rest.splitlines():  # lines already written before the kill count as acked
        if line.startswith("ACK "):
            _, game, seq, action = line.split(" ", 3)
            acked.append((int(game), int(seq), action))
    assert proc.returncode == -signal.SIGKILL
    return acked


async def test_sigkill_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = tmp_path / "kill.sqlite3"
    rng = random.Random()
    acked: list[tuple[int, int, str]] = []
    for round_no in range(1, 4):
        acked += _run_and_kill(db, round_no, rng)
        store = await Store.open(db)  # a restart: recovery from the WAL, migrations no-op
        try:
            services = Services.build(store)
            logs: dict[int, dict[int, dict]] = {}
            for game_id in {g for g, _, _ in acked}:
                async with store.read() as tx:
                    logs[game_id] = {r.seq: r.action for r in await tx.actions(game_id)}
                game = await services.lobby.game(game_id)
                assert sorted(logs[game_id]) == list(range(1, game.version + 1))
            for game_id, seq, action in acked:
                assert logs[game_id].get(seq) == json.loads(action), (game_id, seq)
        finally:
            await store.close()
        report = verify_database(db)
        assert report.ok, report.problems
        assert report.replayed >= round_no
