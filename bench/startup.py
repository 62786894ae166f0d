"""What one process's start-up costs the database, with many running games over many shards.

A private PostgreSQL server (the test extra's binaries, tests/postgres_server.py) gets one
running two-player game, its turn armed, copied in SQL `--games` times over servers spread
evenly across `--shards` shards. Then the start-up recovery of cluster 0 of `--clusters`
(its contiguous range of shards, as `ALHAMBRA_CLUSTERS` gives it) is run and its store
transactions counted (`Store.read/write/peek`, each one transaction):

- **before**: the start-up as it was (every game waiting on a computer player or a person read
  one by one to find its server, `finish_automatic_turn` for each of this process's, then the
  re-arming query over every shard's games), replayed here with the same services;
- **after**: `TurnFlow.start_up` with the process's shards (each kind found in one query, only
  the games that need work touched).

    python bench/startup.py                         # 5,000 games, 4 shards, 2 clusters
    python bench/startup.py --games 20000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "bot")]

from bot.config import cluster_shards  # noqa: E402
from bot.core.clock import SystemClock  # noqa: E402
from bot.core.records import Shards  # noqa: E402
from bot.core.services import Services  # noqa: E402
from bot.core.store import Store  # noqa: E402
from bot.turns.flow import TurnFlow  # noqa: E402
from bot.turns.ports import Delivery  # noqa: E402
from bot.turns.reminders import Reminders  # noqa: E402

FIRST_COPY = 1_000_000


class Quiet:
    """An announcer and messenger that say nothing (the bench counts the database)."""

    async def turn_over(self, *args: object) -> None:
        return None

    async def notice(self, *args: object, **kwargs: object) -> None:
        return None

    async def turn_dm(self, *args: object) -> Delivery:
        return Delivery.SENT

    async def reminder(self, *args: object) -> Delivery:
        return Delivery.SENT

    async def nudge(self, *args: object) -> bool:
        return True

    async def plan_report(self, *args: object) -> Delivery:
        return Delivery.SENT

    async def owner_notice(self, *args: object) -> Delivery:
        return Delivery.SENT


class Counted:
    def __init__(self, store: Store) -> None:
        self.count = 0
        for name in ("read", "write", "peek"):
            setattr(store, name, self._wrap(getattr(store, name)))

    def _wrap(self, opener: Any) -> Any:
        @contextlib.asynccontextmanager
        async def counted() -> AsyncIterator[Any]:
            self.count += 1
            async with opener() as tx:
                yield tx

        return counted

    @contextlib.contextmanager
    def measuring(self) -> Iterator[None]:
        self.count = 0
        yield


async def _columns(conn: Any, table: str, leave: set[str]) -> list[str]:
    rows = await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_name = $1 "
        "ORDER BY ordinal_position",
        table,
    )
    return [r[0] for r in rows if r[0] not in leave]


async def populate(url: str, games: int, shards: int) -> None:
    """One armed game, copied `games` times in SQL onto servers of every shard."""
    import asyncpg
    from service_helpers import started

    store = await Store.open(url)
    try:
        services = Services.build(store, SystemClock())
        game = await started(services)
        await Reminders(services, Quiet(), spawn=lambda c: None).recover()
    finally:
        await store.close()
    conn = await asyncpg.connect(url)
    try:
        keep = await _columns(conn, "games", {"id", "guild_id", "channel_id"})
        cols = ", ".join(keep)
        picked = ", ".join(f"g.{c}" for c in keep)
        await conn.execute(
            f"INSERT INTO games (id, guild_id, channel_id, {cols}) "
            f"SELECT {FIRST_COPY} + i, ((i % {shards}) + {shards} * i)::bigint << 22, "
            f"{FIRST_COPY} + i, {picked} FROM games g, generate_series(1, {games}) i "
            f"WHERE g.id = {game.id}"
        )
        for table, leave in (("seats", {"game_id"}), ("actions", {"game_id"})):
            keep = await _columns(conn, table, leave)
            cols = ", ".join(keep)
            await conn.execute(
                f"INSERT INTO {table} (game_id, {cols}) SELECT {FIRST_COPY} + i, {cols} "
                f"FROM {table}, generate_series(1, {games}) i WHERE game_id = {game.id}"
            )
        keep = await _columns(conn, "timers", {"id", "game_id"})
        cols = ", ".join(keep)
        await conn.execute(
            f"INSERT INTO timers (game_id, {cols}) SELECT {FIRST_COPY} + i, {cols} "
            f"FROM timers, generate_series(1, {games}) i WHERE game_id = {game.id}"
        )
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def before(flow: TurnFlow, reminders: Reminders, shards: Shards) -> None:
    """The start-up as it was: every game read one by one to find its server."""
    services = flow.services

    async def own(ids: list[int]) -> list[int]:
        return [g for g in ids if shards.owns((await services.lobby.game(g)).guild_id)]

    for game_id in await own(await services.schedule.games_waiting_on_computers()):
        await services.people.game_locale(game_id)  # (then driven: none here)
    for game_id in await own(await services.schedule.games_waiting_on_humans()):
        await flow.finish_automatic_turn(game_id, await services.people.game_locale(game_id))
    await reminders.recover()


async def main(args: argparse.Namespace) -> None:
    from postgres_server import PostgresServer

    shards = Shards(args.shards, frozenset(cluster_shards(args.shards, args.clusters, 0)))
    with PostgresServer() as server:
        url = server.url()
        began = time.perf_counter()
        await populate(url, args.games, args.shards)
        print(
            f"{args.games + 1} running games over {args.shards} shards in "
            f"{time.perf_counter() - began:.1f} s; cluster 0 of {args.clusters} serves shards "
            f"{sorted(shards.ids)}"
        )
        store = await Store.open(url)
        try:
            services = Services.build(store, SystemClock())
            reminders = Reminders(services, Quiet(), spawn=lambda c: None)
            flow = TurnFlow(services, Quiet(), reminders=reminders, spawn=lambda c: None)
            counter = Counted(store)
            for name, work in (
                ("before", lambda: before(flow, reminders, shards)),
                ("after", lambda: flow.start_up(shards)),
            ):
                with counter.measuring():
                    began = time.perf_counter()
                    await work()
                    took = time.perf_counter() - began
                print(f"{name:6s}: {counter.count:6d} transactions, {took:6.2f} s")
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--clusters", type=int, default=2)
    asyncio.run(main(parser.parse_args()))
