"""bench/load.py's core, with tiny numbers: a few games, one short step, two pictures at once.

The benchmark's figures are for people to read; this only checks that it runs against the real
bot and reports every figure it promises."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import fields
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load_bench():
    spec = importlib.util.spec_from_file_location("load_bench", ROOT / "bench" / "load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


async def test_quick_load_bench_reports_every_figure(blocked_hosts: list[str]) -> None:
    load = _load_bench()
    lines: list[str] = []
    options = load.Options(
        games=3,
        rates=(4.0,),
        step_seconds=2.0,
        pictures=2,
        picture_rounds=1,
        idle_seconds=0.2,
        show=lines.append,
    )
    report = await load.run(options)

    assert report.games == 3
    assert report.idle_lag_p99_ms is not None
    (step,) = report.steps
    for name in (f.name for f in fields(load.StepReport)):
        assert hasattr(step, name)
    assert step.rate == 4.0 and step.sent > 0 and step.done > 0
    assert step.done_per_s > 0
    assert step.ack_p50_ms is not None and step.ack_p99_ms is not None
    assert step.final_p99_ms is not None and step.final_p99_ms >= step.ack_p50_ms
    assert step.lag_p99_ms is not None and step.db_p99_ms is not None
    assert step.cpu_cores > 0 and step.fake_ms_per_s > 0
    assert not {"late", "timeout", "error"} & set(step.errors), step.errors
    assert step.by_kind and all(n > 0 for n, _, _ in step.by_kind.values())

    pictures = report.pictures
    assert pictures is not None
    assert pictures.answered == 2 and pictures.with_picture == 2, pictures
    assert pictures.lag_p99_ms is not None and pictures.batch_ms_p50 is not None

    names = [name for name, _, _, _ in report.goals]
    assert any("pictures" in n for n in names) and any("ack p99" in n for n in names)
    printed = "\n".join(lines)
    assert "ack99" in printed and "pictures:" in printed and "goal:" in printed
    assert not blocked_hosts
