"""Level `normal`: tries every legal action and keeps the one whose result it likes best.

Nothing random happens inside a turn, so each action is applied to one world built from the
seat's knowledge (`world.sample_world`) and the position after it is scored by
`evaluate.position_value`: majority standing before the next scorings, wall, money and its
exact-payment chances, placement quality, an extra action earned by an exact payment.
"""

from __future__ import annotations

import random

from ..actions import Action
from ..events import Event
from ..game import Game
from ..view import SeatView
from .evaluate import WEIGHTS, Weights, position_value
from .knowledge import deduce
from .player import Player
from .world import sample_world


def scored_actions(
    game: Game, seat: int, options: list[Action], w: Weights = WEIGHTS
) -> list[tuple[float, Action]]:
    """Each action with the value of the position it leads to, best first (stable order)."""
    scored = []
    for k, action in enumerate(options):
        trial = game.copy()
        trial.apply(action)
        scored.append((position_value(trial, seat, w), -k, action))
    scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
    return [(v, a) for v, _k, a in scored]


class NormalPlayer(Player):
    level = "normal"

    def __init__(self, seed: int = 0, weights: Weights = WEIGHTS) -> None:
        super().__init__(seed)
        self.weights = weights

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        assert view.seat is not None
        world = sample_world(view, deduce(view, history), rng)
        return scored_actions(world, view.seat, options, self.weights)[0][1]
