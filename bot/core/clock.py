"""Where the service gets the time from.

Deadlines, reminders and the action log all need "now"; reading it through one injected object
lets tests move time forward instead of sleeping, and keeps every stored time in UTC.
Stored times are integer milliseconds since the Unix epoch: compact in every action row and
directly comparable in SQL (`due_at <= ?`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class SystemClock:
    """The real wall clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to: tests move time instead of sleeping."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2024, 1, 1, tzinfo=UTC)
        if self._now.tzinfo is None:
            raise ValueError("ManualClock needs a timezone-aware start time")

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | float) -> datetime:
        """Move forward by a timedelta or a number of seconds; returns the new time."""
        self._now += delta if isinstance(delta, timedelta) else timedelta(seconds=delta)
        return self._now

    def set(self, when: datetime) -> None:
        if when.tzinfo is None:
            raise ValueError("use a timezone-aware time")
        self._now = when


def to_ms(when: datetime) -> int:
    """A timezone-aware time as stored: milliseconds since the epoch."""
    if when.tzinfo is None:
        raise ValueError("naive datetimes are ambiguous; use a timezone-aware time")
    return round(when.timestamp() * 1000)


def at_ms(ms: int) -> datetime:
    """A stored time (milliseconds since the epoch) as a timezone-aware UTC time."""
    return datetime.fromtimestamp(ms / 1000, UTC)


def from_ms(ms: int | None) -> datetime | None:
    """A stored time from a column that may be empty."""
    return None if ms is None else at_ms(ms)
