"""A game as a file: the versioned record `python -m bot export` writes, `python -m bot replay`
plays through and `/alhambra-history export` attaches (docs/game-file.md describes it).

A game of Alhambra is its seed, its options and its action log: the engine deals the same game
from the same seed and plays every action the same way, so the file holds no state, only what
makes it, plus the names at the table and the results (a check: a replay must reach them). It
holds no Discord ids, no server and no channel: only what the table saw in the end.

`load` refuses, with one line (`GameFileError`), anything that is not such a file: not JSON,
another format, a missing or mistyped field, an action the rules do not allow at that point, or
results the actions do not reach. A file from a newer version of the format is refused with
`NewerGameFile`, so an old bot never half-reads a record it does not understand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import Action, Game, IllegalAction, Options, new_game
from engine.actions import action_from_dict, action_to_dict

from .records import GameInfo

#: The format's name, the first thing a reader checks.
FORMAT = "alhambra-game"
#: The format's version: a reader refuses a newer one. Version 1 is docs/game-file.md.
VERSION = 1
#: The table sizes the rules allow.
MIN_PLAYERS, MAX_PLAYERS = 2, 6


class GameFileError(ValueError):
    """The text is not a game file this bot can read; the message is one line saying why."""


class NewerGameFile(GameFileError):
    """The file is a game file of a newer version than this bot reads."""


@dataclass(frozen=True)
class FileSeat:
    seat: int
    name: str
    #: the computer level, None for a person
    level: str | None = None


@dataclass(frozen=True)
class GameFile:
    game: int | None
    seed: int
    options: Options
    seats: tuple[FileSeat, ...]
    actions: tuple[Action, ...]
    #: "finished", "abandoned" or "active" (exported while it was still being played)
    status: str
    #: final scores by seat, when the game finished
    scores: tuple[int, ...] | None = None
    #: final ranks by seat (1 = won; shared on a tie), when the game finished
    ranks: tuple[int, ...] | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def replay(self) -> Game:
        """The game these actions make, from the deal to the last one (what `load` checked)."""
        game = new_game(self.players, self.seed, self.options)
        for action in self.actions:
            game.apply(action)
        return game


def record(game: GameInfo, actions: Sequence[Action], final: Game | None = None) -> GameFile:
    """The file of a stored game: its seed, options, seats by turn order with their names, its
    actions and, if it finished, the results `final` (the game after the last action) shows."""
    if game.seed is None:
        raise GameFileError(f"game {game.id} has not started: it has no deal to record")
    seated = sorted((s for s in game.seats if s.seat is not None), key=lambda s: s.seat or 0)
    seats = tuple(FileSeat(s.seat or 0, s.name, s.level if s.is_computer else None) for s in seated)
    finished = game.status == "finished" and final is not None and final.ranks is not None
    return GameFile(
        game=game.id,
        seed=game.seed,
        options=Options.model_validate(game.options),
        seats=seats,
        actions=tuple(actions),
        status=game.status,
        scores=tuple(final.scores) if finished and final is not None else None,
        ranks=tuple(final.ranks or ()) if finished and final is not None else None,
    )


def dumps(file: GameFile) -> str:
    """The file's text: JSON, two-space indented, one action per line (readable in a diff)."""
    head: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": file.game,
        "seed": file.seed,
        "options": file.options.model_dump(mode="json"),
        "status": file.status,
        "seats": [{"seat": s.seat, "name": s.name, "level": s.level} for s in file.seats],
        "results": None
        if file.scores is None
        else {"scores": list(file.scores), "ranks": list(file.ranks or ())},
    }
    text = json.dumps(head, indent=2, ensure_ascii=False)
    actions = ",\n".join(
        "    " + json.dumps(action_to_dict(a), ensure_ascii=False, separators=(", ", ": "))
        for a in file.actions
    )
    body = f'  "actions": [\n{actions}\n  ]' if file.actions else '  "actions": []'
    return text[:-2] + ",\n" + body + "\n}\n"


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise GameFileError(f'the field "{key}" is missing')
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise GameFileError(f'the field "{key}" has the wrong type')
    return value


