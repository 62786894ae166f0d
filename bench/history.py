"""What looking back costs when a database holds many finished games: every history query timed,
without and with the indexes of migration 0019 (`migrations/0019_history_indexes*.sql`).

A database (a SQLite file, or a private PostgreSQL server started as the tests start it, or an
address given) is migrated to the latest step and filled directly, in bulk, with `--games`
finished games (default 1,000,000) spread over `--games / 100` servers of three channels each,
two or three seats each (a computer seat in a third of them), 20 games per person on average,
plus `--running` running games (a third waiting on a computer player). Every game has its view
channel, so the sweep for games without one finds nothing, its steady state. The stored
snapshot is a short stand-in (`--snapshot-bytes`, default 300): a real finished game's is
measured apart (`per game`, below) and only makes the table wider, not the plans different.

Then each query is run `--repeat` times (default 40) with random arguments, through the bot's
own store (`Store.read()`, the same SQL the bot sends), and its p50 / p95 in milliseconds are
printed, first with 0019's indexes dropped (`before`), then with them (`after`), with the plan
the engine chose (`EXPLAIN QUERY PLAN` / `EXPLAIN`):

- `last game`: the last finished game of a channel (`/alhambra-history` without a number);
- `archive`: a server's finished games, ten at a time (`/alhambra-history games`);
- `archive mine`: the same, only the ones a member sat in;
- `archive with sight`: the same as a member sees it: the games they sat in and those of the
  two (of three) channels they can view;
- `stats`: a member's finished games anywhere (`/alhambra-history stats`), with sight;
- `versus`: two members' shared finished games in one server, with sight;
- `sweep computers`, `sweep untimed`: the running games waiting on a computer player, and on a
  person without a timer (start-up recovery and the timer dispatcher's sweeps);
- `no view channel`: the server games whose view channel is not known yet (after connecting).

`per game` plays one real game of three computer players through the engine and prints the
bytes its rows take (snapshot, actions, seats: the figure docs/capacity.md sizes PostgreSQL
with).

    python bench/history.py --db sqlite [--games 1000000] [--repeat 40]
    python bench/history.py --db postgres --games 100000
    python bench/history.py --db postgresql://user@host/db   # a database the bench may fill
    python bench/history.py --keep-indexes   # time only with the indexes (no `before`)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from bot.core.migrate import load_migrations  # noqa: E402
from bot.core.records import Sight  # noqa: E402
from bot.core.store import Store, Tx  # noqa: E402

STEP = 19  # the migration whose indexes are measured
T0 = 1_700_000_000_000  # ms: the first game's start


@dataclass(frozen=True)
class Layout:
    games: int
    running: int
    guilds: int
    users: int
    snapshot: str

    def channel(self, guild: int, k: int) -> int:
        return 10_000_000 + guild * 3 + k

    def guild_of(self, game: int) -> int:
        return 1 + (game * 7919) % self.guilds


def layout(games: int, running: int, snapshot_bytes: int) -> Layout:
    guilds = max(1, games // 100)
    users = max(10, games // 8)  # 2.5 people a game, 20 games a person
    return Layout(games, running, guilds, users, json.dumps({"stand_in": "x" * snapshot_bytes}))


def game_rows(lay: Layout, rng: random.Random) -> Iterable[tuple[tuple[Any, ...], list[tuple]]]:
    """(game row, seat rows) of every game: finished ones first, then the running ones."""
    options = json.dumps({})
    for gid in range(1, lay.games + lay.running + 1):
        guild = lay.guild_of(gid)
        running = gid > lay.games
        # one open game per channel: a running game is in a thread of its own
        channel = 20_000_000 + gid if running else lay.channel(guild, rng.randrange(3))
        start = T0 + gid * 60_000
        end = None if running else start + rng.randrange(600_000, 86_400_000)
        humans = rng.sample(range(1, lay.users + 1), 2)
        computer = rng.random() < 1 / 3
        seats = [(gid, i, i, "human", u, None, f"p{u}", start) for i, u in enumerate(humans)]
        if computer:
            seats.append((gid, 2, 2, "computer", None, "normal", "Computer", start))
        current = (2 if gid % 3 == 0 else 0) if running and computer else (0 if running else None)
        row = (
            gid,
            guild,
            channel,
            humans[0],
            "active" if running else "finished",
            options,
            len(seats),
            gid,
            200,
            current,
            None if running else lay.snapshot,
            start,
            end or start,
            start,
            end,
            start if running else None,
            channel,
            "en",
        )
        yield row, seats


GAME_FIELDS = (
    "id, guild_id, channel_id, host_id, status, options, max_players, seed, version, "
    "current_seat, snapshot, created_at, updated_at, started_at, ended_at, turn_started_at, "
    "view_channel_id, locale"
)
SEAT_FIELDS = "game_id, join_order, seat, kind, user_id, level, display_name, joined_at"


def index_statements(engine: str) -> tuple[list[str], list[str]]:
    """0019's CREATE INDEX statements, and the DROP INDEX that undo them."""
    step = next(m for m in load_migrations(engine=engine) if m.version == STEP)
    creates = [s for s in step.statements() if "CREATE INDEX" in s.upper()]
    names = [s.upper().split("CREATE INDEX", 1)[1].split()[0].lower() for s in creates]
    return creates, [f"DROP INDEX IF EXISTS {n}" for n in names]


