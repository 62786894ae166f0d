"""What the game core stores and hands around: plain, frozen records with no behaviour beyond
reading themselves.

They are the vocabulary shared by the store, the service, the turn flow and both adapters, so
they live apart from the SQL that reads and writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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
class UserSettings:
    user_id: int
    #: the language the user chose for their DMs; None: follow their Discord client's
    locale: str | None = None
    dm_on_turn: bool = True
    dm_reminders: bool = True
    #: end the turn by itself when nothing is left to decide (False: confirm, to keep undo)
    auto_end_turn: bool = True
    #: the language of the user's Discord client when the bot last saw them (never chosen:
    #: remembered from their interactions, apart from `locale`, so it never overrides a choice)
    discord_locale: str | None = None
    #: seconds a finished turn waits (undo still possible) before it ends by itself; None: the
    #: operator's default, 0: at once. Only with `auto_end_turn`.
    undo_window_s: int | None = None
    #: how they are told it is their turn: a DM (the default), a channel mention, or both
    turn_notice: TurnNotice = "dm"

    def dm_locale(self, fallback: str) -> str:
        """The language of this user's DMs: the one they chose, else their Discord client's,
        else `fallback` (the game's)."""
        return self.locale or self.discord_locale or fallback


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
class NotifySettings:
    """A user's reminder preferences (None: the default) and what the bot last sent them."""

    user_id: int
    first_reminder_s: int | None = None
    repeat_reminder_s: int | None = None
    #: quiet hours as minutes after midnight in `time_zone`; both set or both None
    quiet_start: int | None = None
    quiet_end: int | None = None
    #: an IANA zone name such as "Asia/Tokyo"; None: UTC
    time_zone: str | None = None
    vacation_until: datetime | None = None
    #: when a DM last failed because the user does not accept DMs from the bot
    dm_blocked_at: datetime | None = None
    last_reminder_at: datetime | None = None

    @property
    def zone(self) -> ZoneInfo:
        """The user's time zone; UTC when unset or no longer known to this system."""
        try:
            return ZoneInfo(self.time_zone or "UTC")
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("UTC")
