"""Level `random`: a uniformly random legal action (never Undo). The baseline for the others."""

from __future__ import annotations

import random

from ..actions import Action
from ..events import Event
from ..view import SeatView
from .player import Player


class RandomPlayer(Player):
    level = "random"

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        return options[rng.randrange(len(options))]
