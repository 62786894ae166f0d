"""A whole game with pictures and a computer player in worker processes, watched as an operator
watches it: /metrics counts the moves and times the pictures, /healthz and /readyz answer, and
no worker process outlives the bot."""

from __future__ import annotations

import os
import re

import aiohttp
from players import Table, open_game, play_to_the_end


def _value(metrics: str, name: str, **labels: str) -> float:
    """One sample of the Prometheus text format (0 when the series does not exist yet)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in metrics.splitlines():
        if line.startswith("#"):
            continue
        match = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})? (\S+)", line)
        if match is None or match[1] != name:
            continue
        found = ",".join(sorted((match[2] or "").split(","))) if match[2] else ""
        if found == wanted:
            return float(match[3])
    return 0.0


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split()[2] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False


async def test_a_game_in_worker_processes_is_watched_and_leaves_nothing_behind(
    sim, run_bot, make_bot, db_path
) -> None:
    ana, bruno = sim.user("ana"), sim.user("bruno")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with aiohttp.ClientSession() as http:
        async with run_bot(make_bot(workers=1, metrics_port=0)) as bot:
            port = bot.observer.bound_port
            assert port and bot.workers.pooled

            async def get(path: str) -> tuple[int, str]:
                async with http.get(f"http://127.0.0.1:{port}{path}") as answer:
                    return answer.status, await answer.text()

            _, before = await get("/metrics")
            assert await get("/healthz") == (200, '{"ok": true}')
            assert await get("/readyz") == (200, '{"ok": true}')
            lobby = (await open_game(sim, ana, channel)).response
            await sim.click(bruno, lobby, "Join")
            await sim.slash(ana, "alhambra add-bot", channel=channel, level="easy")
            started = await sim.click(ana, lobby, "Start")
            await started.wait_followups(1)
            table = Table(sim, channel, db_path, {u.id: u for u in (ana, bruno)})
            final = await play_to_the_end(table, bot)
            await bot.idle()
            assert final.is_over
            pids = bot.workers.pids()
            assert pids and os.getpid() not in pids
            status, after = await get("/metrics")
            assert status == 200

            def grew(name: str, **labels: str) -> float:
                return _value(after, name, **labels) - _value(before, name, **labels)

            # every move the people and the computer made was counted as applied
            assert grew("alhambra_actions_total", result="applied", reason="") >= table.actions
            assert grew("alhambra_act_seconds_count") >= table.actions
            for kind in ("table", "hand", "scores"):
                assert grew("alhambra_render_seconds_count", kind=kind) > 0, kind
            assert grew("alhambra_ai_decision_seconds_count", level="easy") > 0
            assert _value(after, "alhambra_pool_queue_depth") == 0
            assert "alhambra_event_loop_lag_seconds_count" in after
            assert "alhambra_open_games" in after
        # the bot closed: its worker processes are gone, and so is the port
        assert not [pid for pid in pids if _alive(pid)]
        assert not bot.workers.pids()


async def test_health_says_what_is_wrong(sim, run_bot, make_bot) -> None:
    async with aiohttp.ClientSession() as http, run_bot(make_bot(metrics_port=0)) as bot:
        url = f"http://127.0.0.1:{bot.observer.bound_port}"

        async def broken() -> int:
            raise OSError("disk I/O error")

        real = bot.services.schedule.count_open_games
        bot.services.schedule.count_open_games = broken  # the database stops answering
        try:
            async with http.get(f"{url}/healthz") as answer:
                assert answer.status == 503
                said = await answer.json()
            assert said["ok"] is False and "disk I/O error" in said["problems"]["database"]
            async with http.get(f"{url}/readyz") as answer:  # set up and READY all the same
                assert answer.status == 200
        finally:
            bot.services.schedule.count_open_games = real
        async with http.get(f"{url}/healthz") as answer:
            assert answer.status == 200


async def test_discords_rate_limits_and_server_errors_are_counted(sim, run_bot, make_bot) -> None:
    """discord.py retries 429s and 5xx by itself, so the bot's code never sees them: the trace
    on its HTTP session counts them for the operator."""
    from bot.ops import metrics

    def count(status: str) -> float:
        return metrics.DISCORD_HTTP_ERRORS.labels(status)._value.get()

    ann = sim.user("ann")
    guild = sim.guild("Club", owner=ann)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()):
        limited, failed = count("429"), count("5xx")
        sim.fail_next("callback", status=429, retry_after=0.01)
        opened = await open_game(sim, ann, channel)
        assert opened.response is not None  # retried by discord.py: the player saw nothing
        assert count("429") == limited + 1
        sim.fail_next("callback", status=502)
        rules = await sim.slash(ann, "alhambra rules", channel=channel, timeout=10)
        assert rules.response is not None
        assert count("5xx") == failed + 1
