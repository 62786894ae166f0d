"""Queries of what is due later: timers (claimed with a lease, handled once), the pending
announcement, leases, reminder claims, nudges, missed deadlines and the deadline rules."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from ..clock import at_ms, from_ms, to_ms
from ..db.base import Row
from ..records import DeadlineRules, TimerKind, TimerRow
from .rows import Rows

#: Timers that still matter: those of running games, and the last announcement of a finished
#: one (its results must reach the channel too).
_LIVE_TIMER = "(g.status = 'active' OR (t.kind = 'announce' AND g.status = 'finished'))"
#: A timer nobody holds: never claimed, or its claimant's lease has run out (the `?` is now).
_UNCLAIMED = "(t.lease_until IS NULL OR t.lease_until <= ?)"
_TIMER_COLUMNS = "t.id, t.game_id, t.kind, t.seat, t.version, t.due_at, t.created_at, t.attempts"


def _timer(r: Row) -> TimerRow:
    return TimerRow(
        r["id"],
        r["game_id"],
        r["kind"],
        r["seat"],
        r["version"],
        at_ms(r["due_at"]),
        at_ms(r["created_at"]),
        r["attempts"],
    )


class ScheduleQueries(Rows):
    """Timers, leases, reminders and deadlines."""

    # --- timers -----------------------------------------------------------------------------------

    async def insert_timer(
        self,
        game_id: int,
        *,
        kind: TimerKind,
        due_at: datetime,
        seat: int | None,
        version: int | None,
        now: datetime,
        attempts: int = 0,
    ) -> int:
        self.conn.timers_changed(to_ms(due_at))
        return await self.insert(
            "INSERT INTO timers (game_id, kind, seat, version, due_at, created_at, attempts) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (game_id, kind, seat, version, to_ms(due_at), to_ms(now), attempts),
        )

    async def due_timers(self, now: datetime, limit: int) -> list[TimerRow]:
        """Timers due now that nobody holds (never claimed, or their claimant's lease ran out)."""
        ms = to_ms(now)
        rows = await self.rows(
            f"SELECT {_TIMER_COLUMNS} FROM timers t JOIN games g ON g.id = t.game_id "
            f"WHERE t.due_at <= ? AND {_UNCLAIMED} AND {_LIVE_TIMER} "
            "ORDER BY t.due_at, t.id LIMIT ?",
            (ms, ms, limit),
        )
        return [_timer(r) for r in rows]

    async def claim_timers(
        self, now: datetime, owner: str, lease_until: datetime, limit: int
    ) -> list[TimerRow]:
        """Claim up to `limit` due timers for `owner` until `lease_until`, soonest first.

        Processes sharing the database claim different timers: PostgreSQL skips the rows
        another claim has locked (`FOR UPDATE OF t SKIP LOCKED`), SQLite's write transaction
        holds the whole database. A claimant that dies leaves its timers to be claimed again
        once the lease runs out, so a timer fires at least once and its handler must be
        idempotent (they check the game's version). A claimant takes back its own claims at
        once: it handles one batch at a time, so a claim of its still standing is one whose
        run failed before it could finish or give back the timer (a write refused).
        """
        ms = to_ms(now)
        rows = await self.rows(
            "UPDATE timers SET claimed_by = ?, lease_until = ? WHERE id IN ("
            "SELECT t.id FROM timers t JOIN games g ON g.id = t.game_id "
            f"WHERE t.due_at <= ? AND ({_UNCLAIMED} OR t.claimed_by = ?) AND {_LIVE_TIMER} "
            f"ORDER BY t.due_at, t.id LIMIT ? {self.conn.claim_rows('t')}) "
            f"RETURNING {_TIMER_COLUMNS.replace('t.', '')}",
            (owner, to_ms(lease_until), ms, ms, owner, limit),
        )
        return sorted((_timer(r) for r in rows), key=lambda t: (t.due_at, t.id))

    async def holds_timer(self, timer_id: int, owner: str) -> bool:
        """Whether `owner` still holds a timer it claimed (not deleted or re-armed since)."""
        row = await self.row(
            "SELECT 1 FROM timers WHERE id = ? AND claimed_by = ?", (timer_id, owner)
        )
        return row is not None

    async def finish_timer(self, timer_id: int, owner: str) -> bool:
        """A claimed timer was handled: gone, unless its lease passed to another claimant."""
        return (
            await self.run("DELETE FROM timers WHERE id = ? AND claimed_by = ?", (timer_id, owner))
            == 1
        )

    async def retry_timer(self, timer_id: int, owner: str, due_at: datetime, attempts: int) -> bool:
        """A claimed timer's handler failed: give it back, due again at `due_at`, its failures
        counted; False if its lease passed to another claimant (or it was re-armed) meanwhile."""
        self.conn.timers_changed(to_ms(due_at))
        return (
            await self.run(
                "UPDATE timers SET due_at = ?, attempts = ?, claimed_by = NULL, "
                "lease_until = NULL WHERE id = ? AND claimed_by = ?",
                (to_ms(due_at), attempts, timer_id, owner),
            )
            == 1
        )

    async def release_timers(self, owner: str) -> int:
        """Give back the timers `owner` claimed and did not handle (it is stopping): other
        processes are told to look now."""
        given = await self.run(
            "UPDATE timers SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?",
            (owner,),
        )
        if given:
            self.conn.timers_changed(0)
        return given

    async def next_timer_due(self) -> datetime | None:
        """When a timer is next due: its due time, or the end of the lease holding it."""
        row = await self.row(
            "SELECT MIN(CASE WHEN t.lease_until > t.due_at THEN t.lease_until ELSE t.due_at END) "
            f"FROM timers t JOIN games g ON g.id = t.game_id WHERE {_LIVE_TIMER}"
        )
        return None if row is None else from_ms(row[0])

    async def delete_timer(self, timer_id: int) -> bool:
        return await self.run("DELETE FROM timers WHERE id = ?", (timer_id,)) == 1

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        rows = await self.rows(
            f"SELECT {_TIMER_COLUMNS} FROM timers t WHERE t.game_id = ? ORDER BY t.due_at, t.id",
            (game_id,),
        )
        return [_timer(r) for r in rows]

    async def delete_timers_of(self, game_id: int, kinds: Iterable[TimerKind]) -> int:
        wanted = tuple(kinds)
        marks = ", ".join("?" for _ in wanted)
        return await self.run(
            f"DELETE FROM timers WHERE game_id = ? AND kind IN ({marks})", (game_id, *wanted)
        )

    # --- the pending announcement -----------------------------------------------------------------

    async def replace_announcement(
        self, game_id: int, version: int, due_at: datetime, now: datetime
    ) -> int:
        """The game's one pending announcement: the turn that ended at `version`."""
        await self.run("DELETE FROM timers WHERE game_id = ? AND kind = 'announce'", (game_id,))
        return await self.insert_timer(
            game_id, kind="announce", due_at=due_at, seat=None, version=version, now=now
        )

    async def announced(self, game_id: int, version: int) -> None:
        """The channel was told about the game up to `version`: older announcements are done."""
        await self.run(
            "DELETE FROM timers WHERE game_id = ? AND kind = 'announce' AND version <= ?",
            (game_id, version),
        )

    # --- leases: work one process at a time may do ------------------------------------------------

    async def take_lease(self, name: str, owner: str, until: datetime, now: datetime) -> bool:
        """Hold the lease `name` until `until` if it is free, expired or already `owner`'s."""
        rows = await self.rows(
            "INSERT INTO leases (name, owner, expires_at, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, "
            "expires_at = excluded.expires_at, updated_at = excluded.updated_at "
            "WHERE leases.owner = excluded.owner OR leases.expires_at <= ? "
            "RETURNING owner",
            (name, owner, to_ms(until), to_ms(now), to_ms(now)),
        )
        return bool(rows)

    async def drop_lease(self, name: str, owner: str) -> bool:
        return await self.run("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner)) == 1

    async def lease_holder(self, name: str, now: datetime) -> str | None:
        row = await self.row(
            "SELECT owner FROM leases WHERE name = ? AND expires_at > ?", (name, to_ms(now))
        )
        return None if row is None else str(row[0])

    # --- reminders, nudges, missed deadlines, deadline rules --------------------------------------

    async def claim_reminder(self, user_id: int, now: datetime, gap_start: datetime) -> bool:
        """Note a reminder to `user_id` at `now` unless one was noted after `gap_start`; True if
        this caller may send it. One row, one statement: two processes reminding the same user
        at once (or a timer fired again after its first claimant died) send one DM."""
        rows = await self.rows(
            "INSERT INTO notify_settings (user_id, last_reminder_at, updated_at) "
            "VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "last_reminder_at = excluded.last_reminder_at, updated_at = excluded.updated_at "
            "WHERE notify_settings.last_reminder_at IS NULL "
            "OR notify_settings.last_reminder_at <= ? RETURNING user_id",
            (user_id, to_ms(now), to_ms(now), to_ms(gap_start)),
        )
        return bool(rows)

    async def add_nudge(self, game_id: int, seat: int, turn_key: int, now: datetime) -> bool:
        """Remember a channel mention for this turn; False if there already was one."""
        return (
            await self.run(
                "INSERT INTO channel_nudges (game_id, seat, turn_version, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seat, turn_key, to_ms(now)),
            )
            == 1
        )

    async def missed_streak(self, game_id: int, seat: int) -> tuple[int, int] | None:
        row = await self.row(
            "SELECT streak, last_version FROM missed_deadlines WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def set_missed_streak(
        self, game_id: int, seat: int, streak: int, last_version: int, now: datetime
    ) -> None:
        await self.run(
            "INSERT INTO missed_deadlines (game_id, seat, streak, last_version, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
            "streak = excluded.streak, last_version = excluded.last_version, "
            "updated_at = excluded.updated_at",
            (game_id, seat, streak, last_version, to_ms(now)),
        )

    async def deadline_rules(self, game_id: int) -> DeadlineRules | None:
        row = await self.row(
            "SELECT turn_deadline_s, deadline_policy, missed_limit, vacation_policy, "
            "stand_in_level FROM games WHERE id = ?",
            (game_id,),
        )
        return None if row is None else DeadlineRules(row[0], row[1], row[2], row[3], row[4])

    async def set_deadline_rules(self, game_id: int, rules: DeadlineRules, now: datetime) -> None:
        await self.run(
            "UPDATE games SET turn_deadline_s = ?, deadline_policy = ?, missed_limit = ?, "
            "vacation_policy = ?, stand_in_level = ?, updated_at = ? WHERE id = ?",
            (
                rules.turn_deadline_s,
                rules.policy,
                rules.missed_limit,
                rules.vacation_policy,
                rules.stand_in,
                to_ms(now),
                game_id,
            ),
        )
