"""`python -m bot export GAME` and `python -m bot replay FILE`: a game as a file, and that file
played through in the terminal (the format: `core.game_file`, docs/game-file.md).

`export` reads a game from the bot's database and writes its record to standard output, so
`python -m bot export 12 > game.json` needs no folder of the bot's. `replay` checks the file,
then plays it through from the deal: each turn in the words of the game log (`--lang`), and the
pictures `python -m bot play` writes (the table and every Alhambra, then the score sheet) in a
folder, redrawn after every turn with `--pause` (Enter steps on) and at the end otherwise.

Exit status: 0 done; 2 the file is not a game file (or the game is not in the database, or the
database cannot be read); 3 the file is from a newer version of the format. Whatever stops
them is one line on standard error.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import TextIO

import render
from engine import Event, GameStarted, TurnEnded, Undo, new_game

from ..config import ConfigError, default_db
from ..core.db import is_postgres_url
from ..core.errors import DatabaseError, ServiceError
from ..core.game_file import GameFile, GameFileError, NewerGameFile, dumps, load, record
from ..core.services import Services
from ..core.store import Store
from ..text import i18n
from ..text.present import error_text, results_lines, start_lines, turn_lines

#: Exit statuses, as docs/game-file.md lists them.
MALFORMED = 2
NEWER = 3


def add_export_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=int, metavar="GAME", help="the game's number")
    parser.add_argument("--db", help="the database (default: $ALHAMBRA_DB or alhambra.sqlite3)")


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, metavar="FILE", help="a game file (from `export`)")
    parser.add_argument(
        "--out", type=Path, help="folder for the pictures (default: a new temporary folder)"
    )
    parser.add_argument(
        "--lang", default=i18n.DEFAULT, choices=i18n.SUPPORTED, help="language of the replay"
    )
    parser.add_argument(
        "--state",
        type=Path,
        help="also write the engine's snapshot of the game at the end (JSON) to this file",
    )
    parser.add_argument(
        "--pause",
        action="store_true",
        help="wait for Enter after each turn, with the pictures redrawn (q stops)",
    )


def export(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """The `export` subcommand: the game's file on standard output."""
    out = stdout or sys.stdout
    try:
        target = default_db(args.db)
    except ConfigError as exc:
        print(f"export: {exc}", file=sys.stderr)
        return MALFORMED
    if not is_postgres_url(target) and not Path(target).is_file():
        print(f"export: there is no database at {target}", file=sys.stderr)
        return MALFORMED

    async def read() -> GameFile:
        store = await Store.open(target)
        try:
            game_log = await Services.build(store).play.log(args.game)
        finally:
            await store.close()
        actions = [entry.action for entry in game_log.entries]
        file = record(game_log.game, actions)
        return record(game_log.game, actions, file.replay())

    try:
        file = asyncio.run(read())
    except ServiceError as exc:
        print(f"export: game {args.game}: {error_text(exc, i18n.DEFAULT)}", file=sys.stderr)
        return MALFORMED
    except (DatabaseError, GameFileError) as exc:
        print(f"export: {exc}", file=sys.stderr)
        return MALFORMED
    out.write(dumps(file))
    out.flush()
    return 0


def read_file(path: Path, command: str = "replay") -> GameFile | int:
    """The checked game file at `path`, or the exit status once one line said why not."""
    try:
        text = path.read_bytes()
    except OSError as exc:
        print(f"{command}: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return MALFORMED
    try:
        return load(text)
    except NewerGameFile as exc:
        print(f"{command}: {path}: {exc}", file=sys.stderr)
        return NEWER
    except GameFileError as exc:
        print(f"{command}: {path} is not a game file this bot can read: {exc}", file=sys.stderr)
        return MALFORMED


def replay(
    args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """The `replay` subcommand: the file checked, then played through with its pictures."""
    loaded = read_file(args.path)
    if isinstance(loaded, int):
        return loaded
    file = loaded
    src, out = stdin or sys.stdin, stdout or sys.stdout
    locale = args.lang
    labels = i18n.image_labels(locale)
    folder: Path = args.out or Path(tempfile.mkdtemp(prefix="alhambra-replay-"))
    folder.mkdir(parents=True, exist_ok=True)

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    names = file.names
    game = new_game(file.players, file.seed, file.options)

    def pictures() -> list[Path]:
        view = game.view(None)
        paths = [folder / "table.png"]
        paths[0].write_bytes(render.render_table(view, names, labels=labels))
        for seat in range(file.players):
            path = folder / f"alhambra-{seat + 1}.png"
            path.write_bytes(render.render_alhambra(view, seat, name=names[seat], labels=labels))
            paths.append(path)
        return paths

    title = i18n.t(
        locale,
        "game_file.title",
        game=file.game if file.game is not None else "?",
        names=i18n.join(locale, names),
    )
    say(title)
    say(i18n.t(locale, "offline.pictures", path=folder))
    started = next(e for e in game.setup_events() if isinstance(e, GameStarted))
    for line in start_lines(locale, names, started):
        say(f"  {line}")
    steps: list[list[Event]] = []
    number = 0
    for action in file.actions:
        events = game.apply(action)
        if isinstance(action, Undo):
            if steps:
                steps.pop()
            continue
        if not any(isinstance(e, TurnEnded) for e in events):
            steps.append(list(events))
            continue
        number += 1
        flat = [e for s in steps for e in s]
        steps = []
        say()
        say(i18n.t(locale, "log.turn", turn=number))
        for line in turn_lines(locale, names, flat, events):
            say(f"  {line}")
        if args.pause:
            for path in pictures():
                say("  " + i18n.t(locale, "offline.picture", path=path))
            out.write(i18n.t(locale, "game_file.next"))
            out.flush()
            answer = src.readline()
            if not answer or answer.strip().lower() in {"q", "quit", "exit"}:
                say()
                return 0
    say()
    if args.state is not None:
        args.state.write_text(game.to_json(), encoding="utf-8")
    paths = pictures()
    if game.ranks is not None:
        say(i18n.t(locale, "results.title"))
        for line in results_lines(locale, names, game.view(None)):
            say(f"  {line}")
        scores = folder / "scores.png"
        scores.write_bytes(render.render_scores(game.view(None), names, labels=labels))
        paths.append(scores)
    else:
        say(i18n.t(locale, "game_file.unfinished", status=file.status))
    for path in paths:
        say("  " + i18n.t(locale, "offline.picture", path=path))
    return 0
