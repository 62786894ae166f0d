"""The bot with two worker processes, against the local fake Discord, stopped by SIGTERM.

Run by test_workers.py: prints `READY <worker pids>` once the bot is connected and its workers
have drawn a picture, then waits for the signal the way `python -m bot run` does (the same
handler), and exits 0 after closing. With `--load` it keeps its workers drawing pictures (a
one-second work timeout) and prints `RESTARTED <pids>` each time it finds a fresh pool at work.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from fake_discord import FakeDiscord, pointed_at  # noqa: E402

import render  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.discord_app.client import AlhambraBot  # noqa: E402
from bot.discord_app.run import _closer  # noqa: E402
from engine import new_game  # noqa: E402


def _untimed(_seconds: float) -> None:
    pass


async def keep_drawing(bot: AlhambraBot, view: object) -> None:
    """Pictures without pause, as under load; a stuck or replaced pool answers "busy"."""
    seen = set(bot.workers.pids())
    while not bot.is_closed():
        jobs = [bot.workers.run(_untimed, render.render_table, view, ["a", "b"]) for _ in range(4)]
        await asyncio.gather(*jobs, return_exceptions=True)
        now = set(bot.workers.pids())
        if now and not now & seen:
            print("RESTARTED", *sorted(now), flush=True)
            seen = now
        await asyncio.sleep(0.02)


async def main(db: str, load: bool) -> None:
    sim = FakeDiscord()
    await sim.start()
    with pointed_at(sim):
        bot = AlhambraBot(Settings(None, db, None, "WARNING", workers=2), sync="never")
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, _closer(bot))
        async with bot:
            await bot.login(sim.token)
            connecting = asyncio.create_task(bot.connect(reconnect=True))
            await bot.wait_until_ready()
            view = new_game(2, 1).view(None)
            jobs = [
                bot.workers.run(_untimed, render.render_table, view, ["a", "b"]) for _ in range(6)
            ]
            await asyncio.gather(*jobs)
            print("READY", *bot.workers.pids(), flush=True)
            if load:  # warmed up: from now on a job gets one second
                bot.workers.timeout = 1.0
                drawing = asyncio.create_task(keep_drawing(bot, view))
            await connecting
            if load:
                await drawing
    await sim.stop()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], "--load" in sys.argv[2:]))
