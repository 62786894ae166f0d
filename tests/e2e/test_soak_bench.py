"""bench/soak.py's run, made short: a few tables played by people with hostile input, a fault
every few seconds (a worker killed, the workers stopped, a full disk, Discord failing), then a
short recovery. The benchmark's figures are for people to read; this checks that it runs
against the real bot and that its zeros hold: nothing unhandled, no move lost or told failed
when it was saved, no game stalled, a database that replays."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load_bench():
    spec = importlib.util.spec_from_file_location("soak_bench", ROOT / "bench" / "soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak_bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


async def test_a_short_soak_heals_every_fault(blocked_hosts: list[str]) -> None:
    soak = _load_bench()
    lines: list[str] = []
    options = soak.Options(
        seconds=30.0,
        recovery_seconds=14.0,
        games=3,
        workers=1,
        seed=3,
        levels=("easy", "normal"),
        work_timeout=1.0,  # below the stops: jobs time out, the pool is replaced under them
        sweep_seconds=2.0,
        fault_gap=(2.5, 3.5),
        stop_seconds=(1.5, 2.5),
        disk_seconds=(1.5, 2.5),
        think=(0.3, 1.2),
        stall_seconds=12.0,
        overdue_seconds=10.0,
        show=lines.append,
    )
    report = await soak.run(options)

    printed = "\n".join(lines)
    assert report.failures == [], printed
    assert not report.unhandled and not report.lost and not report.told_failed_but_saved
    assert not report.stalled and not report.verify_problems
    assert report.sent > 40 and report.moves_told_done > 0, printed
    assert sum(report.faults.values()) >= 3, report.faults
    assert report.verify_games >= 3 and report.verify_actions > 0
    assert report.ack_p50_ms is not None and report.ack_max_ms is not None
    assert "soak:" in printed and "-> PASS" in printed
    assert "faults injected" in printed and "stalled games" in printed
    assert not blocked_hosts
