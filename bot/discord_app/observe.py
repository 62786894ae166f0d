"""The bot as an operator sees it: /metrics, /healthz and /readyz on `ALHAMBRA_METRICS_PORT`.

- `/metrics`: Prometheus' text format (`ops.metrics`), plus what only the adapter can see,
  sampled here: event-loop lag, gateway latency per shard, open games; and Discord's HTTP 429
  and 5xx answers, counted by an aiohttp trace on discord.py's own session (`http_trace`).
- `/healthz`: 200 while the database answers and the gateway is connected (every shard, for a
  sharded bot), else 503 with what is wrong: readiness, for a load balancer or an
  orchestrator's readiness probe. A database blip fails it in every process at once, so it
  must not restart anything.
- `/livez`: 200 while the process's event loop answers, whatever the database or Discord do:
  liveness, for what restarts a process (compose's healthcheck, `python -m bot health --live`;
  an orchestrator's liveness probe). A process whose loop is stuck does not answer at all.
- `/readyz`: 200 once the bot is set up (database open, timers running) and has received
  Discord's READY, until it starts closing.

The server starts as soon as the database is open, before Discord is reached, so `/livez`
answers (and `/healthz` says `gateway: not connected`) while the bot is still trying to reach
Discord. `alhambra_shards_connected` / `alhambra_shards_served` count the gateway connections.

The server is aiohttp's, which discord.py already depends on, on the bot's own event loop.
`python -m bot health` stays the Docker HEALTHCHECK: it needs no port.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ..ops import metrics
from .context import BaseBot

log = logging.getLogger("alhambra.observe")

#: How often the event loop's lag is sampled, and gateway latency and open games read.
LAG_EVERY_S = 0.25
SLOW_EVERY_S = 15.0


def http_trace() -> aiohttp.TraceConfig:
    """Counts Discord's 429 and 5xx answers as discord.py's HTTP client receives them (it
    retries them itself, so they never reach the bot's code)."""

    async def on_end(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status == 429:
            metrics.DISCORD_HTTP_ERRORS.labels("429").inc()
        elif status >= 500:
            metrics.DISCORD_HTTP_ERRORS.labels("5xx").inc()

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_end)
    return trace


class Observer:
    """The sampling task and, when a port is set, the HTTP server."""

    def __init__(self, bot: BaseBot, port: int | None, host: str = "0.0.0.0") -> None:
        self.bot = bot
        self.port = port
        self.host = host
        self._runner: web.AppRunner | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.bound_port: int | None = None

    async def start(self) -> None:
        """Start sampling and serving; a second call does nothing (`run` starts it before
        Discord is reached, `setup_hook` for a bot started another way)."""
        if self._tasks:
            return
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._sample_lag()), loop.create_task(self._sample_slow())]
        if self.port is None:
            return
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/livez", self._livez)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []  # the port chosen for port 0
        self.bound_port = sockets[0].getsockname()[1] if sockets else self.port
        log.info("metrics and health on port %s", self.bound_port)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _sample_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(LAG_EVERY_S)
            metrics.LOOP_LAG.observe(max(0.0, loop.time() - asked - LAG_EVERY_S))

    async def _sample_slow(self) -> None:
        while True:
            _count_shards(self.bot)
            for shard, latency in latencies(self.bot):
                if math.isfinite(latency):
                    metrics.GATEWAY_LATENCY.labels(str(shard)).set(latency)
            if self.bot._services is not None:
                with contextlib.suppress(Exception):  # a busy database: next time
                    metrics.OPEN_GAMES.set(await self.bot.services.schedule.count_open_games())
            await asyncio.sleep(SLOW_EVERY_S)

    async def _metrics(self, request: web.Request) -> web.Response:
        _count_shards(self.bot)
        if self.bot._services is not None:
            with contextlib.suppress(Exception):
                metrics.OPEN_GAMES.set(await self.bot.services.schedule.count_open_games())
        body = generate_latest()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: web.Request) -> web.Response:
        problems: dict[str, Any] = {}
        if self.bot._services is None:
            problems["database"] = "not in use yet (the bot is still starting)"
        else:
            try:
                await asyncio.wait_for(self.bot.services.schedule.count_open_games(), timeout=5)
            except Exception as exc:
                problems["database"] = f"{type(exc).__name__}: {exc}"[:200]
        if self.bot.is_closed() or not self.bot.is_ready():
            problems["gateway"] = "not connected"
        elif isinstance(self.bot, discord.AutoShardedClient):
            # a sharded bot is healthy while every one of its connections is open
            down = [k for k, shard in sorted(self.bot.shards.items()) if shard.is_closed()]
            if down or not self.bot.shards:
                problems["gateway"] = f"shards not connected: {down or 'all'}"
        elif self.bot.ws is None:
            problems["gateway"] = "not connected"
        return _answer(problems)

    async def _livez(self, request: web.Request) -> web.Response:
        """Alive: the event loop answered this. Nothing else is asked (not the database, not
        Discord), so a blip of either never restarts the process."""
        return _answer({})

    async def _readyz(self, request: web.Request) -> web.Response:
        problems: dict[str, Any] = {}
        if self.bot.timers is None or self.bot._services is None:
            problems["setup"] = "not done"
        if not self.bot.is_ready():
            problems["gateway"] = "no READY from Discord yet"
        if self.bot.is_closed():
            problems["closing"] = True
        return _answer(problems)


def connected_shards(bot: BaseBot) -> tuple[int, int]:
    """(gateway connections open, connections this process is meant to hold)."""
    if isinstance(bot, discord.AutoShardedClient):
        ids = bot.shard_ids if bot.shard_ids is not None else range(bot.shard_count or 1)
        shards = bot.shards
        served = len(ids)
        return sum(1 for k in ids if k in shards and not shards[k].is_closed()), served
    ws = bot.ws if not bot.is_closed() else None
    return (1 if ws is not None and ws.open and bot.is_ready() else 0), 1


def _count_shards(bot: BaseBot) -> None:
    connected, served = connected_shards(bot)
    metrics.SHARDS_CONNECTED.set(connected)
    metrics.SHARDS_SERVED.set(served)


def latencies(bot: BaseBot) -> list[tuple[int, float]]:
    """(shard, heartbeat latency in seconds) of each gateway connection: a sharded bot's every
    shard, else its one connection (shard 0); NaN before a connection's first heartbeat."""
    if isinstance(bot, discord.AutoShardedClient):
        return list(bot.latencies)
    return [(bot.shard_id or 0, bot.latency)]


def _answer(problems: dict[str, Any]) -> web.Response:
    body = {"ok": not problems, **({"problems": problems} if problems else {})}
    return web.Response(
        status=503 if problems else 200,
        text=json.dumps(body),
        content_type="application/json",
    )
