"""What an operator meets: `health` telling the truth about a database the bot cannot use, and
`restore` putting a backup in place so that the bot can use it.

The bot runs as an unprivileged user (uid 10001 in Docker). Root ignores file permissions, so
when the tests run as root the health checks run in a child process that has become `nobody`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.core.db.sqlite import unusable
from bot.core.errors import DatabaseError
from bot.core.migrate import load_migrations
from bot.core.services import Services
from bot.core.store import Store
from bot.core.verify import health_of

ROOT = Path(__file__).resolve().parents[2]
ROOTED = os.geteuid() == 0
NOBODY = pwd.getpwnam("nobody")


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder any user can reach (pytest's own temporary folders are root's alone)."""
    path = Path(tempfile.mkdtemp(prefix="alhambra-op-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


async def _database(path: Path, games: int = 1, first: int = 1) -> Path:
    store = await Store.open(path)
    services = Services.build(store)
    for channel in range(first, first + games):
        await services.lobby.create_game(channel_id=channel, host_id=1, host_name="Ann")
    await store.close()
    return path


def _as_bot_user(work: Callable[[], int]) -> tuple[int, str, str]:
    """Run `work` as a user without root's privileges: (status, stdout, stderr)."""
    if not ROOTED:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = work()
        return code, out.getvalue(), err.getvalue()
    load_migrations()  # read now: the child may not be allowed into the project's folder
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: become nobody, run, report through the pipes
        code = 99
        try:
            os.close(out_r)
            os.close(err_r)
            os.setgroups([])
            os.setgid(NOBODY.pw_gid)
            os.setuid(NOBODY.pw_uid)
            sys.stdout = os.fdopen(out_w, "w")
            sys.stderr = os.fdopen(err_w, "w")
            code = work()
        except BaseException:
            traceback.print_exc()  # to the pipe: the test shows it
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)
    os.close(out_w)
    os.close(err_w)
    with os.fdopen(out_r) as o, os.fdopen(err_r) as e:
        out, err = o.read(), e.read()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out, err


def _give(path: Path, mode: int, *, to_bot: bool) -> None:
    """Set a file's or folder's mode, and (as root) owner: the bot's user, or root."""
    if ROOTED:
        uid, gid = (NOBODY.pw_uid, NOBODY.pw_gid) if to_bot else (0, 0)
        os.chown(path, uid, gid)
    path.chmod(mode)


async def test_a_writable_database_is_healthy_as_the_bot_s_user(folder: Path) -> None:
    db = await _database(folder / "games.sqlite3")
    _give(folder, 0o755, to_bot=True)
    _give(db, 0o644, to_bot=True)
    code, out, err = _as_bot_user(lambda: main(["health", str(db)]))
    assert code == 0, out + err
    assert f"schema step {len(load_migrations())}" in out
    assert not Path(f"{db}-wal").exists()  # health wrote nothing that stays


async def test_a_database_file_the_bot_cannot_write_is_unhealthy(folder: Path) -> None:
    db = await _database(folder / "games.sqlite3")
    _give(folder, 0o777, to_bot=True)
    _give(db, 0o444, to_bot=False)  # e.g. `docker cp`'s root-owned file
    code, _, err = _as_bot_user(lambda: main(["health", str(db)]))
    assert code == 1
    [line] = err.strip().splitlines()
    assert "readonly database" in line and "chown" in line


async def test_a_folder_the_bot_cannot_write_is_unhealthy(folder: Path) -> None:
    data = folder / "data"
    data.mkdir()
    db = await _database(data / "games.sqlite3")
    _give(db, 0o666, to_bot=True)
    _give(data, 0o555, to_bot=False)  # SQLite cannot make its journal beside the file
    try:
        code, _, err = _as_bot_user(lambda: main(["health", str(db)]))
    finally:
        data.chmod(0o755)
    assert code == 1
    [line] = err.strip().splitlines()
    assert str(data) in line and "chown" in line


async def test_a_database_at_its_size_limit_is_unhealthy(folder: Path) -> None:
    db = await _database(folder / "games.sqlite3")
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        assert health_of(conn, db) == len(load_migrations())
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(DatabaseError, match="database or disk is full"):
            health_of(conn, db)
        tables = conn.execute("SELECT name FROM sqlite_master WHERE name = 'health_probe'")
        assert tables.fetchall() == []  # the probe left nothing behind
    finally:
        conn.close()


@pytest.mark.skipif(not ROOTED, reason="mounting a small volume needs root")
async def test_a_full_volume_is_unhealthy(folder: Path) -> None:
    volume = folder / "volume"
    volume.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(volume)], check=True)
    try:
        db = await _database(volume / "games.sqlite3")
        assert main(["health", str(db)]) == 0
        # unbuffered, and the error suppressed around the file too: nothing is left to flush
        # (and fail) when it closes
        with contextlib.suppress(OSError), (volume / "filler").open("wb", buffering=0) as filler:
            while True:
                filler.write(b"\0" * 65536)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-m", "bot", "health", str(db)],
            capture_output=True,
            text=True,
            env=env,
        )
        assert done.returncode == 1
        [line] = done.stderr.strip().splitlines()
        assert "is full" in line
    finally:
        subprocess.run(["umount", str(volume)], check=False)


