"""Point discord.py at the fake and run a client against it, as a reusable context manager.

Restarting a bot mid-test is just leaving one ``running_bot`` block and entering another with a
new client: the fake's state (messages, synced commands, users) stays.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TypeVar

import discord
import yarl

from .sim import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def pointed_at(sim: FakeDiscord) -> Iterator[None]:
    """Send discord.py's REST (Route.BASE) and gateway traffic to ``sim``; restore after."""
    route_base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = sim.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sim.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = route_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


def cli_script(sim: FakeDiscord, args: list[str]) -> str:
    """Python source for `python -c`: `python -m bot ARGS` in a process of its own, with
    discord.py pointed at ``sim`` (what `pointed_at` does in this process)."""
    return (
        "import sys, discord, discord.http, yarl\n"
        f"discord.http.Route.BASE = {sim.api_base!r}\n"
        f"discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL({sim.gateway_url!r})\n"
        "from bot.__main__ import main\n"
        f"sys.exit(main({args!r}))\n"
    )


@contextlib.asynccontextmanager
async def running_bot(
    sim: FakeDiscord,
    factory: Callable[[], ClientT],
    *,
    token: str | None = None,
    ready_timeout: float = 10.0,
    guild_ready_timeout: float = 0.05,
) -> AsyncIterator[ClientT]:
    """Start a fresh client from ``factory``, wait for ``on_ready``, close it cleanly on exit.

    Login errors (a rejected token) propagate from here after the client is closed.
    ``guild_ready_timeout`` shortens discord.py's wait for more GUILD_CREATEs before
    ``on_ready`` (2 s by default, POC pitfall 4).
    """
    if sim.api_base != discord.http.Route.BASE:
        raise RuntimeError("discord.py is not pointed at the fake: use pointed_at(sim)")
    client = factory()
    client._connection.guild_ready_timeout = min(
        client._connection.guild_ready_timeout, guild_ready_timeout
    )
    connector: asyncio.Task[None] | None = None
    try:
        await client.login(token or sim.token)
        connector = asyncio.create_task(client.connect(reconnect=True), name="fake-bot-connect")
        ready = asyncio.create_task(client.wait_until_ready(), name="fake-bot-ready")
        done, _ = await asyncio.wait(
            {connector, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            if connector in done:
                connector.result()  # raises the connection error
            raise TimeoutError(f"bot not ready after {ready_timeout}s")
        yield client
    finally:
        await client.close()
        if connector is not None:
            with contextlib.suppress(asyncio.CancelledError, discord.ConnectionClosed):
                await asyncio.wait_for(connector, timeout=5)
