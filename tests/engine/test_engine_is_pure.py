"""engine/ is pure: no clock. A decision that read the clock (a search cut by a wall-clock
deadline) gave a different move, and so a different hint, on a loaded machine; the engine's
searches are fixed budgets of playouts, and bounding their time is the bot's work (its worker
timeout). This scans every source file of engine/ for a way to the clock."""

from __future__ import annotations

import ast
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).resolve().parent
#: modules that read the time
CLOCK_MODULES = {"time", "datetime", "timeit", "calendar", "zoneinfo"}
#: the functions of those modules that read it, however they were imported
CLOCK_CALLS = {
    "perf_counter",
    "perf_counter_ns",
    "monotonic",
    "monotonic_ns",
    "process_time",
    "thread_time",
    "time_ns",
    "now",
    "utcnow",
    "today",
}


def clock_uses(source: str) -> set[str]:
    """Each import of a clock module and each call of a clock function in `source`, with its
    line."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            modules = []
        found |= {f"{node.lineno}: import {m}" for m in modules if m.split(".")[0] in CLOCK_MODULES}
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in CLOCK_CALLS:
                found.add(f"{node.lineno}: {name}()")
    return found


def test_the_engine_reads_no_clock() -> None:
    sources = sorted(ENGINE.rglob("*.py"))
    assert len(sources) > 20 and ENGINE / "ai" / "expert.py" in sources
    uses = {
        f"{path.relative_to(ENGINE)}:{use}"
        for path in sources
        for use in clock_uses(path.read_text(encoding="utf-8"))
    }
    assert uses == set()


def test_the_scan_sees_each_way_to_the_clock() -> None:
    source = (
        "import time\n"
        "from datetime import datetime\n"
        "import time as t\n"
        "x = time.perf_counter()\n"
        "y = datetime.now()\n"
        "z = t.monotonic()\n"
    )
    assert clock_uses(source) == {
        "1: import time",
        "2: import datetime",
        "3: import time",
        "4: perf_counter()",
        "5: now()",
        "6: monotonic()",
    }
