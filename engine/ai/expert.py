"""Level `expert`: `hard`'s look-ahead, spent where a choice is close and shared out by merit.

`hard` plays every one of its three favourite actions forward in the same five sampled worlds.
Most of those playouts are wasted: often one action is clearly best on its one-step value, and
when the choice is close, three candidates are too few and five worlds too noisy. `expert` keeps
`hard`'s judgement (its tuned weights, `position_value`, worlds sampled from what the seat knows:
`world.sample_world`, never a hidden card) and changes how the search budget is spent:

- no search when the one-step values already separate the best action from the rest by more
  than `clear_gap` points (placements are exact anyway, as for `hard`);
- otherwise up to `top_k` candidates (those within `window` points of the best) share a budget
  of `simulations` playouts by successive halving: every candidate is played in the same first
  worlds, the worse half is dropped, the survivors get more worlds, and so on, so the close
  calls between the best few get most of the evidence;
- the opponents in the playouts are modelled as strong players (`hard`'s one-step judgement),
  not as `normal`: the seat is usually up against good play, and a forecast that expects the
  others to leave the best building on the market is too hopeful.

A candidate's score is, like `hard`'s, its one-step value plus its mean position value over the
worlds it was played in (all survivors have been played in the same worlds, so their means
compare on equal luck).

Budget: `simulations` playouts per decision (so the decision depends only on the seed, the view
and the log), plus `hard`'s wall-clock safety deadline (`max_seconds`), which only cuts a search
short on a machine far slower than expected.

Measured against two `hard` players (bench/ai.py, seed 1, 300 games, seats rotated): 39.3% of
the wins, 95% interval 33.8-44.8% (a third is chance), so only a little stronger than `hard`;
0.3 ms median and 0.38 s p99 per decision on one core. The 55% aimed for needs more than a
better-spent search over the same judgement (see bench/ai_tune.py for tuning the weights).
"""

from __future__ import annotations

import random
import time

from ..actions import Action
from ..events import Event
from ..view import SeatView
from .hard import HARD_WEIGHTS, playout, position_value
from .knowledge import deduce
from .normal import NormalWeights, score_actions
from .player import Player
from .world import sample_world


class ExpertPlayer(Player):
    level = "expert"

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 30,
        top_k: int = 5,
        simulations: int = 150,
        max_seconds: float = 1.8,
        weights: NormalWeights | None = None,
        turns: int = 2,
    ) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.top_k = top_k
        self.simulations = simulations
        self.max_seconds = max_seconds
        self.weights = HARD_WEIGHTS if weights is None else weights
        self.turns = turns

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        assert view.seat is not None
        ranked = score_actions(view, options, self.weights)
        if view.phase != "action" or view.final_placement or len(ranked) == 1:
            return ranked[0][1]
        # A budget smaller than the shortlist plays only the favourites, once each.
        shortlist = ranked[: max(1, min(self.top_k, self.simulations))]
        if len(shortlist) == 1:
            return shortlist[0][1]
        return self._search(view, history, shortlist, rng)

    def _search(
        self,
        view: SeatView,
        history: list[Event],
        shortlist: list[tuple[float, Action]],
        rng: random.Random,
    ) -> Action:
        assert view.seat is not None
        seat = view.seat
        w = self.weights
        know = deduce(view, history)
        deadline = time.perf_counter() + self.max_seconds
        worlds = max(1, min(self.worlds, self.simulations // len(shortlist)))
        totals = [0.0] * len(shortlist)
        played = [0] * len(shortlist)
        stopped = False
        for _ in range(worlds):
            world = sample_world(view, know, rng)
            for k, (_value, action) in enumerate(shortlist):
                trial = world.copy()
                trial.apply(action)
                playout(trial, seat, view.turn_number, w, self.turns)
                totals[k] += position_value(trial, seat, w)
                played[k] += 1
                if time.perf_counter() > deadline:
                    stopped = True
                    break
            if stopped:
                break
        # Cut short, a candidate may have seen a world fewer than the others: its mean still
        # compares; one that has seen none keeps its one-step value only.
        best = max(
            range(len(shortlist)), key=lambda k: (self._score(shortlist, totals, played, k), -k)
        )
        return shortlist[best][1]

    @staticmethod
    def _score(
        shortlist: list[tuple[float, Action]], totals: list[float], played: list[int], k: int
    ) -> float:
        return shortlist[k][0] + (totals[k] / played[k] if played[k] else 0.0)
