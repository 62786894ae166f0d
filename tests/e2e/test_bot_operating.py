"""What operators read is true: liveness apart from readiness (a database blip fails `/healthz`,
never `/livez`), a process that cannot reach Discord alive and saying so, a gauge of connected
shards, and a start that waits for Discord's daily session-start budget instead of spending
it in a crash loop. Real `python -m bot` processes and in-process bots against the fake
Discord."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import socket
import sys
import time
from pathlib import Path

import aiohttp
from fake_discord import FakeDiscord, cli_script
from test_bot_shards import processes  # noqa: F401  # the fixture

from bot.config import load_settings
from bot.discord_app.client import build_bot

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        return answer.status, await answer.text()


def _gauge(text: str, name: str) -> float:
    [line] = [line for line in text.splitlines() if line.startswith(name + " ")]
    return float(line.split()[1])


async def test_a_database_blip_fails_readiness_never_liveness(sim, run_bot, make_bot) -> None:
    async with run_bot(make_bot(metrics_port=0)) as bot:
        url = f"http://127.0.0.1:{bot.observer.bound_port}"

        async def broken() -> int:
            raise ConnectionRefusedError("the database is restarting")

        real = bot.services.schedule.count_open_games
        bot.services.schedule.count_open_games = broken
        try:
            status, text = await _get(f"{url}/healthz")
            assert status == 503 and "the database is restarting" in text
            assert await _get(f"{url}/livez") == (200, '{"ok": true}')
        finally:
            bot.services.schedule.count_open_games = real
        assert (await _get(f"{url}/healthz"))[0] == 200


async def test_metrics_count_the_connected_shards(sim: FakeDiscord, run_bot, db_path) -> None:
    sim.shards = 2
    env = {"ALHAMBRA_SHARDS": "2", "ALHAMBRA_DB": str(db_path)}
    settings = dataclasses.replace(load_settings(env, dotenv=None), workers=0, metrics_port=0)
    async with run_bot(lambda: build_bot(settings)) as bot:
        url = f"http://127.0.0.1:{bot.observer.bound_port}/metrics"
        _, text = await _get(url)
        assert _gauge(text, "alhambra_shards_served") == 2
        assert _gauge(text, "alhambra_shards_connected") == 2
        await bot.shards[1].disconnect()  # one connection lost
        _, text = await _get(url)
        assert _gauge(text, "alhambra_shards_connected") == 1
        assert (await _get(url.replace("/metrics", "/healthz")))[0] == 503
        assert (await _get(url.replace("/metrics", "/livez")))[0] == 200


async def test_a_process_that_cannot_reach_discord_is_alive_and_says_why(
    sim: FakeDiscord, tmp_path: Path
) -> None:
    """Discord refusing connections: while the bot tries again, `/livez` (and `health --live`)
    says it is alive, `/healthz` says the gateway is not connected, and the log says why; then
    it exits with status 5 and one line."""
    port, nobody = _free_port(), _free_port()
    script = cli_script(sim, ["run"]).replace(
        repr(sim.api_base), repr(f"http://127.0.0.1:{nobody}/api/v10")
    )
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("ALHAMBRA_")},
        "DISCORD_TOKEN": sim.token,
        "ALHAMBRA_DB": str(tmp_path / "db.sqlite3"),
        "ALHAMBRA_STARTUP_TRIES": "4",  # 1 + 2 + 4 s of tries
        "ALHAMBRA_METRICS_PORT": str(port),
        "ALHAMBRA_WORKERS": "0",
        "PYTHONPATH": str(ROOT),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                live = await _get(f"http://127.0.0.1:{port}/livez")
                break
            except aiohttp.ClientError:
                assert time.monotonic() < deadline, "no /livez while reaching Discord"
                await asyncio.sleep(0.1)
        assert live == (200, '{"ok": true}')
        status, text = await _get(f"http://127.0.0.1:{port}/healthz")
        assert status == 503 and "not connected" in text
        check = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "health",
            "--live",
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await asyncio.wait_for(check.communicate(), 30)
        assert check.returncode == 0 and "alive" in out.decode()
        _, raw = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    err = raw.decode()
    assert proc.returncode == 5, err
    assert "cannot reach Discord" in err and "trying again in 1 s (1 of 4)" in err
    gone = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "health",
        "--live",
        cwd=tmp_path,
        env=env,
        stderr=asyncio.subprocess.PIPE,
    )
    _, said = await asyncio.wait_for(gone.communicate(), 30)
    assert gone.returncode == 1 and "does not answer" in said.decode()


async def test_a_start_waits_for_discords_session_budget_instead_of_spending_it(
    sim: FakeDiscord,
    processes,  # noqa: F811
) -> None:
    sim.session_starts_remaining, sim.session_starts_reset_after = 4, 2_000
    bot = await processes("low")
    deadline = time.monotonic() + 30
    while "budget of session starts is nearly spent" not in bot.log.read_text():
        assert time.monotonic() < deadline, bot.log.read_text()[-2000:]
        await asyncio.sleep(0.1)
    assert "4 of 1000 left" in bot.log.read_text()
    await asyncio.sleep(1.0)
    assert sim.gateway.identifies == []  # nothing spent while it waits
    sim.session_starts_remaining = 1000  # the day's budget reset
    deadline = time.monotonic() + 20
    while not sim.gateway.identifies:
        assert time.monotonic() < deadline, bot.log.read_text()[-2000:]
        await asyncio.sleep(0.1)
    assert len(sim.requests_to("GET", "/gateway/bot")) >= 2
    assert await bot.stop() == 0
    assert bot.errors() == []
