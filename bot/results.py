"""What the service hands back: plain dataclasses the bot turns into messages and pictures.

The engine `Game` travels along where the caller needs to draw something right away; it holds
hidden information (other hands, the deck), so show players only `state.view(seat)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from engine import Action, Event, Game, SeatView, TurnEnded

from .store import GameInfo, SeatInfo


@dataclass(frozen=True)
class StartResult:
    game: GameInfo
    #: the setup: starting hands, pool, market and the first turn
    events: list[Event]
    state: Game = field(repr=False)


@dataclass(frozen=True)
class ActResult:
    game: GameInfo
    seat: SeatInfo
    action: Action
    #: what happened, in order, for the channel messages
    events: list[Event]
    #: the version now; the next move must expect it
    version: int
    state: Game = field(repr=False)
    #: what the steps of this action's turn did (undone steps excluded); when the action ended
    #: the turn, these are the steps of the turn that just ended
    turn_events: tuple[Event, ...] = ()

    @property
    def turn_ended(self) -> bool:
        return any(isinstance(e, TurnEnded) for e in self.events)

    @property
    def finished(self) -> bool:
        return self.game.status == "finished"


@dataclass(frozen=True)
class MyGame:
    game: GameInfo
    seat: SeatInfo
    #: True when the game waits on this user's decision
    waiting: bool


@dataclass(frozen=True)
class LogEntry:
    seq: int
    seat: int
    user_id: int | None
    action: Action
    events: list[Event]
    at: datetime


@dataclass(frozen=True)
class GameLog:
    game: GameInfo
    setup: list[Event]
    entries: list[LogEntry]


@dataclass(frozen=True)
class ViewResult:
    game: GameInfo
    #: the viewer's seat, None for a spectator
    seat: int | None
    view: SeatView
