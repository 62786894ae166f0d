"""Schema steps: a fresh database, re-running, a newer database, and upgrades with data in."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import aiosqlite
import pytest
from service_helpers import dump

from bot.core.clock import at_ms
from bot.core.errors import DatabaseError, DatabaseTooNew
from bot.core.migrate import load_migrations, migrate, schema_version, split_statements
from bot.core.services import Services
from bot.core.store import Store
from bot.core.verify import verify_database
from engine import Undo, action_to_json, new_game

LATEST = len(load_migrations())


def _tables(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))
    finally:
        conn.close()


async def test_fresh_database_gets_every_step_recorded(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    conn = sqlite3.connect(db_path)
    recorded = conn.execute(
        "SELECT version, name FROM schema_migrations ORDER BY version"
    ).fetchall()
    assert [(m.version, m.name) for m in load_migrations()] == recorded
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = set(_tables(db_path))
    assert {"games", "seats", "actions", "timers", "user_settings"} <= names
    assert "games_one_open_per_channel" in names
    conn.close()


async def test_opening_twice_changes_nothing(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    before = (_tables(db_path), dump(db_path))
    store = await Store.open(db_path)
    assert await migrate(store.conn) == []
    assert await schema_version(store.conn) == LATEST
    await store.close()
    assert (_tables(db_path), dump(db_path)) == before


async def test_a_newer_database_is_refused_and_left_alone(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.conn.execute(
        "INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
        (LATEST + 1, f"{LATEST + 1:04d}_from_the_future"),
    )
    await store.close()
    before = dump(db_path)
    with pytest.raises(DatabaseTooNew, match=r"newer alhambra-bot.*knows up to"):
        await Store.open(db_path)
    assert dump(db_path) == before


async def test_a_renamed_step_is_refused(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.conn.execute("UPDATE schema_migrations SET name = '0001_other' WHERE version = 1")
    await store.close()
    with pytest.raises(DatabaseError, match="different code line"):
        await Store.open(db_path)


async def test_a_failing_step_is_rolled_back_whole(tmp_path: Path, db_path: Path) -> None:
    folder = tmp_path / "steps"
    folder.mkdir()
    (folder / "0001_a.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (folder / "0002_b.sql").write_text(
        "CREATE TABLE b (x INTEGER);\nINSERT INTO a VALUES (1);\nINSERT INTO nowhere VALUES (1);\n"
    )
    steps = load_migrations(folder)
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        await Store.open(db_path, migrations=steps)
    names = set(_tables(db_path))
    assert "a" in names and "b" not in names
    assert dump(db_path)["a"] == []
    assert [r[0] for r in dump(db_path)["schema_migrations"]] == [1]


def test_steps_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(DatabaseError, match="numbered"):
        load_migrations(tmp_path)


def test_statements_split_only_at_real_ends() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT 'a;b');\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET x = 'c;d'; END;\n"
        "INSERT INTO t VALUES ('e'); INSERT INTO t VALUES ('f');\n"
        "-- trailing comment\n"
    )
    parts = split_statements(sql)
    assert len(parts) == 4
    assert parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")
    with pytest.raises(DatabaseError, match="unterminated"):
        split_statements("CREATE TABLE t (x)")


# --- upgrading a database at every earlier step, with data in it --------------------------------

SEED_GAME = 4242


def _seed_level_1(conn: sqlite3.Connection) -> dict[str, object]:
    """Games as the first schema stored them: a lobby, a running game and a finished one."""
    rng = random.Random(3)
    conn.execute(
        "INSERT INTO games (id, channel_id, host_id, status, created_at, updated_at) "
        "VALUES (1, 10, 1, 'lobby', 1000, 1000)"
    )
    conn.execute("INSERT INTO seats VALUES (1, 0, NULL, 'human', 1, NULL, 'Ann', 1000)")
    for game_id, moves in ((2, 25), (3, None)):
        game = new_game(3, SEED_GAME + game_id)
        actions = []
        while not game.is_over and (moves is None or len(actions) < moves):
            action = rng.choice([a for a in game.legal_actions() if not isinstance(a, Undo)])
            game.apply(action)
            actions.append((game_id, len(actions) + 1, 0, None, action_to_json(action), 2000))
        status = "finished" if game.is_over else "active"
        conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, seed, version, "
            "current_seat, snapshot, created_at, updated_at, started_at) "
            "VALUES (?, 5, ?, 1, ?, ?, ?, ?, ?, 1000, 3000, 1500)",
            (
                game_id,
                10 + game_id,
                status,
                SEED_GAME + game_id,
                len(actions),
                game.current_seat,
                game.to_json(),
            ),
        )
        for join in range(3):
            seat = game.seating.index(join)
            conn.execute(
                "INSERT INTO seats VALUES (?, ?, ?, 'human', ?, NULL, ?, 1000)",
                (game_id, join, seat, join + 1, f"P{join}"),
            )
        # the seat column of an action is whoever was to play; fix it by replaying
        replay = new_game(3, SEED_GAME + game_id)
        fixed = []
        for row in actions:
            fixed.append((*row[:2], replay.current_seat, *row[3:]))
            replay.apply(json.loads(row[4]))
        conn.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", fixed)
    return {"active": 2, "finished": 3}


def _seed_level_2(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute(  # named columns: later steps add some
        "INSERT INTO user_settings (user_id, locale, dm_on_turn, dm_reminders, updated_at) "
        "VALUES (1, 'de', 0, 1, 5000)"
    )
    conn.execute(
        "INSERT INTO timers (game_id, kind, seat, version, due_at, created_at) "
        "VALUES (2, 'reminder', 0, 25, 9000, 5000)"
    )
    return {}


def _seed_level_3(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute("INSERT INTO game_messages VALUES (2, 'turn', 12, 777, 6000)")
    conn.execute("INSERT INTO bot_meta VALUES ('commands:global', 'abc', 6000)")
    conn.execute("INSERT INTO bot_meta VALUES ('locale:2', 'pt-BR', 6000)")
    return {}


def _seed_level_4(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute(  # named columns: later steps add some
        "INSERT INTO user_settings (user_id, locale, dm_on_turn, dm_reminders, updated_at, "
        "auto_end_turn) VALUES (2, NULL, 1, 0, 7000, 0)"
    )
    return {}


def _seed_level_5(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute(
        "UPDATE games SET turn_deadline_s = 86400, deadline_policy = 'skip', missed_limit = 2 "
        "WHERE id = 2"
    )
    conn.execute(
        "INSERT INTO notify_settings (user_id, first_reminder_s, quiet_start, quiet_end, "
        "time_zone, updated_at) VALUES (1, 7200, 1320, 420, 'Asia/Tokyo', 8000)"
    )
    conn.execute("INSERT INTO channel_nudges VALUES (2, 0, 3000, 8000)")
    conn.execute("INSERT INTO missed_deadlines VALUES (2, 1, 1, 25, 8000)")
    conn.execute("INSERT INTO votes VALUES (2, 'abandon', -1, 1, 8000)")
    return {}


def _seed_level_6(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute(  # a finished turn the channel was never told about
        "INSERT INTO timers (game_id, kind, seat, version, due_at, created_at) "
        "VALUES (2, 'announce', NULL, 25, 9500, 9000)"
    )
    return {}


def _seed_level_7(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute(  # a turn held for its undo window across the upgrade
        "INSERT INTO timers (game_id, kind, seat, version, due_at, created_at) "
        "VALUES (2, 'end_turn', 0, 25, 9600, 9590)"
    )
    conn.execute(
        "INSERT INTO user_settings (user_id, locale, dm_on_turn, dm_reminders, auto_end_turn, "
        "undo_window_s, turn_notice, updated_at) VALUES (3, NULL, 1, 1, 1, 0, 'both', 9590)"
    )
    return {}


def _seed_level_8(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute(  # a timer claimed by a process that is gone, and the command-sync lease
        "UPDATE timers SET claimed_by = 'host:1', lease_until = 9700 WHERE kind = 'reminder'"
    )
    conn.execute("INSERT INTO leases VALUES ('sync-commands', 'host:1', 9900, 9600)")
    return {}


def _seed_level_9(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute("UPDATE games SET rated = 1 WHERE id = 3")
    conn.execute("INSERT INTO ratings VALUES (5, 1, 27.5, 7.5, 1, 9800)")
    return {}


def _seed_level_10(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute("INSERT INTO forfeits VALUES (3, 1, 2, 'deadlines', 9900)")
    return {}


def _seed_level_11(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute("INSERT INTO followers VALUES (2, 55, 'dm', 9950)")
    return {}


def _seed_level_12(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute(
        'INSERT INTO plans VALUES (2, 1, 2, \'{"rules":[],"otherwise":"most"}\', 25, 9960)'
    )
    return {}


def _seed_level_13(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute("INSERT INTO hints VALUES (2, 25, 0, 1, 2, 9950)")
    return {}


def _seed_level_14(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute("UPDATE games SET stand_in_level = 'expert' WHERE id = 2")
    return {}


def _seed_level_15(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute(  # a computer player's retry after its worker died, and a failed reminder
        "INSERT INTO timers (game_id, kind, seat, version, due_at, created_at, attempts) "
        "VALUES (2, 'computer', 1, 25, 9970, 9960, 2)"
    )
    conn.execute("UPDATE timers SET attempts = 1 WHERE kind = 'reminder'")
    return {}


def _seed_level_16(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute("UPDATE games SET view_channel_id = 4242 WHERE id = 3")
    return {}


def _seed_level_17(conn: sqlite3.Connection) -> dict[str, object]:
    conn.execute("UPDATE games SET locale = 'ja' WHERE id = 3")
    return {}


def _seed_level_18(conn: sqlite3.Connection) -> dict[str, object]:
    # game 3 (rated, finished) moved user 1's rating in server 5's first season; a moderator
    # then started season 2, keeping season 1's board
    conn.execute("INSERT INTO rating_changes VALUES (3, 1, 1, 25.0, 8.3, 0, 27.5, 7.5)")
    conn.execute("INSERT INTO season_ratings VALUES (5, 1, 1, 27.5, 7.5, 1, 9800)")
    conn.execute("INSERT INTO seasons VALUES (5, 2, 9990, 1)")
    return {}


def _seed_level_19(conn: sqlite3.Connection) -> dict[str, object]:
    # a nudge's turn key is the turn's start in milliseconds: more than 32 bits
    conn.execute("INSERT INTO channel_nudges VALUES (2, 1, 1700000000000, 8000)")
    return {}


SEEDERS: dict[int, Callable[[sqlite3.Connection], dict[str, object]]] = {
    1: _seed_level_1,
    2: _seed_level_2,
    3: _seed_level_3,
    4: _seed_level_4,
    5: _seed_level_5,
    6: _seed_level_6,
    7: _seed_level_7,
    8: _seed_level_8,
    9: _seed_level_9,
    10: _seed_level_10,
    11: _seed_level_11,
    12: _seed_level_12,
    13: _seed_level_13,
    14: _seed_level_14,
    15: _seed_level_15,
    16: _seed_level_16,
    17: _seed_level_17,
    18: _seed_level_18,
    19: _seed_level_19,
}


def test_every_step_has_a_data_seeder_for_the_upgrade_test() -> None:
    assert set(SEEDERS) == set(range(1, LATEST + 1)), "add a seeder for the new migration"


class _Recorder:
    """The seeders' statements, kept to be run on PostgreSQL (`?` placeholders and all)."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, tuple[object, ...]]] = []

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> None:
        self.statements.append((sql, tuple(params)))

    def executemany(self, sql: str, rows: list[tuple[object, ...]]) -> None:
        for row in rows:
            self.execute(sql, row)


