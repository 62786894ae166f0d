"""Who is told what when a turn ends: decided here, once, from the turn's result alone.

A move that ends a turn comes back from the core with all that telling it needs
(`ActResult.told`: the turn message on show, the followers, the next player's settings, last
move, deadline rules and plan). `tell` turns it into a `Telling`: which turns the channel hears
about, whether anything is posted, whether the next person's turn message mentions them,
whether they get a DM (in which language, with which deadline), which followers get a DM in
which language, the next turn's reminder and deadline timers, and whether a computer player
or a plan moves next. It is pure (no clock, no store, no adapter): the turn flow gives it the
time and the log when needed, the adapters render what it says, and nothing is read twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from engine import ScoringHeld, SeatView

from ..core.ratings import RatingChange
from ..core.records import ActionRow, GameInfo, TimerKind
from ..core.results import ActResult, GameLog, Growth, LoggedTurn, NextTurn, untold
from .policy import TurnNotice, deadline_at, first_reminder_at, turn_notice

#: the next turn's timers: (kind, due, seat), as `Schedule.turn_told` arms them
Timers = tuple[tuple[TimerKind, datetime, int | None], ...]


@dataclass(frozen=True)
class TurnDm:
    """The DM that opens a person's turn: to whom, in their language, with the turn's deadline
    and what happened since their last turn (`log`)."""

    game: GameInfo
    user_id: int
    seat: int
    name: str
    #: what they see: their hand and money, for the DM's lines and picture
    view: SeatView
    locale: str
    deadline: datetime | None
    #: the game's actions, and its log rebuilt from them, for "since your last turn"
    actions: tuple[ActionRow, ...] | None = None
    log: GameLog | None = None


@dataclass(frozen=True)
class Telling:
    """What the end of a turn tells, and to whom."""

    #: the turns the channel has not been told, this one last
    turns: list[LoggedTurn]
    #: the game ended with this turn
    over: bool
    #: this turn held a scoring round
    scoring: bool
    #: a computer player moves next (it plays in the background, its turns told later)
    computer_next: bool
    #: the channel gets a message now: the summary, a scoring round, the results or the next
    #: person's turn (a turn that only hands the move to a computer player posts nothing)
    post: bool
    #: the next person's turn message mentions them (how they chose to be told)
    ping: bool = False
    #: the DM opening the next person's turn, if that is how they are told
    dm: TurnDm | None = None
    #: followers by DM and the language each reads (theirs, else the game's)
    followers: tuple[tuple[int, str], ...] = ()
    #: the next person's reminder and deadline
    timers: Timers = ()
    #: a plan plays the next person's turn
    plan: bool = False
    #: hints asked in the game per seat (told with the results)
    hints: dict[int, int] = field(default_factory=dict)
    #: how a rated game moved its players' ratings (told with the results)
    ratings: tuple[RatingChange, ...] = ()
    #: every Alhambra growing turn by turn, for the results (the turn flow adds it)
    growth: Growth | None = None


def needs_log(result: ActResult) -> bool:
    """Whether telling `result` needs the game's log rebuilt (computer players' turns to tell
    together, or a DM's summary of the turns since the player's last one)."""
    return result.told is not None and result.told.actions is not None


def tell(result: ActResult, now: datetime, locale: str, log: GameLog | None = None) -> Telling:
    """Who is told what about the turn `result` ended, at `now`, the game's public words in
    `locale`; `log` is the game's log when `needs_log` says it is needed."""
    told = result.told
    assert told is not None, "a turn that ended carries what telling it needs"
    game = result.game
    this = LoggedTurn(
        result.seat.seat if result.seat.seat is not None else -1,
        list(result.turn_events),
        result.end_events,
        result.version,
    )
    turns = [this]
    if result.seat.is_computer and log is not None:
        computers = {s.seat for s in game.seats if s.is_computer and s.seat is not None}
        turns = untold(log.turns(), computers) or [this]
    scoring = any(isinstance(e, ScoringHeld) for e in result.end_events)
    upcoming = told.next
    computer_next = upcoming is not None and upcoming.player.is_computer
    followers = tuple((user, chosen or locale) for user, chosen in told.followers)
    telling = Telling(
        turns=turns,
        over=result.is_over,
        scoring=scoring,
        computer_next=computer_next,
        post=not (computer_next and not scoring),
        followers=followers,
        hints=told.hints,
        ratings=told.ratings,
    )
    if upcoming is None or upcoming.player.user_id is None:
        return telling
    notice = _notice(upcoming, now)
    turn_started = game.turn_started_at or now
    timers = _timers(upcoming, turn_started)
    dm = None
    if notice.dm and not upcoming.has_plan:
        assert upcoming.prefs is not None and upcoming.notes is not None
        assert upcoming.player.seat is not None
        deadline = next((due for kind, due, _ in timers if kind == "deadline"), None)
        dm = TurnDm(
            game,
            upcoming.player.user_id,
            upcoming.player.seat,
            upcoming.player.name,
            upcoming.view,
            upcoming.prefs.dm_locale(locale, upcoming.notes.discord_locale),
            deadline,
            told.actions,
            log,
        )
    return Telling(
        turns=turns,
        over=telling.over,
        scoring=scoring,
        computer_next=False,
        post=True,
        ping=notice.mention,
        dm=dm,
        followers=followers,
        timers=timers,
        plan=upcoming.has_plan,
        hints=told.hints,
        ratings=told.ratings,
    )


def _notice(upcoming: NextTurn, now: datetime) -> TurnNotice:
    """How the next person is told (`policy.turn_notice`, their own choice)."""
    prefs, notes = upcoming.prefs, upcoming.notes
    assert prefs is not None and notes is not None
    return turn_notice(prefs, notes, now=now, last_action=upcoming.last_action_at)


def _timers(upcoming: NextTurn, turn_started: datetime) -> Timers:
    """The next person's reminder and, if the game has one, deadline (as `Reminders.
    schedule_turn` arms them for a turn it reads afresh)."""
    prefs, seat = upcoming.prefs, upcoming.player.seat
    assert prefs is not None
    timers: list[tuple[TimerKind, datetime, int | None]] = [
        ("reminder", first_reminder_at(turn_started, prefs), seat)
    ]
    due = deadline_at(turn_started, upcoming.rules, prefs)
    if due is not None:
        timers.append(("deadline", due, seat))
    return tuple(timers)


def soonest(timers: Sequence[tuple[TimerKind, datetime, int | None]]) -> datetime | None:
    return min((due for _, due, _ in timers), default=None)
