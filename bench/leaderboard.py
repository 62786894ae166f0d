"""The leaderboard with the asker's own place, and a new season, on a big server.

One server with N rated players (random ratings) in a fresh SQLite file (or PostgreSQL with
`--db postgresql://...`): the time of `/alhambra-history leaderboard` for a player outside the
top 10 (`Archive.season_board`: the top 10, the asker's rank, the count), median and maximum of
50 asks, then the time to close the season (every rating copied to `season_ratings`) and to read
the closed season back.

    python bench/leaderboard.py                  # 10,000 players
    python bench/leaderboard.py --players 100000

Target: the leaderboard answers in well under Discord's 3 s (under 50 ms at 10,000 players).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from bot.core.clock import ManualClock  # noqa: E402
from bot.core.ratings import Rating  # noqa: E402
from bot.core.services import Services  # noqa: E402
from bot.core.store import Store  # noqa: E402

GUILD = 1


async def run(players: int, target: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(target or str(Path(tmp) / "bench.sqlite3"))
        try:
            services = Services.build(store, ManualClock(datetime(2025, 1, 1, tzinfo=UTC)))
            rng = random.Random(1)
            now = datetime(2025, 1, 1, tzinfo=UTC)
            ratings = {
                10_000 + n: Rating(rng.gauss(25, 4), rng.uniform(1.5, 8.3), rng.randint(1, 80))
                for n in range(players)
            }
            async with store.write() as tx:
                await tx.save_ratings(GUILD, ratings, now)
            last = min(ratings, key=lambda u: ratings[u].ordinal)
            times = []
            for _ in range(50):
                start = time.perf_counter()
                board = await services.archive.season_board(GUILD, user_id=last)
                times.append(time.perf_counter() - start)
            assert board.mine is not None and board.mine.rank == players
            print(
                f"{players:,} players: leaderboard with own rank {board.mine.rank:,}: "
                f"median {statistics.median(times) * 1000:.1f} ms, "
                f"max {max(times) * 1000:.1f} ms"
            )
            start = time.perf_counter()
            await services.archive.new_season(GUILD, 1, 1, is_manager=True)
            print(f"new season (closing {players:,} ratings): {time.perf_counter() - start:.2f} s")
            start = time.perf_counter()
            old = await services.archive.season_board(GUILD, season=1, user_id=last)
            assert old.mine is not None and old.mine.rank == players
            print(f"closed season's board: {(time.perf_counter() - start) * 1000:.1f} ms")
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--db", default=None, help="a PostgreSQL address (default: SQLite)")
    args = parser.parse_args()
    asyncio.run(run(args.players, args.db))


if __name__ == "__main__":
    main()
