"""What is PostgreSQL's own: its migrations (per-engine files, the advisory lock, a newer schema
refused), port-db from SQLite, and leases on both engines."""

from __future__ import annotations

import asyncio
import os
import random
import re
import sqlite3
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from service_helpers import dump, random_move, started

from bot.__main__ import main
from bot.core.clock import ManualClock
from bot.core.db.postgres import dollar_params, migrate_postgres
from bot.core.db.postgres_reads import run_apart
from bot.core.errors import DatabaseTooNew
from bot.core.migrate import load_migrations
from bot.core.services import Services
from bot.core.store import Store
from bot.core.verify import verify_database
from engine import Undo, action_to_json, new_game

ROOT = Path(__file__).resolve().parents[2]
LATEST = len(load_migrations())


def test_both_engines_know_the_same_steps() -> None:
    sqlite = load_migrations(engine="sqlite")
    postgres = load_migrations(engine="postgres")
    assert [m.name for m in sqlite] == [m.name for m in postgres]
    assert [m.version for m in postgres] == list(range(1, LATEST + 1))
    # where the dialects differ there is a file of PostgreSQL's own
    assert "AUTOINCREMENT" in sqlite[0].sql and "IDENTITY" in postgres[0].sql
    assert sqlite[7].sql == postgres[7].sql  # 0008 is written once for both


def test_placeholders_become_numbered_outside_quoted_text() -> None:
    sql = "SELECT '?' FROM t WHERE a = ? AND b IN (?, ?) AND c = 'x?y'"
    assert dollar_params(sql) == "SELECT '?' FROM t WHERE a = $1 AND b IN ($2, $3) AND c = 'x?y'"


async def test_processes_starting_together_migrate_once(fresh_postgres_url: str) -> None:
    code = (
        "import asyncio, sys\n"
        "from bot.core.store import Store\n"
        "async def go():\n"
        "    s = await Store.open(sys.argv[1])\n"
        "    print(await s.schema_version())\n"
        "    await s.close()\n"
        "asyncio.run(go())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, fresh_postgres_url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(4)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err[-2000:]
        assert out.strip() == str(LATEST)
    conn = await asyncpg.connect(fresh_postgres_url)
    try:
        rows = await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")
    finally:
        await conn.close()
    assert [r[0] for r in rows] == list(range(1, LATEST + 1))


async def test_a_newer_postgres_database_is_refused_and_left_alone(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
            LATEST + 1,
            f"{LATEST + 1:04d}_from_the_future",
        )
    finally:
        await conn.close()
    before = dump(postgres_url)
    with pytest.raises(DatabaseTooNew, match="newer alhambra-bot"):
        await Store.open(postgres_url)
    assert dump(postgres_url) == before
    assert main(["health", postgres_url]) == 1
    assert main(["verify-db", postgres_url]) == 2


async def test_a_half_migrated_postgres_database_is_finished_by_the_next_start(
    fresh_postgres_url: str,
) -> None:
    conn = await asyncpg.connect(fresh_postgres_url)
    try:
        assert await migrate_postgres(conn, target=3) == [1, 2, 3]
        assert await migrate_postgres(conn, target=3) == []
    finally:
        await conn.close()
    store = await Store.open(fresh_postgres_url)
    try:
        assert await store.schema_version() == LATEST
    finally:
        await store.close()


def test_health_on_postgres(postgres_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["health", postgres_url]) == 0
    out = capsys.readouterr().out
    assert f"schema step {LATEST}" in out
    nobody_there = re.sub(r":\d+/", ":1/", postgres_url.replace("postgres@", "postgres:hunter2@"))
    assert main(["health", nobody_there]) == 1
    err = capsys.readouterr().err
    assert "cannot connect to postgresql://postgres:***@127.0.0.1:1/" in err
    assert "hunter2" not in err  # addresses are shown without passwords


# --- port-db --------------------------------------------------------------------------------------


def _many_games(path: Path, games: int, seed: int = 7) -> None:
    """A SQLite database with `games` games in every state, written the fast way (directly,
    each game's log and snapshot from a real replay)."""
    asyncio.run(_migrated(path))
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for gid in range(1, games + 1):
        status = "finished" if rng.random() < 0.01 else rng.choice(["lobby", "active", "abandoned"])
        players = rng.randint(2, 4)
        conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, created_at, "
            "updated_at) VALUES (?, 5, ?, 1, 'lobby', '{}', 1000, 1000)",
            (gid, gid),
        )
        for join in range(players):
            conn.execute(
                "INSERT INTO seats (game_id, join_order, kind, user_id, display_name, joined_at) "
                "VALUES (?, ?, 'human', ?, ?, 1000)",
                (gid, join, 100 + join, f"P{join}"),
            )
        if status == "lobby":
            continue
        game = new_game(players, gid)
        for join in range(players):
            conn.execute(
                "UPDATE seats SET seat = ? WHERE game_id = ? AND join_order = ?",
                (game.seating.index(join), gid, join),
            )
        moves = 10_000 if status == "finished" else rng.randint(1, 25)
        seq = 0
        while seq < moves and not game.is_over:
            seq += 1
            seat = game.current_seat
            action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Undo)])
            game.apply(action)
            conn.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?, 2000)",
                (gid, seq, seat, 100, action_to_json(action)),
            )
        conn.execute(
            "UPDATE games SET status = ?, seed = ?, version = ?, current_seat = ?, snapshot = ?, "
            "started_at = 1500, turn_started_at = 1500 WHERE id = ?",
            (
                status,
                gid,
                seq,
                None if status != "active" else game.current_seat,
                game.to_json(),
                gid,
            ),
        )
        if status == "active":
            conn.execute(
                "INSERT INTO timers (game_id, kind, seat, version, due_at, created_at) "
                "VALUES (?, 'reminder', ?, ?, 9000, 2000)",
                (gid, game.current_seat, seq),
            )
    conn.execute("INSERT INTO user_settings (user_id, locale, updated_at) VALUES (100, 'de', 1)")
    conn.execute("COMMIT")
    conn.close()


