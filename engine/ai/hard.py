"""Level `hard`: a sharper version of `normal`'s judgement, plus look-ahead in sampled worlds.

Its one-step valuation is `normal`'s, with weights re-tuned against `normal` itself
(`HARD_WEIGHTS`). For a choice in the action phase it takes the `top_k` actions it likes best,
then samples worlds consistent with its knowledge (`world.sample_world`: the known hands, a random
order of the unseen money, supply and scoring cards) and, in each, plays every candidate forward:
the rest of its own turn with its own policy and every opponent's turn as `normal` would play
it, refills and scoring rounds included, through its own next turn (played with its one-step
policy) and the opponents' turns after it, until its second turn from now (`turns`). Looking one
round further than its next turn is what makes the search pay: money taken now is judged by
what it actually buys next turn, after the others have had their pick. The position reached is
valued on the same scale (`position_value`, against the best opponent) and averaged over the
worlds; all candidates share the same worlds so that the comparison is not drowned in luck. An
action's final score is its one-step value plus that average. Placements use the one-step choice,
which is exact there (nothing unknown happens before the turn ends).

Budget: a fixed number of worlds (so the choice depends only on the seed), and a wall-clock
safety deadline that only cuts the search short on a very slow machine. Measured against two
`normal` players (bench/ai.py, 300 games): stopping at its next turn won 47.7% (seed 1); looking
through it, 60.3% and 59.8% (seeds 1 and 2), p99 about 0.3 s per decision.
"""

from __future__ import annotations

import dataclasses
import random
import time

from ..actions import Action, EndTurn, Pass, Undo
from ..events import Event
from ..game import Game
from ..view import SeatView
from .evaluate import PAID, all_counts, soft_points
from .knowledge import deduce
from .normal import (
    NORMAL_WEIGHTS,
    NormalWeights,
    build_situation,
    hand_value,
    round_outlook,
    score_actions,
)
from .player import Player
from .world import sample_world

MAX_PLAYOUT_STEPS = 400

#: `normal`'s valuation re-tuned against `normal` itself (bench/ai_tune.py with --against
#: normal): the judgement `hard` starts from before it looks ahead.
HARD_WEIGHTS = dataclasses.replace(
    NORMAL_WEIGHTS,
    per_building=0.914,
    rivalry=0.149,
    later_round=0.805,
    spread=0.789,
    exact_flat=0.353,
    extra_action=0.742,
    wall=0.227,
    coin_late=0.118,
    no_place=3.558,
)


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


class HardPlayer(Player):
    level = "hard"

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 5,
        top_k: int = 3,
        max_seconds: float = 1.2,
        weights: NormalWeights | None = None,
        turns: int = 2,
    ) -> None:
        super().__init__(seed)
        self.turns = turns
        self.worlds = worlds
        self.top_k = top_k
        self.max_seconds = max_seconds
        self.weights = HARD_WEIGHTS if weights is None else weights

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        assert view.seat is not None
        seat = view.seat
        w = self.weights
        ranked = score_actions(view, options, w)
        if view.phase != "action" or view.final_placement or len(ranked) == 1 or not self.worlds:
            return ranked[0][1]
        candidates = [a for _v, a in ranked[: self.top_k]]
        know = deduce(view, history)
        deadline = time.perf_counter() + self.max_seconds
        totals = [0.0] * len(candidates)
        done = 0
        for _ in range(self.worlds):
            world = sample_world(view, know, rng)
            for k, action in enumerate(candidates):
                trial = world.copy()
                trial.apply(action)
                playout(trial, seat, view.turn_number, w, self.turns)
                totals[k] += position_value(trial, seat, w)
            done += 1
            if time.perf_counter() > deadline:
                break
        # The one-step value stays in: the playouts refine it (what the others grab, refills,
        # exact-payment chains) rather than replace a judgement tuned over thousands of games.
        scores = [ranked[k][0] + totals[k] / done for k in range(len(candidates))]
        best = max(range(len(candidates)), key=lambda k: (scores[k], -k))
        return candidates[best]
