"""Command line entry point: `python -m bot` (and the `alhambra-bot` console script).

The parser only: each subcommand lives in its room (`cli/` for what runs without Discord,
`discord_app/run.py` for `run` and `sync`, imported only when asked for, so the terminal game,
simulations and the database commands never load discord.py).

python -m bot [run]              run the bot (needs DISCORD_TOKEN)
python -m bot sync               sync the slash commands with Discord now, then exit
python -m bot verify-db [PATH]   replay every game and compare with its stored snapshot
python -m bot backup PATH        write a consistent copy of the database to PATH
python -m bot restore BACKUP     put a backup in place of the database (the bot stopped)
python -m bot health [PATH]      exit 0 if the database can be written and its schema is current
python -m bot health --live      exit 0 if the running bot answers on its /livez (liveness)
python -m bot port-db SRC DST    copy a SQLite database into PostgreSQL (re-runnable)
python -m bot ratings --rebuild  recompute every server's ratings from its rated games' results
python -m bot play               a game in the terminal against computer players (no Discord)
python -m bot simulate           computer-only games: win shares, scores, time per game
python -m bot export GAME        a game as a file (docs/game-file.md) on standard output
python -m bot replay FILE        a game file played through in the terminal, with pictures
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .cli import database, game_files, offline, simulate


def _database_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path",
        nargs="?",
        help="the database file or postgresql:// address (default: $ALHAMBRA_DB or "
        "alhambra.sqlite3)",
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
    verify.set_defaults(func=database.verify_db)

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
    backup.set_defaults(func=database.backup)

    restore = commands.add_parser(
        "restore",
        help="put a backup in place of the database (stop the bot first), then check it",
        description="Copy BACKUP in place of the database: checked, owned like its folder when "
        "run as root, the old database's -wal/-shm removed and the old file kept as "
        "NAME.before-restore; then every game is replayed as verify-db does. Refuses while a "
        "bot has the database open.",
    )
    restore.add_argument("path", metavar="BACKUP", help="the backup file (from `backup`)")
    restore.add_argument(
        "--db", help="the database to replace (default: $ALHAMBRA_DB or alhambra.sqlite3)"
    )
    restore.set_defaults(func=database.restore)

    health = commands.add_parser(
        "health",
        help="check that the bot can use its database (the Docker healthcheck)",
        description="Check that the database is there, its volume has room, it opens for "
        "writing, a write transaction can begin (rolled back: nothing changes) and it is at "
        "this bot's latest schema step. Exit status 0 if so, 1 otherwise, with one line "
        "saying why.",
    )
    _database_argument(health)
    health.add_argument(
        "--live",
        action="store_true",
        help="instead, check only that the running bot answers (its /livez on "
        "ALHAMBRA_METRICS_PORT), whatever its database or Discord do: the liveness check of "
        "docs/deploy/compose.yaml",
    )
    health.set_defaults(func=database.health)

    port = commands.add_parser(
        "port-db",
        help="copy a SQLite database into PostgreSQL (safe to re-run: copies what changed)",
        description="Make the PostgreSQL database DST a copy of the SQLite file SRC: its schema "
        "is created or upgraded, then every table mirrored in one transaction. Run it with the "
        "bot stopped; running it again copies only what changed since. It changes nothing and "
        "exits with status 2 if DST holds games SRC does not, or a game that is not SRC's game "
        "of the same id (nor that game further back: started, dealt, played or ended "
        "otherwise), naming the first.",
    )
    port.add_argument("source", metavar="SRC", help="the SQLite database file")
    port.add_argument(
        "dest",
        metavar="DST",
        help="postgresql://user[:password]@host/dbname (the password from "
        "ALHAMBRA_DB_PASSWORD if the address has none)",
    )
    port.add_argument(
        "--replace",
        action="store_true",
        help="replace DST's games that are not SRC's with SRC's (what was played on them in "
        "PostgreSQL is lost)",
    )
    port.set_defaults(func=database.port_db)

    ratings = commands.add_parser(
        "ratings",
        help="recompute the ratings from the rated games' results (--rebuild)",
        description="With --rebuild, every server's ratings are recomputed from the results of "
        "its rated games, in the order they ended (one transaction; safe while the bot runs).",
    )
    ratings.add_argument("--rebuild", action="store_true", help="recompute them now")
    _database_argument(ratings)
    ratings.set_defaults(func=database.ratings)

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

    export = commands.add_parser(
        "export",
        help="write a game as a file (seed, options, seats, actions, results) to standard output",
        description="Write the record of game GAME (docs/game-file.md: a versioned JSON file "
        "of its seed, options, seats with names, action log and results; no Discord ids) to "
        "standard output, e.g. `python -m bot export 12 > game.json`. Exit status 2 if the game "
        "or the database cannot be read.",
    )
    game_files.add_export_arguments(export)
    export.set_defaults(func=game_files.export)

    replay = commands.add_parser(
        "replay",
        help="play a game file through in the terminal, with the pictures",
        description="Check a game file (from `export` or /alhambra-history export), then play "
        "it through from the deal: every turn in words, and the table, every Alhambra and the "
        "score sheet as pictures in a folder. Exit status 2 if it is not a game file (one line "
        "says why), 3 if it is from a newer version of the format.",
    )
    game_files.add_replay_arguments(replay)
    replay.set_defaults(func=game_files.replay)
    return parser


def _run(args: argparse.Namespace) -> int:
    from .discord_app.run import run

    return run(args)


def _sync(args: argparse.Namespace) -> int:
    from .discord_app.run import sync

    return sync(args)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        return _run(args)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
