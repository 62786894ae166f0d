"""What the service hands back: plain dataclasses the bot turns into messages and pictures.

The engine `Game` travels along where the caller needs to draw something right away; it holds
hidden information (other hands, the deck), so show players only `state.view(seat)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from engine import Action, Event, Game, SeatView, TurnEnded, Undo

from .errors import GameOver, NotAPlayer, NotYourTurn
from .records import GameInfo, SeatInfo


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
    #: the turn waits for its confirmation until then, when it ends by itself (None: it does
    #: not wait, or waits for the player to end it)
    ends_at: datetime | None = None

    @property
    def turn_ended(self) -> bool:
        return any(isinstance(e, TurnEnded) for e in self.events)

    @property
    def turn_over(self) -> bool:
        """The turn ended (or the game did): time to tell the table."""
        return self.turn_ended or self.state.is_over

    @property
    def end_events(self) -> list[Event]:
        """What ending the turn did (refills, scoring, the next turn); empty mid-turn."""
        return self.events if self.turn_ended else []


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
class LoggedTurn:
    """One finished turn as the log tells it: the steps that stood (undone ones dropped) and
    what ending it did."""

    seat: int
    steps: list[Event]
    end: list[Event]
    #: the log entry (and game version) that ended it
    seq: int


@dataclass(frozen=True)
class GameLog:
    game: GameInfo
    setup: list[Event]
    entries: list[LogEntry]

    def turns(self) -> list[LoggedTurn]:
        """The finished turns in order, rebuilt from the log: an `Undo` takes back the step
        before it, and a step's events count once its turn ends."""
        out: list[LoggedTurn] = []
        steps: list[list[Event]] = []
        for entry in self.entries:
            if isinstance(entry.action, Undo):
                if steps:
                    steps.pop()
                continue
            ended = next((e for e in entry.events if isinstance(e, TurnEnded)), None)
            if ended is None:
                steps.append(list(entry.events))
                continue
            flat = [e for s in steps for e in s]
            out.append(LoggedTurn(ended.seat, flat, list(entry.events), entry.seq))
            steps = []
        return out

    @property
    def public_history(self) -> list[Event]:
        """Every event since the deal, in order: what a computer player may remember."""
        history = list(self.setup)
        for entry in self.entries:
            history.extend(entry.events)
        return history


@dataclass(frozen=True)
class VoteOutcome:
    game: GameInfo
    motion: str
    #: the seat a hand-over vote is about (None for abandon)
    target: SeatInfo | None
    votes: int
    needed: int
    passed: bool


@dataclass(frozen=True)
class ViewResult:
    game: GameInfo
    #: the viewer's seat, None for a spectator
    seat: int | None
    view: SeatView

    def own_decision(self) -> SeatView:
        """The viewer's view if the game waits on their decision; a clear refusal otherwise."""
        if self.seat is None:
            raise NotAPlayer()
        if self.view.is_over:
            raise GameOver()
        if self.view.current_seat != self.seat:
            current = self.view.current_seat
            player = None if current is None else self.game.at_seat(current)
            raise NotYourTurn(variant="named", name=player) if player else NotYourTurn()
        return self.view


@dataclass(frozen=True)
class ReplayStep:
    """A game as it stood after its `step`-th finished turn (0: as dealt): `view` is what
    anyone saw (the public view, no hand), `own` what the asker's `seat` alone saw then (their
    hand), if they played in it. `log` is the whole game's, so a step's words are
    `log.turns()`'s."""

    log: GameLog
    step: int
    steps: int
    view: SeatView
    #: the ranking at that point, best first: (rank, seat, score)
    ranking: list[tuple[int, int, int]]
    #: the asker's seat in the game, None for a watcher
    seat: int | None = None
    #: that seat's own view at that point, None for a watcher
    own: SeatView | None = None


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game for the archive: who played and how it ended."""

    game: GameInfo
    #: (rank, seat, score), best first
    ranking: list[tuple[int, int, int]]
    #: actions in its log
    moves: int


@dataclass(frozen=True)
class ArchivePage:
    """A page of the archive: at most `size` finished games, the latest first, after the
    `offset` later ones (a whole number of pages)."""

    games: list[ArchivedGame]
    offset: int
    size: int
    #: whether older games follow this page
    more: bool

    @property
    def number(self) -> int:
        """The page's number, from 1."""
        return 1 + self.offset // self.size


@dataclass(frozen=True)
class Growth:
    """The frames of the results' animation: each player's Alhambra (cell -> tile id, the
    fountain 0) after the turn numbered alongside."""

    frames: list[list[dict[tuple[int, int], int]]]
    turns: list[int]
