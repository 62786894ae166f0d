"""`python -m bot` and `python -m bot sync` as an operator runs them, against the fake Discord.

The bot runs in a subprocess (its own event loop, as in production) whose discord.py is pointed
at the fake before `bot.__main__.main` runs.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from fake_discord import FakeDiscord, cli_script

ROOT = Path(__file__).resolve().parents[2]


async def run_cli(sim: FakeDiscord, args: list[str], token: str | None, db: Path):
    script = cli_script(sim, args)
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["ALHAMBRA_DB"] = str(db)
    env["PYTHONPATH"] = str(ROOT)  # this checkout, whatever copy pip installed
    if token is not None:
        env["DISCORD_TOKEN"] = token
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        cwd=db.parent,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 90)
    return proc.returncode, out.decode(), err.decode()


async def test_missing_token_is_one_clear_line(sim, tmp_path) -> None:
    code, _, err = await run_cli(sim, ["run"], None, tmp_path / "db.sqlite3")
    assert code == 2
    assert err.strip().count("\n") == 0 and "DISCORD_TOKEN is not set" in err


async def test_rejected_token_is_one_clear_line(sim, tmp_path) -> None:
    code, out, err = await run_cli(sim, ["run"], "not-the-token", tmp_path / "db.sqlite3")
    assert code == 2
    assert "Traceback" not in err
    ours = [line for line in err.splitlines() if line.startswith("alhambra-bot:")]
    assert len(ours) == 1 and "rejected the token" in ours[0]
    assert "not-the-token" not in err + out  # the token is never printed


async def test_sync_pushes_the_commands_and_exits(sim, tmp_path) -> None:
    code, out, err = await run_cli(sim, ["sync"], sim.token, tmp_path / "db.sqlite3")
    assert code == 0, err
    assert "commands synced" in out
    assert sim.synced_command("alhambra")["name"] == "alhambra"


async def test_the_bot_runs_and_shuts_down_cleanly_on_sigterm(sim, tmp_path) -> None:
    db = tmp_path / "db.sqlite3"
    script = cli_script(sim, [])
    env = {
        **os.environ,
        "DISCORD_TOKEN": sim.token,
        "ALHAMBRA_DB": str(db),
        "PYTHONPATH": str(ROOT),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        await sim.wait_until(lambda: sim.gateway.identifies, timeout=60)
        identify = sim.gateway.identifies[-1]
        assert identify["intents"] == 1  # GUILDS only: no message content, no members
        await sim.wait_until(lambda: db.exists() and sim.sync_log, timeout=30)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    assert not Path(f"{db}-wal").exists()  # the database was closed (and checkpointed)