def load(text: str | bytes) -> GameFile:
    """A game file read and checked: replayed from its seed, every action legal where it
    stands, and the results reached. Raises `NewerGameFile` or `GameFileError`."""
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GameFileError(f"it is not JSON ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f'it is not an Alhambra game file (no "format": "{FORMAT}")')
    version = _need(data, "version", int)
    if version > VERSION:
        raise NewerGameFile(
            f"it is version {version} of the game file format and this bot reads up to "
            f"version {VERSION}: update the bot to read it"
        )
    if version < 1:
        raise GameFileError(f"version {version} of the game file format does not exist")
    seed = _need(data, "seed", int)
    game_id = data.get("game")
    if game_id is not None and (not isinstance(game_id, int) or isinstance(game_id, bool)):
        raise GameFileError('the field "game" has the wrong type')
    try:
        options = Options.model_validate(_need(data, "options", dict))
    except ValueError:
        raise GameFileError('the field "options" holds an unknown option or value') from None
    status = _need(data, "status", str)
    if status not in ("finished", "abandoned", "active"):
        raise GameFileError(f'the status "{status}" is not one of finished, abandoned, active')
    seats = _seats(_need(data, "seats", list))
    actions = _actions(_need(data, "actions", list))
    scores, ranks = _results(data.get("results"), len(seats))
    file = GameFile(game_id, seed, options, seats, actions, status, scores, ranks)
    _check(file)
    return file


def _seats(raw: list[Any]) -> tuple[FileSeat, ...]:
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise GameFileError(f"it has {len(raw)} seats: a game has {MIN_PLAYERS} to {MAX_PLAYERS}")
    seats = []
    for k, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise GameFileError(f"seat {k + 1} is not an object")
        name, level = entry.get("name"), entry.get("level")
        if entry.get("seat") != k or not isinstance(name, str) or not name.strip():
            raise GameFileError(f"seat {k + 1} needs its number {k} and a name")
        if level is not None and not isinstance(level, str):
            raise GameFileError(f'seat {k + 1}\'s "level" has the wrong type')
        seats.append(FileSeat(k, name, level))
    return tuple(seats)


def _actions(raw: list[Any]) -> tuple[Action, ...]:
    actions = []
    for k, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict):
            raise GameFileError(f"action {k} is not an object")
        try:
            actions.append(action_from_dict(entry))
        except ValueError:
            raise GameFileError(f"action {k} is not an action of the game") from None
    return tuple(actions)


def _results(raw: Any, players: int) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    if raw is None:
        return None, None
    if not isinstance(raw, dict):
        raise GameFileError('the field "results" has the wrong type')
    scores, ranks = raw.get("scores"), raw.get("ranks")
    for name, values in (("scores", scores), ("ranks", ranks)):
        if (
            not isinstance(values, list)
            or len(values) != players
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        ):
            raise GameFileError(f'the results\' "{name}" need one whole number per seat')
    assert isinstance(scores, list) and isinstance(ranks, list)
    return tuple(scores), tuple(ranks)


def _check(file: GameFile) -> None:
    """Replay the file: every action legal where it stands, and its results reached."""
    game = new_game(file.players, file.seed, file.options)
    for k, action in enumerate(file.actions, start=1):
        try:
            game.apply(action)
        except (IllegalAction, KeyError, IndexError, TypeError, ValueError):
            raise GameFileError(f"action {k} is not allowed at that point of the game") from None
    if file.scores is not None:
        if game.ranks is None:
            raise GameFileError("it has results, but its actions do not finish the game")
        if tuple(game.scores) != file.scores or tuple(game.ranks) != file.ranks:
            raise GameFileError("its results are not those its actions reach")
