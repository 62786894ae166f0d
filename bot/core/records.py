"""What the game core stores and hands around: plain, frozen records with no behaviour beyond
reading themselves.

They are the vocabulary shared by the store, the service, the turn flow and both adapters, so
they live apart from the SQL that reads and writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

Status = Literal["lobby", "active", "finished", "abandoned"]
SeatKind = Literal["human", "computer"]
#: reminders and deadlines of a turn; `announce`: a finished turn the channel has not been told
TimerKind = Literal["reminder", "deadline", "announce", "end_turn", "computer"]
#: How a user is told that it is their turn.
TurnNotice = Literal["dm", "mention", "both"]
TURN_NOTICES: tuple[TurnNotice, ...] = ("dm", "mention", "both")

OPEN_STATUSES: tuple[Status, ...] = ("lobby", "active")
DeadlinePolicy = Literal["computer", "skip", "wait"]
VacationPolicy = Literal["pause", "continue"]
#: The computer levels that may stand in for a silent human (the `games.stand_in_level` CHECK).
STAND_IN_LEVELS: tuple[str, ...] = ("easy", "normal", "hard", "expert")


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One place at the table: a human or a computer player."""

    join_order: int
    #: the engine seat (turn order) once the game has started, None in the lobby
    seat: int | None
    kind: SeatKind
    user_id: int | None
    level: str | None
    name: str
    joined_at: datetime

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as stored, without its (larger) snapshot."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: Status
    options: dict[str, Any]
    max_players: int
    seed: int | None
    #: the number of actions applied; buttons carry it to detect outdated clicks
    version: int
    current_seat: int | None
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    turn_started_at: datetime | None
    turn_deadline_s: int | None
    #: in join order
    seats: tuple[SeatInfo, ...]
    #: the host chose a rated game (rated at its end if every seat is then a person)
    rated: bool = False
    #: the channel whose View Channel decides who may look back at the game from elsewhere:
    #: its own, or its public thread's parent; None: not known yet (a game stored before it was)
    view_channel_id: int | None = None
    #: the language of the game's public side (lobby, thread posts, pictures, results), a
    #: catalogue code chosen by the host when opening it; private replies follow each reader
    locale: str = "en"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def at_seat(self, seat: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.seat == seat), None)

    @property
    def current_player(self) -> SeatInfo | None:
        return None if self.current_seat is None else self.at_seat(self.current_seat)

    @property
    def names(self) -> list[str]:
        """Display names in turn order (engine seat order), once the game has started."""
        seated = sorted((s for s in self.seats if s.seat is not None), key=lambda s: s.seat or 0)
        return [s.name for s in seated]

    def name_at(self, seat: int | None) -> str:
        """The name of the player at an engine seat, "?" if there is none."""
        player = None if seat is None else self.at_seat(seat)
        return player.name if player is not None else "?"

    @property
    def by_seat(self) -> tuple[SeatInfo, ...]:
        """The seats in turn order (after the start)."""
        return tuple(sorted(self.seats, key=lambda s: (s.seat is None, s.seat, s.join_order)))


@dataclass(frozen=True, slots=True)
class Sight:
    """The games one member of a server may look back at in lists and counts (the archive,
    stats, head-to-head): those they sat in, anywhere, and those of `guild_id` whose channel
    (`GameInfo.view_channel_id`, or the game's own channel while that is not known) is one of
    `channels`, the channels of that server the adapter found they can view."""

    user_id: int
    guild_id: int
    channels: frozenset[int]


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one process serves, of `count`: a server's games are the process's
    if `(guild_id >> 22) % count` is in `ids` (Discord's rule); a game without a server is
    everyone's. Start-up and the sweep look only at these games."""

    count: int
    ids: frozenset[int]

    def owns(self, guild_id: int | None) -> bool:
        return guild_id is None or (guild_id >> 22) % self.count in self.ids


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    seat: int
    user_id: int | None
    action: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    game_id: int
    kind: TimerKind
    seat: int | None
    version: int | None
    due_at: datetime
    created_at: datetime
    #: how many times its handler failed so far (each retry waits longer)
    attempts: int = 0


@dataclass(frozen=True, slots=True)
class DeadlineRules:
    """A game's turn deadline (None: no deadline) and what happens around it."""

    turn_deadline_s: int | None = None
    #: when the deadline passes: a computer player plays the turn, it is skipped, or nothing
    policy: DeadlinePolicy = "computer"
    #: consecutive missed deadlines before the seat goes to a computer player (None: never)
    missed_limit: int | None = 3
    #: whether a player's vacation pauses the deadline of their turns
    vacation_policy: VacationPolicy = "pause"
    #: the level of the computer player that plays a missed turn and takes a lost seat
    stand_in: str = "normal"


@dataclass(frozen=True, slots=True)
class UserNotes:
    """What the bot notes about a user, never chosen by them (their choices are
    `preferences.Preferences`)."""

    user_id: int
    #: when a DM last failed because the user does not accept DMs from the bot
    dm_blocked_at: datetime | None = None
    #: when the last reminder DM went out (or is going out: `Schedule.claim_reminder`)
    last_reminder_at: datetime | None = None
    #: the language of the user's Discord client when the bot last saw them (remembered from
    #: their interactions, so it never overrides the language they chose)
    discord_locale: str | None = None
