"""The game review's cost: the CPU time of `review_game` for every seat of whole games.

Plays `--games` games of each table size in `--players` (seats of `normal` and `easy`, so that
there are mistakes to find), then times the review of every seat. Prints, per table size, the
median and the largest time for one player's review and for a whole game's (every seat).

    python bench/review.py                      # 2 games each of 2, 4 and 6 players
    python bench/review.py --games 5 --players 4

Measured on a shared 2-core machine (process time, one game each): before the stakes were
played to the end (one-step + look-ahead, summed), one seat's review took 0.09 / 0.28 / 0.24 s
(median; 2, 4 and 6 players) and a whole game's 0.18 / 1.14 / 1.70 s; measured to the end, one
seat's 1.35 / 3.78 / 1.93 s (at most 4.5 s) and a whole game's 2.7 / 13.7 / 12.8 s. A player
asks for one seat at a time, in a worker, well inside the 30 s worker timeout.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from engine import Action, Options, new_game  # noqa: E402
from engine.ai import make_player  # noqa: E402
from engine.ai.review import review_game  # noqa: E402


def play(players: int, seed: int) -> list[Action]:
    game = new_game(players, seed)
    history = list(game.setup_events())
    actions: list[Action] = []
    while game.current_seat is not None:
        seat = game.current_seat
        level = "easy" if seat % 2 else "normal"
        action = make_player(level, seed * 10 + seat).choose(game.view(seat), history)
        actions.append(action)
        history += game.apply(action)
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    args = parser.parse_args()
    for players in args.players:
        one: list[float] = []
        whole: list[float] = []
        for g in range(args.games):
            seed = 1000 * players + g
            actions = play(players, seed)
            total = 0.0
            for seat in range(players):
                start = time.process_time()
                review_game(players, seed, Options(), actions, seat)
                spent = time.process_time() - start
                one.append(spent)
                total += spent
            whole.append(total)
        print(
            f"{players} players: one seat median {statistics.median(one):.2f} s, "
            f"max {max(one):.2f} s; whole game median {statistics.median(whole):.2f} s, "
            f"max {max(whole):.2f} s"
        )


if __name__ == "__main__":
    main()
