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
which is exact there (nothing unknown happens before the turn ends). The playout, the valuation
and the loop over worlds are `lookahead`'s, shared with `expert` and the game review.

Budget: a fixed number of worlds and candidates, and no clock (so the choice depends only on the
seed, the view and the log, on any machine however loaded; a decision that runs too long is
bounded by the bot's worker timeout, not here). Measured against two
`normal` players (bench/ai.py, 300 games): stopping at its next turn won 47.7% (seed 1); looking
through it, 60.3% and 59.8% (seeds 1 and 2), p99 about 0.3 s per decision.
"""

from __future__ import annotations

import dataclasses
import random

from ..actions import Action
from ..events import Event
from ..view import SeatView
from .knowledge import deduce
from .lookahead import compare
from .normal import NORMAL_WEIGHTS, NormalWeights, score_actions
from .player import Player

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


class HardPlayer(Player):
    level = "hard"

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 5,
        top_k: int = 3,
        weights: NormalWeights | None = None,
        turns: int = 2,
    ) -> None:
        super().__init__(seed)
        self.turns = turns
        self.worlds = worlds
        self.top_k = top_k
        self.weights = HARD_WEIGHTS if weights is None else weights

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        assert view.seat is not None
        w = self.weights
        ranked = score_actions(view, options, w)
        if view.phase != "action" or view.final_placement or len(ranked) == 1 or not self.worlds:
            return ranked[0][1]
        candidates = [a for _v, a in ranked[: self.top_k]]
        know = deduce(view, history)
        means = compare(view, know, candidates, rng, self.worlds, w, self.turns)
        # The one-step value stays in: the playouts refine it (what the others grab, refills,
        # exact-payment chains) rather than replace a judgement tuned over thousands of games.
        scores = [ranked[k][0] + m for k, m in enumerate(means)]
        best = max(range(len(candidates)), key=lambda k: (scores[k], -k))
        return candidates[best]
