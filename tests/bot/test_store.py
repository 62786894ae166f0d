"""The store's transactions and the constraints the schema itself enforces."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

import asyncpg
import pytest
from service_helpers import dump, sqlite_only

from bot.core.clock import ManualClock
from bot.core.db import Conflict
from bot.core.errors import NoGameHere, NotHost
from bot.core.records import DeadlineRules
from bot.core.services import Services
from bot.core.store import Store

#: a row the schema refuses (a CHECK or a foreign key), as each engine reports it
Refused = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


async def run(store: Store, sql: str, params: tuple[object, ...] = ()) -> None:
    async with store.write() as tx:
        await tx.run(sql, params)


@sqlite_only
async def test_connection_settings(store: Store) -> None:
    async def one(sql: str) -> object:
        return (await store.conn.execute_fetchall(sql))[0][0]

    assert await one("PRAGMA journal_mode") == "wal"
    assert await one("PRAGMA foreign_keys") == 1
    assert await one("PRAGMA synchronous") == 2  # FULL
    assert await one("PRAGMA busy_timeout") >= 1000


async def test_write_commits_on_success_and_rolls_back_on_error(
    store: Store, db_target: str
) -> None:
    clock = ManualClock()
    async with store.write() as tx:
        await tx.run("INSERT INTO user_settings (user_id, updated_at) VALUES (1, 0)")
    assert len(dump(db_target)["user_settings"]) == 1
    before = dump(db_target)
    with pytest.raises(NotHost):
        async with store.write() as tx:
            await tx.run("INSERT INTO user_settings (user_id, updated_at) VALUES (2, 0)")
            await tx.insert_game(
                guild_id=None,
                channel_id=5,
                host_id=1,
                options={},
                max_players=6,
                now=clock.now(),
            )
            raise NotHost()
    assert dump(db_target) == before
    if store.engine == "sqlite":
        assert not store.conn.in_transaction


async def test_concurrent_transactions_on_one_connection_do_not_interleave(store: Store) -> None:
    """A read for update inside `write()` serialises writers: SQLite's one connection is
    taken by one transaction at a time, PostgreSQL's row lock (`lock_rows`) does the rest."""
    await run(store, "CREATE TABLE counter (n INTEGER)")
    await run(store, "INSERT INTO counter VALUES (0)")

    async def increment() -> None:
        async with store.write() as tx:
            row = await tx.row(f"SELECT n FROM counter {tx.conn.lock_rows}")
            assert row is not None
            await asyncio.sleep(0)  # let every other task try to get in here
            await tx.run("UPDATE counter SET n = ?", (row[0] + 1,))

    await asyncio.gather(*(increment() for _ in range(50)))
    async with store.read() as tx:
        assert (await tx.rows("SELECT n FROM counter"))[0][0] == 50


async def test_one_open_game_per_channel_is_a_database_constraint(store: Store) -> None:
    insert = (
        "INSERT INTO games (channel_id, host_id, status, created_at, updated_at) "
        "VALUES (9, 1, ?, 0, 0)"
    )
    await run(store, insert, ("finished",))
    await run(store, insert, ("abandoned",))
    await run(store, insert, ("lobby",))
    with pytest.raises(Conflict):
        await run(store, insert, ("active",))
    with pytest.raises(Conflict):
        await run(store, insert, ("lobby",))


async def test_save_action_only_at_the_expected_version(store: Store, db_target: str) -> None:
    now = ManualClock().now()
    await run(
        store,
        "INSERT INTO games (id, channel_id, host_id, status, version, snapshot, created_at, "
        "updated_at) VALUES (1, 1, 1, 'active', 3, '{}', 0, 0)",
    )
    before = dump(db_target)
    args = dict(
        seat=0,
        user_id=1,
        action='{"kind":"end_turn"}',
        snapshot="{}",
        current_seat=1,
        finished=False,
        turn_started=True,
        now=now,
    )
    async with store.write() as tx:
        assert not await tx.save_action(1, expected_version=2, **args)  # type: ignore[arg-type]
    assert dump(db_target) == before
    async with store.write() as tx:
        assert await tx.save_action(1, expected_version=3, **args)  # type: ignore[arg-type]
    after = dump(db_target)
    assert [(r[0], r[1]) for r in after["actions"]] == [(1, 4)]


