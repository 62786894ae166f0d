"""Looking back never reads the whole games table: every history query and every sweep for
waiting games is planned on an index (migration 0019), on SQLite and on PostgreSQL.

The plans are the engines' own (`EXPLAIN QUERY PLAN` / `EXPLAIN`) of the very SQL the store
sends, caught at the connection, over a few thousand games (PostgreSQL, given its statistics,
plans a small table as it would a big one only once there are enough rows to tell apart).
bench/history.py times the same queries at a million finished games."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import pytest

from bot.core.records import Sight
from bot.core.store import Store, Tx

GUILD, ANA, BRUNO = 7, 11, 12
CHANNELS = (701, 702, 703)


class Recording:
    """The store's connection, noting the SQL and arguments of every read."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.seen: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Any]:
        self.seen.append((sql, tuple(params)))
        return await self._conn.rows(sql, params)


SIGHT = Sight(ANA, GUILD, frozenset(CHANNELS[:2]))

QUERIES: dict[str, Callable[[Tx], Awaitable[object]]] = {
    "last game": lambda tx: tx.last_finished_game_in_channel(CHANNELS[0]),
    "archive": lambda tx: tx.finished_games(GUILD, None, 10),
    "archive mine": lambda tx: tx.finished_games(GUILD, ANA, 10),
    "archive with sight": lambda tx: tx.finished_games(GUILD, None, 10, 0, SIGHT),
    "stats": lambda tx: tx.finished_game_ids(None, ANA, 500, SIGHT),
    "stats here": lambda tx: tx.finished_game_ids(GUILD, ANA, 500, SIGHT),
    "versus": lambda tx: tx.shared_finished_game_ids(GUILD, ANA, BRUNO, 500, SIGHT),
    "sweep computers": lambda tx: tx.games_waiting_on_computers(),
    "sweep humans": lambda tx: tx.active_games_waiting_on_humans(),
    "sweep untimed": lambda tx: tx.active_games_waiting_on_humans(untimed=True),
    "no view channel": lambda tx: tx.games_without_view_channel(0, 100),
}


async def _fill(store: Store) -> None:
    """A few finished games and one running game, enough for every query to find something."""
    async with store.db.write() as conn:
        for gid in range(1, 31):
            running = gid == 30
            await conn.run(
                "INSERT INTO games (id, guild_id, channel_id, host_id, status, version, "
                "current_seat, snapshot, created_at, updated_at, started_at, ended_at, "
                "view_channel_id) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)",
                (
                    gid,
                    GUILD,
                    900 if running else CHANNELS[gid % 3],
                    ANA,
                    "active" if running else "finished",
                    0 if running else None,
                    None if running else "{}",
                    gid,
                    gid,
                    gid,
                    None if running else gid + 5,
                    CHANNELS[gid % 3],
                ),
            )
            for order, user in enumerate((ANA, BRUNO)):
                await conn.run(
                    "INSERT INTO seats (game_id, join_order, seat, kind, user_id, display_name, "
                    "joined_at) VALUES (?, ?, ?, 'human', ?, ?, ?)",
                    (gid, order, order, user, f"p{user}", gid),
                )


async def _fill_many(store: Store) -> None:
    """3,000 finished games over 60 servers of three channels and 400 people, and a few running
    games, with the planner's statistics up to date."""
    games, seats = [], []
    for gid in range(100, 3100):
        guild = GUILD if gid % 60 == 0 else 1000 + gid % 60
        channel = CHANNELS[gid % 3] if guild == GUILD else guild * 10 + gid % 3
        running = gid % 500 == 0
        games.append(
            (
                gid,
                guild,
                5000 + gid if running else channel,
                gid % 400,
                "active" if running else "finished",
                0 if running else None,
                None if running else "{}",
                gid,
                gid,
                gid,
                None if running else gid + 5,
                channel,
            )
        )
        for order, user in enumerate(sorted({gid % 400, (gid * 7 + 1) % 400})):
            seats.append((gid, order, order, user, f"p{user}", gid))
    async with store.db.write() as conn:
        for game in games:
            await conn.run(_GAME_ROW, game)
        for seat in seats:
            await conn.run(_SEAT_ROW, seat)
        if store.engine == "postgres":
            await conn.run("ANALYZE games")
            await conn.run("ANALYZE seats")


