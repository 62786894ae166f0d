"""`python -m bot simulate`: computer-only games, to see how the levels compare.

    python -m bot simulate --games 50 --players 3 --levels easy,normal,hard --seed 1

Games are played by the engine directly (no database: nothing here is about storage), each from
a seed derived from `--seed`, so a run can be repeated exactly. The levels fill the seats in
order, repeated as needed, and rotate by one seat each game so no level keeps the same seat;
the engine then draws the turn order from the game's seed as usual.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TextIO

from engine import new_game
from engine.ai import LEVELS, make_player

MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True)
class GameResult:
    game_no: int
    seed: int
    #: the level playing each seat
    levels: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    seconds: float
    #: per level: (decisions, seconds spent deciding)
    thinking: dict[str, tuple[int, float]] = field(default_factory=dict)


def seat_levels(levels: Sequence[str], players: int, game_no: int) -> tuple[str, ...]:
    """The levels repeated to fill the table, rotated by the game number."""
    filled = [levels[k % len(levels)] for k in range(players)]
    shift = game_no % players
    return tuple(filled[shift:] + filled[:shift])


def game_seed(seed: int, game_no: int) -> int:
    return seed * 1_000_003 + game_no


def play_game(players: int, levels: Sequence[str], seed: int, game_no: int) -> GameResult:
    """One whole game between computer players, from its seed."""
    by_seat = seat_levels(levels, players, game_no)
    g_seed = game_seed(seed, game_no)
    bots = [make_player(level, g_seed * 10 + s) for s, level in enumerate(by_seat)]
    clock = time.perf_counter
    started = clock()
    game = new_game(players, g_seed)
    history = game.setup_events()
    thinking: dict[str, list[float]] = {level: [0, 0.0] for level in by_seat}
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        t0 = clock()
        action = bots[seat].choose(game.view(seat), history)
        spent = thinking[by_seat[seat]]
        spent[0] += 1
        spent[1] += clock() - t0
        history.extend(game.apply(action))
    return GameResult(
        game_no=game_no,
        seed=g_seed,
        levels=by_seat,
        scores=tuple(game.scores),
        winners=tuple(game.winners),
        seconds=clock() - started,
        thinking={k: (int(v[0]), float(v[1])) for k, v in thinking.items()},
    )


def _play_args(args: tuple[int, tuple[str, ...], int, int]) -> GameResult:
    return play_game(*args)


def run_games(
    games: int,
    players: int,
    levels: Sequence[str],
    seed: int,
    *,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameResult]:
    """Play the games (in `jobs` processes), reporting `progress(done, total)` as they end."""
    tasks = [(players, tuple(levels), seed, k) for k in range(games)]
    results: list[GameResult] = []
    if progress:
        progress(0, games)
    if jobs > 1 and games > 1:
        with ProcessPoolExecutor(min(jobs, games)) as pool:
            for result in pool.map(_play_args, tasks):
                results.append(result)
                if progress:
                    progress(len(results), games)
    else:
        for task in tasks:
            results.append(_play_args(task))
            if progress:
                progress(len(results), games)
    return results


@dataclass
class LevelStats:
    level: str
    seats: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    decisions: int = 0
    thinking: float = 0.0


def level_stats(results: Sequence[GameResult]) -> list[LevelStats]:
    """Per level: seats played, wins (a shared win counts as a fraction), scores, thinking time."""
    stats: dict[str, LevelStats] = {}
    for result in results:
        for seat, level in enumerate(result.levels):
            row = stats.setdefault(level, LevelStats(level))
            row.seats += 1
            row.scores.append(result.scores[seat])
            if seat in result.winners:
                row.wins += 1 / len(result.winners)
        for level, (count, seconds) in result.thinking.items():
            stats[level].decisions += count
            stats[level].thinking += seconds
    order = list(LEVELS)
    return sorted(stats.values(), key=lambda r: order.index(r.level))


def report(results: Sequence[GameResult], players: int, seed: int, wall: float) -> list[str]:
    """The figures as lines of text."""
    games = len(results)
    rows = level_stats(results)
    lines = [
        f"{games} game{'' if games == 1 else 's'} of {players} players, seed {seed}",
        "",
        f"{'level':<8}{'seats':>7}{'win share':>11}{'fair':>8}"
        f"{'mean score':>12}{'min':>6}{'max':>6}{'ms/decision':>13}",
    ]
    for row in rows:
        share = row.wins / games
        fair = row.seats / (games * players)
        per_decision = row.thinking / row.decisions * 1000 if row.decisions else 0.0
        lines.append(
            f"{row.level:<8}{row.seats:>7}{share:>11.1%}{fair:>8.1%}"
            f"{statistics.fmean(row.scores):>12.1f}{min(row.scores):>6}{max(row.scores):>6}"
            f"{per_decision:>13.2f}"
        )
    times = [r.seconds for r in results]
    lines += [
        "",
        "win share: games won (a shared win counts as a fraction) / games; fair: its share of "
        "the seats",
        f"time per game: mean {statistics.fmean(times):.2f} s, min {min(times):.2f} s, "
        f"max {max(times):.2f} s; {wall:.1f} s in all",
    ]
    return lines


def progress_bar(stream: TextIO, started: float) -> Callable[[int, int], None]:
    """A one-line bar on `stream`, redrawn in place."""

    def draw(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        elapsed = time.perf_counter() - started
        eta = elapsed / done * (total - done) if done else 0.0
        bar = "#" * filled + "-" * (width - filled)
        stream.write(f"\r[{bar}] {done}/{total} games, {elapsed:5.1f} s, eta {eta:5.1f} s")
        if done == total:
            stream.write("\n")
        stream.flush()

    return draw


def parse_levels(text: str) -> list[str]:
    levels = [part.strip() for part in text.split(",") if part.strip()]
    if not levels:
        raise ValueError("name at least one level")
    for level in levels:
        if level not in LEVELS:
            raise ValueError(
                f"there is no computer level {level!r}; choose among {', '.join(LEVELS)}"
            )
    return levels


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    parser.add_argument(
        "--players", type=int, default=3, help="players per game, 2 to 6 (default 3)"
    )
    parser.add_argument(
        "--levels",
        default="easy,normal",
        metavar="LIST",
        help=f"levels filling the seats in turn, comma separated ({', '.join(LEVELS)}; "
        "default easy,normal)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")


def run_simulate(
    args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    out, err = stdout or sys.stdout, stderr or sys.stderr
    try:
        levels = parse_levels(args.levels)
        if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
            raise ValueError(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.jobs < 1:
            raise ValueError("--jobs must be at least 1")
    except ValueError as exc:
        print(f"simulate: {exc}", file=err)
        return 2
    started = time.perf_counter()
    results = run_games(
        args.games,
        args.players,
        levels,
        args.seed,
        jobs=args.jobs,
        progress=progress_bar(err, started),
    )
    for line in report(results, args.players, args.seed, time.perf_counter() - started):
        print(line, file=out)
    return 0
