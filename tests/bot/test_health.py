"""`python -m bot health`: the Docker healthcheck says whether the database is usable."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiosqlite
import pytest

from bot.__main__ import main
from bot.core.migrate import load_migrations, migrate
from bot.core.store import Store

ROOT = Path(__file__).resolve().parents[2]


async def test_a_current_database_is_healthy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.sqlite3"
    await (await Store.open(db)).close()
    assert main(["health", str(db)]) == 0
    assert f"schema step {len(load_migrations())}" in capsys.readouterr().out


async def test_a_database_behind_the_code_is_unhealthy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(db, isolation_level=None) as conn:
        await migrate(conn, target=1)
    assert main(["health", str(db)]) == 1
    assert f"is at schema step 1, not {len(load_migrations())}" in capsys.readouterr().err


def test_a_missing_or_foreign_file_is_unhealthy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["health", str(tmp_path / "nowhere.sqlite3")]) == 1
    assert "there is no database file" in capsys.readouterr().err
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    assert main(["health", str(other)]) == 1
    assert "not an alhambra-bot database" in capsys.readouterr().err
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not sqlite at all" * 100)
    assert main(["health", str(garbage)]) == 1


async def test_the_command_reads_alhambra_db_like_the_bot(tmp_path: Path) -> None:
    db = tmp_path / "data" / "alhambra.sqlite3"
    db.parent.mkdir()
    await (await Store.open(db)).close()
    env = {**os.environ, "ALHAMBRA_DB": str(db), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "health"], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert done.returncode == 0, done.stderr
    assert f"health: ok ({db}" in done.stdout
