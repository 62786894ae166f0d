"""The bot on several gateway shards, in one process or split between processes (clusters),
against a fake Discord with several shards.

Discord sends a server's events only to the connection of shard `(guild_id >> 22) % shards`, and
events of no server (a DM's interactions) only to shard 0; the fake does the same and records
which shard each interaction went to. Processes share one database, through which they agree on
who syncs the commands and when each may IDENTIFY.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from fake_discord import FakeDiscord, cli_script
from fake_discord.models import Channel, User
from players import Table, open_game, play_by_commands, stored_game

from bot.config import load_settings
from bot.core.services import Services
from bot.core.store import Store
from bot.discord_app.client import (
    IDENTIFY_SPACING_S,
    SYNC_LEASE,
    ShardedAlhambraBot,
    build_bot,
    identify_slot,
)
from bot.discord_app.observe import latencies

ROOT = Path(__file__).resolve().parents[2]
COMPONENT = 2


def world(sim: FakeDiscord, shards: int) -> tuple[User, User, list[Channel]]:
    """Two players and, on each shard, a server (Ana's, Bruno a member) with a channel."""
    ana, bruno = sim.user("ana"), sim.user("bruno")
    channels = []
    for k in range(shards):
        guild = sim.guild(f"Club {k}", owner=ana, shard=k)
        sim.member(guild, bruno)
        channels.append(sim.channel(guild, "alhambra"))
    return ana, bruno, channels


def interaction_puts(sim: FakeDiscord) -> int:
    """Command syncs that reached Discord (bulk overwrites of the global commands)."""
    return len(sim.requests_to("PUT", f"/applications/{sim.application_id}/commands"))


# ----- one process --------------------------------------------------------------------------


async def test_one_process_on_two_shards_answers_both_and_dms_on_shard_0(
    sim: FakeDiscord, run_bot, db_path: Path
) -> None:
    sim.shards, sim.max_concurrency = 2, 2
    sim.gateway.heartbeat_interval_ms = 100  # so each shard soon has a latency to report
    ana, bruno, channels = world(sim, 2)
    env = {"ALHAMBRA_SHARDS": "2", "ALHAMBRA_DB": str(db_path), "ALHAMBRA_UNDO_WINDOW": "0"}
    settings = dataclasses.replace(load_settings(env, dotenv=None), workers=0, metrics_port=0)
    async with run_bot(lambda: build_bot(settings)) as bot, aiohttp.ClientSession() as http:
        assert isinstance(bot, ShardedAlhambraBot) and isinstance(bot, discord.AutoShardedClient)
        assert (bot.shard_count, sorted(bot.shards)) == (2, [0, 1])
        identified = sorted((i.shard_id, i.shard_count) for i in sim.gateway.identified)
        assert identified == [(0, 2), (1, 2)]
        assert interaction_puts(sim) == 1
        lobbies = []
        for k, channel in enumerate(channels):
            opened = await open_game(sim, ana, channel)
            assert opened.shard == k and "Join" in opened.response.button_labels()
            joined = await sim.slash(bruno, "alhambra join", channel=channel)
            assert joined.shard == k and "You joined the game" in joined.text
            lobbies.append(opened.response)
        # a click in a DM reaches shard 0 only, and is answered from there
        game_id = stored_game(db_path, channels[1].id)[0]
        join = {"custom_id": f"alh:lobby:{game_id}:0:join", "component_type": COMPONENT}
        from_dm = await sim.forge(bruno, sim.dm_channel(bruno), join, source=lobbies[1])
        assert from_dm.shard == 0 and "no Alhambra game in this channel" in from_dm.content
        # the operator sees each shard: its heartbeat latency, and health over all of them
        await sim.wait_until(
            lambda: all(latency < 1 for _, latency in latencies(bot)) and len(bot.latencies) == 2
        )
        assert [shard for shard, _ in latencies(bot)] == [0, 1]
        async with http.get(f"http://127.0.0.1:{bot.observer.bound_port}/healthz") as health:
            assert (health.status, await health.text()) == (200, '{"ok": true}')


async def test_a_shard_that_lost_its_session_identifies_again_in_its_slot(
    sim: FakeDiscord, run_bot, db_path: Path
) -> None:
    sim.shards, sim.max_concurrency = 2, 2
    ana, _, channels = world(sim, 2)
    env = {"ALHAMBRA_SHARDS": "2", "ALHAMBRA_DB": str(db_path)}
    settings = dataclasses.replace(load_settings(env, dotenv=None), workers=0)
    async with run_bot(lambda: build_bot(settings)):
        (first,) = sim.gateway.identify_times(1)
        await sim.drop_gateway(shard=1, resumable=False)  # at once: its slot is still taken
        again = sim.gateway.identify_times(1)[1]
        assert again - first >= IDENTIFY_SPACING_S - 0.1
        assert len(sim.gateway.identify_times(0)) == 1  # the other shard carried on
        rules = await sim.slash(ana, "alhambra rules", channel=channels[1])
        assert rules.shard == 1 and "Alhambra" in rules.text


async def test_auto_takes_the_shard_count_discord_recommends(
    sim: FakeDiscord, run_bot, db_path: Path
) -> None:
    sim.shards, sim.max_concurrency = 3, 16
    ana, _, channels = world(sim, 3)
    env = {"ALHAMBRA_SHARDS": "auto", "ALHAMBRA_DB": str(db_path)}
    settings = dataclasses.replace(load_settings(env, dotenv=None), workers=0)
    async with run_bot(lambda: build_bot(settings)) as bot:
        assert bot.shard_count == 3 and sorted(bot.shards) == [0, 1, 2]
        assert sim.requests_to("GET", "/gateway/bot")  # asked, as Discord wants
        rules = await sim.slash(ana, "alhambra rules", channel=channels[2])
        assert rules.shard == 2 and "Alhambra" in rules.text


async def test_without_sharding_the_bot_is_one_plain_connection(sim, run_bot, make_bot) -> None:
    async with run_bot(make_bot()) as bot:
        assert not isinstance(bot, discord.AutoShardedClient)
        assert "shard" not in sim.gateway.identifies[0]
        assert sim.requests_to("GET", "/gateway/bot") == []


async def test_a_sync_another_process_holds_is_left_to_it(
    sim: FakeDiscord, run_bot, make_bot, db_path: Path
) -> None:
    store = await Store.open(db_path)
    try:  # another process started syncing a moment ago
        assert await Services.build(store).schedule.take_lease(
            SYNC_LEASE, "elsewhere:7:cluster0", 60
        )
    finally:
        await store.close()
    async with run_bot(make_bot()) as bot:
        assert not bot.synced and interaction_puts(sim) == 0
    store = await Store.open(db_path)
    try:  # it stopped before syncing and gave the lease back: the next start syncs
        assert await Services.build(store).schedule.drop_lease(SYNC_LEASE, "elsewhere:7:cluster0")
    finally:
        await store.close()
    async with run_bot(make_bot()) as bot:
        assert bot.synced and interaction_puts(sim) == 1


async def test_an_identify_slot_is_one_per_bucket_per_spacing(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "leases.sqlite3")
    services = Services.build(store)

    async def slot(bucket: int, owner: str) -> float:
        return await identify_slot(services, bucket, owner, spacing=0.4, poll=0.02)

    try:
        assert await slot(0, "a:shard0") < 0.1
        assert await slot(1, "a:shard1") < 0.1  # another bucket starts at once
        assert 0.3 <= await slot(0, "b:shard2") < 1.0  # the same bucket waits its turn
        assert 0.3 <= await slot(0, "b:shard2") < 1.0  # even its own holder: never renewed
        assert await services.schedule.lease_holder("identify:0") == "b:shard2"
    finally:
        await store.close()


# ----- several processes --------------------------------------------------------------------


@dataclasses.dataclass
class BotProcess:
    """`python -m bot` in a process of its own, its JSON log lines in a file."""

    name: str
    proc: asyncio.subprocess.Process
    log: Path

    def records(self) -> list[dict[str, Any]]:
        out = []
        for line in self.log.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
        return out

    def answered(self) -> list[dict[str, Any]]:
        """The interactions this process handled (its one log line per interaction)."""
        return [
            r
            for r in self.records()
            if r.get("logger") == "alhambra.interactions" and "outcome" in r
        ]

    def errors(self) -> list[str]:
        return [r["message"] for r in self.records() if r.get("level") in ("ERROR", "CRITICAL")]

    async def stop(self) -> int:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.proc.wait(), 30)


