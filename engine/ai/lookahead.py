"""Look-ahead in sampled worlds: the one search `hard`, `expert` and the game review share.

A position is valued by `position_value`: the seat's expected final score minus the best
opponent's, on `normal`'s points scale. `playout` plays a world on, everyone with a one-step
judgement, through the seat's next turn and the others' turns after it, until its `turns`-th
turn from now: money taken now is then judged by what it actually buys next turn, after the
others have had their pick. `compare` plays every candidate forward in the same sampled worlds
(`world.sample_world`: the seat's own knowledge, never a hidden card), so that the candidates
are compared on the same luck, and returns each one's mean position value. The callers add that
to their one-step values and keep the best; they differ only in how many candidates and worlds
they afford, which is why the loop lives here once.

No clock: a search is exactly `worlds` x candidates playouts, so the same position gives the
same answer on any machine, however loaded. A search that runs too long is the caller's to
bound from outside (the bot's worker timeout, `ALHAMBRA_WORK_TIMEOUT`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, EndTurn, Pass, Undo
from ..game import Game
from ..view import SeatView
from .evaluate import PAID, all_counts, soft_points
from .knowledge import Knowledge
from .normal import (
    NORMAL_WEIGHTS,
    NormalWeights,
    build_situation,
    hand_value,
    round_outlook,
    score_actions,
)
from .world import sample_world

MAX_PLAYOUT_STEPS = 400


def position_value(game: Game, seat: int, w: NormalWeights = NORMAL_WEIGHTS) -> float:
    """`seat`'s expected final score minus the best opponent's, on `normal`'s scale."""
    held = {r.round_no for r in game.scoring_rounds}
    to_buy = len(game.supply) + sum(1 for t in game.market if t is not None)
    counts = all_counts(game)
    rounds = round_outlook(held, to_buy, len(counts), w)
    values = []
    for s in range(game.players):
        alhambra = game.alhambra(s)
        sit = build_situation(
            s, game.players, counts, rounds, len(game.supply), alhambra, game.market, w, walls=False
        )
        v = game.scores[s] + w.per_building * sum(counts[s]) * (1 - sit.late)
        v += w.wall * sit.wall * len(rounds)
        for b in range(6):
            column = [c[b] for c in counts]
            for o in rounds:
                v += o.weight * soft_points(PAID[o.round_no][b], column, o)[s]
        v += hand_value(sit, game.hand(s), game.market, w)
        v += 0.5 * w.per_building * len(game.reserve(s)) * (1 - sit.late)
        values.append(v)
    current = game.current_seat
    if current is not None and game.phase == "action" and game.actions_this_turn:
        values[current] += w.extra_action
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - max(others) if others else values[seat]


def playout(
    game: Game,
    seat: int,
    start_turn: int,
    w: NormalWeights = NORMAL_WEIGHTS,
    turns: int = 1,
    others: NormalWeights = NORMAL_WEIGHTS,
) -> None:
    """Play on until `seat`'s `turns`-th turn from now starts or the game ends: `seat` with
    weights `w`, the opponents with the one-step judgement of `others` (`normal`'s by default)."""
    seen = start_turn
    for _ in range(MAX_PLAYOUT_STEPS * turns):
        current = game.current_seat
        if current is None:
            return
        if (
            current == seat
            and game.turn_number != seen
            and game.phase == "action"
            and not game.actions_this_turn
        ):
            turns -= 1
            if turns <= 0:
                return
            seen = game.turn_number
        legal: list[Action] = [a for a in game.legal_actions() if not isinstance(a, Undo)]
        if len(legal) == 1:
            action = legal[0]
        elif any(isinstance(a, EndTurn) for a in legal):
            action = EndTurn()
        elif any(isinstance(a, Pass) for a in legal):
            action = Pass()
        else:
            weights = w if current == seat else others
            view = game.view(current)
            action = score_actions(view, legal, weights, alhambra=game.alhambra(current))[0][1]
        game.apply(action)


def compare(
    view: SeatView,
    know: Knowledge,
    candidates: Sequence[Action],
    rng: random.Random,
    worlds: int,
    w: NormalWeights,
    turns: int = 2,
    others: NormalWeights = NORMAL_WEIGHTS,
) -> list[float]:
    """Each candidate's mean position value over the same `worlds` sampled worlds: `worlds` x
    `len(candidates)` playouts, every one of them played, whatever the time it takes (no
    worlds: no evidence, every mean 0)."""
    assert view.seat is not None
    seat = view.seat
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        world = sample_world(view, know, rng)
        for k, action in enumerate(candidates):
            trial = world.copy()
            trial.apply(action)
            playout(trial, seat, view.turn_number, w, turns, others)
            totals[k] += position_value(trial, seat, w)
    return [t / max(worlds, 1) for t in totals]
