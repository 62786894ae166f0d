"""Command line entry point: `python -m bot` (and the `alhambra-bot` console script).

python -m bot [run]              run the bot (needs DISCORD_TOKEN)
python -m bot sync               sync the slash commands with Discord now, then exit
python -m bot verify-db [PATH]   replay every game and compare with its stored snapshot
python -m bot backup PATH        write a consistent copy of the database to PATH
python -m bot health [PATH]      exit 0 if the database opens and its schema is current
python -m bot play               a game in the terminal against computer players (no Discord)
python -m bot simulate           computer-only games: win shares, scores, time per game
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from collections.abc import Sequence

import discord

from . import offline, simulate
from .config import ConfigError, Settings, load_settings
from .errors import DatabaseError
from .migrate import load_migrations
from .store import default_db_path
from .verify import backup_database, check_schema, open_read_only, verify_database


def _database_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path", nargs="?", help="the database file (default: $ALHAMBRA_DB or alhambra.sqlite3)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="alhambra-bot: asynchronous games of Alhambra in Discord channels.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser(
        "run",
        help="run the bot (the default); needs DISCORD_TOKEN",
        description="Connect to Discord and run the bot until interrupted.",
    )
    run.set_defaults(func=_run)

    sync = commands.add_parser(
        "sync",
        help="sync the slash commands with Discord now (globally, or to ALHAMBRA_DEV_GUILD)",
        description="Push the command tree to Discord and exit. Start-up syncs by itself only "
        "when the commands changed; use this after changing translations by hand.",
    )
    sync.set_defaults(func=_sync)

    verify = commands.add_parser(
        "verify-db",
        help="replay every game and report any whose snapshot differs from its log",
        description="Replay every game from its seed and action log and compare with the "
        "stored snapshot. Exit status 1 if any game is inconsistent.",
    )
    _database_argument(verify)
    verify.set_defaults(func=_verify_db)

    backup = commands.add_parser(
        "backup",
        help="write a consistent copy of the database (safe while the bot runs)",
        description="Copy the database with SQLite's online backup, safe while the bot runs.",
    )
    backup.add_argument("path", help="where to write the copy")
    backup.add_argument(
        "--db", help="the database to copy (default: $ALHAMBRA_DB or alhambra.sqlite3)"
    )
    backup.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    backup.set_defaults(func=_backup)

    health = commands.add_parser(
        "health",
        help="check that the database opens and its schema is current (the Docker healthcheck)",
        description="Open the database read-only and check it is at this bot's latest schema "
        "step. Exit status 0 if so, 1 otherwise.",
    )
    _database_argument(health)
    health.set_defaults(func=_health)

    play = commands.add_parser(
        "play",
        help="play in the terminal against computer players or hot-seat (no Discord needed)",
        description="A game in the terminal through the bot's own game service: numbered menus "
        "of the legal moves, pictures of the table and your Alhambra written after each turn. "
        "Without --computers, --levels or --humans the table is set up with menus.",
    )
    offline.add_arguments(play)
    play.set_defaults(func=offline.run_play)

    sim = commands.add_parser(
        "simulate",
        help="computer-only games: win shares, score distributions, time per game",
        description="Play computer-only games (deterministic for a --seed) and print each "
        "level's win share, score distribution and thinking time, and the time per game.",
    )
    simulate.add_arguments(sim)
    sim.set_defaults(func=simulate.run_simulate)
    return parser


def _health(args: argparse.Namespace) -> int:
    path = args.path or default_db_path()
    try:
        conn = open_read_only(path)
        try:
            version = check_schema(conn)
            conn.execute("SELECT count(*) FROM games").fetchone()
        finally:
            conn.close()
    except (DatabaseError, sqlite3.Error) as exc:
        print(f"health: {exc}", file=sys.stderr)
        return 1
    latest = len(load_migrations())
    if version != latest:
        print(f"health: {path} is at schema step {version}, not {latest}", file=sys.stderr)
        return 1
    print(f"health: ok ({path}, schema step {version})")
    return 0


def _verify_db(args: argparse.Namespace) -> int:
    path = args.path or default_db_path()
    try:
        report = verify_database(path)
    except DatabaseError as exc:
        print(f"verify-db: {exc}", file=sys.stderr)
        return 2
    for problem in report.problems:
        print(f"PROBLEM {problem}")
    print(
        f"verify-db: {report.games} games, {report.replayed} replayed, {report.actions} actions, "
        f"{len(report.problems)} problems in {path}"
    )
    return 0 if report.ok else 1


def _backup(args: argparse.Namespace) -> int:
    source = args.db or default_db_path()
    try:
        size = backup_database(source, args.path, force=args.force)
    except DatabaseError as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 2
    print(f"backup: copied {source} to {args.path} ({size} bytes)")
    return 0


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
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level), root=True)
    # the bot never speaks: no need for voice support, nor for warnings about it
    discord.VoiceClient.warn_nacl = False
    if hasattr(discord.VoiceClient, "warn_dave"):
        discord.VoiceClient.warn_dave = False
    return settings


def _run(args: argparse.Namespace) -> int:
    from .app import AlhambraBot

    settings = _settings()
    if settings is None:
        return 2
    token = settings.require_token()

    async def serve() -> None:
        bot = AlhambraBot(settings)
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


def _closer(bot: discord.Client):
    def close() -> None:
        logging.getLogger("alhambra").info("shutting down")
        asyncio.get_running_loop().create_task(bot.close())

    return close


def _sync(args: argparse.Namespace) -> int:
    from .app import AlhambraBot

    settings = _settings()
    if settings is None:
        return 2

    async def push() -> None:
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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        return _run(args)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
