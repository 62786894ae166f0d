"""Benchmark of the game service on a SQLite file: throughput, latency and storage.

    python bench/service.py [--games 1000] [--actions 5000] [--finished 10]
                            [--synchronous FULL NORMAL] [--floor]

1. Stores `--games` started games (2-4 players) in a fresh database file.
2. Plays `--actions` random legal actions through `Play.act`, each on a random game,
   in one process: actions per second, and the p50/p99 latency of `act` alone.
3. In another fresh file, plays `--finished` 4-player games to the end and reports the bytes
   each finished game takes in the database (after a checkpoint and VACUUM).
Step 2 runs once per SQLite sync mode: FULL (the store's default: every acknowledged move is on
disk before `act` returns, so it survives a power cut) costs one fsync per move, which makes the
figure a measure of the disk; NORMAL survives any crash of the process (the kill test) but may
lose the last moves on a power cut.
Targets: >= 500 actions/s, p99 < 20 ms, < 100 KB per finished game.

With `--floor`, each sync mode's step 2 is followed by the bare transaction floor on the same
file, the same connection set-up (aiosqlite, WAL, the sync mode, foreign keys, busy timeout:
`SqliteDatabase.open`) and the same games: per move one explicit transaction, `BEGIN
IMMEDIATE; UPDATE games SET version = version + 1, snapshot = <the game's own snapshot> WHERE
id = ? AND version = ?; INSERT INTO actions (28 bytes of JSON); COMMIT` (four round trips to
aiosqlite's thread, nothing else), every other move after the two SELECTs `act` makes first
(the game's row, its seats), so that both floors meet the same disk and load. A floor's speed is
moves / the sum of their latencies. It prints `act()/floor`: the service's actions per second
over the floor's, for the whole loop (the bench's own `legal_actions()` and choice included)
and for `act` alone (the sum of its latencies). The performance review's goal is act() >= 1/4
of the bare FULL floor. `--floor` works with the default run (`--synchronous FULL NORMAL`),
not with `--db`.

Several processes on one database (the scale-out setting):

    python bench/service.py --db postgres --processes 1 2 4 [--games 400] [--actions 4000]
    python bench/service.py --db postgresql://user@host/db --processes 1 2 4
    python bench/service.py --db sqlite --processes 1 2 4

`--games` started games are stored, then each of N processes plays its share of `--actions` on
its own games (disjoint, as the shards of a cluster are), one move at a time: actions per second
of them all (actions / wall time of the slowest) and the p50/p99 latency of `act`. `postgres`
starts a private server from the test extra's binaries, with durability on (fsync, synchronous
commit), so it compares with SQLite's FULL; `sqlite` is one file shared by the processes.
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
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.clock import SystemClock, to_ms
from bot.core.db.sqlite import SqliteDatabase
from bot.core.services import Services
from bot.core.store import Store
from engine import Game, Undo

#: what the floor writes as an action: 28 bytes of JSON, the size of a typical move
FLOOR_ACTION = json.dumps({"kind": "take", "cards": [12]}, separators=(",", ":"))


@dataclass
class Speed:
    """Moves per second and latency of one run (act's, or the floor's transaction)."""

    per_s: float  # whole loop
    alone_per_s: float  # the measured call alone: moves / the sum of their latencies
    p50_ms: float
    p99_ms: float


def _speed(count: int, wall: float, latencies: list[float]) -> Speed:
    ms = sorted(x * 1000 for x in latencies)
    return Speed(
        count / wall, count / sum(latencies), statistics.median(ms), ms[int(len(ms) * 0.99)]
    )


async def _start(services: Services, channel: int, players: int) -> tuple[int, Game]:
    host = channel * 10
    game = await services.lobby.create_game(channel_id=channel, host_id=host, host_name="P0")
    for i in range(1, players):
        await services.lobby.join(game.id, host + i, f"P{i}")
    result = await services.lobby.start(game.id, host)
    async with services.store.read() as tx:  # the bench's own copy, moved along with the store's
        snapshot = await tx.snapshot(game.id)
    assert snapshot is not None
    return result.game.id, Game.from_json(snapshot)


async def _move(
    services: Services, game_id: int, state: Game, version: int, rng: random.Random
) -> tuple[float, Game, int, bool]:
    """One random legal act for whoever is to play; returns (seconds in act, state, version,
    finished)."""
    info_seat = state.current_seat
    assert info_seat is not None
    legal = [a for a in state.legal_actions() if not isinstance(a, Undo) or rng.random() < 0.05]
    move = rng.choice(legal)
    user = _users[game_id][info_seat]
    t0 = time.perf_counter()
    result = await services.play.act(game_id, user, move, version)
    elapsed = time.perf_counter() - t0
    state.apply(move)  # the same move on the bench's copy: the service hands out views only
    return elapsed, state, result.version, result.is_over


_users: dict[int, dict[int, int]] = {}


async def _remember_seats(services: Services, game_id: int) -> None:
    info = await services.lobby.game(game_id)
    _users[game_id] = {s.seat: s.user_id for s in info.seats}  # type: ignore[misc]


async def throughput(
    folder: Path, games: int, actions: int, rng: random.Random, synchronous: str
) -> Speed:
    print(f"--- PRAGMA synchronous = {synchronous}")
    path = folder / f"bench-{synchronous}.sqlite3"
    store = await Store.open(path, synchronous=synchronous)  # type: ignore[arg-type]
    services = Services.build(store)
    t0 = time.perf_counter()
    live: dict[int, tuple[Game, int]] = {}
    for channel in range(1, games + 1):
        game_id, state = await _start(services, channel, rng.randint(2, 4))
        await _remember_seats(services, game_id)
        live[game_id] = (state, 0)
    print(f"stored {games} started games in {time.perf_counter() - t0:.1f} s")

    ids = list(live)
    latencies: list[float] = []
    finished = 0
    t0 = time.perf_counter()
    for _ in range(actions):
        game_id = rng.choice(ids)
        state, version = live[game_id]
        elapsed, state, version, over = await _move(services, game_id, state, version, rng)
        latencies.append(elapsed)
        if over:
            finished += 1
            ids.remove(game_id)
        else:
            live[game_id] = (state, version)
    wall = time.perf_counter() - t0
    await store.close()
    ms = sorted(x * 1000 for x in latencies)
    print(f"{actions} random legal actions over {games} games ({finished} finished):")
    print(f"  throughput     {actions / wall:8.0f} actions/s (whole loop, one process)")
    print(
        f"  act latency    p50 {statistics.median(ms):.2f} ms   "
        f"p99 {ms[int(len(ms) * 0.99)]:.2f} ms   max {ms[-1]:.2f} ms"
    )
    return _speed(actions, wall, latencies)


async def floor(
    path: Path, actions: int, rng: random.Random, synchronous: str
) -> tuple[Speed, Speed]:
    """The bare transaction of a move on the games of `path` (see the module's docstring),
    alone and after act()'s two reads, alternating move by move so that both meet the same
    disk and the same load; returns (bare, with the reads)."""
    db = await SqliteDatabase.open(path, synchronous=synchronous)  # type: ignore[arg-type]
    conn = db.conn
    rows = await conn.execute_fetchall(
        "SELECT id, version, snapshot FROM games WHERE status = 'active'"
    )
    games = {int(r[0]): [int(r[1]), str(r[2])] for r in rows}
    ids = list(games)
    latencies: tuple[list[float], list[float]] = ([], [])
    now = to_ms(SystemClock().now())
    for move in range(2 * actions):
        game_id = rng.choice(ids)
        version, snapshot = games[game_id]
        reads = move % 2 == 1
        started = time.perf_counter()
        if reads:  # what act() reads before its transaction: the game's row, its seats
            await conn.execute_fetchall("SELECT * FROM games WHERE id = ?", (game_id,))
            await conn.execute_fetchall("SELECT * FROM seats WHERE game_id = ?", (game_id,))
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute(
            "UPDATE games SET version = version + 1, snapshot = ?, updated_at = ? "
            "WHERE id = ? AND version = ?",
            (snapshot, now, game_id, version),
        )
        await conn.execute(
            "INSERT INTO actions (game_id, seq, seat, user_id, action, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, version + 1, 0, None, FLOOR_ACTION, now),
        )
        await conn.execute("COMMIT")
        latencies[reads].append(time.perf_counter() - started)
        games[game_id][0] = version + 1
    await db.close()
    size = statistics.mean(len(s) for _, s in games.values())
    speeds = tuple(_speed(len(lat), sum(lat), lat) for lat in latencies)
    for name, speed in zip(("bare floor", "floor + 2 reads"), speeds, strict=True):
        print(
            f"  {name:15s}{speed.per_s:6.0f} transactions/s   p50 {speed.p50_ms:.2f} ms   "
            f"p99 {speed.p99_ms:.2f} ms"
        )
    print(f"  (the floor wrote the games' own snapshots: {size:,.0f} bytes on average)")
    return speeds[0], speeds[1]


def ratios(act: Speed, bare: Speed, with_reads: Speed) -> None:
    """act() against the floors: the share of the floor's speed the service reaches."""
    for name, base in (("bare floor", bare), ("floor + 2 reads", with_reads)):
        print(
            f"  act()/{name:15s} {act.per_s / base.per_s:5.2f} (whole loop)   "
            f"{act.alone_per_s / base.alone_per_s:5.2f} (act alone)"
        )


async def storage(folder: Path, count: int, rng: random.Random) -> None:
    path = folder / "finished.sqlite3"
    store = await Store.open(path)
    await store.close()
    empty = _compacted_size(path)
    store = await Store.open(path)
    services = Services.build(store)
    actions = 0
    for channel in range(1, count + 1):
        game_id, state = await _start(services, channel, 4)
        await _remember_seats(services, game_id)
        version, over = 0, False
        while not over:
            _, state, version, over = await _move(services, game_id, state, version, rng)
        actions += version
    await store.close()
    size = _compacted_size(path)
    conn = sqlite3.connect(path)
    snap, acts = conn.execute(
        "SELECT (SELECT SUM(LENGTH(snapshot)) FROM games), "
        "(SELECT SUM(LENGTH(action)) FROM actions)"
    ).fetchone()
    conn.close()
    per_game = (size - empty) / count
    print(f"{count} finished 4-player games, {actions / count:.0f} actions each on average:")
    print(f"  database size  {per_game / 1024:8.1f} KB per finished game (file growth, vacuumed)")
    print(
        f"  of which       {snap / count / 1024:.1f} KB snapshot, "
        f"{acts / count / 1024:.1f} KB action JSON"
    )


def _compacted_size(path: Path) -> int:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    conn.close()
    return path.stat().st_size


async def _play_share(target: str, game_ids: list[int], actions: int, seed: int) -> list[float]:
    """One process's share: `actions` random moves over its own games; the act latencies."""
    rng = random.Random(seed)
    store = await Store.open(target)
    services = Services.build(store)
    live: dict[int, tuple[Game, int]] = {}
    for game_id in game_ids:
        await _remember_seats(services, game_id)
        async with store.read() as tx:
            snapshot = await tx.snapshot(game_id)
        info = await services.lobby.game(game_id)
        assert snapshot is not None
        live[game_id] = (Game.from_json(snapshot), info.version)
    ids = list(live)
    latencies: list[float] = []
    for _ in range(actions):
        if not ids:
            break
        game_id = rng.choice(ids)
        state, version = live[game_id]
        elapsed, state, version, over = await _move(services, game_id, state, version, rng)
        latencies.append(elapsed)
        if over:
            ids.remove(game_id)
        else:
            live[game_id] = (state, version)
    await store.close()
    return latencies


def _share(args: tuple[str, list[int], int, int]) -> tuple[list[float], float]:
    t0 = time.perf_counter()
    latencies = asyncio.run(_play_share(*args))
    return latencies, time.perf_counter() - t0


async def processes(target: str, label: str, games: int, actions: int, counts: list[int]) -> None:
    import multiprocessing

    print(f"--- {label}: {games} games, {actions} actions per run, one move at a time per process")
    for count in counts:
        store = await Store.open(target)
        services = Services.build(store)
        rng = random.Random(count)
        first = 10_000 * count
        ids = [(await _start(services, first + c, rng.randint(2, 4)))[0] for c in range(games)]
        await store.close()
        shares = [(target, ids[i::count], actions // count, 100 + i) for i in range(count)]
        with multiprocessing.get_context("spawn").Pool(count) as pool:
            results = pool.map(_share, shares)
        latencies = sorted(x * 1000 for lat, _ in results for x in lat)
        wall = max(w for _, w in results)
        print(
            f"  {count} process{'es' if count > 1 else '  '}  {len(latencies) / wall:8.0f} "
            f"actions/s   act p50 {statistics.median(latencies):6.2f} ms   "
            f"p99 {latencies[int(len(latencies) * 0.99)]:6.2f} ms"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=5000)
    parser.add_argument("--finished", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--synchronous",
        nargs="+",
        choices=["FULL", "NORMAL"],
        default=["FULL", "NORMAL"],
        help="SQLite sync modes to measure (the store's default is FULL)",
    )
    parser.add_argument(
        "--db",
        help="measure several processes on one database: sqlite, postgres (a private server), "
        "or a postgresql:// address",
    )
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument(
        "--floor",
        action="store_true",
        help="after each sync mode, the bare transaction floor on the same file, and act()/floor",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.db:
        await _several(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for mode in args.synchronous:
            act = await throughput(folder, args.games, args.actions, random.Random(args.seed), mode)
            if args.floor:
                path = folder / f"bench-{mode}.sqlite3"
                bare, reads = await floor(path, args.actions, random.Random(args.seed), mode)
                ratios(act, bare, reads)
        await storage(folder, args.finished, rng)


async def _several(args: argparse.Namespace) -> None:
    if args.db == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            target = str(Path(tmp) / "shared.sqlite3")
            await processes(target, "SQLite (FULL)", args.games, args.actions, args.processes)
        return
    if args.db == "postgres":
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from postgres_server import PostgresServer

        with PostgresServer(durable=True) as server:
            label = "PostgreSQL (private server, fsync on)"
            await processes(server.url(), label, args.games, args.actions, args.processes)
        return
    await processes(args.db, "PostgreSQL", args.games, args.actions, args.processes)


if __name__ == "__main__":
    asyncio.run(main())
