"""Picture benchmark: milliseconds per image (median of many runs) and PNG bytes per image.

    python bench/render.py [--runs N]

Cases: a player's Alhambra with 0, 20 and 45 buildings (labels for a pending building shown),
the table for 3 and 6 players, a hand, the score sheet, the points table. Fonts and sprites are
warmed up first: the figures are what every move costs a running bot. Targets: an Alhambra
under 20 ms, the table under 40 ms, every picture under 200 KiB (the KiB column).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Run as `python bench/render.py`, this file's folder comes first on sys.path and its name would
# shadow the `render` package it measures.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import new_game  # noqa: E402
from render import (  # noqa: E402
    render_alhambra,
    render_hand,
    render_points,
    render_scores,
    render_table,
)
from render.fonts import describe  # noqa: E402
from render.samples import (  # noqa: E402
    grown_alhambra,
    late,
    middle,
    names,
    play,
    unused_tiles,
    with_alhambra,
)


def cases() -> list[tuple[str, float | None, Callable[[], bytes]]]:
    out: list[tuple[str, float | None, Callable[[], bytes]]] = []
    base = new_game(4, 11).view(None)
    for n in (0, 20, 45):
        tiles = grown_alhambra(n, seed=n)
        reserve = unused_tiles(tiles, 4)
        view = with_alhambra(base, 1, tiles, reserve)
        out.append((
            f"alhambra, {n} buildings",
            20.0,
            lambda v=view, t=reserve[0]: render_alhambra(v, 1, name="João Conceição", placing=t),
        ))  # fmt: skip
    for players, seed in ((3, 8), (6, 5)):
        view = middle(players, seed).view(None)
        out.append((
            f"table, {players} players",
            40.0,
            lambda v=view, p=players: render_table(v, names(p)),
        ))  # fmt: skip
    game = late(4, 11)
    hand_view = game.view(game.current_seat)
    out.append(("hand", 20.0, lambda: render_hand(hand_view, name="Ana")))
    end = play(6, 5).view(None)
    out.append(("score sheet, 6 players, end", 40.0, lambda: render_scores(end, names(6))))
    out.append(("points table", 20.0, lambda: render_points()))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30, help="timed runs per case (default 30)")
    args = parser.parse_args(argv)
    print("fonts:", ", ".join(dict.fromkeys(describe())) or "Pillow's built-in font")
    print(f"{'case':<30} {'median ms':>10} {'min ms':>8} {'KiB':>7} {'size':>10}  target")
    ok = True
    for label, target, draw in cases():
        start = time.perf_counter()
        png = draw()  # first draw: fonts and sprites are built here
        first = (time.perf_counter() - start) * 1000
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            draw()
            times.append((time.perf_counter() - start) * 1000)
        median = statistics.median(times)
        width = int.from_bytes(png[16:20], "big")
        height = int.from_bytes(png[20:24], "big")
        verdict = "" if target is None else ("ok" if median < target else "SLOW")
        if len(png) > 200 * 1024:
            verdict = "LARGE"
        ok &= verdict not in ("SLOW", "LARGE")
        goal = f"< {target:.0f} ms {verdict}" if target else f"(first {first:.0f} ms)"
        print(
            f"{label:<30} {median:>10.1f} {min(times):>8.1f} {len(png) / 1024:>7.1f} "
            f"{width:>4}x{height:<5}  {goal}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
