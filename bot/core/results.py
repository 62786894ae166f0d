"""What the services hand back: plain dataclasses the bot turns into messages and pictures.

Only views cross out of the core: what anyone sees (`public`) and what one seat sees (`own`),
never the engine `Game`, which holds hidden information (other hands, the deck).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from engine import (
    Action,
    Event,
    Options,
    ScoringHeld,
    SeatView,
    TurnEnded,
    Undo,
    action_from_dict,
    new_game,
)

from .errors import GameNotStarted, GameOver, NotAPlayer, NotYourTurn
from .preferences import Preferences
from .ratings import RatingChange
from .records import ActionRow, DeadlineRules, GameInfo, SeatInfo, UserNotes


@dataclass(frozen=True)
class StartResult:
    game: GameInfo
    #: the setup: starting hands, pool, market and the first turn
    events: list[Event]
    #: the table as anyone sees it
    public: SeatView
    #: what the first player sees (their hand, their legal moves)
    first: SeatView


@dataclass(frozen=True)
class NextTurn:
    """Who moves after a finished turn, and what telling them needs, read with the move."""

    player: SeatInfo
    #: their own view: their hand and legal moves (for their DM and the turn's buttons)
    view: SeatView
    #: a person's preferences, and what the bot noted about them (None for a computer player)
    prefs: Preferences | None = None
    notes: UserNotes | None = None
    #: when they last moved in this game (a player at the table needs no DM)
    last_action_at: datetime | None = None
    #: the game's deadline rules
    rules: DeadlineRules = field(default_factory=DeadlineRules)
    #: whether a plan waits to play their turn
    has_plan: bool = False


@dataclass(frozen=True)
class TurnOver:
    """Everything the table is told from when a turn (or the game) ends, read in the move's
    own transaction, so telling it reads nothing again: the turn message on show, the game's
    followers by DM (with the language each chose, None: the game's), the next player (None
    when the game is over), the hints asked (at the end) and, when the turns to tell or the
    next player's summary need it, the log's actions."""

    #: the turn message on show (channel id, message id), to retire
    message: tuple[int, int] | None
    followers: tuple[tuple[int, str | None], ...] = ()
    next: NextTurn | None = None
    hints: dict[int, int] = field(default_factory=dict)
    #: how a rated game moved its players' ratings (at the end)
    ratings: tuple[RatingChange, ...] = ()
    #: the game's actions, when the channel or a DM must tell more than this turn
    actions: tuple[ActionRow, ...] | None = None


@dataclass(frozen=True)
class ActResult:
    game: GameInfo
    seat: SeatInfo
    action: Action
    #: what happened, in order, for the channel messages
    events: list[Event]
    #: the version now; the next move must expect it
    version: int
    #: the table now, as anyone sees it
    public: SeatView
    #: what the seat that acted sees now
    own: SeatView
    #: what the steps of this action's turn did (undone steps excluded); when the action ended
    #: the turn, these are the steps of the turn that just ended
    turn_events: tuple[Event, ...] = ()
    #: the turn waits for its confirmation until then, when it ends by itself (None: it does
    #: not wait, or waits for the player to end it)
    ends_at: datetime | None = None
    #: when the turn ended: all that telling it needs (`Play.told`, asked by the turn flow)
    told: TurnOver | None = None
    #: the player wants their turns ended at once (no undo window) and this move left only
    #: the confirmation: the turn flow ends it
    end_now: bool = False
    #: when the turn ended, what the next player sees (their hand, their legal moves)
    next_view: SeatView | None = None

    @property
    def turn_ended(self) -> bool:
        return any(isinstance(e, TurnEnded) for e in self.events)

    @property
    def is_over(self) -> bool:
        return self.public.is_over

    @property
    def turn_over(self) -> bool:
        """The turn ended (or the game did): time to tell the table."""
        return self.turn_ended or self.public.is_over

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


def untold(turns: Sequence[LoggedTurn], computers: Collection[int]) -> list[LoggedTurn]:
    """The finished turns the channel has not been told, the last one included.

    The channel hears about a game when a turn hands the move to a person, holds a scoring
    round or ends the game; computer players' turns in between are told together with the
    next of those, so nobody reads a message addressed to a computer. Derived from the log
    alone, so a retry after a failed post or a restart tells the same turns."""
    out: list[LoggedTurn] = []
    for index in range(len(turns) - 1, -1, -1):
        turn = turns[index]
        told = any(isinstance(e, ScoringHeld) for e in turn.end) or (
            index + 1 < len(turns) and turns[index + 1].seat not in computers
        )
        if out and told:
            break
        out.append(turn)
    return out[::-1]


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

    @classmethod
    def rebuild(cls, game: GameInfo, rows: Sequence[ActionRow]) -> GameLog:
        """The log of `game` from its stored actions: every action with the events it made,
        by replaying the game from its seed (pure, but a whole game's worth of moves: run it
        off the event loop)."""
        if game.seed is None:
            raise GameNotStarted()
        state = new_game(len(game.seats), game.seed, Options.model_validate(game.options))
        entries = []
        for row in rows:
            action = action_from_dict(row.action)
            events = state.apply(action)
            entries.append(LogEntry(row.seq, row.seat, row.user_id, action, events, row.created_at))
        return cls(game, state.setup_events(), entries)

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
