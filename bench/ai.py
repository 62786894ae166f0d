"""Computer-player tournament: does each level beat the one below it?

For each level L above `random`: 3-player games with one L player against two players of the
level below, L's seat rotating through 0, 1, 2. Prints the win share of L (a shared win counts
as a fraction) with a 95% confidence interval (a third is chance), its mean score margin, and the
median, p99 and maximum time per decision of L.

    python bench/ai.py                    # a quick look: 30 games per level
    python bench/ai.py --games 300        # the evidence run (use nice -n 19 on a shared machine)
    python bench/ai.py --levels hard --games 300 --jobs 2

Targets: every level wins at least 50% of its games over 300 games (`expert`, against two `hard`
players, 55%); easy and normal decide in under 50 ms, hard and expert in under 2 s at p99.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# Run as `python bench/ai.py`, this folder comes first on sys.path; drop it so that
# bench/engine.py cannot shadow the `engine` package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import new_game  # noqa: E402
from engine.ai import LEVELS, make_player  # noqa: E402

ORDER = list(LEVELS)
PLAYERS = 3


def play(level: str, game_no: int, seed: int) -> tuple[float, float, list[float]]:
    """One game; returns (win share of the tested seat, its score margin, its decision times)."""
    below = ORDER[ORDER.index(level) - 1]
    hero = game_no % PLAYERS
    game_seed = seed * 100_003 + game_no
    players = [
        make_player(level if s == hero else below, game_seed * 10 + s) for s in range(PLAYERS)
    ]
    game = new_game(PLAYERS, game_seed)
    history = game.setup_events()
    times: list[float] = []
    clock = time.perf_counter
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        t0 = clock()
        action = players[seat].choose(game.view(seat), history)
        if seat == hero:
            times.append(clock() - t0)
        history.extend(game.apply(action))
    winners = game.winners
    share = 1 / len(winners) if hero in winners else 0.0
    scores = game.scores
    margin = scores[hero] - max(s for k, s in enumerate(scores) if k != hero)
    return share, margin, times


def _play_args(args: tuple[str, int, int]) -> tuple[float, float, list[float]]:
    return play(*args)


def progress(label: str, done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / max(time.perf_counter() - started, 1e-9)
    eta = (total - done) / rate if rate else 0.0
    bar = "#" * filled + "-" * (width - filled)
    print(f"\r{label:>7} [{bar}] {done}/{total} games, eta {eta:5.0f}s", end="", file=sys.stderr)
    if done == total:
        print(file=sys.stderr)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per level (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed")
    parser.add_argument("--levels", nargs="*", default=ORDER[1:], choices=ORDER[1:])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args()

    rows = []
    for level in args.levels:
        below = ORDER[ORDER.index(level) - 1]
        tasks = [(level, k, args.seed) for k in range(args.games)]
        results = []
        started = time.perf_counter()
        progress(level, 0, args.games, started)
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                for r in pool.map(_play_args, tasks):
                    results.append(r)
                    progress(level, len(results), args.games, started)
        else:
            for task in tasks:
                results.append(play(*task))
                progress(level, len(results), args.games, started)
        shares = [r[0] for r in results]
        margins = [r[1] for r in results]
        times = [t for r in results for t in r[2]]
        n = len(shares)
        mean = statistics.fmean(shares)
        half = 1.96 * statistics.stdev(shares) / math.sqrt(n) if n > 1 else float("nan")
        rows.append(
            (
                f"{level} vs 2 {below}",
                n,
                f"{mean:6.1%}",
                f"[{max(0.0, mean - half):.1%}, {min(1.0, mean + half):.1%}]",
                f"{statistics.fmean(margins):+6.1f}",
                f"{statistics.median(times) * 1e3:8.2f}",
                f"{percentile(times, 0.99) * 1e3:8.1f}",
                f"{max(times) * 1e3:8.1f}",
                f"{time.perf_counter() - started:6.0f}",
            )
        )

    header = (
        "match",
        "games",
        "win share",
        "95% CI",
        "margin",
        "median ms",
        "p99 ms",
        "max ms",
        "wall s",
    )
    widths = [
        max(len(h), *(len(r[i]) if isinstance(r[i], str) else 5 for r in rows))
        for i, h in enumerate(header)
    ]
    print(f"\n3-player games, one tested player against two of the level below, seed {args.seed}")
    print("  ".join(h.rjust(w) for h, w in zip(header, widths, strict=True)))
    for r in rows:
        print("  ".join(str(c).rjust(w) for c, w in zip(r, widths, strict=True)))


if __name__ == "__main__":
    main()