@pytest.fixture
async def processes(sim: FakeDiscord, tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """`await start(name, **env)`: a bot process on the test's shared database file."""
    started: list[BotProcess] = []

    async def start(name: str, **env: str) -> BotProcess:
        environment = {
            **{k: v for k, v in os.environ.items() if not k.startswith("ALHAMBRA_")},
            "DISCORD_TOKEN": sim.token,
            "ALHAMBRA_DB": str(tmp_path / "shared.sqlite3"),
            "ALHAMBRA_LOG_FORMAT": "json",
            "ALHAMBRA_WORKERS": "0",
            "ALHAMBRA_UNDO_WINDOW": "0",
            "PYTHONPATH": str(ROOT),
            **env,
        }
        log = tmp_path / f"{name}.log"
        with log.open("w", encoding="utf-8") as err:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                cli_script(sim, []),
                cwd=tmp_path,
                env=environment,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=err,
            )
        started.append(BotProcess(name, proc, log))
        return started[-1]

    try:
        yield start
    finally:
        for process in started:
            if process.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.proc.kill()
                await process.proc.wait()


def cluster(k: int, *, shards: int, clusters: int = 2) -> dict[str, str]:
    return {
        "ALHAMBRA_SHARDS": str(shards),
        "ALHAMBRA_CLUSTERS": str(clusters),
        "ALHAMBRA_CLUSTER": str(k),
    }


