"""`python -m bot simulate`: computer-only games, repeatable from a seed, with their figures."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import build_parser
from bot.cli.simulate import level_stats, run_games, run_simulate, seat_levels
from engine import new_game, replay
from engine.ai import make_player

ROOT = Path(__file__).resolve().parents[2]


def test_levels_fill_the_table_and_rotate_seats() -> None:
    assert seat_levels(["easy", "hard"], 3, 0) == ("easy", "hard", "easy")
    assert seat_levels(["easy", "hard"], 3, 1) == ("hard", "easy", "easy")
    assert seat_levels(["easy", "hard"], 3, 2) == ("easy", "easy", "hard")
    # over a full rotation every level sits in every seat
    seen = {seat_levels(["random", "easy", "normal"], 3, k) for k in range(3)}
    assert {row[0] for row in seen} == {"random", "easy", "normal"}


def test_games_are_real_and_repeatable_from_the_seed() -> None:
    first = run_games(3, 2, ["random", "easy"], seed=7)
    again = run_games(3, 2, ["random", "easy"], seed=7)
    other = run_games(3, 2, ["random", "easy"], seed=8)
    assert [(r.scores, r.winners) for r in first] == [(r.scores, r.winners) for r in again]
    assert [r.scores for r in first] != [r.scores for r in other]
    for result in first:
        assert result.winners and all(0 <= w < 2 for w in result.winners)
        best = max(result.scores)
        assert all(result.scores[w] == best for w in result.winners)
        assert sum(count for count, _ in result.thinking.values()) > 50
    # the first game is what the engine and the same players produce by themselves
    r = first[0]
    game = new_game(2, r.seed)
    bots = [make_player(level, r.seed * 10 + s) for s, level in enumerate(r.levels)]
    history = game.setup_events()
    actions = []
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        action = bots[seat].choose(game.view(seat), history)
        actions.append(action)
        history.extend(game.apply(action))
    assert tuple(game.scores) == r.scores
    assert replay(2, r.seed, None, actions).scores == game.scores


def test_worker_processes_give_the_same_results() -> None:
    alone = run_games(2, 2, ["random"], seed=3)
    pooled = run_games(2, 2, ["random"], seed=3, jobs=2)
    assert [r.scores for r in alone] == [r.scores for r in pooled]


def test_level_stats_share_the_wins() -> None:
    results = run_games(4, 3, ["random", "easy"], seed=2)
    stats = {s.level: s for s in level_stats(results)}
    assert set(stats) == {"random", "easy"}
    assert sum(s.wins for s in stats.values()) == pytest.approx(4)
    assert sum(s.seats for s in stats.values()) == 12
    assert all(len(s.scores) == s.seats for s in stats.values())


def test_the_report_prints_shares_scores_and_times() -> None:
    out, err = io.StringIO(), io.StringIO()
    args = build_parser().parse_args(
        ["simulate", "--games", "3", "--players", "2", "--levels", "random,easy", "--seed", "4"]
    )
    assert run_simulate(args, out, err) == 0
    text = out.getvalue()
    assert "3 games of 2 players, seed 4" in text
    rows = {
        m[1]: m for m in re.finditer(r"^(random|easy)\s+(\d+)\s+([\d.]+)%\s+([\d.]+)%", text, re.M)
    }
    assert set(rows) == {"random", "easy"}
    assert sum(float(m[3]) for m in rows.values()) == pytest.approx(100, abs=0.2)
    assert re.search(r"time per game: mean [\d.]+ s, min [\d.]+ s, max [\d.]+ s", text)
    assert "3/3 games" in err.getvalue() and "[" + "#" * 30 + "]" in err.getvalue()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "7"], "--players must be 2 to 6"),
        (["--games", "0"], "--games must be at least 1"),
        (["--levels", "easy,grandmaster"], "no computer level 'grandmaster'"),
        (["--levels", ","], "name at least one level"),
    ],
)
def test_bad_arguments_are_refused(argv: list[str], message: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_simulate(build_parser().parse_args(["simulate", *argv]), out, err) == 2
    assert message in err.getvalue() and out.getvalue() == ""


def test_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "simulate", "--games", "2", "--players", "2",
         "--levels", "random", "--seed", "1"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 games of 2 players, seed 1" in done.stdout
    assert re.search(r"^random\s+4\s+100\.0%\s+100\.0%", done.stdout, re.M)
    assert "2/2 games" in done.stderr