def fill_sqlite(path: str, lay: Layout, rng: random.Random) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    gmarks = ", ".join("?" * len(GAME_FIELDS.split(",")))
    smarks = ", ".join("?" * len(SEAT_FIELDS.split(",")))
    games: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []

    def flush() -> None:
        conn.executemany(f"INSERT INTO games ({GAME_FIELDS}) VALUES ({gmarks})", games)
        conn.executemany(f"INSERT INTO seats ({SEAT_FIELDS}) VALUES ({smarks})", seats)
        games.clear()
        seats.clear()

    with conn:
        for row, seat_rows in game_rows(lay, rng):
            games.append(row)
            seats.extend(seat_rows)
            if len(games) >= 50_000:
                flush()
        flush()
    conn.close()


async def fill_postgres(url: str, lay: Layout, rng: random.Random) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        gcols = [c.strip() for c in GAME_FIELDS.split(",")]
        scols = [c.strip() for c in SEAT_FIELDS.split(",")]
        games: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []

        async def flush() -> None:
            await conn.copy_records_to_table("games", records=games, columns=gcols)
            await conn.copy_records_to_table("seats", records=seats, columns=scols)
            games.clear()
            seats.clear()

        for row, seat_rows in game_rows(lay, rng):
            games.append(row)
            seats.extend(seat_rows)
            if len(games) >= 50_000:
                await flush()
        await flush()
        top = lay.games + lay.running
        await conn.execute(f"SELECT setval(pg_get_serial_sequence('games', 'id'), {top})")
        await conn.execute("VACUUM ANALYZE games")
        await conn.execute("VACUUM ANALYZE seats")
    finally:
        await conn.close()


Query = Callable[[Tx, random.Random], Awaitable[object]]


def queries(lay: Layout) -> dict[str, Query]:
    def guild(rng: random.Random) -> int:
        return rng.randrange(1, lay.guilds + 1)

    def sight(rng: random.Random, g: int, user: int) -> Sight:
        return Sight(user, g, frozenset({lay.channel(g, 0), lay.channel(g, 1)}))

    def member(rng: random.Random) -> int:
        return rng.randrange(1, lay.users + 1)

    async def last_game(tx: Tx, rng: random.Random) -> object:
        g = guild(rng)
        return await tx.last_finished_game_in_channel(lay.channel(g, rng.randrange(3)))

    async def archive(tx: Tx, rng: random.Random) -> object:
        return await tx.finished_games(guild(rng), None, 10, rng.choice((0, 0, 10)))

    async def archive_mine(tx: Tx, rng: random.Random) -> object:
        return await tx.finished_games(guild(rng), member(rng), 10)

    async def archive_sight(tx: Tx, rng: random.Random) -> object:
        g = guild(rng)
        return await tx.finished_games(g, None, 10, 0, sight(rng, g, member(rng)))

    async def stats(tx: Tx, rng: random.Random) -> object:
        g, user = guild(rng), member(rng)
        return await tx.finished_game_ids(None, user, 500, sight(rng, g, user))

    async def versus(tx: Tx, rng: random.Random) -> object:
        g, user = guild(rng), member(rng)
        return await tx.shared_finished_game_ids(g, user, member(rng), 500, sight(rng, g, user))

    async def sweep_computers(tx: Tx, rng: random.Random) -> object:
        return await tx.games_waiting_on_computers()

    async def sweep_untimed(tx: Tx, rng: random.Random) -> object:
        return await tx.active_games_waiting_on_humans(untimed=True)

    async def no_view_channel(tx: Tx, rng: random.Random) -> object:
        return await tx.games_without_view_channel(0, 100)

    return {
        "last game": last_game,
        "archive": archive,
        "archive mine": archive_mine,
        "archive with sight": archive_sight,
        "stats": stats,
        "versus": versus,
        "sweep computers": sweep_computers,
        "sweep untimed": sweep_untimed,
        "no view channel": no_view_channel,
    }


