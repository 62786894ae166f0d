"""Queries of what games leave behind: the finished games a member may see, ratings, lost
seats, the hints counted in a record, and each game's view channel."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ..clock import to_ms
from ..ratings import Rating, RatingChange, Standing
from ..records import GameInfo, Sight
from .rows import GAME_COLUMNS, Rows

#: The games the archive lists: those that finished, and rated games abandoned once started
#: (the ratings counted them, so the archive shows them too, marked as abandoned). The partial
#: index `games_finished_by_guild` (migration 0019) has the same condition, written alike, so
#: the archive's query is planned on it: change both together.
_LOOKED_BACK = (
    "(g.status = 'finished' OR (g.status = 'abandoned' AND g.rated = 1 AND g.seed IS NOT NULL))"
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


def _season_rows(guild_id: int, season: int | None) -> tuple[str, str, tuple[int, ...]]:
    """The table, condition on `r` and parameters of a server's ratings: the current season's
    (`season` None) or a closed season's."""
    if season is None:
        return "ratings", "r.guild_id = ?", (guild_id,)
    return "season_ratings", "r.guild_id = ? AND r.season = ?", (guild_id, season)


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
        """A server's finished games (and rated games abandoned while they ran: they moved
        ratings) with their last snapshots, the latest first, skipping
        the `offset` latest; only those `user_id` sat in (and did not leave) if given, and only
        those `sight` allows if given."""
        where, params = ["g.guild_id = ?", _LOOKED_BACK], [guild_id]
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
        """The current season's ratings of these players (locked in a write, so a season
        closing meanwhile waits for the game that moves them, or that game for it)."""
        wanted = tuple(user_ids)
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self.rows(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? "
            f"AND user_id IN ({marks}){self._lock}",
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

    async def leaderboard(
        self, guild_id: int, limit: int, season: int | None = None
    ) -> list[tuple[int, Rating]]:
        """The best `limit` players of the server's current season (`season`: a closed one)."""
        table, where, params = _season_rows(guild_id, season)
        rows = await self.rows(
            f"SELECT user_id, mu, sigma, games FROM {table} r WHERE {where} "
            "ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?",
            (*params, limit),
        )
        return [(int(r[0]), Rating(float(r[1]), float(r[2]), int(r[3]))) for r in rows]

    async def standing(
        self, guild_id: int, user_id: int, season: int | None = None
    ) -> Standing | None:
        """Where `user_id` stands in the server's current season (`season`: a closed one), in
        the leaderboard's order; None without a rating in it."""
        table, where, params = _season_rows(guild_id, season)
        mine = await self.rows(
            f"SELECT mu, sigma, games FROM {table} r WHERE {where} AND user_id = ?",
            (*params, user_id),
        )
        if not mine:
            return None
        rating = Rating(float(mine[0][0]), float(mine[0][1]), int(mine[0][2]))
        ahead = await self.rows(
            f"SELECT COUNT(*) FROM {table} r JOIN {table} me ON me.guild_id = r.guild_id "
            f"AND me.user_id = ?{' AND me.season = r.season' if season is not None else ''} "
            f"WHERE {where} AND (r.mu - 3 * r.sigma > me.mu - 3 * me.sigma "
            "OR (r.mu - 3 * r.sigma = me.mu - 3 * me.sigma AND r.user_id < me.user_id))",
            (user_id, *params),
        )
        players = await self.rated_players(guild_id, season)
        return Standing(user_id, int(ahead[0][0]) + 1, players, rating)

    async def rated_players(self, guild_id: int, season: int | None = None) -> int:
        table, where, params = _season_rows(guild_id, season)
        rows = await self.rows(f"SELECT COUNT(*) FROM {table} r WHERE {where}", params)
        return int(rows[0][0])

    # --- seasons ----------------------------------------------------------------------------------

    async def current_season(self, guild_id: int) -> int:
        """The server's season now: 1 until its moderators start a new one."""
        rows = await self.rows("SELECT MAX(season) FROM seasons WHERE guild_id = ?", (guild_id,))
        return int(rows[0][0] or 1) if rows else 1

    async def close_season(self, guild_id: int, season: int, user_id: int, now: datetime) -> None:
        """Keep the server's ratings as season `season`'s, and start season `season + 1` with
        none (`season` must be the current one). The server's ratings are locked first (on
        PostgreSQL), so a rated game ending meanwhile counts wholly in one season or the other."""
        await self.rows(f"SELECT user_id FROM ratings WHERE guild_id = ?{self._lock}", (guild_id,))
        await self.keep_season(guild_id, season)
        await self.run(
            "INSERT INTO seasons (guild_id, season, started_at, started_by) VALUES (?, ?, ?, ?)",
            (guild_id, season + 1, to_ms(now), user_id),
        )

    async def season_starts(self) -> dict[int, list[int]]:
        """Every server's season starts (ms), in order: the start of season 2 first."""
        rows = await self.rows("SELECT guild_id, started_at FROM seasons ORDER BY guild_id, season")
        out: dict[int, list[int]] = {}
        for row in rows:
            out.setdefault(int(row[0]), []).append(int(row[1]))
        return out

    async def keep_season(self, guild_id: int, season: int) -> None:
        """The server's ratings so far become the closed season `season`'s (`ratings` empties)."""
        await self.run(
            "INSERT INTO season_ratings (guild_id, season, user_id, mu, sigma, games, updated_at) "
            "SELECT guild_id, CAST(? AS INTEGER), user_id, mu, sigma, games, updated_at "
            "FROM ratings "
            "WHERE guild_id = ?",
            (season, guild_id),
        )
        await self.run("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))

    # --- rating changes ---------------------------------------------------------------------------

    async def save_rating_changes(self, game_id: int, changes: Sequence[RatingChange]) -> None:
        for change in changes:
            before, after = change.before, change.after
            await self.run(
                "INSERT INTO rating_changes (game_id, user_id, season, mu_before, sigma_before, "
                "games_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, user_id) DO UPDATE SET season = excluded.season, "
                "mu_before = excluded.mu_before, sigma_before = excluded.sigma_before, "
                "games_before = excluded.games_before, mu_after = excluded.mu_after, "
                "sigma_after = excluded.sigma_after",
                (
                    game_id,
                    change.user_id,
                    change.season,
                    before.mu,
                    before.sigma,
                    before.games,
                    after.mu,
                    after.sigma,
                ),
            )

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """How a rated game moved each player's rating (none if it moved none)."""
        rows = await self.rows(
            "SELECT user_id, mu_before, sigma_before, games_before, mu_after, sigma_after, "
            "season FROM rating_changes WHERE game_id = ? ORDER BY user_id",
            (game_id,),
        )
        return [
            RatingChange(
                int(r[0]),
                Rating(float(r[1]), float(r[2]), int(r[3])),
                Rating(float(r[4]), float(r[5]), int(r[3]) + 1),
                int(r[6]),
            )
            for r in rows
        ]

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
        """Every rating, of every season, and what each game changed (to be rebuilt)."""
        await self.run("DELETE FROM rating_changes")
        await self.run("DELETE FROM season_ratings")
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