async def test_two_processes_split_the_shards_and_a_restarted_one_carries_on(
    sim: FakeDiscord, processes, tmp_path: Path
) -> None:
    sim.shards, sim.max_concurrency = 4, 4
    ana, bruno, channels = world(sim, 4)
    first = await processes("cluster0", **cluster(0, shards=4))
    second = await processes("cluster1", **cluster(1, shards=4))
    await sim.wait_until(lambda: all(sim.gateway.is_connected(k) for k in range(4)), timeout=60)
    identified = sorted((i.shard_id, i.shard_count) for i in sim.gateway.identified)
    assert identified == [(0, 4), (1, 4), (2, 4), (3, 4)]

    for k, channel in enumerate(channels):
        opened = await open_game(sim, ana, channel, timeout=30)
        assert opened.shard == k and "Join" in opened.response.button_labels()
    guilds = [channel.guild.id for channel in channels]
    # each process answered the servers of its own shards, and only those (its log line of an
    # interaction is written once the answer went)
    await sim.wait_until(lambda: len(first.answered()) + len(second.answered()) == 4)
    assert sorted(r["guild"] for r in first.answered()) == sorted(guilds[:2])
    assert sorted(r["guild"] for r in second.answered()) == sorted(guilds[2:])
    # one command sync in all: cluster 0's (cluster 1 leaves it alone)
    assert interaction_puts(sim) == 1
    assert any("leaves syncing the commands to cluster 0" in r["message"] for r in second.records())

    # a game on shard 1 (cluster 0's) is going when cluster 0 is killed
    here = channels[1]
    await sim.slash(bruno, "alhambra join", channel=here)
    await sim.slash(ana, "alhambra start", channel=here)
    table = Table(sim, here, tmp_path / "shared.sqlite3", {ana.id: ana, bruno.id: bruno})
    await move(table)
    moved = version(table)
    first.proc.kill()
    assert await first.stop() == -signal.SIGKILL
    await sim.wait_until(lambda: not sim.gateway.is_connected(1), timeout=10)

    again = await processes("cluster0-again", **cluster(0, shards=4))
    await sim.wait_until(
        lambda: len(sim.gateway.identify_times(1)) == 2 and sim.gateway.is_connected(1), timeout=60
    )
    await move(table)
    assert version(table) > moved
    await sim.wait_until(lambda: again.answered())
    assert {r["guild"] for r in again.answered()} == {guilds[1]}
    assert interaction_puts(sim) == 1  # the restart found the commands synced
    assert await again.stop() == 0 and await second.stop() == 0
    assert [p.errors() for p in (first, second, again)] == [[], [], []]


def version(table: Table) -> int:
    """The stored version of the table's game: it grows with every move."""
    with sqlite3.connect(table.db_path) as conn:
        (found,) = conn.execute(
            "SELECT version FROM games WHERE channel_id = ?", (table.channel.id,)
        ).fetchone()
    return int(found)


async def move(table: Table) -> None:
    """The player to move makes one decision with slash commands."""
    _, game, seats = table.state()
    user = table.users[seats[game.current_seat]]
    await play_by_commands(table, table.choose(game), user, game)


async def test_identifies_of_two_processes_in_one_bucket_are_spaced(
    sim: FakeDiscord, processes
) -> None:
    sim.shards, sim.max_concurrency = 2, 1  # both shards in bucket 0
    first = await processes("cluster0", **cluster(0, shards=2))
    second = await processes("cluster1", **cluster(1, shards=2))
    await sim.wait_until(lambda: sim.gateway.is_connected(0) and sim.gateway.is_connected(1), 60)
    (zero,), (one,) = sim.gateway.identify_times(0), sim.gateway.identify_times(1)
    assert abs(one - zero) >= IDENTIFY_SPACING_S - 0.1
    said = [r["message"] for p in (first, second) for r in p.records()]
    assert len([m for m in said if "identifies (bucket 0, waited" in m]) == 2, said
    assert await first.stop() == 0 and await second.stop() == 0
    assert first.errors() == second.errors() == []


async def test_a_stop_while_a_shard_waits_for_its_slot_ends_at_once(
    sim: FakeDiscord, processes
) -> None:
    sim.shards, sim.max_concurrency = 2, 1  # shard 1 waits 5 s for shard 0's slot
    solo = await processes("solo", ALHAMBRA_SHARDS="2")
    await sim.wait_until(lambda: sim.gateway.is_connected(0), 60)
    solo.proc.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(solo.proc.wait(), IDENTIFY_SPACING_S) == 0
    assert solo.errors() == []
    assert [i.shard_id for i in sim.gateway.identified] == [0]
