"""`run` and `sync`: the bot connected to Discord, until stopped.

Start-up errors an operator can fix (no token, a token Discord rejects, a database this version
cannot use) end with one line saying what to do and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable

import discord

from ..config import ConfigError, Settings, load_settings
from ..core import errors_reporting, logs
from ..core.errors import DatabaseError
from .client import AlhambraBot, build_bot

REJECTED_TOKEN = (
    "alhambra-bot: Discord rejected the token in DISCORD_TOKEN: copy it again from the "
    "Developer Portal (Bot, Reset Token)."
)


def _settings() -> Settings | None:
    try:
        settings = load_settings()
        settings.require_token()
    except ConfigError as exc:
        print(f"alhambra-bot: {exc}", file=sys.stderr)
        return None
    # ours rather than discord.utils.setup_logging: the same plain lines (without colours, which
    # a log file or journald would keep as escape codes), or JSON, with the token hidden
    logs.configure(settings.log_level, settings.log_format, secrets=(settings.token,))
    errors_reporting.start(settings.sentry_dsn)
    # the bot never speaks: no need for voice support, nor for warnings about it
    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False
    return settings


def run(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    token = settings.require_token()

    async def serve() -> None:
        bot = build_bot(settings)  # sharded if ALHAMBRA_SHARDS says so
        loop = asyncio.get_running_loop()
        for signame in ("SIGTERM", "SIGINT"):  # docker stop, Ctrl-C: close the database cleanly
            with contextlib.suppress(NotImplementedError, AttributeError):
                loop.add_signal_handler(getattr(signal, signame), _closer(bot))
        async with bot:
            await bot.start(token)

    try:
        asyncio.run(serve())
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=sys.stderr)
        return 2
    except DatabaseError as exc:
        print(f"alhambra-bot: {exc}", file=sys.stderr)
        return 2
    return 0


def _closer(bot: discord.Client) -> Callable[[], None]:
    def close() -> None:
        logging.getLogger("alhambra").info("shutting down")
        asyncio.get_running_loop().create_task(bot.close())

    return close


def sync(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2

    async def push() -> None:
        # only logs in (no gateway, so no shards): whichever cluster's settings it is run with
        bot = AlhambraBot(settings, sync="force")
        try:
            await bot.login(settings.require_token())  # runs setup_hook, which syncs
        finally:
            await bot.close()

    try:
        asyncio.run(push())
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=sys.stderr)
        return 2
    print("alhambra-bot: commands synced.")
    return 0
