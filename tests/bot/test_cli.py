"""`python -m bot verify-db` and `python -m bot backup`, and the default command."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from service_helpers import dump, random_move, sqlite_only, started

from bot.__main__ import main
from bot.core.services import Services
from bot.core.store import Store

ROOT = Path(__file__).resolve().parents[2]


async def _played(services: Services, games: int = 2, moves: int = 30) -> list[int]:
    rng = random.Random(4)
    ids = []
    for channel in range(1, games + 1):
        game = await started(services, channel=channel)
        for _ in range(moves):
            await random_move(services, game.id, rng)
        ids.append(game.id)
    return ids


async def test_verify_db_passes_a_sound_database(
    services: Services, db_target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    await _played(services)
    assert main(["verify-db", db_target]) == 0
    out = capsys.readouterr().out
    assert "2 games, 2 replayed, 60 actions, 0 problems" in out


async def test_verify_db_reports_a_tampered_snapshot(
    services: Services, db_target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = await _played(services)
    async with services.store.write() as tx:
        snapshot = json.loads(str(await tx.snapshot(second)))
        snapshot["state"]["scores"][0] += 5
        await tx.run("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(snapshot), second))
    assert main(["verify-db", db_target]) == 1
    out = capsys.readouterr().out
    assert f"game {second}: the snapshot differs" in out and "scores" in out
    assert f"game {first}:" not in out


async def test_verify_db_reports_a_gap_in_the_log(
    services: Services, db_target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first, _ = await _played(services)
    async with services.store.write() as tx:
        await tx.run("DELETE FROM actions WHERE game_id = ? AND seq = 7", (first,))
    assert main(["verify-db", db_target]) == 1
    out = capsys.readouterr().out
    assert f"game {first}: the action log has a gap" in out


def test_verify_db_explains_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify-db", str(tmp_path / "missing.sqlite3")]) == 2
    assert "no database file" in capsys.readouterr().err
    junk = tmp_path / "junk.sqlite3"
    sqlite3.connect(junk).execute("CREATE TABLE x (y)").connection.close()
    assert main(["verify-db", str(junk)]) == 2
    assert "not an alhambra-bot database" in capsys.readouterr().err


async def test_verify_db_as_a_real_command(services: Services, db_target: str) -> None:
    await _played(services, games=1, moves=5)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ALHAMBRA_DB": db_target}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "verify-db"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "1 games, 1 replayed, 5 actions, 0 problems" in done.stdout


@sqlite_only
async def test_backup_writes_a_consistent_copy(
    services: Services, db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await _played(services)
    copy = tmp_path / "backup.sqlite3"
    # a writer is in the middle of a transaction: the copy must hold only committed data
    await services.store.conn.execute("BEGIN IMMEDIATE")
    await services.store.conn.execute("DELETE FROM actions")
    try:
        assert main(["backup", str(copy), "--db", str(db_path)]) == 0
    finally:
        await services.store.conn.execute("ROLLBACK")
    assert "backup: copied" in capsys.readouterr().out
    assert dump(copy) == dump(db_path)
    assert main(["verify-db", str(copy)]) == 0
    store = await Store.open(copy)  # the copy is a working database
    assert len(await Services.build(store).people.my_games(101)) == 2
    await store.close()

    before = copy.read_bytes()
    assert main(["backup", str(copy), "--db", str(db_path)]) == 2
    assert "--force" in capsys.readouterr().err
    assert copy.read_bytes() == before
    assert main(["backup", str(copy), "--db", str(db_path), "--force"]) == 0
    assert main(["backup", str(db_path), "--db", str(db_path), "--force"]) == 2
    assert "different file" in capsys.readouterr().err
    assert main(["backup", str(tmp_path / "nowhere" / "b.sqlite3"), "--db", str(db_path)]) == 2
    assert not list(tmp_path.glob("*.part"))


def test_default_command_asks_for_a_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and len(err.strip().splitlines()) == 1
