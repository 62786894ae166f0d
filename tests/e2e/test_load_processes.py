"""bench/load.py with several processes, tiny: two real bot processes on PostgreSQL share the
shards, a few games, one short step. Checks that it runs and that every figure it promises is
there (each process answered its share, throughput, ack p99, the workers' queue depth)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str, file: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


async def test_two_processes_on_postgres_share_the_load(blocked_hosts: list[str]) -> None:
    load = _load("load_bench", "load.py")
    processes = _load("load_processes", "load_processes.py")
    lines: list[str] = []
    options = load.Options(
        games=4, rates=(4.0,), step_seconds=3.0, pictures=0, workers=1, show=lines.append
    )
    (report,) = await processes.run_processes(load, options, "postgres", [2])

    assert report.processes == 2 and report.games == 4
    assert len(report.answered) == 2 and all(n > 0 for n in report.answered), report.answered
    (step,) = report.steps
    assert step.sent > 0 and step.done_per_s > 0 and step.ack_p99_ms is not None
    assert not {"late", "timeout", "error"} & set(step.errors), step.errors
    ((largest, mean),) = report.queue
    assert largest is not None and mean is not None
    assert report.errors == []
    printed = "\n".join(lines)
    assert "q max" in printed and "scaling (postgres" in printed and "ratio" in printed
