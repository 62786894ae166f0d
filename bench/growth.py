"""The results' animation: seconds to draw every Alhambra growing through a whole game, in a
worker process as the bot draws it, and its size.

    python bench/growth.py [--players 6] [--games 3] [--seed 1]

Each game is played to the end by random legal moves (no undo), its frames taken after every
turn that changed an Alhambra (as `Archive.growth` does), then drawn once in a worker of the
bot's pool. Goal: a 6-player game under 3 s in the pool, the file far under Discord's 10 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bot.core.workers import Workers  # noqa: E402
from engine import TurnEnded, Undo, new_game  # noqa: E402
from render import render_growth  # noqa: E402
from render.growth import changes  # noqa: E402


def _frames(players: int, seed: int) -> tuple[list, list[int]]:
    state = new_game(players, seed)
    rng = random.Random(seed)

    def grids() -> list[dict[tuple[int, int], int]]:
        return [{(0, 0): 0} | dict(state.alhambra(s).tiles) for s in range(players)]

    frames, turns, turn = [grids()], [0], 0
    while not state.is_over:
        move = rng.choice([a for a in state.legal_actions() if not isinstance(a, Undo)])
        if any(isinstance(e, TurnEnded) for e in state.apply(move)):
            turn += 1
            frames.append(grids())
            turns.append(turn)
    keep = changes(frames)
    return [frames[k] for k in keep], [turns[k] for k in keep]


def _ignore(seconds: float) -> None:
    pass


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = [f"Player {n + 1}" for n in range(args.players)]
    pool = Workers(1)
    pool.start()
    try:
        await pool.run(_ignore, render_growth, *_frames(2, 0)[:1], names[:2])  # warm the worker
        seconds, sizes, counts = [], [], []
        for game in range(args.games):
            frames, turns = _frames(args.players, args.seed + game)
            started = time.perf_counter()
            data = await pool.run(_ignore, render_growth, frames, names, turns=turns)
            seconds.append(time.perf_counter() - started)
            sizes.append(len(data))
            counts.append(len(frames))
        print(
            f"{args.players} players, {args.games} games: {statistics.median(counts):.0f} frames, "
            f"{statistics.median(seconds):.2f} s median (max {max(seconds):.2f} s) in a worker, "
            f"{statistics.median(sizes) / 1024:.0f} KB median (max {max(sizes) / 1024:.0f} KB)"
        )
    finally:
        await pool.close()


if __name__ == "__main__":
    asyncio.run(main())
