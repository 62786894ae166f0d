"""How soon a surviving process fires the timers a killed one left behind, on PostgreSQL.

Two real processes share a private PostgreSQL server (the test extra's binaries,
tests/postgres_server.py) and a running game. The survivor runs the real timer dispatcher as
the bot does (`start()`, its longest sleep five minutes) and has just looked: it sleeps. The
other process then writes two timers and is SIGKILLed:

- **due later**: a reminder due `--delay` seconds later that nobody claimed yet (the review's
  case: an `end_turn` timer written with a move, its process killed before it was due);
- **held**: a reminder due now that the dying process claimed, holding its lease for `--lease`
  seconds (a process killed while handling a timer).

Printed per round: how late the survivor fired each, counted from when it was due (for the held
one, from the end of the dead claimant's lease, the first moment another process may fire it).
`--mode listen` is the bot as it is (hearing other processes' timer writes: NOTIFY at commit),
`--mode poll` the dispatcher polling only (as before the listener: it hears of nothing until its
next poll, so each round waits up to `--patience` seconds).

    python bench/timers.py                    # both modes, 3 rounds of listen, 1 of poll
    python bench/timers.py --mode listen --rounds 10
    python bench/timers.py --mode poll --patience 320
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# bench/ must not shadow the packages it measures (bench/render.py vs render).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "bot")]

from bot.core.clock import SystemClock  # noqa: E402
from bot.core.services import Services  # noqa: E402
from bot.core.store import Store  # noqa: E402

WORKER = ROOT / "tests" / "bot" / "process_worker.py"


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
    if not json.loads(line or "{}").get("ready"):
        raise SystemExit(f"worker did not start: {proc.communicate(timeout=30)}")
    return proc


async def _wait(condition: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


async def one_round(
    url: str,
    folder: Path,
    game_id: int,
    *,
    listen: bool,
    delay: float,
    lease: float,
    patience: float,
) -> tuple[float | None, float | None]:
    """(lateness of the due-later timer, of the held one) in seconds; None: not fired."""
    out = folder / "fired.txt"
    go, go2 = folder / "go", folder / "go2"
    for path in (out, out.with_suffix(".ready"), go, go2):
        path.unlink(missing_ok=True)
    survivor = _spawn(
        "serve", url, str(go), str(out), "2", "yes" if listen else "no", str(patience)
    )
    go.touch()
    await _wait(lambda: out.with_suffix(".ready").exists(), 30)
    leaver = _spawn("leave", url, str(go2), str(game_id), str(delay), str(lease))
    go2.touch()
    assert leaver.stdout is not None
    wrote = json.loads(leaver.stdout.readline())
    leaver.send_signal(signal.SIGKILL)
    leaver.communicate(timeout=30)

    def fired() -> dict[int, float]:
        text = out.read_text() if out.exists() else ""
        return {int(i): float(t) for i, t in (line.split() for line in text.splitlines())}

    await _wait(lambda: len(fired()) >= 2, patience)
    survivor.terminate()
    survivor.communicate(timeout=30)
    times = fired()
    later = times.get(wrote["later"])
    held = times.get(wrote["held"])
    return (
        None if later is None else later - wrote["later_due"],
        None if held is None else held - wrote["lease_end"],
    )


def _fmt(values: list[float | None]) -> str:
    got = [v for v in values if v is not None]
    missed = len(values) - len(got)
    if not got:
        return f"none fired ({missed} not fired)"
    text = f"median {statistics.median(got):6.2f} s, max {max(got):6.2f} s"
    return text + (f", {missed} not fired in time" if missed else "")


async def main(args: argparse.Namespace) -> None:
    from postgres_server import PostgresServer
    from service_helpers import started

    modes = ["listen", "poll"] if args.mode == "both" else [args.mode]
    with PostgresServer() as server, tempfile.TemporaryDirectory() as tmp:
        url = server.url()
        store = await Store.open(url)
        try:
            game = await started(Services.build(store, SystemClock()))
        finally:
            await store.close()
        print(
            f"PostgreSQL {url.rsplit('@', 1)[-1]}; timer due {args.delay:.0f} s after it is "
            f"written, lease {args.lease:.0f} s; survivor's longest sleep 300 s"
        )
        for mode in modes:
            rounds = args.rounds if mode == "listen" or args.mode == "poll" else 1
            later: list[float | None] = []
            held: list[float | None] = []
            for n in range(rounds):
                a, b = await one_round(
                    url,
                    Path(tmp),
                    game.id,
                    listen=mode == "listen",
                    delay=args.delay,
                    lease=args.lease,
                    patience=args.patience,
                )
                later.append(a)
                held.append(b)
                shown = ["-" if v is None else f"{v:.2f} s" for v in (a, b)]
                print(f"  {mode:6s} round {n + 1}: due later {shown[0]:>8s}   held {shown[1]:>8s}")
            print(f"{mode:6s} due later: {_fmt(later)}")
            print(f"{mode:6s} held:      {_fmt(held)}  (after the lease ended)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["both", "listen", "poll"], default="both")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--delay", type=float, default=2.0)
    parser.add_argument("--lease", type=float, default=3.0)
    parser.add_argument(
        "--patience", type=float, default=320.0, help="how long a round waits for the survivor"
    )
    asyncio.run(main(parser.parse_args()))
