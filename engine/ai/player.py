"""The shape every computer player shares, and the rules of thumb common to all levels.

A player is built from a level and a seed and has one method, `choose(view, history)`: the seat's
`SeatView` (its own hand, public state, the legal actions) and the public event log. It never sees
a `Game`, so it cannot read another seat's hand, the deck or the supply.

Determinism: each decision draws from a generator seeded by the player's seed and the decision's
place in the game (turn, step, phase), not from a generator shared across calls. The same seed,
view and history give the same action, even after a restart of the bot.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence

from ..actions import Action, EndTurn, Undo
from ..events import Event
from ..view import SeatView


def seat_seed(game_seed: int | None, seat: int) -> int:
    """A computer seat's own seed, fixed by the game's: a restart repeats its choices, and a
    hint or a review that asks the same level in the same position gets the same move."""
    return zlib.crc32(f"{game_seed}:{seat}".encode())


class NotYourTurn(ValueError):
    """`choose` was called with a view that has no legal action for its seat."""


class Player:
    """Base class: filters the legal actions and answers forced moves immediately."""

    level = "base"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView, history: Sequence[Event] = ()) -> Action:
        """The action this player takes; never `Undo`, always a member of `view.legal`."""
        options = candidate_actions(view)
        if len(options) == 1:
            return options[0]
        if any(isinstance(a, EndTurn) for a in options):
            return EndTurn()  # only happens in the confirm phase: nothing else is possible
        action = self.decide(view, list(history), options, self.rng_for(view))
        assert action in options, f"{self.level} chose an action that is not legal: {action!r}"
        return action

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        raise NotImplementedError

    def rng_for(self, view: SeatView) -> random.Random:
        key = (
            f"{self.level}/{self.seed}/{view.seat}/{view.turn_number}/"
            f"{view.actions_this_turn}/{view.phase}/{len(view.pending)}"
        )
        return random.Random(key)


def candidate_actions(view: SeatView) -> list[Action]:
    """The legal actions a computer player considers: all of them but `Undo`."""
    if view.seat is None or view.current_seat != view.seat or not view.legal:
        raise NotYourTurn(f"it is not seat {view.seat}'s decision")
    options: list[Action] = [a for a in view.legal if not isinstance(a, Undo)]
    if not options:  # cannot happen with a legal game state, but never hand back Undo
        raise NotYourTurn("no action except undo is available")
    return options
