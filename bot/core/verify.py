"""Offline checks and copies of a database: `python -m bot verify-db` and `python -m bot backup`.

They use the standard `sqlite3` module directly (no event loop needed) and never modify the
database they inspect: verify-db opens it read-only, backup reads it through SQLite's online
backup API, which copies a consistent state even while the bot is writing.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import IllegalAction, Options, action_from_dict, new_game

from .errors import DatabaseError, DatabaseTooNew
from .migrate import load_migrations


@dataclass
class Problem:
    game_id: int
    message: str

    def __str__(self) -> str:
        return f"game {self.game_id}: {self.message}"


@dataclass
class VerifyReport:
    games: int = 0
    replayed: int = 0
    actions: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def open_read_only(path: str | os.PathLike[str]) -> sqlite3.Connection:
    p = Path(path)
    if not p.is_file():
        raise DatabaseError(f"there is no database file at {p}")
    conn = sqlite3.connect(p.resolve().as_uri() + "?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn


def check_schema(conn: sqlite3.Connection) -> int:
    """The database's schema step; refuses one that is not ours or newer than this code."""
    try:
        rows = conn.execute("SELECT version FROM schema_migrations").fetchall()
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"this is not an alhambra-bot database ({exc})") from None
    version = max((r[0] for r in rows), default=0)
    latest = len(load_migrations())
    if version > latest:
        raise DatabaseTooNew(
            f"this database is at schema version {version}, newer than this bot knows "
            f"({latest}); upgrade the bot to check it."
        )
    if version < 1:
        raise DatabaseError("this database has no games tables yet")
    return version


def verify_games(conn: sqlite3.Connection) -> VerifyReport:
    """Replay every started game from its seed and log, and compare with what is stored."""
    report = VerifyReport()
    games = conn.execute(
        "SELECT id, status, options, seed, version, current_seat, snapshot FROM games ORDER BY id"
    ).fetchall()
    for game in games:
        report.games += 1
        report.problems.extend(_verify_one(conn, game, report))
    return report


def _verify_one(
    conn: sqlite3.Connection, game: sqlite3.Row, report: VerifyReport
) -> Iterator[Problem]:
    gid = game["id"]
    seats = [r[0] for r in conn.execute("SELECT seat FROM seats WHERE game_id = ?", (gid,))]
    rows = conn.execute(
        "SELECT seq, seat, action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)
    ).fetchall()
    report.actions += len(rows)
    if game["seed"] is None:
        if game["status"] == "active" or game["status"] == "finished":
            yield Problem(gid, f"{game['status']} but has no seed")
        if rows:
            yield Problem(gid, f"never started but has {len(rows)} actions")
        return
    seqs = [r["seq"] for r in rows]
    if seqs != list(range(1, len(rows) + 1)):
        yield Problem(gid, "the action log has a gap or a duplicate")
    if game["version"] != len(rows):
        yield Problem(gid, f"version is {game['version']} but the log has {len(rows)} actions")
    if sorted(s for s in seats if s is not None) != list(range(len(seats))):
        yield Problem(gid, f"seat numbers {sorted(seats, key=str)} are not 0..{len(seats) - 1}")
    if game["snapshot"] is None:
        yield Problem(gid, "started but has no snapshot")
        return
    try:
        state = new_game(
            len(seats), game["seed"], Options.model_validate(json.loads(game["options"]))
        )
        for row in rows:
            to_play = state.current_seat
            state.apply(action_from_dict(json.loads(row["action"])))
            if to_play != row["seat"]:
                yield Problem(
                    gid,
                    f"action {row['seq']} is recorded for seat {row['seat']} "
                    f"but seat {to_play} was to play",
                )
    except (IllegalAction, ValueError) as exc:
        yield Problem(gid, f"the log does not replay: {exc}")
        return
    report.replayed += 1
    stored = _parse(game["snapshot"])
    if stored is None:
        yield Problem(gid, "the snapshot is not valid JSON")
        return
    replayed = json.loads(state.to_json())
    if stored != replayed:
        where = _first_difference(stored, replayed)
        yield Problem(gid, f"the snapshot differs from the replay of its log (at {where})")
    expected_status = "finished" if state.is_over else "active"
    if game["status"] != "abandoned" and game["status"] != expected_status:
        yield Problem(gid, f"status is {game['status']} but the replayed game is {expected_status}")
    if game["status"] == "active" and game["current_seat"] != state.current_seat:
        yield Problem(
            gid, f"current seat is {game['current_seat']} but the replay says {state.current_seat}"
        )


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _first_difference(a: Any, b: Any, path: str = "snapshot") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return path


def verify_database(path: str | os.PathLike[str]) -> VerifyReport:
    conn = open_read_only(path)
    try:
        check_schema(conn)
        return verify_games(conn)
    finally:
        conn.close()


def backup_database(
    source: str | os.PathLike[str], dest: str | os.PathLike[str], *, force: bool = False
) -> int:
    """Copy `source` to `dest` with SQLite's online backup; returns the size of the copy.

    The copy is written next to `dest` first and moved into place once it passed an integrity
    check, so `dest` is never a half-written file.
    """
    src, dst = Path(source), Path(dest)
    if not src.is_file():
        raise DatabaseError(f"there is no database file at {src}")
    if dst.exists() and dst.resolve() == src.resolve():
        raise DatabaseError("the backup must go to a different file than the database itself")
    if dst.exists() and not force:
        raise DatabaseError(f"{dst} already exists; pass --force to overwrite it")
    if not dst.parent.is_dir():
        raise DatabaseError(f"the folder {dst.parent} does not exist")
    tmp = dst.with_name(dst.name + ".part")
    tmp.unlink(missing_ok=True)
    reader = sqlite3.connect(src.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        check_schema(reader)
        writer = sqlite3.connect(tmp)
        try:
            reader.backup(writer)
            writer.execute("PRAGMA journal_mode = DELETE")
            result = writer.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            writer.close()
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        reader.close()
    if result != "ok":
        tmp.unlink(missing_ok=True)
        raise DatabaseError(f"the copy failed its integrity check: {result}")
    os.replace(tmp, dst)
    return dst.stat().st_size
