"""A replay step's cost: the game rebuilt from its log to that step (`Archive.replay`), then the
table and every Alhambra drawn (`render_table`, `render_boards`), as one click on a replay's
button costs the bot (the rebuild in a thread, the pictures in a worker). Prints, per table
size, the median and the largest milliseconds of each part over the steps of a whole game, and
the boards picture's size in KiB.

    python bench/replay.py                 # 2, 4 and 6 players, every 5th step
    python bench/replay.py --players 6 --every 1

Measured on a shared 2-core machine (every 5th step of one game each): the boards picture
added 19.5 / 21.5 / 31.9 ms (median; 2, 4 and 6 players; at most 112 ms) to a step whose table
took 43 / 55 / 52 ms and whose rebuild 2-3 ms; the boards PNG is at most 47 KiB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import Action, Game, TurnEnded, new_game  # noqa: E402
from render import render_boards, render_table  # noqa: E402
from render.samples import _choose, names  # noqa: E402


def whole_game(players: int, seed: int) -> tuple[list[Action], list[int]]:
    """A game played to the end; its actions and where each turn ended (a step's prefix)."""
    import random

    game, rng = new_game(players, seed), random.Random(seed)
    actions: list[Action] = []
    ends: list[int] = [0]
    while not game.is_over:
        action = _choose(game, rng)
        actions.append(action)
        if any(isinstance(e, TurnEnded) for e in game.apply(action)):
            ends.append(len(actions))
    return actions, ends


def rebuild(players: int, seed: int, actions: list[Action]) -> Game:
    state = new_game(players, seed)
    for action in actions:
        state.apply(action)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--every", type=int, default=5, help="time every Nth step")
    args = parser.parse_args()
    print("players  steps  rebuild ms (med/max)  table ms (med/max)  boards ms (med/max)  KiB")
    for players in args.players:
        seed = 7
        actions, ends = whole_game(players, seed)
        nm = names(players)
        render_boards(new_game(players, seed).view(None), nm)  # fonts and sprites warmed up
        times: dict[str, list[float]] = {"rebuild": [], "table": [], "boards": []}
        size = 0
        for end in ends[:: args.every]:
            t0 = time.perf_counter()
            view = rebuild(players, seed, actions[:end]).view(None)
            t1 = time.perf_counter()
            render_table(view, nm)
            t2 = time.perf_counter()
            png = render_boards(view, nm)
            t3 = time.perf_counter()
            size = max(size, len(png))
            for key, took in (("rebuild", t1 - t0), ("table", t2 - t1), ("boards", t3 - t2)):
                times[key].append(took * 1000)
        parts = [
            f"{statistics.median(times[k]):7.1f}/{max(times[k]):7.1f}"
            for k in ("rebuild", "table", "boards")
        ]
        print(
            f"{players:7d}  {len(ends) - 1:5d}  {parts[0]:>20}  {parts[1]:>18}  {parts[2]:>19}"
            f"  {size / 1024:4.0f}"
        )


if __name__ == "__main__":
    main()