async def _postgres_at_step(url: str, start: int) -> None:
    """A PostgreSQL database migrated to `start` with every seeder up to it run."""
    import asyncpg

    from bot.core.db.postgres import dollar_params, migrate_postgres

    recorder = _Recorder()
    for level in range(1, start + 1):
        SEEDERS[level](recorder)  # type: ignore[arg-type]
    conn = await asyncpg.connect(url)
    try:
        await migrate_postgres(conn, target=start)
        async with conn.transaction():
            for sql, params in recorder.statements:
                await conn.execute(dollar_params(sql), *params)
    finally:
        await conn.close()


@pytest.mark.parametrize("start", range(LATEST))
async def test_upgrade_from_every_earlier_step_keeps_the_data(
    engine: str, request: pytest.FixtureRequest, db_path: Path, start: int
) -> None:
    target: str = str(db_path)
    if engine == "postgres":
        target = request.getfixturevalue("fresh_postgres_url")
        await _postgres_at_step(target, start)
    else:
        conn = await aiosqlite.connect(db_path, isolation_level=None)
        await migrate(conn, target=start)
        await conn.close()
        raw = sqlite3.connect(db_path, isolation_level=None)
        raw.execute("PRAGMA foreign_keys = ON")
        for level in range(1, start + 1):
            SEEDERS[level](raw)
        raw.close()
    before = dump(target)

    store = await Store.open(target)
    try:
        after = dump(target)
        for table, rows in before.items():
            if table == "schema_migrations":
                continue
            if table == "sqlite_sequence":  # a rebuilt table adds its own counter
                assert set(rows) <= set(after[table])
                continue
            # columns added later come after the old ones: old rows are a prefix of new rows
            width = len(rows[0]) if rows else 0
            assert [r[:width] for r in after[table]] == rows
        assert sorted(r[0] for r in after["schema_migrations"]) == list(range(1, LATEST + 1))
        if start >= 1:
            services = Services.build(store)
            running = await services.lobby.game(2)
            assert running.status == "active" and running.version == 25
            if start < 2:
                assert running.turn_started_at is not None  # 0002 backfilled the turn clock
            assert (await services.lobby.game(3)).status == "finished"
            player = running.current_player
            assert player is not None and player.user_id is not None
            view = await services.play.view(2, player.user_id)
            result = await services.play.act(2, player.user_id, view.view.legal[0], 25)
            assert result.version == 26
            lobby = await services.lobby.join(1, 77, "Late")
            assert [s.name for s in lobby.seats] == ["Ann", "Late"]
            # a game from before 0016: who may see it is not known until the bot asks Discord
            # (the seeder of 0016 gave game 3 its view channel)
            assert running.view_channel_id is None
            unknown = [g for g, _, _ in await services.archive.games_without_view_channel()]
            assert unknown == ([2, 3] if start < 16 else [2])
            # a game keeps the language it was opened in: before 0017 it was a meta row (the
            # seeder of 0003 gave game 2 Portuguese), and a game without one is in English
            languages = [(await services.lobby.game(g)).locale for g in (1, 2, 3)]
            if start < 3:
                assert languages == ["en", "en", "en"]
            elif start >= 17:  # seeded after 0017 read the meta rows: they are not read again
                assert languages == ["en", "en", "ja"]
            else:
                assert languages == ["en", "pt-BR", "en"]
            assert await services.people.game_locale(2) == languages[1]
            rules = await services.schedule.deadline_rules(
                2
            )  # a game from before 0014 stands in normal
            assert rules.stand_in == ("expert" if start >= 14 else "normal")
            if start >= 5:
                assert (rules.policy, rules.missed_limit) == ("skip", 2)
            # a channel mention is noted under its turn's start in milliseconds (0019 made the
            # column 64-bit on PostgreSQL)
            assert await services.schedule.nudge_once(2, 0, 1_800_000_000_000)
            assert not await services.schedule.nudge_once(2, 0, 1_800_000_000_000)
        if start >= 2:
            assert (await Services.build(store).people.preferences(1)).language == "de"
            timers = await Services.build(store).schedule.timers_of(2)
            assert "reminder" in {t.kind for t in timers}  # they came through the rebuilds
            # timers from before 0015 have failed no attempt yet; a computer's retry is a kind
            if start < 15:
                assert all(t.attempts == 0 for t in timers)
            else:
                assert {(t.kind, t.attempts) for t in timers} >= {("reminder", 1), ("computer", 2)}
            await Services.build(store).schedule.computers_later(2, at_ms(99_000), 3)
            retry = [
                t for t in await Services.build(store).schedule.timers_of(2) if t.kind == "computer"
            ]
            assert [(t.due_at, t.attempts) for t in retry] == [(at_ms(99_000), 3)]
    finally:
        await store.close()
    report = verify_database(target)
    assert report.ok, report.problems
    assert report.replayed == (2 if start >= 1 else 0)
