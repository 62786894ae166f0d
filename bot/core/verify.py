"""Offline checks and copies of a database: `python -m bot verify-db` and `python -m bot backup`.

They never modify the database they inspect. On SQLite they use the standard `sqlite3` module
(no event loop needed): verify-db opens the file read-only, backup reads it through SQLite's
online backup API, which copies a consistent state even while the bot is writing. On PostgreSQL
verify-db reads in one read-only snapshot (`core.db.postgres_reads`); backups there are the
server's business (`pg_dump`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import IllegalAction, Options, action_from_dict, new_game

from .db.base import is_postgres_url
from .db.sqlite import storage_problem, unusable
from .errors import DatabaseError
from .migrate import check_step


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
    """The file opened for reading only. On a read-only volume (a copy mounted `:ro`) SQLite
    cannot make the `-shm` file reading a WAL database needs; a database closed cleanly (no
    `-wal` beside it) holds everything in its file and cannot change there, so it is read as
    immutable then."""
    p = Path(path)
    if not p.is_file():
        raise DatabaseError(f"there is no database file at {p}")
    uri = p.resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True)
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        conn.close()
        if not storage_problem(exc):
            raise DatabaseError(f"this is not an alhambra-bot database ({exc})") from None
        if p.with_name(p.name + "-wal").exists():
            raise DatabaseError(f"cannot read {p} ({exc})") from None
        conn = sqlite3.connect(uri + "&immutable=1", uri=True)
    conn.row_factory = sqlite3.Row
    return conn


def check_schema(conn: sqlite3.Connection) -> int:
    """The database's schema step; refuses one that is not ours or newer than this code."""
    try:
        rows = conn.execute("SELECT version FROM schema_migrations").fetchall()
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"this is not an alhambra-bot database ({exc})") from None
    return check_step(max((r[0] for r in rows), default=0))


#: Less free space than this on the database's volume counts as full: a move takes a few pages,
#: a checkpoint more, and a volume this full fails them soon.
MIN_FREE_BYTES = 1 << 20


def check_health(path: str | os.PathLike[str]) -> int:
    """What the bot needs of its SQLite database, checked without changing it (the Docker
    healthcheck): the file is there, its volume has room, it opens for writing, its schema is
    ours, and a write transaction can begin and allocate pages (then rolled back). Returns the
    schema step; raises `DatabaseError` saying, in one line, what is wrong and what to do."""
    p = Path(path)
    if not p.is_file():
        raise DatabaseError(f"there is no database file at {p}")
    free = shutil.disk_usage(p.resolve().parent).free
    if free < MIN_FREE_BYTES:
        raise DatabaseError(
            f"the volume holding {p} is full ({free // 1024} KB free): moves cannot be saved"
        )
    try:
        conn = sqlite3.connect(
            p.resolve().as_uri() + "?mode=rw", uri=True, timeout=5, isolation_level=None
        )
    except sqlite3.Error as exc:
        raise unusable(p, exc) from None
    try:
        return health_of(conn, p)
    finally:
        conn.close()


def health_of(conn: sqlite3.Connection, path: str | os.PathLike[str]) -> int:
    """`check_health` on an open connection (autocommit mode)."""
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.OperationalError as exc:  # a WAL database in a folder it cannot write
        raise unusable(path, exc) from None
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"this is not an alhambra-bot database ({exc})") from None
    version = check_schema(conn)
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:  # a table and a row big enough to need pages of their own, on any schema step:
            # a database at its size limit fails here
            conn.execute("CREATE TABLE health_probe (x TEXT)")
            conn.execute("INSERT INTO health_probe VALUES (?)", ("x" * 16384,))
        finally:
            if conn.in_transaction:  # SQLite ends a transaction a full database broke
                conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise unusable(path, exc) from None
    return version


#: what verify-db reads of each game, the same on both engines
GAMES_SQL = (
    "SELECT id, status, options, seed, version, current_seat, snapshot FROM games ORDER BY id"
)
SEATS_SQL = "SELECT seat FROM seats WHERE game_id = ?"
ACTIONS_SQL = "SELECT seq, seat, action FROM actions WHERE game_id = ? ORDER BY seq"

Fetch = Callable[[str, tuple[Any, ...]], Sequence[Any]]


def verify_games(conn: sqlite3.Connection | Fetch) -> VerifyReport:
    """Replay every started game from its seed and log, and compare with what is stored.
    `conn` is a SQLite connection, or a function running a query (`?` placeholders)."""
    fetch: Fetch = (
        (lambda sql, params: conn.execute(sql, params).fetchall())
        if isinstance(conn, sqlite3.Connection)
        else conn
    )
    report = VerifyReport()
    for game in fetch(GAMES_SQL, ()):
        report.games += 1
        seats = [r[0] for r in fetch(SEATS_SQL, (game["id"],))]
        rows = fetch(ACTIONS_SQL, (game["id"],))
        report.problems.extend(_verify_one(game, seats, rows, report))
    return report


