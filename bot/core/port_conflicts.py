"""What `port-db` will not overwrite: a destination game that is not the source's game.

`port-db` is re-run while the bot plays on the SQLite file, so a game both databases hold may
rightly differ: the file's copy is the same game, further on. Everything that can change in a
game only moves forward (a lobby starts, moves are appended, a game ends, a seat is handed to a
computer player); what is set once never changes. So the PostgreSQL game with an id the file
also has is the same game, behind or level with the file, when all of these hold:

- the same server, channel and creation time (`guild_id`, `channel_id`, `created_at`);
- if it has started there: started in the file too, with the same seed and start time;
- if it has ended there (finished or abandoned): ended the same way at the same time in the file;
- its version is not ahead of the file's, and each of its moves is the file's move of the same
  number (its log is a prefix of the file's);
- if it has started there: the same seats (join order, turn order, joining time), each with the
  same player or, where a person sat, a computer player that took the seat since;
- it did not change there after its last change in the file (`updated_at`).

Any other difference is a conflict: a game of another database with the same id (the bot was
started on PostgreSQL first and played there), or a copy the bot played on in PostgreSQL after
an earlier port. Mirroring would replace it, so `port-db` refuses unless told `--replace`.

The checks are SQL over the destination's tables and the source's rows staged beside them
(`port_<table>`, see `core.port`), so no game is read into memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import asyncpg

#: (reason, SQL giving the ids of the games it applies to): `games d` is the destination,
#: `port_games s` the source; the first reason that applies to a game is the one told
_CHECKS: tuple[tuple[str, str], ...] = (
    (
        "created",
        "SELECT d.id FROM games d JOIN port_games s USING (id) "
        "WHERE (d.guild_id, d.channel_id, d.created_at) "
        "IS DISTINCT FROM (s.guild_id, s.channel_id, s.created_at)",
    ),
    (
        "started",
        "SELECT d.id FROM games d JOIN port_games s USING (id) "
        "WHERE d.seed IS NOT NULL AND s.seed IS NULL",
    ),
    (
        "dealt",
        "SELECT d.id FROM games d JOIN port_games s USING (id) "
        "WHERE d.seed IS NOT NULL AND (d.seed, d.started_at) IS DISTINCT FROM "
        "(s.seed, s.started_at)",
    ),
    (
        "ended",
        "SELECT d.id FROM games d JOIN port_games s USING (id) "
        "WHERE d.status IN ('finished', 'abandoned') "
        "AND (d.status, d.ended_at) IS DISTINCT FROM (s.status, s.ended_at)",
    ),
    (
        "ahead",
        "SELECT d.id FROM games d JOIN port_games s USING (id) WHERE d.version > s.version",
    ),
    (
        "moves",
        "SELECT DISTINCT a.game_id FROM actions a JOIN port_games g ON g.id = a.game_id "
        "LEFT JOIN port_actions p ON p.game_id = a.game_id AND p.seq = a.seq "
        "WHERE p.game_id IS NULL OR (a.seat, a.user_id, a.action, a.created_at) "
        "IS DISTINCT FROM (p.seat, p.user_id, p.action, p.created_at)",
    ),
    (
        "seats",
        # a started game's seats, matched by join order both ways
        "SELECT DISTINCT d.id FROM games d JOIN port_games g USING (id) "
        "JOIN seats ds ON ds.game_id = d.id "
        "LEFT JOIN port_seats ss ON ss.game_id = ds.game_id AND ss.join_order = ds.join_order "
        "WHERE d.seed IS NOT NULL AND (ss.game_id IS NULL "
        "OR (ds.seat, ds.joined_at) IS DISTINCT FROM (ss.seat, ss.joined_at) "
        "OR ((ds.kind, ds.user_id, ds.level) IS DISTINCT FROM (ss.kind, ss.user_id, ss.level) "
        "AND NOT (ds.kind = 'human' AND ss.kind = 'computer'))) "
        "UNION SELECT d.id FROM games d JOIN port_seats ss ON ss.game_id = d.id "
        "LEFT JOIN seats ds ON ds.game_id = ss.game_id AND ds.join_order = ss.join_order "
        "WHERE d.seed IS NOT NULL AND ds.game_id IS NULL",
    ),
    (
        "later",
        "SELECT d.id FROM games d JOIN port_games s USING (id) WHERE d.updated_at > s.updated_at",
    ),
)


@dataclass(frozen=True)
class GameConflict:
    """The first game (lowest id) PostgreSQL holds that is not the file's game of that id."""

    game_id: int
    #: which rule of the module's docstring it breaks (a key of `_REASONS`)
    reason: str
    #: the destination's game and the source's, in a few words each
    theirs: str
    ours: str
    #: the reason's figures (seeds, versions, the first differing move)
    detail: dict[str, object]
    #: how many games conflict in all, and their ids
    ids: tuple[int, ...]

    def message(self, dest: str, source: str) -> str:
        """One line: which game, how to recognise it, why it is not the file's, what to do."""
        why = _REASONS[self.reason].format(**self.detail)
        more = len(self.ids) - 1
        others = f" (and {more} more: {_ids(self.ids[1:])})" if more else ""
        return (
            f"{dest} holds a different game {self.game_id} ({self.theirs}) from {source}'s "
            f"({self.ours}){others}: {why}. port-db changed nothing; to replace PostgreSQL's "
            "game with the file's, losing what was played on it there, run it again with --replace"
        )


