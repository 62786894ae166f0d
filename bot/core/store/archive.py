"""Queries of what games leave behind: the finished games a member may see, ratings, lost
seats, the hints counted in a record, and each game's view channel."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ..clock import to_ms
from ..ratings import Rating
from ..records import GameInfo, Sight
from .rows import GAME_COLUMNS, Rows

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


class ArchiveQueries(Rows):
    """Finished games, ratings, forfeits, statistics' queries and view channels."""

    # --- finished games ---------------------------------------------------------------------------

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
            f"SELECT {GAME_COLUMNS}, snapshot FROM games g "
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
        # `+g.guild_id`: found from the member's seats (seats_by_user), not by walking the
        # whole server's archive (SQLite would take its index on the server's games)
        where = "AND +g.guild_id = ? " if guild_id is not None else ""
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
        # `+g.guild_id`: found from the member's seats (seats_by_user), not by walking the
        # whole server's archive (SQLite would take its index on the server's games)
        where = "AND +g.guild_id = ? " if guild_id is not None else ""
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

    # --- ratings ----------------------------------------------------------------------------------

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
            f"SELECT {GAME_COLUMNS}, snapshot FROM games WHERE rated = 1 "
            "AND status IN ('finished', 'abandoned') AND snapshot IS NOT NULL "
            "ORDER BY ended_at, id"
        )
        return [(await self._with_seats(r), str(r["snapshot"])) for r in rows]

    async def clear_ratings(self) -> int:
        return await self.run("DELETE FROM ratings")

    # --- lost seats -------------------------------------------------------------------------------

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

    async def forfeits(self, game_id: int) -> dict[int, int]:
        """The people who lost their seat in a game: user id -> engine seat."""
        rows = await self.rows(
            "SELECT user_id, seat FROM forfeits WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return {int(r[0]): int(r[1]) for r in rows}

    # --- view channels ----------------------------------------------------------------------------

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
