"""End-to-end latency through Discord: the real bot and discord.py against the local fake Discord.

Sets up `--games` running 3-player games (each opened, joined and started through slash commands
and buttons, in its own channel), then plays `--moves` turns in random games: the player to
move clicks "Take money" and picks a take in the private panel, which ends the turn. Prints the
median and p99 of:
- acknowledgement: from sending an interaction to the bot's callback (Discord allows 3 s);
- final message: from picking the take to the next turn's message (table image attached)
  appearing in the channel.

    python bench/e2e.py [--games 200] [--moves 300]

Targets: p99 to acknowledgement < 150 ms, p99 to the final message < 400 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# bench/ must not shadow the packages it measures (bench/render.py vs render).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from fake_discord import FakeDiscord, pointed_at, running_bot  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.discord_app.client import AlhambraBot  # noqa: E402
from engine import Game  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(games: int, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    sim = FakeDiscord()
    await sim.start()
    acks: list[float] = []
    finals: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, pointed_at(sim):
        settings = Settings(None, str(Path(tmp) / "bench.sqlite3"), None, "WARNING")
        users = [sim.user(f"player{i}") for i in range(3)]
        guild = sim.guild("Bench", owner=users[0])
        for user in users[1:]:
            sim.member(guild, user)
        async with running_bot(sim, lambda: AlhambraBot(settings)) as bot:
            channels = []
            started = time.perf_counter()
            for g in range(games):
                channel = sim.channel(guild, f"table-{g}")
                lobby = (await sim.slash(users[0], "alhambra new", channel=channel)).response
                for user in users[1:]:
                    await sim.click(user, lobby, "Join")
                start = await sim.click(users[0], lobby, "Start")
                await start.wait_followups(1)
                channels.append(channel)
                if (g + 1) % 50 == 0:
                    print(f"  set up {g + 1}/{games} games", file=sys.stderr)
            print(f"set-up: {games} games in {time.perf_counter() - started:.1f} s")
            await bot.idle()
            store = bot.store
            assert store is not None
            for m in range(moves):
                channel = rng.choice(channels)
                rows = await store.conn.execute_fetchall(
                    "SELECT g.id, g.snapshot, s.user_id FROM games g JOIN seats s "
                    "ON s.game_id = g.id AND s.seat = g.current_seat WHERE g.channel_id = ?",
                    (channel.id,),
                )
                _, snapshot, user_id = rows[0]
                game = Game.from_json(snapshot)
                if game.phase != "action":
                    continue
                user = next(u for u in users if u.id == user_id)
                turn = sim.channel_messages(channel)[-1]
                opened = await sim.click(user, turn, "Take money")
                acks.append(opened.ack_seconds or 0.0)
                panel = opened.response
                assert panel is not None
                select = panel.selects()[0]
                value = rng.choice(select["options"])["value"]
                count = len(sim.channel_messages(channel))
                t0 = time.perf_counter()
                picked = await sim.select(user, panel, select["custom_id"], [value])
                acks.append(picked.ack_seconds or 0.0)
                await sim.wait_until(
                    lambda ch=channel, n=count: (
                        len(sim.channel_messages(ch)) > n
                        and sim.channel_messages(ch)[-1].attachments
                    ),
                    timeout=10,
                )
                finals.append(time.perf_counter() - t0)
                if (m + 1) % 100 == 0:
                    print(f"  {m + 1}/{moves} moves", file=sys.stderr)
    await sim.stop()
    print(
        f"\n{games} active games in the database; {len(finals)} turns played, "
        f"{len(acks)} interactions"
    )
    header = f"{'measure':<34} {'median ms':>10} {'p99 ms':>8} {'target p99':>11}"
    print(header)
    print("-" * len(header))
    for name, values, target in (
        ("interaction -> acknowledgement", acks, "< 150"),
        ("pick -> next turn message + image", finals, "< 400"),
    ):
        print(
            f"{name:<34} {statistics.median(values) * 1000:>10.1f} "
            f"{pct(values, 0.99) * 1000:>8.1f} {target:>11}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.moves, args.seed))


if __name__ == "__main__":
    main()
