"""The store: every query the game core runs, written once for both database engines.

`Store.open()` takes a SQLite file path (the embedded default) or a `postgresql://` address
(several bot processes sharing one database). The engines themselves (connections,
transactions, locks, migrations) are in `core.db`; the SQL here is the dialect both understand,
and where they must differ it says so through the connection (`lock_rows`, `claim_rows`).
Each unit of work is a transaction: `write()`, `read()` (one consistent view), or `peek()`.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Literal

import aiosqlite

from .clock import at_ms, from_ms, to_ms
from .db.base import Conn, Database, Row, is_postgres_url
from .db.sqlite import SqliteDatabase
from .migrate import Migration
from .ratings import Rating
from .records import (
    ActionRow,
    DeadlineRules,
    GameInfo,
    NotifySettings,
    SeatInfo,
    SeatKind,
    Sight,
    Status,
    TimerKind,
    TimerRow,
    UserSettings,
)

_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, options, max_players, seed, version, "
    "current_seat, created_at, updated_at, started_at, ended_at, turn_started_at, "
    "turn_deadline_s, rated, view_channel_id"
)


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


#: The game `{alias}` has a seat of the user (the `?`).
_SAT_IN = "EXISTS (SELECT 1 FROM seats v WHERE v.game_id = {alias}.id AND v.user_id = ?)"


def _seen(sight: Sight | None) -> tuple[str, list[int]]:
    """The condition (with its parameters) that keeps the games `g` a member may see in lists
    and counts: those they sat in, and those of their server whose view channel (the game's
    own channel while it is not known) is one they can view. Empty without a `sight`."""
    if sight is None:
        return "", []
    seat = _SAT_IN.format(alias="g")
    if not sight.channels:
        return f" AND {seat}", [sight.user_id]
    marks = ", ".join("?" * len(sight.channels))
    where = (
        f" AND ({seat} OR (g.guild_id = ? "
        f"AND COALESCE(g.view_channel_id, g.channel_id) IN ({marks})))"
    )
    return where, [sight.user_id, sight.guild_id, *sorted(sight.channels)]


#: The `bot_meta` key of a user's remembered Discord language.
_DISCORD_LOCALE = "discord-locale:{}"


class Tx:
    """The queries, run inside one transaction opened by `Store.read()` or `Store.write()`.

    In a write transaction (`locking`), reading a game locks its row where rows lock
    (PostgreSQL), so a read-then-write (a join, a start) is serialised per game across
    processes; SQLite's write transaction holds the whole database already.
    """

    def __init__(self, conn: Conn, *, locking: bool = False) -> None:
        self.conn = conn
        self.engine = conn.engine
        self._lock = f" {conn.lock_rows}" if locking and conn.lock_rows else ""

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Row]:
        return await self.conn.rows(sql, params)

    async def row(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        found = await self.rows(sql, params)
        return found[0] if found else None

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute a change; returns the number of rows it touched."""
        return await self.conn.run(sql, params)

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run an `INSERT ... RETURNING id`; returns the new row's id."""
        row = await self.row(sql, params)
        assert row is not None
        return int(row[0])

    # --- games ---------------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameInfo | None:
        row = await self.row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?{self._lock}", (game_id,)
        )
        return None if row is None else await self._with_seats(row)

    async def open_game_in_channel(self, channel_id: int) -> GameInfo | None:
        row = await self.row(
            f"SELECT {_GAME_COLUMNS} FROM games "
            f"WHERE channel_id = ? AND status IN ('lobby', 'active'){self._lock}",
            (channel_id,),
        )
        return None if row is None else await self._with_seats(row)

    async def last_finished_game_in_channel(self, channel_id: int) -> GameInfo | None:
        """The channel's game that ended with a result most recently (abandoned ones aside)."""
        row = await self.row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'finished' "
            "ORDER BY ended_at DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else await self._with_seats(row)

    async def finished_games(
        self,
        guild_id: int,
        user_id: int | None,
        limit: int,
        offset: int = 0,
        sight: Sight | None = None,
    ) -> list[tuple[GameInfo, str]]:
        """A server's finished games with their last snapshots, the latest first, skipping
        the `offset` latest; only those `user_id` sat in (and did not leave) if given, and only
        those `sight` allows if given."""
        where, params = ["g.guild_id = ?", "g.status = 'finished'"], [guild_id]
        if user_id is not None:
            where.append(_SAT_IN.format(alias="g"))
            params.append(user_id)
        seen, seen_params = _seen(sight)
        rows = await self.rows(
            f"SELECT {_GAME_COLUMNS}, snapshot FROM games g "
            f"WHERE {' AND '.join(where)}{seen} "
            "ORDER BY g.ended_at DESC, g.id DESC LIMIT ? OFFSET ?",
            (*params, *seen_params, limit, offset),
        )
        return [(await self._with_seats(r), str(r["snapshot"])) for r in rows]

    async def finished_game_ids(
        self, guild_id: int | None, user_id: int, limit: int, sight: Sight | None = None
    ) -> list[int]:
        """Ids of the finished games `user_id` sat in (in one server, or anywhere), latest
        first; only those `sight` allows if given."""
        where = "AND g.guild_id = ? " if guild_id is not None else ""
        seen, seen_params = _seen(sight)
        params: tuple[Any, ...] = (user_id, *([guild_id] if guild_id is not None else []))
        rows = await self.rows(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.user_id = ? "
            f"WHERE g.status = 'finished' {where}{seen} "
            "ORDER BY g.ended_at DESC, g.id DESC LIMIT ?",
            (*params, *seen_params, limit),
        )
        return [int(r[0]) for r in rows]

    async def shared_finished_game_ids(
        self,
        guild_id: int | None,
        user_id: int,
        other_id: int,
        limit: int,
        sight: Sight | None = None,
    ) -> list[int]:
        """Ids of the finished games both users sat in (in one server, or anywhere), latest
        first; only those `sight` allows if given."""
        where = "AND g.guild_id = ? " if guild_id is not None else ""
        seen, seen_params = _seen(sight)
        params: tuple[Any, ...] = (
            user_id,
            other_id,
            *([guild_id] if guild_id is not None else []),
        )
        rows = await self.rows(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id AND s.user_id = ? "
            "JOIN seats o ON o.game_id = g.id AND o.user_id = ? "
            f"WHERE g.status = 'finished' {where}{seen} "
            "ORDER BY g.ended_at DESC, g.id DESC LIMIT ?",
            (*params, *seen_params, limit),
        )
        return [int(r[0]) for r in rows]

    async def games_without_view_channel(
        self, after: int, limit: int
    ) -> list[tuple[int, int, int]]:
        """(game id, server id, channel id) of server games whose view channel is not known
        yet (stored before it was), numbered after `after`, the oldest first."""
        rows = await self.rows(
            "SELECT id, guild_id, channel_id FROM games WHERE view_channel_id IS NULL "
            "AND guild_id IS NOT NULL AND id > ? ORDER BY id LIMIT ?",
            (after, limit),
        )
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def set_view_channel(self, game_id: int, channel_id: int) -> None:
        await self.run("UPDATE games SET view_channel_id = ? WHERE id = ?", (channel_id, game_id))

    async def _with_seats(self, row: Row) -> GameInfo:
        seats = await self.rows(
            "SELECT join_order, seat, kind, user_id, level, display_name, joined_at "
            "FROM seats WHERE game_id = ? ORDER BY join_order",
            (row["id"],),
        )
        return GameInfo(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            status=row["status"],
            options=json.loads(row["options"]),
            max_players=row["max_players"],
            seed=row["seed"],
            version=row["version"],
            current_seat=row["current_seat"],
            created_at=at_ms(row["created_at"]),
            updated_at=at_ms(row["updated_at"]),
            started_at=from_ms(row["started_at"]),
            ended_at=from_ms(row["ended_at"]),
            turn_started_at=from_ms(row["turn_started_at"]),
            turn_deadline_s=row["turn_deadline_s"],
            rated=bool(row["rated"]),
            view_channel_id=row["view_channel_id"],
            seats=tuple(
                SeatInfo(
                    join_order=s["join_order"],
                    seat=s["seat"],
                    kind=s["kind"],
                    user_id=s["user_id"],
                    level=s["level"],
                    name=s["display_name"],
                    joined_at=at_ms(s["joined_at"]),
                )
                for s in seats
            ),
        )

    async def game_and_snapshot(self, game_id: int) -> tuple[GameInfo, str | None] | None:
        """A game and its snapshot read together: one consistent row, no transaction needed."""
        row = await self.row(
            f"SELECT {_GAME_COLUMNS}, snapshot FROM games WHERE id = ?", (game_id,)
        )
        return None if row is None else (await self._with_seats(row), row["snapshot"])

    async def snapshot(self, game_id: int) -> str | None:
        row = await self.row("SELECT snapshot FROM games WHERE id = ?", (game_id,))
        return None if row is None else row["snapshot"]

    async def insert_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        max_players: int,
        now: datetime,
        view_channel_id: int | None = None,
    ) -> int:
        ms = to_ms(now)
        return await self.insert(
            "INSERT INTO games (guild_id, channel_id, view_channel_id, host_id, status, options, "
            "max_players, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?) "
            "RETURNING id",
            (
                guild_id,
                channel_id,
                view_channel_id,
                host_id,
                json.dumps(options, separators=(",", ":"), sort_keys=True),
                max_players,
                ms,
                ms,
            ),
        )

    async def insert_seat(
        self,
        game_id: int,
        *,
        kind: SeatKind,
        user_id: int | None,
        level: str | None,
        name: str,
        now: datetime,
    ) -> int:
        """Add a seat after the last one; returns its join order."""
        row = await self.row(
            "SELECT COALESCE(MAX(join_order) + 1, 0) FROM seats WHERE game_id = ?", (game_id,)
        )
        assert row is not None
        join_order = int(row[0])
        await self.run(
            "INSERT INTO seats (game_id, join_order, kind, user_id, level, display_name, "
            "joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, join_order, kind, user_id, level, name, to_ms(now)),
        )
        await self.touch(game_id, now)
        return join_order

    async def delete_seat(self, game_id: int, join_order: int, now: datetime) -> None:
        await self.run(
            "DELETE FROM seats WHERE game_id = ? AND join_order = ?", (game_id, join_order)
        )
        await self.touch(game_id, now)

    async def touch(self, game_id: int, now: datetime) -> None:
        await self.run("UPDATE games SET updated_at = ? WHERE id = ?", (to_ms(now), game_id))

    async def set_host(self, game_id: int, user_id: int, now: datetime) -> None:
        await self.run(
            "UPDATE games SET host_id = ?, updated_at = ? WHERE id = ?",
            (user_id, to_ms(now), game_id),
        )

    async def end_game(self, game_id: int, status: Status, now: datetime) -> bool:
        """Close an open game (finished or abandoned) and drop its timers."""
        ms = to_ms(now)
        changed = await self.run(
            "UPDATE games SET status = ?, current_seat = NULL, ended_at = ?, updated_at = ? "
            "WHERE id = ? AND status IN ('lobby', 'active')",
            (status, ms, ms, game_id),
        )
        await self.run("DELETE FROM timers WHERE game_id = ?", (game_id,))
        return changed == 1

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        snapshot: str,
        current_seat: int | None,
        seats: dict[int, int],
        now: datetime,
    ) -> bool:
        """Lobby to active; `seats` maps join order to engine seat."""
        ms = to_ms(now)
        changed = await self.run(
            "UPDATE games SET status = 'active', seed = ?, snapshot = ?, version = 0, "
            "current_seat = ?, started_at = ?, turn_started_at = ?, updated_at = ? "
            "WHERE id = ? AND status = 'lobby'",
            (seed, snapshot, current_seat, ms, ms, ms, game_id),
        )
        if changed != 1:
            return False
        for join_order, seat in seats.items():
            await self.run(
                "UPDATE seats SET seat = ? WHERE game_id = ? AND join_order = ?",
                (seat, game_id, join_order),
            )
        return True

    async def save_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        user_id: int | None,
        action: str,
        snapshot: str,
        current_seat: int | None,
        finished: bool,
        turn_started: bool,
        now: datetime,
        announce_at: datetime | None = None,
    ) -> bool:
        """Append an action and its snapshot if the game is still at `expected_version`; with
        `announce_at`, record in the same transaction that the turn it ended must be told.

        Returns False (and changes nothing) when another request got there first.
        """
        ms = to_ms(now)
        changed = await self.run(
            "UPDATE games SET version = version + 1, snapshot = ?, current_seat = ?, "
            "status = ?, ended_at = ?, updated_at = ?, "
            "turn_started_at = CASE WHEN ? THEN ? ELSE turn_started_at END "
            "WHERE id = ? AND version = ? AND status = 'active'",
            (
                snapshot,
                None if finished else current_seat,
                "finished" if finished else "active",
                ms if finished else None,
                ms,
                turn_started,
                ms,
                game_id,
                expected_version,
            ),
        )
        if changed != 1:
            return False
        await self.run(
            "INSERT INTO actions (game_id, seq, seat, user_id, action, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, expected_version + 1, seat, user_id, action, ms),
        )
        if finished:
            await self.run(
                "DELETE FROM timers WHERE game_id = ? AND kind != 'announce'", (game_id,)
            )
        if announce_at is not None:
            await self.replace_announcement(game_id, expected_version + 1, announce_at, now)
        return True

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

    async def replace_by_computer(
        self, game_id: int, join_order: int, level: str, now: datetime
    ) -> None:
        await self.run(
            "UPDATE seats SET kind = 'computer', user_id = NULL, level = ? "
            "WHERE game_id = ? AND join_order = ?",
            (level, game_id, join_order),
        )
        await self.touch(game_id, now)

    async def actions(self, game_id: int, after: int = 0) -> list[ActionRow]:
        rows = await self.rows(
            "SELECT seq, seat, user_id, action, created_at FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        return [
            ActionRow(
                r["seq"],
                r["seat"],
                r["user_id"],
                json.loads(r["action"]),
                at_ms(r["created_at"]),
            )
            for r in rows
        ]

    async def open_games_of(self, user_id: int) -> list[int]:
        """Ids of the lobbies and running games a user sits in, oldest first."""
        rows = await self.rows(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.status IN ('lobby', 'active') ORDER BY g.id",
            (user_id,),
        )
        return [r[0] for r in rows]

    async def games_waiting_on(self, user_id: int) -> list[int]:
        """Ids of running games whose current decision is this user's, longest waiting first."""
        rows = await self.rows(
            "SELECT g.id FROM games g "
            "JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat "
            "WHERE s.user_id = ? AND g.status = 'active' "
            "ORDER BY g.turn_started_at, g.id",
            (user_id,),
        )
        return [r[0] for r in rows]

    async def games_waiting_on_computers(self) -> list[int]:
        """Ids of running games whose current decision is a computer player's."""
        rows = await self.rows(
            "SELECT g.id FROM games g "
            "JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat "
            "WHERE s.kind = 'computer' AND g.status = 'active' ORDER BY g.id"
        )
        return [r[0] for r in rows]

    async def count_open_games(self) -> int:
        """Games in a lobby or being played."""
        rows = await self.rows("SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'active')")
        return int(rows[0][0])

    # --- timers --------------------------------------------------------------------------------

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
        return (
            await self.run(
                "UPDATE timers SET due_at = ?, attempts = ?, claimed_by = NULL, "
                "lease_until = NULL WHERE id = ? AND claimed_by = ?",
                (to_ms(due_at), attempts, timer_id, owner),
            )
            == 1
        )

    async def release_timers(self, owner: str) -> int:
        """Give back the timers `owner` claimed and did not handle (it is stopping)."""
        return await self.run(
            "UPDATE timers SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?",
            (owner,),
        )

    async def next_timer_due(self) -> datetime | None:
        """When a timer is next due: its due time, or the end of the lease holding it."""
        row = await self.row(
            "SELECT MIN(CASE WHEN t.lease_until > t.due_at THEN t.lease_until ELSE t.due_at END) "
            f"FROM timers t JOIN games g ON g.id = t.game_id WHERE {_LIVE_TIMER}"
        )
        return None if row is None else from_ms(row[0])

    async def delete_timer(self, timer_id: int) -> bool:
        return await self.run("DELETE FROM timers WHERE id = ?", (timer_id,)) == 1

    # --- ratings --------------------------------------------------------------------------------

    async def set_rated(self, game_id: int, rated: bool, now: datetime) -> bool:
        """Rated or not, while the game is a lobby."""
        return (
            await self.run(
                "UPDATE games SET rated = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (int(rated), to_ms(now), game_id),
            )
            == 1
        )

    async def ratings(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, Rating]:
        wanted = tuple(user_ids)
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self.rows(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? "
            f"AND user_id IN ({marks})",
            (guild_id, *wanted),
        )
        return {int(r[0]): Rating(float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def save_ratings(self, guild_id: int, ratings: dict[int, Rating], now: datetime) -> None:
        for user_id, rating in ratings.items():
            await self.run(
                "INSERT INTO ratings (guild_id, user_id, mu, sigma, games, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
                "updated_at = excluded.updated_at",
                (guild_id, user_id, rating.mu, rating.sigma, rating.games, to_ms(now)),
            )

    async def leaderboard(self, guild_id: int, limit: int) -> list[tuple[int, Rating]]:
        rows = await self.rows(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? "
            "ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?",
            (guild_id, limit),
        )
        return [(int(r[0]), Rating(float(r[1]), float(r[2]), int(r[3]))) for r in rows]

    async def rated_results(self) -> list[tuple[GameInfo, str]]:
        """Every rated game that ended after it started (finished, or abandoned while it ran)
        with its last snapshot, in the order they ended."""
        rows = await self.rows(
            f"SELECT {_GAME_COLUMNS}, snapshot FROM games WHERE rated = 1 "
            "AND status IN ('finished', 'abandoned') AND snapshot IS NOT NULL "
            "ORDER BY ended_at, id"
        )
        return [(await self._with_seats(r), str(r["snapshot"])) for r in rows]

    async def forfeit(
        self, game_id: int, seat: int, user_id: int, cause: str, now: datetime
    ) -> None:
        """`user_id` lost their seat in a running game (`cause`: deadlines, vote, abandoned);
        a seat is lost once."""
        await self.run(
            "INSERT INTO forfeits (game_id, seat, user_id, cause, at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, seat) DO NOTHING",
            (game_id, seat, user_id, cause, to_ms(now)),
        )

    async def follow(self, game_id: int, user_id: int, how: str, now: datetime) -> None:
        """`user_id` follows the game (`how`: dm, thread); following again changes how."""
        await self.run(
            "INSERT INTO followers (game_id, user_id, how, since) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET how = excluded.how",
            (game_id, user_id, how, to_ms(now)),
        )

    async def unfollow(self, game_id: int, user_id: int) -> str | None:
        """Stop following; returns how they followed (None: they did not)."""
        rows = await self.rows(
            "DELETE FROM followers WHERE game_id = ? AND user_id = ? RETURNING how",
            (game_id, user_id),
        )
        return str(rows[0][0]) if rows else None

    async def followers(self, game_id: int) -> list[tuple[int, str]]:
        """(user id, how) of the game's followers, in the order they began."""
        rows = await self.rows(
            "SELECT user_id, how FROM followers WHERE game_id = ? ORDER BY since, user_id",
            (game_id,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def save_plan(
        self, game_id: int, seat: int, user_id: int, plan: str, version: int, now: datetime
    ) -> None:
        await self.run(
            "INSERT INTO plans (game_id, seat, user_id, plan, made_at_version, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
            "user_id = excluded.user_id, plan = excluded.plan, "
            "made_at_version = excluded.made_at_version, updated_at = excluded.updated_at",
            (game_id, seat, user_id, plan, version, to_ms(now)),
        )

    async def plan(self, game_id: int, seat: int) -> str | None:
        rows = await self.rows(
            "SELECT plan FROM plans WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        return str(rows[0][0]) if rows else None

    async def take_plan(self, game_id: int, seat: int) -> str | None:
        """The seat's plan, deleted in the same statement: whoever takes it plays it, once."""
        rows = await self.rows(
            "DELETE FROM plans WHERE game_id = ? AND seat = ? RETURNING plan", (game_id, seat)
        )
        return str(rows[0][0]) if rows else None

    async def forfeits(self, game_id: int) -> dict[int, int]:
        """The people who lost their seat in a game: user id -> engine seat."""
        rows = await self.rows(
            "SELECT user_id, seat FROM forfeits WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def record_hint(
        self, game_id: int, version: int, seat: int, user_id: int, now: datetime
    ) -> None:
        """A hint was asked at this decision (asking again at the same one counts again)."""
        await self.run(
            "INSERT INTO hints (game_id, version, seat, user_id, uses, at) "
            "VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (game_id, version, seat) "
            "DO UPDATE SET uses = hints.uses + 1, at = excluded.at",
            (game_id, version, seat, user_id, to_ms(now)),
        )

    async def hints_of_game(self, game_id: int) -> dict[int, int]:
        """The hints asked in one game: engine seat -> uses."""
        rows = await self.rows(
            "SELECT seat, SUM(uses) FROM hints WHERE game_id = ? GROUP BY seat ORDER BY seat",
            (game_id,),
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def hints_used(self, user_id: int, game_ids: Sequence[int]) -> int:
        """How many hints `user_id` asked in these games."""
        total = 0
        for game_id in game_ids:
            rows = await self.rows(
                "SELECT SUM(uses) FROM hints WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
            total += int(rows[0][0] or 0) if rows else 0
        return total

    async def clear_ratings(self) -> int:
        return await self.run("DELETE FROM ratings")

    # --- leases: work one process at a time may do ----------------------------------------------

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

    # --- user settings -------------------------------------------------------------------------

    async def settings(self, user_id: int) -> UserSettings:
        row = await self.row(
            "SELECT locale, dm_on_turn, dm_reminders, auto_end_turn, undo_window_s, turn_notice "
            "FROM user_settings WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return UserSettings(user_id)
        return UserSettings(
            user_id,
            row[0],
            bool(row[1]),
            bool(row[2]),
            bool(row[3]),
            undo_window_s=row[4],
            turn_notice=row[5],
        )

    async def save_settings(self, settings: UserSettings, now: datetime) -> None:
        await self.run(
            "INSERT INTO user_settings (user_id, locale, dm_on_turn, dm_reminders, auto_end_turn, "
            "undo_window_s, turn_notice, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET "
            "locale = excluded.locale, dm_on_turn = excluded.dm_on_turn, "
            "dm_reminders = excluded.dm_reminders, auto_end_turn = excluded.auto_end_turn, "
            "undo_window_s = excluded.undo_window_s, turn_notice = excluded.turn_notice, "
            "updated_at = excluded.updated_at",
            (
                settings.user_id,
                settings.locale,
                int(settings.dm_on_turn),
                int(settings.dm_reminders),
                int(settings.auto_end_turn),
                settings.undo_window_s,
                settings.turn_notice,
                to_ms(now),
            ),
        )

    async def discord_locale(self, user_id: int) -> str | None:
        """The language of a user's Discord client as last remembered (`bot_meta`: a fact the
        bot notes, not a setting the user makes)."""
        return await self.meta(_DISCORD_LOCALE.format(user_id))

    async def set_discord_locale(self, user_id: int, locale: str, now: datetime) -> None:
        await self.set_meta(_DISCORD_LOCALE.format(user_id), locale, now)

    # --- the bot's messages and bookkeeping -----------------------------------------------------

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, now: datetime
    ) -> None:
        await self.run(
            "INSERT INTO game_messages (game_id, kind, channel_id, message_id, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "updated_at = excluded.updated_at",
            (game_id, kind, channel_id, message_id, to_ms(now)),
        )

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        row = await self.row(
            "SELECT channel_id, message_id FROM game_messages WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def delete_message(self, game_id: int, kind: str) -> None:
        await self.run("DELETE FROM game_messages WHERE game_id = ? AND kind = ?", (game_id, kind))

    async def meta(self, key: str) -> str | None:
        row = await self.row("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str, now: datetime) -> None:
        await self.run(
            "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) "
            "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (key, value, to_ms(now)),
        )

    # --- asynchronous play: deadline rules, reminders, missed deadlines, votes ------------------

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

    async def notify_settings(self, user_id: int) -> NotifySettings:
        row = await self.row(
            "SELECT first_reminder_s, repeat_reminder_s, quiet_start, quiet_end, time_zone, "
            "vacation_until, dm_blocked_at, last_reminder_at FROM notify_settings "
            "WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return NotifySettings(user_id)
        return NotifySettings(
            user_id,
            first_reminder_s=row[0],
            repeat_reminder_s=row[1],
            quiet_start=row[2],
            quiet_end=row[3],
            time_zone=row[4],
            vacation_until=from_ms(row[5]),
            dm_blocked_at=from_ms(row[6]),
            last_reminder_at=from_ms(row[7]),
        )

    async def save_notify_settings(self, settings: NotifySettings, now: datetime) -> None:
        def ms(when: datetime | None) -> int | None:
            return None if when is None else to_ms(when)

        await self.run(
            "INSERT INTO notify_settings (user_id, first_reminder_s, repeat_reminder_s, "
            "quiet_start, quiet_end, time_zone, vacation_until, dm_blocked_at, "
            "last_reminder_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET first_reminder_s = excluded.first_reminder_s, "
            "repeat_reminder_s = excluded.repeat_reminder_s, quiet_start = excluded.quiet_start, "
            "quiet_end = excluded.quiet_end, time_zone = excluded.time_zone, "
            "vacation_until = excluded.vacation_until, dm_blocked_at = excluded.dm_blocked_at, "
            "last_reminder_at = excluded.last_reminder_at, updated_at = excluded.updated_at",
            (
                settings.user_id,
                settings.first_reminder_s,
                settings.repeat_reminder_s,
                settings.quiet_start,
                settings.quiet_end,
                settings.time_zone,
                ms(settings.vacation_until),
                ms(settings.dm_blocked_at),
                ms(settings.last_reminder_at),
                to_ms(now),
            ),
        )

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

    async def active_games_waiting_on_humans(self, *, untimed: bool = False) -> list[int]:
        """Ids of running games whose current decision is a human player's; `untimed`: only
        those without a timer (a failure or a stop left their turn unarmed)."""
        rows = await self.rows(
            "SELECT g.id FROM games g "
            "JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat "
            "WHERE s.kind = 'human' AND g.status = 'active' "
            + ("AND NOT EXISTS (SELECT 1 FROM timers t WHERE t.game_id = g.id) " if untimed else "")
            + "ORDER BY g.id"
        )
        return [r[0] for r in rows]

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

    async def last_action_by(self, game_id: int, user_id: int) -> tuple[int, datetime] | None:
        """(seq, time) of the user's latest own action in a game."""
        row = await self.row(
            "SELECT seq, created_at FROM actions WHERE game_id = ? AND user_id = ? "
            "ORDER BY seq DESC LIMIT 1",
            (game_id, user_id),
        )
        return None if row is None else (int(row[0]), at_ms(row[1]))

    async def add_vote(
        self, game_id: int, motion: str, target_seat: int, voter_id: int, now: datetime
    ) -> bool:
        return (
            await self.run(
                "INSERT INTO votes (game_id, motion, target_seat, voter_id, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, motion, target_seat, voter_id, to_ms(now)),
            )
            == 1
        )

    async def voters(self, game_id: int, motion: str, target_seat: int) -> list[int]:
        rows = await self.rows(
            "SELECT voter_id FROM votes WHERE game_id = ? AND motion = ? AND target_seat = ? "
            "ORDER BY created_at, voter_id",
            (game_id, motion, target_seat),
        )
        return [int(r[0]) for r in rows]

    async def clear_votes(self, game_id: int, target_seat: int | None = None) -> None:
        if target_seat is None:
            await self.run("DELETE FROM votes WHERE game_id = ?", (game_id,))
        else:
            await self.run(
                "DELETE FROM votes WHERE game_id = ? AND target_seat = ?", (game_id, target_seat)
            )


class Store:
    """An open database: `await Store.open(path_or_url)`, closed with `await store.close()`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        #: the file path, or the address with its password hidden
        self.path = db.where

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = 10_000,
        migrations: list[Migration] | None = None,
        upgrade: bool = True,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        pool_size: int = 10,
    ) -> Store:
        """Connect and apply any pending migrations (refusing a newer schema): a SQLite file
        path, or a `postgresql://` address (the `postgres` extra installs its driver).

        For SQLite, `synchronous="FULL"` (the default) syncs the WAL on every commit, so an
        acknowledged move survives a power cut; NORMAL survives a crash of the process but not
        of the machine. `pool_size` is PostgreSQL's number of connections.
        """
        if is_postgres_url(target):
            from .db.postgres import PostgresDatabase  # the optional driver, only when asked

            assert isinstance(target, str)
            return cls(
                await PostgresDatabase.open(
                    target, migrations=migrations, upgrade=upgrade, pool_size=pool_size
                )
            )
        return cls(
            await SqliteDatabase.open(
                target,
                busy_timeout_ms=busy_timeout_ms,
                migrations=migrations,
                upgrade=upgrade,
                synchronous=synchronous,
            )
        )

    @property
    def conn(self) -> aiosqlite.Connection:
        """The SQLite connection itself (for SQLite-only tools and tests)."""
        if not isinstance(self.db, SqliteDatabase):
            raise TypeError(f"a {self.engine} database has no SQLite connection")
        return self.db.conn

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def close(self) -> None:
        """Close once the transactions under way (if any) are over."""
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        """One write transaction: committed if the block succeeds, rolled back if it raises."""
        async with self.db.write() as conn:
            yield Tx(conn, locking=True)

    @asynccontextmanager
    async def peek(self) -> AsyncIterator[Tx]:
        """Reads that need no snapshot across statements (each sees committed data only)."""
        async with self.db.peek() as conn:
            yield Tx(conn)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A consistent view of the database for several queries."""
        async with self.db.read() as conn:
            yield Tx(conn)