def _verify_one(
    game: Any, seats: list[int | None], rows: Sequence[Any], report: VerifyReport
) -> Iterator[Problem]:
    gid = game["id"]
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
    """Check a SQLite file, or a PostgreSQL database given by its `postgresql://` address."""
    if is_postgres_url(path):
        from .db.postgres_reads import read_snapshot

        assert isinstance(path, str)
        games, seats, actions = read_snapshot(
            path,
            [
                GAMES_SQL,
                "SELECT game_id, seat FROM seats",
                "SELECT game_id, seq, seat, action FROM actions ORDER BY game_id, seq",
            ],
        )
        by_game: dict[str, dict[int, list[Any]]] = {"seats": {}, "actions": {}}
        for name, rows in (("seats", seats), ("actions", actions)):
            for r in rows:
                by_game[name].setdefault(r["game_id"], []).append(r)
        # the same queries as on SQLite, answered from one read-only snapshot
        answers: dict[str, Callable[[tuple[Any, ...]], Sequence[Any]]] = {
            GAMES_SQL: lambda _: games,
            SEATS_SQL: lambda p: [(r["seat"],) for r in by_game["seats"].get(p[0], [])],
            ACTIONS_SQL: lambda p: by_game["actions"].get(p[0], []),
        }
        return verify_games(lambda sql, params: answers[sql](params))
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
    reader = open_read_only(src)
    try:
        check_schema(reader)
        try:
            tmp.unlink(missing_ok=True)
            writer = sqlite3.connect(tmp)
            try:
                reader.backup(writer)
                writer.execute("PRAGMA journal_mode = DELETE")
                result = writer.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                writer.close()
        except (OSError, sqlite3.Error) as exc:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise DatabaseError(
                f"cannot write the copy in {dst.parent} ({getattr(exc, 'strerror', None) or exc}): "
                "choose a folder this user may write, on a volume with room"
            ) from None
        except BaseException:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise
    finally:
        reader.close()
    if result != "ok":
        tmp.unlink(missing_ok=True)
        raise DatabaseError(f"the copy failed its integrity check: {result}")
    os.replace(tmp, dst)
    return dst.stat().st_size


@dataclass
class Restored:
    size: int
    #: where the database that was replaced was kept (None: there was none)
    kept: Path | None
    owner: tuple[int, int] | None


def restore_database(backup: str | os.PathLike[str], dest: str | os.PathLike[str]) -> Restored:
    """Put a backup in place of the database, as the bot will need it: a consistent copy (the
    backup API, then an integrity check), owned by whoever owns the database's folder when run
    as root (a `docker cp` or a root shell would otherwise leave a file the bot cannot write),
    with no stale `-wal`/`-shm` files of the replaced database beside it. The replaced
    database is kept as `NAME.before-restore`. Refuses while a bot has the database open."""
    src, dst = Path(backup), Path(dest)
    if not src.is_file():
        raise DatabaseError(f"there is no backup file at {src}")
    if dst.exists() and dst.resolve() == src.resolve():
        raise DatabaseError("the backup and the database are the same file")
    if not dst.parent.is_dir():
        raise DatabaseError(f"the folder {dst.parent} does not exist")
    reader = sqlite3.connect(src.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        check_schema(reader)  # ours, and not newer than this bot (older ones are upgraded)
        if dst.exists():
            _refuse_if_open(dst)
        tmp = dst.with_name(dst.name + ".restoring")
        tmp.unlink(missing_ok=True)
        writer = sqlite3.connect(tmp)
        try:
            reader.backup(writer)
            writer.execute("PRAGMA journal_mode = DELETE")
            result = writer.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            writer.close()
    finally:
        reader.close()
    if result != "ok":
        tmp.unlink(missing_ok=True)
        raise DatabaseError(f"the backup failed its integrity check: {result}")
    owner = None
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        folder = dst.parent.stat()
        owner = (folder.st_uid, folder.st_gid)
        os.chown(tmp, *owner)
    kept = None
    if dst.exists():
        kept = dst.with_name(dst.name + ".before-restore")
        os.replace(dst, kept)
    for stale in (Path(f"{dst}-wal"), Path(f"{dst}-shm")):
        stale.unlink(missing_ok=True)
    os.replace(tmp, dst)
    return Restored(dst.stat().st_size, kept, owner)


def _refuse_if_open(path: Path) -> None:
    """Leaving WAL mode needs the database to itself: it fails while another connection (a
    running bot) has it open, and is harmless otherwise (the file is about to be replaced)."""
    conn = sqlite3.connect(path, timeout=0.5, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = DELETE").fetchone()
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    except sqlite3.OperationalError as exc:
        raise DatabaseError(f"{path} is in use ({exc}): stop the bot before restoring") from None
    finally:
        conn.close()
    if str(mode).lower() == "wal":
        raise DatabaseError(f"{path} is in use: stop the bot before restoring")