class Recording:
    """A connection that notes every read's SQL and arguments (to explain them)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self.seen: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Any]:
        self.seen.append((sql, tuple(params)))
        return await self._conn.rows(sql, params)


async def plan_of(store: Store, query: Query, seed: int = 1) -> str:
    """The engine's plan of the query's first statement, on one line."""
    async with store.db.read() as conn:
        recording = Recording(conn)
        await query(Tx(recording), random.Random(seed))  # type: ignore[arg-type]
        sql, params = recording.seen[0]
        if store.engine == "postgres":
            rows = await conn.rows(f"EXPLAIN {sql}", params)
            return " | ".join(str(r[0]).strip() for r in rows)
        rows = await conn.rows(f"EXPLAIN QUERY PLAN {sql}", params)
        return " | ".join(str(r[3]) for r in rows)


async def timed(store: Store, lay: Layout, repeat: int, seed: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for name, query in queries(lay).items():
        rng = random.Random(seed)
        async with store.read() as tx:
            await query(tx, rng)  # warm the cache and the statement
        times = []
        for _ in range(repeat):
            async with store.read() as tx:
                t = time.perf_counter()
                await query(tx, rng)
                times.append((time.perf_counter() - t) * 1000)
        out[name] = times
    return out


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def change_indexes(store: Store, statements: list[str]) -> None:
    async with store.db.write() as conn:
        for sql in statements:
            await conn.run(sql)
        if store.engine == "postgres":
            await conn.run("ANALYZE games")


async def measure(target: str, label: str, args: argparse.Namespace) -> None:
    lay = layout(args.games, args.running, args.snapshot_bytes)
    rng = random.Random(args.seed)
    store = await Store.open(target)
    engine = store.engine
    creates, drops = index_statements(engine)
    await change_indexes(store, drops)  # bulk inserts go faster without them
    await store.close()
    t = time.perf_counter()
    if engine == "postgres":
        await fill_postgres(target, lay, rng)
    else:
        fill_sqlite(target, lay, rng)
    filled = time.perf_counter() - t
    print(
        f"\n{label}: {args.games:,} finished + {args.running:,} running games over "
        f"{lay.guilds:,} servers, {lay.users:,} people; filled in {filled:.1f} s"
    )
    store = await Store.open(target)
    try:
        results: dict[str, dict[str, list[float]]] = {}
        plans: dict[str, dict[str, str]] = {}
        phases = ["after"] if args.keep_indexes else ["before", "after"]
        for phase in phases:
            if phase == "after":
                t = time.perf_counter()
                await change_indexes(store, creates)
                print(f"0019's indexes built in {time.perf_counter() - t:.1f} s")
            results[phase] = await timed(store, lay, args.repeat, args.seed)
            plans[phase] = {n: await plan_of(store, q) for n, q in queries(lay).items()}
        head = f"{'query':<20}" + "".join(f"{p + ' p50':>13}{p + ' p95':>13}" for p in phases)
        print(head)
        for name in queries(lay):
            cells = "".join(
                f"{statistics.median(results[p][name]):>13.2f}{pct(results[p][name], 95):>13.2f}"
                for p in phases
            )
            print(f"{name:<20}{cells}")
        if args.plans:
            for phase in phases:
                print(f"\nplans {phase}:")
                for name, plan in plans[phase].items():
                    print(f"  {name}: {plan[:300]}")
        await size(store, target, lay)
    finally:
        await store.close()


async def size(store: Store, target: str, lay: Layout) -> None:
    if store.engine == "postgres":
        async with store.db.read() as conn:
            rows = await conn.rows("SELECT pg_database_size(current_database())")
            total = int(rows[0][0])
    else:
        total = Path(target).stat().st_size
    print(
        f"database size: {total / 1e6:,.0f} MB ({total / (lay.games + lay.running):,.0f} "
        "bytes per stored game with a stand-in snapshot)"
    )


def per_game(seed: int) -> None:
    """The bytes one real finished game of three computer players takes in its rows."""
    from engine import action_to_json, new_game
    from engine.ai import make_player

    game = new_game(3, seed=seed)
    players = [make_player("easy", seed + i) for i in range(3)]
    actions = 0
    action_bytes = 0
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        action = players[seat].choose(game.view(seat))
        action_bytes += len(action_to_json(action)) + 40  # the row's other columns
        game.apply(action)
        actions += 1
    snapshot = len(game.to_json())
    seats = 3 * 60
    total = snapshot + action_bytes + seats + 300
    print(
        f"\nper game (one real 3-player game, {actions} actions): snapshot {snapshot:,} B, "
        f"actions {action_bytes:,} B, about {total / 1024:.0f} KB of rows before indexes "
        "and page overhead"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="sqlite", help="sqlite, postgres, or an address")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--running", type=int, default=3_000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--snapshot-bytes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep-indexes", action="store_true")
    parser.add_argument("--plans", action="store_true", help="print each query's plan")
    args = parser.parse_args()
    if args.db == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            await measure(str(Path(tmp) / "history.sqlite3"), "SQLite", args)
    elif args.db == "postgres":
        from postgres_server import PostgresServer

        with PostgresServer() as server:
            await measure(server.url(), "PostgreSQL (private server)", args)
    else:
        await measure(args.db, "PostgreSQL", args)
    per_game(args.seed)


if __name__ == "__main__":
    asyncio.run(main())
