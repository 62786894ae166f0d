"""The logs of the bot as an operator runs it (`python -m bot`, its own process), against the fake
Discord: JSON lines that carry the interaction and its game, and no token at DEBUG, where
discord.py prints every request and gateway event it handles."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

from fake_discord import FakeDiscord, cli_script

ROOT = Path(__file__).resolve().parents[2]
#: Shaped like a real bot token; made up (the fake accepts whatever it is told to).
TOKEN = "MTE4NDU2Nzg5MDEyMzQ1Njc4OQ.GhAbCd.Zx0yW1vU2tS3rQ4pO5nM6lK7jI8hG9fE0dC1bA"


async def test_json_logs_carry_the_game_and_never_the_token(sim: FakeDiscord, tmp_path) -> None:
    sim.token = TOKEN
    host = sim.user("ana")
    guild = sim.guild("Club", owner=host)
    channel = sim.channel(guild, "alhambra")
    db = tmp_path / "db.sqlite3"
    script = cli_script(sim, [])
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("ALHAMBRA_")},
        "DISCORD_TOKEN": TOKEN,
        "ALHAMBRA_DB": str(db),
        "ALHAMBRA_LOG_FORMAT": "json",
        "ALHAMBRA_LOG_LEVEL": "DEBUG",
        "PYTHONPATH": str(ROOT),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    # read its standard error as it comes: at DEBUG the start-up alone writes more than a pipe
    # holds, and a bot blocked on a full pipe answers nothing
    assert proc.stderr is not None
    reading = asyncio.create_task(proc.stderr.read())
    try:
        await sim.wait_until(lambda: sim.gateway.identifies, timeout=60)
        await sim.wait_until(lambda: db.exists() and sim.sync_log, timeout=30)
        await asyncio.sleep(2.5)  # discord.py waits 2 s for the servers before it is ready
        opened = await sim.slash(host, "alhambra new", channel=channel, thread=False, timeout=30)
        assert opened.response is not None and "Join" in opened.response.button_labels()
    finally:
        proc.send_signal(signal.SIGTERM)
        err = await asyncio.wait_for(reading, 30)
        await proc.wait()
    text = err.decode()
    assert proc.returncode == 0, text[-2000:]
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    (done,) = [r for r in records if r.get("command") == "new" and "outcome" in r]
    with sqlite3.connect(db) as conn:
        (game_id,) = conn.execute(
            "SELECT id FROM games WHERE channel_id = ?", (channel.id,)
        ).fetchone()
    assert (
        done.items()
        >= {
            "logger": "alhambra.interactions",
            "level": "INFO",
            "outcome": "ok",
            "game": game_id,
            "guild": guild.id,
            "channel": channel.id,
            "user": host.id,
        }.items()
    )
    # the REST client's debug lines of that interaction carry its ids too
    assert any(
        r["logger"].startswith("discord.") and (r.get("command"), r.get("game")) == ("new", game_id)
        for r in records
    )
    assert TOKEN not in text
    interaction_tokens = list(sim.interactions_by_token)
    leaks = [line for line in text.splitlines() if any(t in line for t in interaction_tokens)]
    assert interaction_tokens and not leaks, [json.loads(line)["message"] for line in leaks]
    assert "[redacted]" in text
