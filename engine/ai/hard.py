"""Level `hard`: looks ahead in sampled worlds (determinized playouts).

For a choice in the action phase it takes the `top_k` actions `normal` likes best, then samples
worlds consistent with its knowledge (`world.sample_world`: the known hands, a random order of
the unseen money, supply and scoring cards) and, in each, plays every candidate forward: the rest
of its own turn and every opponent's next turn with the fast greedy policy of `easy`, refills and
scoring rounds included, until its own next turn. The position reached is scored by
`evaluate.position_value` and averaged over the worlds; all candidates share the same worlds so
that the comparison is not drowned in luck. Placements and the end of the game use `normal`'s
one-step evaluation, which is exact there (nothing unknown happens before the turn ends).

Budget: a fixed number of worlds (so the choice depends only on the seed), and a wall-clock
safety deadline that only cuts the search short on a very slow machine.
"""

from __future__ import annotations

import random
import time

from ..actions import Action, EndTurn, Pass, Undo
from ..events import Event
from ..game import Game
from ..view import SeatView
from .easy import easy_choice
from .evaluate import position_value
from .knowledge import deduce
from .normal import scored_actions
from .player import Player
from .world import sample_world

MAX_PLAYOUT_STEPS = 400


def playout(game: Game, seat: int, start_turn: int) -> None:
    """Play on with the greedy policy until `seat`'s next turn starts or the game ends."""
    for _ in range(MAX_PLAYOUT_STEPS):
        current = game.current_seat
        if current is None:
            return
        if (
            current == seat
            and game.turn_number != start_turn
            and game.phase == "action"
            and not game.actions_this_turn
        ):
            return
        legal = [a for a in game.legal_actions() if not isinstance(a, Undo)]
        if len(legal) == 1:
            action = legal[0]
        elif any(isinstance(a, EndTurn) for a in legal):
            action = EndTurn()
        elif any(isinstance(a, Pass) for a in legal):
            action = Pass()
        else:
            action = easy_choice(game.view(current), legal)
        game.apply(action)


class HardPlayer(Player):
    level = "hard"

    def __init__(
        self, seed: int = 0, worlds: int = 6, top_k: int = 4, max_seconds: float = 1.5
    ) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.top_k = top_k
        self.max_seconds = max_seconds

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        assert view.seat is not None
        seat = view.seat
        know = deduce(view, history)
        base = sample_world(view, know, rng)
        ranked = scored_actions(base, seat, options)
        if view.phase != "action" or view.final_placement or len(ranked) == 1:
            return ranked[0][1]
        candidates = [a for _v, a in ranked[: self.top_k]]
        deadline = time.perf_counter() + self.max_seconds
        totals = [0.0] * len(candidates)
        for _ in range(self.worlds):
            world = sample_world(view, know, rng)
            for k, action in enumerate(candidates):
                trial = world.copy()
                trial.apply(action)
                playout(trial, seat, view.turn_number)
                totals[k] += position_value(trial, seat)
            if time.perf_counter() > deadline:
                break
        best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
        return candidates[best]