async def test_seat_rows_must_describe_a_human_or_a_computer(store: Store) -> None:
    await run(
        store,
        "INSERT INTO games (id, channel_id, host_id, created_at, updated_at) "
        "VALUES (1, 1, 1, 0, 0)",
    )
    with pytest.raises(Refused):
        await run(store, "INSERT INTO seats VALUES (1, 0, NULL, 'human', NULL, NULL, 'x', 0)")
    with pytest.raises(Refused):  # foreign key: no game 2
        await run(store, "INSERT INTO seats VALUES (2, 0, NULL, 'computer', NULL, 'easy', 'x', 0)")


async def test_the_stand_in_level_is_a_deadline_rule_the_schema_checks(store: Store) -> None:
    now = ManualClock().now()
    async with store.write() as tx:
        game_id = await tx.insert_game(
            guild_id=None, channel_id=3, host_id=1, options={}, max_players=6, now=now
        )
        assert await tx.deadline_rules(game_id) == DeadlineRules()  # normal unless chosen
        assert (await tx.deadline_rules(game_id)).stand_in == "normal"  # type: ignore[union-attr]
    rules = DeadlineRules(86400, "computer", 2, "continue", "expert")
    async with store.write() as tx:
        await tx.set_deadline_rules(game_id, rules, now)
    async with store.read() as tx:
        assert await tx.deadline_rules(game_id) == rules
    for level in ("easy", "hard"):
        async with store.write() as tx:
            await tx.set_deadline_rules(game_id, DeadlineRules(stand_in=level), now)
        async with store.read() as tx:
            assert (await tx.deadline_rules(game_id)).stand_in == level  # type: ignore[union-attr]
    for level in ("random", "grandmaster"):  # the column takes the stand-in levels only
        with pytest.raises(Refused):
            await run(store, "UPDATE games SET stand_in_level = ? WHERE id = ?", (level, game_id))
    async with store.read() as tx:
        assert (await tx.deadline_rules(game_id)).stand_in == "hard"  # type: ignore[union-attr]


async def test_a_transaction_cancelled_while_it_begins_leaves_none_open(store: Store) -> None:
    """A task cancelled during BEGIN must not leave the shared connection inside a transaction
    (every later transaction would fail)."""
    for delay in range(30):
        for begin in (store.read, store.write):

            async def hold(begin=begin) -> None:
                async with begin() as tx:
                    await tx.rows("SELECT 1")

            task = asyncio.ensure_future(hold())
            for _ in range(delay):
                await asyncio.sleep(0)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if store.engine == "sqlite":
                assert not store.conn.in_transaction, (delay, begin.__name__)
            async with store.write() as tx:  # and the connection still works
                await tx.run(
                    "INSERT INTO bot_meta (key, value, updated_at) VALUES ('k', 'v', 0) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                )


async def test_the_game_a_channel_shows(store: Store) -> None:
    """The running game; else the last finished one (not an abandoned one, not another
    channel's), also while a new game gathers players; else the lobby."""
    services = Services.build(store, clock=ManualClock())
    insert = (
        "INSERT INTO games (id, channel_id, host_id, status, ended_at, created_at, updated_at) "
        "VALUES (?, ?, 1, ?, ?, 0, 0)"
    )
    with pytest.raises(NoGameHere):
        await services.lobby.game_to_show(9)
    await run(store, insert, (1, 9, "finished", 100))
    await run(store, insert, (2, 9, "finished", 300))  # the last to end
    await run(store, insert, (3, 9, "finished", 200))
    await run(store, insert, (4, 9, "abandoned", 400))
    await run(store, insert, (5, 8, "finished", 500))  # another channel
    assert (await services.lobby.game_to_show(9)).id == 2
    await run(store, insert, (6, 9, "lobby", None))
    assert (await services.lobby.game_to_show(9)).id == 2
    await run(store, "UPDATE games SET status = 'active' WHERE id = 6")
    assert (await services.lobby.game_to_show(9)).id == 6
    await run(store, insert, (7, 7, "lobby", None))
    assert (await services.lobby.game_to_show(7)).id == 7  # nothing finished there: the lobby
    with pytest.raises(NoGameHere):
        await services.lobby.game_in_channel(6)
