"""Queries of games as they are played: finding them, the lobby, the move's save, plans,
hints and votes, and which games wait on whom."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ..clock import at_ms, to_ms
from ..db.base import Change
from ..records import ActionRow, GameInfo, SeatKind, Shards, Status
from .rows import GAME_COLUMNS, SEAT_COLUMNS, game_info, shard_clause
from .schedule import ScheduleQueries

_GAME_COLUMNS_OF_G = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
_SEAT_COLUMNS_OF_S = ", ".join(f"s.{c.strip()}" for c in SEAT_COLUMNS.split(","))

#: A running game `g` whose current decision is a `{kind}` seat's. Written from the game's side
#: (the running games' partial index, `games_running`), so the sweeps read the few running games
#: and never the seats of every finished one.
_DECIDES = (
    "g.status = 'active' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id "
    "AND s.seat = g.current_seat AND s.kind = '{kind}')"
)


class GameQueries(ScheduleQueries):
    """Games, seats, actions and snapshots. (A move's save records its announcement timer in
    the same transaction, so these stand on the schedule's queries.)"""

    # --- finding games ----------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameInfo | None:
        row = await self.row(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?{self._lock}", (game_id,)
        )
        return None if row is None else await self._with_seats(row)

    async def open_game_in_channel(self, channel_id: int) -> GameInfo | None:
        row = await self.row(
            f"SELECT {GAME_COLUMNS} FROM games "
            f"WHERE channel_id = ? AND status IN ('lobby', 'active'){self._lock}",
            (channel_id,),
        )
        return None if row is None else await self._with_seats(row)

    async def last_finished_game_in_channel(self, channel_id: int) -> GameInfo | None:
        """The channel's game that ended with a result most recently (abandoned ones aside)."""
        row = await self.row(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'finished' "
            "ORDER BY ended_at DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else await self._with_seats(row)

    async def game_and_snapshot(self, game_id: int) -> tuple[GameInfo, str | None] | None:
        """A game, its seats and its snapshot in one statement: what a move reads."""
        rows = await self.rows(
            f"SELECT {_GAME_COLUMNS_OF_G}, g.snapshot, {_SEAT_COLUMNS_OF_S} FROM games g "
            "LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.join_order",
            (game_id,),
        )
        if not rows:
            return None
        seats = [r for r in rows if r["join_order"] is not None]
        return game_info(rows[0], seats), rows[0]["snapshot"]

    async def snapshot(self, game_id: int) -> str | None:
        row = await self.row("SELECT snapshot FROM games WHERE id = ?", (game_id,))
        return None if row is None else row["snapshot"]

    # --- the lobby --------------------------------------------------------------------------------

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
        locale: str = "en",
    ) -> int:
        ms = to_ms(now)
        return await self.insert(
            "INSERT INTO games (guild_id, channel_id, view_channel_id, host_id, status, options, "
            "max_players, created_at, updated_at, locale) "
            "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                view_channel_id,
                host_id,
                json.dumps(options, separators=(",", ":"), sort_keys=True),
                max_players,
                ms,
                ms,
                locale,
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

    async def set_rated(self, game_id: int, rated: bool, now: datetime) -> bool:
        """Rated or not, while the game is a lobby."""
        return (
            await self.run(
                "UPDATE games SET rated = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (int(rated), to_ms(now), game_id),
            )
            == 1
        )

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

    async def replace_by_computer(
        self, game_id: int, join_order: int, level: str, now: datetime
    ) -> None:
        await self.run(
            "UPDATE seats SET kind = 'computer', user_id = NULL, level = ? "
            "WHERE game_id = ? AND join_order = ?",
            (level, game_id, join_order),
        )
        await self.touch(game_id, now)

    # --- moves ------------------------------------------------------------------------------------

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
        unhold: bool = False,
        hold_until: datetime | None = None,
    ) -> bool:
        """Append an action and its snapshot if the game is still at `expected_version`, in one
        trip to the database where the engine allows: with `announce_at`, record that the turn
        it ended must be told; with `unhold`, drop the `end_turn` timer of a turn that waited
        for its confirmation; with `hold_until`, arm one for the turn this move leaves waiting.

        Returns False (and changes nothing) when another request got there first.
        """
        ms = to_ms(now)
        version = expected_version + 1
        changes: list[Change] = [
            (
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
            ),
            (
                "INSERT INTO actions (game_id, seq, seat, user_id, action, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, version, seat, user_id, action, ms),
            ),
        ]
        if finished:
            changes.append(
                ("DELETE FROM timers WHERE game_id = ? AND kind != 'announce'", (game_id,))
            )
        elif unhold:
            changes.append(
                ("DELETE FROM timers WHERE game_id = ? AND kind = 'end_turn'", (game_id,))
            )
        timer = (
            "INSERT INTO timers (game_id, kind, seat, version, due_at, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        if announce_at is not None:  # the game's one pending announcement: this turn
            changes.append(
                ("DELETE FROM timers WHERE game_id = ? AND kind = 'announce'", (game_id,))
            )
            changes.append((timer, (game_id, "announce", None, version, to_ms(announce_at), ms)))
        if hold_until is not None:
            changes.append((timer, (game_id, "end_turn", seat, version, to_ms(hold_until), ms)))
        counts = await self.conn.batch(changes, guarded=True)
        for due in (announce_at, hold_until):
            if due is not None and counts[0] == 1:
                self.conn.timers_changed(to_ms(due))
        return counts[0] == 1

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

    async def last_action_by(self, game_id: int, user_id: int) -> tuple[int, datetime] | None:
        """(seq, time) of the user's latest own action in a game."""
        row = await self.row(
            "SELECT seq, created_at FROM actions WHERE game_id = ? AND user_id = ? "
            "ORDER BY seq DESC LIMIT 1",
            (game_id, user_id),
        )
        return None if row is None else (int(row[0]), at_ms(row[1]))

    # --- who is waiting ---------------------------------------------------------------------------

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

    async def games_waiting_on_computers(self, shards: Shards | None = None) -> list[int]:
        """Ids of running games whose current decision is a computer player's (of the servers
        on `shards` only, if given)."""
        where, params = shard_clause(shards)
        rows = await self.rows(
            f"SELECT g.id FROM games g WHERE {_DECIDES.format(kind='computer')}{where} "
            "ORDER BY g.id",
            params,
        )
        return [r[0] for r in rows]

    async def active_games_waiting_on_humans(
        self, *, untimed: bool = False, shards: Shards | None = None, mid_turn: bool = False
    ) -> list[int]:
        """Ids of running games whose current decision is a human player's; `untimed`: only
        those without a timer (a failure or a stop left their turn unarmed); `mid_turn`: only
        those whose last move is the current player's and whose turn has no `end_turn` timer
        (the only ones a stop can leave waiting for a confirmation); `shards`: only those of
        the servers on these shards. One query, however many games there are."""
        where, params = shard_clause(shards)
        rows = await self.rows(
            f"SELECT g.id FROM games g WHERE {_DECIDES.format(kind='human')}"
            + (" AND NOT EXISTS (SELECT 1 FROM timers t WHERE t.game_id = g.id)" if untimed else "")
            + (
                " AND EXISTS (SELECT 1 FROM actions a WHERE a.game_id = g.id "
                "AND a.seq = g.version AND a.seat = g.current_seat) "
                "AND NOT EXISTS (SELECT 1 FROM timers t WHERE t.game_id = g.id "
                "AND t.kind = 'end_turn')"
                if mid_turn
                else ""
            )
            + where
            + " ORDER BY g.id",
            params,
        )
        return [r[0] for r in rows]

    async def game_locales(self, game_ids: list[int]) -> dict[int, str]:
        """The language of each of these games (`GameInfo.locale`), in one query."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        rows = await self.rows(f"SELECT id, locale FROM games WHERE id IN ({marks})", game_ids)
        return {int(r[0]): str(r[1]) for r in rows}

    async def count_open_games(self) -> int:
        """Games in a lobby or being played."""
        rows = await self.rows("SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'active')")
        return int(rows[0][0])

    # --- plans, hints and votes -------------------------------------------------------------------

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
