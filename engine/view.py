"""What one seat may see of a game (RULES.md section 8), and nothing more.

A `SeatView` is what the renderer draws and what computer players decide from: public state for
everyone, the seat's own hand, and the legal actions when it is that seat's decision. Other
hands appear only as their size; deck and supply only as their size.

This module holds the data only; `Game.view` builds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from pydantic import Field, TypeAdapter

from .actions import Action
from .alhambra import Alhambra, HoleRule
from .events import ScoringHeld


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    #: (x, y, tile) of every building, the fountain excluded
    alhambra: tuple[tuple[int, int, int], ...]
    reserve: tuple[int, ...]
    hand_size: int
    score: int
    #: buildings per type in the Alhambra, in `Building` order
    counts: tuple[int, ...]
    wall: int

    def grid(self, holes: HoleRule = "classic") -> Alhambra:
        return Alhambra.from_tiles({(x, y): t for x, y, t in self.alhambra}, holes)


@dataclass(frozen=True, slots=True)
class SeatView:
    #: the seat this view is for; None for a spectator (public information only)
    seat: int | None
    players: int
    seating: tuple[int, ...]
    holes: HoleRule
    #: the viewer's own cards (empty for a spectator)
    hand: tuple[int, ...]
    table: tuple[PlayerView, ...]
    pool: tuple[int, ...]
    market: tuple[int | None, ...]
    deck_size: int
    discard_size: int
    supply_size: int
    #: Dirk's buildings in a two-player game, None otherwise
    dirk: tuple[int, ...] | None
    current_seat: int | None
    phase: str
    #: buildings waiting to be placed by the current seat (public: bought in the open)
    pending: tuple[int, ...]
    actions_this_turn: int
    final_placement: bool
    turn_number: int
    scoring_rounds: tuple[ScoringHeld, ...]
    is_over: bool
    ranks: tuple[int, ...] | None
    #: the legal actions, when it is this seat's decision
    legal: tuple[Annotated[Action, Field(discriminator="kind")], ...] = field(default=())

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(p.score for p in self.table)

    def alhambra(self, seat: int) -> Alhambra:
        """A seat's Alhambra as a grid, to ask it rule questions (legal cells, walls)."""
        return self.table[seat].grid(self.holes)


VIEW_ADAPTER: TypeAdapter[SeatView] = TypeAdapter(SeatView)
