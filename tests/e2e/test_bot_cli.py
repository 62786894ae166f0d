"""`python -m bot` and `python -m bot sync` as an operator runs them, against the fake Discord.

The bot runs in a subprocess (its own event loop, as in production) whose discord.py is pointed
at the fake before `bot.__main__.main` runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pty
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

from fake_discord import FakeDiscord, cli_script

#: `[2026-12-01 08:00:00] [INFO    ] alhambra: ...`, the bot's plain format (ops.logs)
PLAIN_LINE = re.compile(
    r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[(DEBUG|INFO|WARNING|ERROR|CRITICAL) *\] "
)

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
    db = tmp_path / "db.sqlite3"
    code, out, err = await run_cli(sim, ["run"], "not-the-token", db)
    assert code == 3
    assert "Traceback" not in err
    ours = [line for line in err.splitlines() if line.startswith("alhambra-bot:")]
    assert len(ours) == 1 and "rejected the token" in ours[0]
    assert "not-the-token" not in err + out  # the token is never printed
    assert health(db) == 0  # the database was made ready before Discord was asked


def health(db: Path) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "bot", "health", str(db)], env=env)
    return done.returncode


async def test_refused_intents_are_one_clear_line(sim, tmp_path) -> None:
    sim.gateway.refuse_intents = True
    code, _, err = await run_cli(sim, ["run"], sim.token, tmp_path / "db.sqlite3")
    assert code == 4
    assert "Traceback" not in err
    ours = [line for line in err.splitlines() if line.startswith("alhambra-bot:")]
    assert len(ours) == 1 and "intents" in ours[0] and "4014" in ours[0]


async def test_an_unreachable_discord_is_tried_again_then_one_clear_line(sim, tmp_path) -> None:
    """Discord refusing connections (the fake's address with nobody listening): the database
    is ready and healthy all the same, the bot tries again with back-off, then says so."""
    db = tmp_path / "db.sqlite3"
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    script = cli_script(sim, ["run"]).replace(
        repr(sim.api_base), repr(f"http://127.0.0.1:{port}/api/v10")
    )
    env = {
        **os.environ,
        "DISCORD_TOKEN": sim.token,
        "ALHAMBRA_DB": str(db),
        "ALHAMBRA_STARTUP_TRIES": "2",
        "PYTHONPATH": str(ROOT),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    _, raw = await asyncio.wait_for(proc.communicate(), 60)
    err = raw.decode()
    assert proc.returncode == 5, err
    assert "Traceback" not in err
    assert "trying again in 1 s (1 of 2)" in err
    ours = [line for line in err.splitlines() if line.startswith("alhambra-bot:")]
    assert len(ours) == 1 and "cannot reach Discord" in ours[0] and "tried 2 times" in ours[0]
    assert health(db) == 0  # created and migrated without any login
    assert sim.gateway.identifies == []


async def test_log_lines_are_plain_on_a_terminal_and_off_it(sim, tmp_path) -> None:
    """discord.py colours its lines when it sees a terminal; the bot's lines are the same
    plain ones whether standard error is a terminal or a pipe (Docker's log driver)."""
    for terminal in (False, True):
        db = tmp_path / f"db-{terminal}.sqlite3"
        env = {**os.environ, "DISCORD_TOKEN": sim.token, "ALHAMBRA_DB": str(db)}
        env["PYTHONPATH"] = str(ROOT)
        reader, writer = pty.openpty() if terminal else os.pipe()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", cli_script(sim, []), cwd=tmp_path, env=env, stderr=writer
        )
        os.close(writer)
        lines = b""
        try:
            await sim.wait_until(lambda db=db: db.exists() and sim.sync_log, timeout=60)
            await asyncio.sleep(0.5)
        finally:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), 30)
            with contextlib.suppress(OSError):
                while chunk := os.read(reader, 65536):
                    lines += chunk
            os.close(reader)
        text = lines.decode(errors="replace")
        assert "\x1b[" not in text, f"escape codes with terminal={terminal}"
        logged = [line for line in text.splitlines() if line.strip()]
        assert logged and all(PLAIN_LINE.match(line) for line in logged), logged[:5]


async def test_sync_pushes_the_commands_and_exits(sim, tmp_path) -> None:
    code, out, err = await run_cli(sim, ["sync"], sim.token, tmp_path / "db.sqlite3")
    assert code == 0, err
    assert "commands synced" in out
    assert sim.synced_command("alhambra")["name"] == "alhambra"


async def test_the_probe_of_discord_says_who_it_is_as_discord_py_does(sim, tmp_path) -> None:
    """Discord asks every request for `DiscordBot ($url, $versionNumber)`: the start-up probe
    (GET /gateway, before the login) sends the very User-Agent discord.py sends after it."""
    code, _, err = await run_cli(sim, ["sync"], sim.token, tmp_path / "db.sqlite3")
    assert code == 0, err
    probe = sim.requests[0]
    assert (probe.method, probe.path, probe.authorization) == ("GET", "/gateway", None)
    agents = {r.user_agent for r in sim.requests}
    assert len(sim.requests) > 1 and len(agents) == 1, agents
    agent = agents.pop()
    assert agent is not None and agent.startswith(
        "DiscordBot (https://github.com/Rapptz/discord.py "
    )


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
    assert proc.stderr is not None
    reading = asyncio.create_task(proc.stderr.read())  # drained as it runs: a full pipe blocks it
    try:
        await sim.wait_until(lambda: sim.gateway.identifies, timeout=60)
        identify = sim.gateway.identifies[-1]
        assert identify["intents"] == 1  # GUILDS only: no message content, no members
        await sim.wait_until(lambda: db.exists() and sim.sync_log, timeout=30)
    finally:
        proc.send_signal(signal.SIGTERM)
        err = await asyncio.wait_for(reading, 30)
        await proc.wait()
    assert proc.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    assert not Path(f"{db}-wal").exists()  # the database was closed (and checkpointed)


async def test_a_database_it_cannot_use_stops_it_before_any_discord_traffic(sim, tmp_path) -> None:
    db = tmp_path / "db.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, x TEXT)")
    conn.execute("INSERT INTO schema_migrations VALUES (99, '0099_from_the_future', '')")
    conn.commit()
    conn.close()
    code, _, err = await run_cli(sim, ["run"], sim.token, db)
    assert code == 6
    ours = [line for line in err.splitlines() if line.startswith("alhambra-bot:")]
    assert len(ours) == 1 and "newer alhambra-bot" in ours[0]
    assert sim.requests == [] and sim.gateway.identifies == []