_REASONS = {
    "created": "they were opened in different channels or at different times",
    "started": "it was started in PostgreSQL and is still a lobby in the file",
    "dealt": "they were dealt differently (seed {theirs_seed} against {ours_seed})",
    "ended": "it ended in PostgreSQL ({theirs_status}), not so in the file ({ours_status})",
    "ahead": "PostgreSQL has moves the file does not (version {theirs_version} against "
    "{ours_version}): it was played on there",
    "moves": "their move {seq} differs",
    "seats": "other players sit at it",
    "later": "it changed in PostgreSQL after its last change in the file",
}


def _ids(ids: tuple[int, ...]) -> str:
    shown = ", ".join(map(str, ids[:5]))
    return shown + (", ..." if len(ids) > 5 else "")


async def find_conflict(conn: asyncpg.Connection) -> GameConflict | None:
    """The first conflicting game, or None when every shared game is the same game. Needs the
    source staged as `port_games`, `port_seats` and `port_actions`."""
    first: dict[int, str] = {}
    for reason, sql in _CHECKS:
        for row in await conn.fetch(sql):
            first.setdefault(int(row[0]), reason)
    if not first:
        return None
    ids = tuple(sorted(first))
    game_id = ids[0]
    reason = first[game_id]
    theirs = await conn.fetchrow("SELECT * FROM games WHERE id = $1", game_id)
    ours = await conn.fetchrow("SELECT * FROM port_games WHERE id = $1", game_id)
    assert theirs is not None and ours is not None
    detail: dict[str, object] = {}
    for key in ("seed", "status", "version"):
        detail[f"theirs_{key}"], detail[f"ours_{key}"] = theirs[key], ours[key]
    if reason == "moves":
        detail["seq"] = await conn.fetchval(
            "SELECT MIN(a.seq) FROM actions a LEFT JOIN port_actions p "
            "ON p.game_id = a.game_id AND p.seq = a.seq WHERE a.game_id = $1 AND "
            "(p.game_id IS NULL OR (a.seat, a.user_id, a.action, a.created_at) "
            "IS DISTINCT FROM (p.seat, p.user_id, p.action, p.created_at))",
            game_id,
        )
    return GameConflict(
        game_id,
        reason,
        await _described(conn, theirs, "seats"),
        await _described(conn, ours, "port_seats"),
        detail,
        ids,
    )


async def _described(conn: asyncpg.Connection, game: asyncpg.Record, seats: str) -> str:
    """A game as its players would recognise it: state, channel, when it was opened, who sits."""
    names = [
        _plain(str(r[0]))
        for r in await conn.fetch(
            f"SELECT display_name FROM {seats} WHERE game_id = $1 ORDER BY join_order",
            game["id"],
        )
    ]
    shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
    opened = datetime.fromtimestamp(game["created_at"] / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{game['status']} at version {game['version']}, channel {game['channel_id']}, opened "
        f"{opened}, players {shown or 'none'}"
    )


def _plain(name: str) -> str:
    """A display name fit for a one-line message: no line breaks or control characters."""
    return re.sub(r"[\x00-\x1f\x7f]+", " ", name).strip()[:40]
