"""`run` and `sync`: the bot connected to Discord, until stopped.

The database is created or upgraded before anything is sent to Discord, so a new container is
healthy as soon as its storage is, and a database problem is told before any Discord traffic.
Start-up errors an operator can fix end with one line saying what failed and what to do, and an
exit status of their own (`EXIT_*`); a network that is not there yet (a container starting
before its network, a DNS hiccup) is tried again with back-off before giving up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord

from ..config import ConfigError, Settings, load_settings
from ..core.errors import DatabaseError, DatabaseUnreachable
from ..ops import errors_reporting, logs
from .client import AlhambraBot, build_bot, session_budget

#: Exit statuses of `python -m bot run` and `sync` (the README lists them).
EXIT_CONFIG = 2  # a setting is missing or malformed (DISCORD_TOKEN, ALHAMBRA_*)
EXIT_TOKEN = 3  # Discord rejected the token
EXIT_INTENTS = 4  # Discord refused the gateway intents
EXIT_UNREACHABLE = 5  # Discord could not be reached, even after trying again
EXIT_DATABASE = 6  # the database cannot be used (unwritable, newer, full)

REJECTED_TOKEN = (
    "alhambra-bot: Discord rejected the token in DISCORD_TOKEN: copy it again from the "
    "Developer Portal (Bot, Reset Token)."
)
REFUSED_INTENTS = (
    "alhambra-bot: Discord refused the gateway intents the bot asked for (close code 4014): "
    "the bot needs no privileged intent, so check that DISCORD_TOKEN is this application's "
    "bot token and that the application is not restricted in the Developer Portal."
)
#: Between tries to reach Discord at start-up (`Settings.startup_tries`): 1, 2, 4... seconds,
#: at most `MAX_WAIT_S`.
FIRST_WAIT_S = 1.0
MAX_WAIT_S = 30.0

log = logging.getLogger("alhambra")

T = TypeVar("T")


class Unreachable(Exception):
    """Discord could not be reached at start-up, however many times it was tried."""


def _settings() -> Settings | None:
    try:
        settings = load_settings()
        settings.require_token()
    except ConfigError as exc:
        print(f"alhambra-bot: {exc}", file=sys.stderr)
        return None
    # ours rather than discord.utils.setup_logging: the same plain lines (without colours, which
    # a log file or journald would keep as escape codes), or JSON, with the token hidden
    logs.configure(settings.log_level, settings.log_format, secrets=settings.secrets())
    errors_reporting.start(settings.sentry_dsn)
    # the bot never speaks: no need for voice support, nor for warnings about it
    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False
    return settings


def run(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return EXIT_CONFIG
    token = settings.require_token()
    tries = settings.startup_tries

    async def serve() -> None:
        bot = build_bot(settings)  # sharded if ALHAMBRA_SHARDS says so
        loop = asyncio.get_running_loop()
        for signame in ("SIGTERM", "SIGINT"):  # docker stop, Ctrl-C: close the database cleanly
            with contextlib.suppress(NotImplementedError, AttributeError):
                loop.add_signal_handler(getattr(signal, signame), _closer(bot))
        async with bot:
            await open_patiently(bot.open_store, tries)  # before any Discord traffic
            await bot.observer.start()  # /livez answers while Discord is being reached
            await reach_discord(tries, bot.http.user_agent)
            await bot.login(token)
            if await session_budget(bot):  # not in a crash loop that spends Discord's budget
                await bot.connect(reconnect=True)

    return _outcome(lambda: asyncio.run(serve()))


def _outcome(work: Callable[[], object]) -> int:
    """Run `work`; a start-up failure an operator can fix becomes one line and its status."""
    try:
        work()
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=sys.stderr)
        return EXIT_TOKEN
    except discord.PrivilegedIntentsRequired:
        print(REFUSED_INTENTS, file=sys.stderr)
        return EXIT_INTENTS
    except Unreachable as exc:
        print(f"alhambra-bot: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except DatabaseError as exc:
        print(f"alhambra-bot: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    return 0


async def open_patiently(
    open_store: Callable[[], Awaitable[T]], tries: int, first_wait: float = FIRST_WAIT_S
) -> T:
    """Open the database, trying `tries` times with back-off (1, 2, 4... s) while it does not
    answer (`DatabaseUnreachable`: PostgreSQL starting or restarting, a network blip); any
    other refusal (a password, a right, a newer schema) is raised at once."""
    wait = first_wait
    for attempt in range(1, tries + 1):
        try:
            return await open_store()
        except DatabaseUnreachable as exc:
            if attempt >= tries:
                raise DatabaseUnreachable(f"{exc} (tried {tries} times)") from None
            log.warning(
                "the database does not answer (%s): trying again in %.0f s (%d of %d)",
                exc,
                wait,
                attempt,
                tries,
            )
            await asyncio.sleep(wait)
            wait = min(wait * 2, MAX_WAIT_S)
    raise AssertionError("unreachable: tries is at least 1")


async def reach_discord(tries: int, user_agent: str, first_wait: float = FIRST_WAIT_S) -> None:
    """Wait until Discord's API answers (any HTTP answer will do), trying `tries` times with
    back-off; raise `Unreachable` with the last reason if it never does. Only this asks
    without a token, so a network that comes up late costs a few seconds, not a restart loop
    (each failed login would count against the token). Discord wants every request to say
    which library sends it: `user_agent` is discord.py's own (`HTTPClient.user_agent`)."""
    url = f"{discord.http.Route.BASE}/gateway"
    headers = {"User-Agent": user_agent}
    wait = first_wait
    reason = ""
    for attempt in range(1, tries + 1):
        try:
            timeout = aiohttp.ClientTimeout(total=15)
            async with (
                aiohttp.ClientSession(timeout=timeout, headers=headers) as session,
                session.get(url),
            ):
                return
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            reason = _short(exc)
        if attempt < tries:
            log.warning(
                "cannot reach Discord (%s): trying again in %.0f s (%d of %d)",
                reason,
                wait,
                attempt,
                tries,
            )
            await asyncio.sleep(wait)
            wait = min(wait * 2, MAX_WAIT_S)
    raise Unreachable(
        f"cannot reach Discord ({reason}), tried {tries} times: check this machine's network, "
        "DNS and firewall (HTTPS to discord.com and gateway.discord.gg)"
    )


def _short(exc: BaseException) -> str:
    """An exception in a few words: aiohttp's own are long and repeat the address."""
    if isinstance(exc, aiohttp.ClientConnectorError):
        if isinstance(exc.os_error, socket.gaierror):
            return "the name does not resolve"
        return f"connection refused or unreachable: {exc.os_error.strerror or exc.os_error}"
    if isinstance(exc, TimeoutError):
        return "no answer in 15 s"
    return str(exc) or type(exc).__name__


def _closer(bot: discord.Client) -> Callable[[], None]:
    def close() -> None:
        logging.getLogger("alhambra").info("shutting down")
        asyncio.get_running_loop().create_task(bot.close())

    return close


def sync(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return EXIT_CONFIG
    tries = settings.startup_tries

    async def push() -> None:
        # only logs in (no gateway, so no shards): whichever cluster's settings it is run with
        bot = AlhambraBot(settings, sync="force")
        try:
            await open_patiently(bot.open_store, tries)
            await reach_discord(tries, bot.http.user_agent)
            await bot.login(settings.require_token())  # runs setup_hook, which syncs
        finally:
            await bot.close()

    status = _outcome(lambda: asyncio.run(push()))
    if status == 0:
        print("alhambra-bot: commands synced.")
    return status
