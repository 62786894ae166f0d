"""The use cases of the bot, Discord-agnostic: plain ids and engine actions in, plain results out.

Every slash command, button and the offline mode go through here. Reading the rules is the
engine's job; these services decide who may do what, and keep the store consistent:

- a move is checked against a snapshot read outside any lock, applied by the engine, and saved
  in ONE transaction that appends the action and bumps the version only if it still has the
  expected value (optimistic concurrency: of many simultaneous clicks exactly one wins, across
  processes too);
- a refused request raises a `ServiceError` before or inside a transaction that is rolled
  back, so it writes nothing;
- time comes from the injected clock, seeds from `secrets` (injectable for tests).

One service per concern, each over the same store and clock: `Lobby` (opening and gathering a
game), `Play` (moves, views, hints, plans, votes, the log), `Schedule` (timers, leases,
reminders, deadlines), `People` (settings, followers, the bot's notes) and `Archive` (finished
games, ratings, records). `Services` bundles them for the composition roots. What two services
share lives in `guards`, so no service imports another.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from ..clock import Clock, SystemClock
from ..store import Store
from .archive import MAX_ARCHIVE_OFFSET, MAX_ID, STATS_GAMES, Archive
from .guards import (
    COMPUTER_LEVELS,
    DEADLINE_POLICIES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME_LIMIT,
    SILENT_AFTER,
    VACATION_POLICIES,
    check_deadline_rules,
    check_new_game,
    clean_name,
    parse_action,
    votes_needed,
)
from .lobby import Lobby
from .people import FOLLOW_WAYS, SEEN_LOCALES, People
from .play import ANNOUNCE_GRACE, HINT_LEVELS, Play
from .schedule import Schedule

__all__ = [
    "ANNOUNCE_GRACE",
    "COMPUTER_LEVELS",
    "DEADLINE_POLICIES",
    "FOLLOW_WAYS",
    "HINT_LEVELS",
    "MAX_ARCHIVE_OFFSET",
    "MAX_ID",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME_LIMIT",
    "SEEN_LOCALES",
    "SILENT_AFTER",
    "STATS_GAMES",
    "VACATION_POLICIES",
    "Archive",
    "Lobby",
    "People",
    "Play",
    "Schedule",
    "Services",
    "check_deadline_rules",
    "check_new_game",
    "clean_name",
    "parse_action",
    "votes_needed",
]


@dataclass(frozen=True)
class Services:
    """The five services over one `Store` and one clock, as the composition roots hand them
    around. Several bundles (processes) may share a database."""

    lobby: Lobby
    play: Play
    schedule: Schedule
    people: People
    archive: Archive
    store: Store
    clock: Clock

    @classmethod
    def build(
        cls,
        store: Store,
        clock: Clock | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> Services:
        """Every service over `store`, reading the time from `clock` (the system's if None);
        a new game's seed comes from `seed_source` (`secrets` if None)."""
        clock = clock or SystemClock()
        seed = seed_source or (lambda: secrets.randbits(63))
        return cls(
            lobby=Lobby(store, clock, seed),
            play=Play(store, clock),
            schedule=Schedule(store, clock),
            people=People(store, clock),
            archive=Archive(store, clock),
            store=store,
            clock=clock,
        )