_GAME_ROW = (
    "INSERT INTO games (id, guild_id, channel_id, host_id, status, version, current_seat, "
    "snapshot, created_at, updated_at, started_at, ended_at, view_channel_id) "
    "VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)"
)
_SEAT_ROW = (
    "INSERT INTO seats (game_id, join_order, seat, kind, user_id, display_name, joined_at) "
    "VALUES (?, ?, ?, 'human', ?, ?, ?)"
)


async def _plan(store: Store, query: Callable[[Tx], Awaitable[object]]) -> list[str]:
    """The plan of every statement the query sends, one string per statement."""
    plans = []
    async with store.db.read() as conn:
        recording = Recording(conn)
        await query(Tx(recording))
        for sql, params in recording.seen:
            if store.engine == "postgres":
                rows = await conn.rows(f"EXPLAIN {sql}", params)
                plans.append("\n".join(str(r[0]) for r in rows))
            else:
                rows = await conn.rows(f"EXPLAIN QUERY PLAN {sql}", params)
                plans.append("\n".join(str(r[3]) for r in rows))
    return plans


def _full_scans(plan: str, engine: str) -> list[str]:
    """The steps of a plan that read a whole table (not an index)."""
    lines = [line.strip() for line in plan.splitlines()]
    if engine == "postgres":
        # a node is a line (the first, or one starting with ->) and the detail lines under it;
        # an index walked with no condition on it (`Index Cond`) is read whole, as a table is
        nodes: list[list[str]] = []
        for line in lines:
            if not nodes or line.startswith("->"):
                nodes.append([line.removeprefix("->").strip()])
            else:
                nodes[-1].append(line)
        return [
            head
            for head, *details in nodes
            if "Seq Scan" in head
            or (
                head.startswith(("Index Scan", "Index Only Scan", "Bitmap Index Scan"))
                and "games_running" not in head
                and not any(d.startswith("Index Cond") for d in details)
            )
        ]
    # SQLite walks an index whole (`SCAN ... USING INDEX`) as readily as a table: only the
    # running games' own small index may be walked whole
    return [line for line in lines if line.startswith("SCAN") and "games_running" not in line]


@pytest.mark.parametrize("name", sorted(QUERIES))
async def test_history_queries_are_planned_on_indexes(store: Store, name: str) -> None:
    await _fill_many(store)
    plans = await _plan(store, QUERIES[name])
    assert plans, f"{name} sent no query"
    for plan in plans:
        assert not _full_scans(plan, store.engine), f"{name} reads a whole table:\n{plan}"
        assert "index" in plan.lower(), f"{name} uses no index:\n{plan}"


async def test_the_index_plans_follow_the_indexes(store: Store) -> None:
    """The check above is not vacuous: without 0019's indexes the archive reads every game."""
    await _fill_many(store)
    async with store.db.write() as conn:
        await conn.run("DROP INDEX games_finished_by_guild")
    plan = (await _plan(store, QUERIES["archive"]))[0]
    assert _full_scans(plan, store.engine), plan


async def test_the_archive_still_answers_with_its_indexes(store: Store) -> None:
    """The rewritten sweeps and the indexed archive return what they did."""
    await _fill(store)
    async with store.read() as tx:
        archive = await tx.finished_games(GUILD, None, 5)
        seen = await tx.finished_games(GUILD, None, 50, 0, Sight(9, GUILD, frozenset(CHANNELS[:1])))
        last = await tx.last_finished_game_in_channel(CHANNELS[1])
        humans = await tx.active_games_waiting_on_humans()
        computers = await tx.games_waiting_on_computers()
        versus = await tx.shared_finished_game_ids(GUILD, ANA, BRUNO, 500)
    assert [g.id for g, _ in archive] == [29, 28, 27, 26, 25]
    assert {g.id for g, _ in seen} == {gid for gid in range(1, 30) if gid % 3 == 0}
    assert last is not None and last.id == 28
    assert humans == [30] and computers == []
    assert versus == list(range(29, 0, -1))