# --- restore --------------------------------------------------------------------------------------


async def test_restore_puts_a_backup_in_place_for_the_bot(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = folder / "data"
    data.mkdir()
    db = await _database(data / "alhambra.sqlite3", games=2)
    copy = folder / "backup.sqlite3"
    assert main(["backup", str(copy), "--db", str(db)]) == 0
    await _database(db, games=3, first=10)  # played on after the backup (games 3 to 5)
    Path(f"{db}-wal").write_bytes(b"stale journal of the replaced database")
    Path(f"{db}-shm").write_bytes(b"stale")
    _give(data, 0o755, to_bot=True)
    _give(copy, 0o600, to_bot=False)  # a root-owned copy, as `docker cp` leaves it
    capsys.readouterr()

    assert main(["restore", str(copy), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "verify-db: 2 games" in out and "0 problems" in out
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    kept = data / "alhambra.sqlite3.before-restore"
    assert kept.exists()
    if ROOTED:  # the restored file is the bot's, like its folder
        assert (db.stat().st_uid, db.stat().st_gid) == (NOBODY.pw_uid, NOBODY.pw_gid)
    code, _, err = _as_bot_user(lambda: main(["health", str(db)]))
    assert code == 0, err
    store = await Store.open(db)
    try:
        assert [g.game.id for g in await Services.build(store).people.my_games(1)] == [1, 2]
    finally:
        await store.close()


async def test_restore_refuses_while_the_bot_has_the_database_open(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = await _database(folder / "alhambra.sqlite3")
    copy = folder / "backup.sqlite3"
    assert main(["backup", str(copy), "--db", str(db)]) == 0
    before = db.read_bytes()
    store = await Store.open(db)  # the bot, running
    try:
        assert main(["restore", str(copy), "--db", str(db)]) == 2
        assert "stop the bot" in capsys.readouterr().err
    finally:
        await store.close()
    assert db.read_bytes() == before
    assert main(["restore", str(folder / "nothing.sqlite3"), "--db", str(db)]) == 2
    assert "no backup file" in capsys.readouterr().err
    junk = folder / "junk.sqlite3"
    sqlite3.connect(junk).execute("CREATE TABLE x (y)").connection.close()
    assert main(["restore", str(junk), "--db", str(db)]) == 2
    assert "not an alhambra-bot database" in capsys.readouterr().err


def test_a_read_only_volume_gets_its_own_advice_not_a_chown(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A volume mounted read-only (`-v name:/data:ro`), which only the kernel can say (the
    mount's flags are faked here: mounting needs privileges the tests do not have)."""
    real = os.statvfs

    def statvfs(path: str | os.PathLike[str]) -> os.statvfs_result:
        mounted = real(path)
        return os.statvfs_result((*mounted[:8], mounted.f_flag | os.ST_RDONLY, mounted[9]))

    monkeypatch.setattr(os, "statvfs", statvfs)
    reason = sqlite3.OperationalError("unable to open database file")
    line = str(unusable(folder / "new" / "alhambra.sqlite3", reason))
    assert f"the volume holding {folder / 'new'} is mounted read-only" in line
    assert "without ':ro'" in line and "chown" not in line


def test_the_bot_will_not_start_on_a_database_it_cannot_write(folder: Path) -> None:
    """What `run` meets before logging in, with the advice in one line (exit status 6)."""
    db = asyncio.run(_database(folder / "alhambra.sqlite3"))
    _give(folder, 0o777, to_bot=True)
    _give(db, 0o444, to_bot=False)

    def start() -> int:
        try:
            asyncio.run(Store.open(db))
        except DatabaseError as exc:
            print(exc, file=sys.stderr)
            return 6
        return 0

    code, _, err = _as_bot_user(start)
    assert code == 6
    [line] = err.strip().splitlines()
    assert "readonly database" in line and "chown -R" in line and str(folder) in line