async def _migrated(path: Path) -> None:
    await (await Store.open(path)).close()


def test_port_db_copies_a_thousand_games_and_a_second_run_changes_nothing(
    tmp_path: Path, fresh_postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "big.sqlite3"
    _many_games(source, 1000)
    source_report = verify_database(source)
    assert source_report.ok, source_report.problems[:3]

    assert main(["port-db", str(source), fresh_postgres_url]) == 0
    out = capsys.readouterr().out
    assert "games: 1000 rows; 1000 added" in out
    report = verify_database(fresh_postgres_url)
    assert report.ok, report.problems[:3]
    assert (report.games, report.replayed, report.actions) == (
        source_report.games,
        source_report.replayed,
        source_report.actions,
    )
    copied = dump(fresh_postgres_url)
    original = dump(source)
    for table, rows in original.items():
        if table in ("schema_migrations", "sqlite_sequence", "leases"):
            continue
        assert sorted(copied[table], key=repr) == sorted(rows, key=repr), table

    before = dump(fresh_postgres_url)
    assert main(["port-db", str(source), fresh_postgres_url]) == 0
    assert "(0 rows changed)" in capsys.readouterr().out
    assert dump(fresh_postgres_url) == before


async def test_port_db_catches_up_and_the_copy_plays_on(
    tmp_path: Path, fresh_postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "games.sqlite3"
    store = await Store.open(source)
    services = Services.build(store, ManualClock(), seed_source=lambda: 11)
    rng = random.Random(2)
    game = await started(services)
    for _ in range(10):
        await random_move(services, game.id, rng)
    assert await asyncio.to_thread(main, ["port-db", str(source), fresh_postgres_url]) == 0
    for _ in range(10):  # the bot played on before the switch: a second run catches up
        await random_move(services, game.id, rng)
    await services.schedule.set_turn_timers(
        game.id, [("reminder", services.clock.now() + timedelta(hours=1), 0)], kinds=("reminder",)
    )
    await store.close()
    assert await asyncio.to_thread(main, ["port-db", str(source), fresh_postgres_url]) == 0
    out = capsys.readouterr().out
    assert "actions: 20 rows; 10 added, 0 changed, 0 removed" in out
    assert "games: 1 rows; 0 added, 1 changed" in out
    copy = await Store.open(fresh_postgres_url)
    try:
        moved = Services.build(copy, ManualClock())
        assert (await moved.lobby.game(game.id)).version == 20
        await random_move(moved, game.id, rng)  # the copy is a working database
        second = await started(moved, channel=99)
        assert second.id == game.id + 1  # ids continue after the copied ones
    finally:
        await copy.close()


def test_port_db_refuses_what_is_not_a_copy_and_explains_its_arguments(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "empty.sqlite3"
    asyncio.run(_migrated(source))

    async def other_game() -> None:
        store = await Store.open(postgres_url)
        await started(Services.build(store, ManualClock()), channel=3)
        await store.close()

    asyncio.run(other_game())
    before = dump(postgres_url)
    assert main(["port-db", str(source), postgres_url]) == 2
    assert "not a copy of this database" in capsys.readouterr().err
    assert dump(postgres_url) == before
    assert main(["port-db", postgres_url, str(source)]) == 2
    assert "copies a SQLite file into PostgreSQL" in capsys.readouterr().err
    assert main(["port-db", str(tmp_path / "missing.sqlite3"), postgres_url]) == 2
    assert "no database file" in capsys.readouterr().err


# --- leases (both engines) --------------------------------------------------------------------


async def test_a_lease_is_one_holder_s_until_it_expires_or_is_dropped(
    services: Services,
) -> None:
    clock = services.clock
    assert isinstance(clock, ManualClock)
    assert await services.schedule.take_lease("sync", "a", 60)
    assert not await services.schedule.take_lease("sync", "b", 60)
    assert await services.schedule.lease_holder("sync") == "a"
    assert await services.schedule.take_lease("sync", "a", 60)  # renewed by its holder
    clock.advance(timedelta(seconds=61))
    assert await services.schedule.lease_holder("sync") is None
    assert await services.schedule.take_lease("sync", "b", 60)  # expired: anyone's
    assert not await services.schedule.drop_lease("sync", "a")
    assert await services.schedule.drop_lease("sync", "b")
    assert await services.schedule.take_lease("sync", "a", 60)


async def test_claimed_timers_are_nobody_else_s_until_the_lease_ends(services: Services) -> None:
    from service_helpers import add_timer

    clock = services.clock
    assert isinstance(clock, ManualClock)
    game = await started(services)
    timer = await add_timer(services, game.id, "reminder", clock.now())
    [claimed] = await services.schedule.claim_timers("a", lease=timedelta(seconds=30))
    assert claimed.id == timer
    assert await services.schedule.claim_timers("b", lease=timedelta(seconds=30)) == []
    assert await services.schedule.due_timers() == []
    assert await services.schedule.next_timer_due() == clock.now() + timedelta(seconds=30)
    clock.advance(timedelta(seconds=31))
    [again] = await services.schedule.claim_timers("b", lease=timedelta(seconds=30))
    assert again.id == timer
    assert not await services.schedule.finish_timer(timer, "a")  # "a" lost it with its lease
    assert await services.schedule.finish_timer(timer, "b")
    timer = await add_timer(services, game.id, "reminder", clock.now())
    await services.schedule.claim_timers("a", lease=timedelta(seconds=30))
    assert await services.schedule.release_timers("a") == 1  # "a" stops: the timer is free at once
    assert [
        t.id for t in await services.schedule.claim_timers("b", lease=timedelta(seconds=30))
    ] == [timer]


# --- a role of the operator's own: rights and passwords -----------------------------------------


def _admin(server: Any, database: str, *statements: str) -> None:
    async def work() -> None:
        conn = await asyncpg.connect(server.url(database))
        try:
            for sql in statements:
                await conn.execute(sql)
        finally:
            await conn.close()

    run_apart(work)


def test_the_database_commands_say_in_one_line_what_a_role_lacks(
    tmp_path: Path,
    postgres_server: Any,
    postgres_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`health`, `verify-db` and `port-db` as a role that may connect but not use the tables:
    one line each, saying which rights to grant (they used to end in asyncpg's traceback); with
    them granted the same role works, its password taken from ALHAMBRA_DB_PASSWORD."""
    role = f"ops_{os.getpid()}"
    database = postgres_url.rsplit("/", 1)[1]
    _admin(postgres_server, "postgres", f"CREATE ROLE {role} LOGIN PASSWORD 'p@ss/w:o%rd#1?'")
    url = f"postgresql://{role}@127.0.0.1:{postgres_server.port}/{database}"
    monkeypatch.setenv("ALHAMBRA_DB_PASSWORD", "p@ss/w:o%rd#1?")
    source = tmp_path / "file.sqlite3"
    asyncio.run(_migrated(source))
    grant = f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}"
    for command, status in ((["health", url], 1), (["verify-db", url], 2)):
        assert main(command) == status
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and grant in err, err
        assert "o%rd" not in err
    assert main(["port-db", str(source), url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and grant in err, err

    _admin(
        postgres_server,
        database,
        grant,
        f"GRANT USAGE, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {role}",  # port-db moves them
    )
    assert main(["health", url]) == 0
    assert main(["verify-db", url]) == 0
    assert main(["port-db", str(source), url]) == 0  # a role that may not create: none needed
    out = capsys.readouterr().out
    assert f"postgresql://{role}:***@127.0.0.1" in out and "o%rd" not in out

    monkeypatch.setenv("ALHAMBRA_DB_PASSWORD", "not it")
    assert main(["health", url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"refused the password of role {role}" in err, err
