"""The row helpers every group of queries stands on: one connection's rows, and a game's
row read as a `GameInfo` (with its seats), which the games and the archive both return."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..clock import at_ms, from_ms
from ..db.base import Conn, Row
from ..records import GameInfo, SeatInfo, Shards

GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, options, max_players, seed, version, "
    "current_seat, created_at, updated_at, started_at, ended_at, turn_started_at, "
    "turn_deadline_s, rated, view_channel_id, locale"
)


class Rows:
    """One transaction's connection and the few helpers every query is written with."""

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

    async def _with_seats(self, row: Row) -> GameInfo:
        seats = await self.rows(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY join_order",
            (row["id"],),
        )
        return game_info(row, seats)


def shard_clause(shards: Shards | None, column: str = "g.guild_id") -> tuple[str, list[int]]:
    """` AND (...)`: only the games of servers on `shards` (Discord's rule, `Shards.owns`), and
    its parameters; nothing when `shards` is None (every game)."""
    if shards is None:
        return "", []
    ids = sorted(shards.ids)
    marks = ", ".join("?" for _ in ids)
    clause = f" AND ({column} IS NULL OR ({column} >> 22) % ? IN ({marks}))"
    return clause, [shards.count, *ids]


#: A seat's columns, named as `game_info` reads them (also in a join with its game's row).
SEAT_COLUMNS = "join_order, seat, kind, user_id, level, display_name, joined_at"


def game_info(row: Row, seats: Sequence[Row]) -> GameInfo:
    """A game from its row and its seats' rows (in join order)."""
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
        locale=row["locale"],
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
