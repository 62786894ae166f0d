"""`port-db` against a PostgreSQL database that already holds games: it mirrors the same games
further on (re-running is safe), and refuses, changing nothing, games that are not the file's
(`core.port_conflicts`), unless told `--replace`."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

import pytest
from service_helpers import dump, random_move, started

from bot.__main__ import main
from bot.core.clock import ManualClock
from bot.core.services import Services
from bot.core.store import Store
from bot.core.verify import verify_database

#: what the bot keeps for itself and port-db does not copy
NOT_COPIED = ("schema_migrations", "sqlite_sequence", "leases")


async def _play(
    target: str | Path,
    *,
    seed: int,
    moves: int,
    rng: random.Random,
    clock: ManualClock | None = None,
) -> int:
    """A game of Ann and Bob in channel 1 dealt from `seed`, `moves` moves in; its id."""
    store = await Store.open(target)
    try:
        services = Services.build(store, clock or ManualClock(), seed_source=lambda: seed)
        game = await started(services)
        for _ in range(moves):
            await random_move(services, game.id, rng)
        return game.id
    finally:
        await store.close()


async def _more(
    target: str | Path,
    game_id: int,
    moves: int,
    rng: random.Random,
    clock: ManualClock,
) -> None:
    """`moves` more moves of a game, a second apart."""
    store = await Store.open(target)
    try:
        services = Services.build(store, clock)
        for _ in range(moves):
            clock.advance(1)
            await random_move(services, game_id, rng)
    finally:
        await store.close()


def _port(*args: str) -> int:
    return main(["port-db", *args])


def _mirrors(url: str, source: Path) -> bool:
    copied, original = dump(url), dump(source)
    return all(
        sorted(copied[table], key=repr) == sorted(rows, key=repr)
        for table, rows in original.items()
        if table not in NOT_COPIED
    )


def test_a_postgres_game_that_is_another_game_is_refused_by_name_unless_replaced(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bot was started on PostgreSQL first and played a game there; then the old file,
    whose game 1 is another game with the same players in the same channel, is ported."""
    source = tmp_path / "old.sqlite3"
    asyncio.run(_play(source, seed=99, moves=6, rng=random.Random(1)))
    asyncio.run(_play(postgres_url, seed=5, moves=4, rng=random.Random(2)))
    before = dump(postgres_url)

    assert _port(str(source), postgres_url) == 2
    err = capsys.readouterr().err
    assert err.endswith("\n") and err.count("\n") == 1, err  # one line
    assert err.startswith("port-db: postgresql://postgres@")
    assert (
        "holds a different game 1 (active at version 4, channel 1, opened 2024-01-01 00:00 " in err
    )
    assert "UTC, players Ann, Bob) from " in err and "old.sqlite3's (active at version 6," in err
    assert "they were dealt differently (seed 5 against 99)" in err
    assert "port-db changed nothing" in err and "--replace" in err
    assert dump(postgres_url) == before

    assert _port("--replace", str(source), postgres_url) == 0
    out = capsys.readouterr().out
    assert "replaced 1 games of" in out and "(ids 1)" in out
    assert _mirrors(postgres_url, source)
    report = verify_database(postgres_url)
    assert report.ok and (report.games, report.actions) == (1, 6)

    assert _port(str(source), postgres_url) == 0  # from now on, the usual re-runnable mirror
    assert "(0 rows changed)" in capsys.readouterr().out


def test_a_copy_played_on_in_postgres_is_not_overwritten_by_the_older_file(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ported, then the bot ran on PostgreSQL and played on: porting the file again would take
    those moves back."""
    source = tmp_path / "old.sqlite3"
    rng, clock = random.Random(3), ManualClock()
    game = asyncio.run(_play(source, seed=7, moves=10, rng=rng, clock=clock))
    assert _port(str(source), postgres_url) == 0
    asyncio.run(_more(postgres_url, game, 3, rng, clock))
    before = dump(postgres_url)
    capsys.readouterr()

    assert _port(str(source), postgres_url) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "holds a different game 1 (active at version 13," in err
    assert "PostgreSQL has moves the file does not (version 13 against 10)" in err
    assert dump(postgres_url) == before

    # whatever else the file went on to: a move of its own where PostgreSQL has another
    asyncio.run(_more(source, game, 10, random.Random(4), ManualClock(clock.now())))
    assert _port(str(source), postgres_url) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "their move 11 differs" in err, err
    assert dump(postgres_url) == before


def test_the_same_game_further_on_in_the_file_is_mirrored(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Between two runs the file's game went on as games do: its lobby changed and started,
    moves were made, a silent player's seat went to a computer player and it ended: none of it
    is a conflict."""
    source = tmp_path / "games.sqlite3"
    clock = ManualClock()

    async def lobby_then_more(step: int) -> None:
        store = await Store.open(source)
        services = Services.build(store, clock, seed_source=lambda: 11)
        rng = random.Random(5)
        try:
            if step == 0:
                game = await services.lobby.create_game(
                    channel_id=1, host_id=101, host_name="Ann", guild_id=7
                )
                await services.lobby.join(game.id, 102, "Bob")
                await services.lobby.join(game.id, 103, "Carol")
                return
            if step == 1:
                clock.advance(timedelta(minutes=5))
                await services.lobby.leave(1, 103)
                await services.lobby.join(1, 104, "Dave")
                await services.lobby.start(1, 101)
            for _ in range(8):
                clock.advance(1)
                await random_move(services, 1, rng)
            if step == 2:
                bob = (await services.lobby.game(1)).seat_of(102)
                assert bob is not None and bob.seat is not None
                await services.play.hand_over(1, bob.seat)
                for _ in range(4):
                    clock.advance(1)
                    await random_move(services, 1, rng)
                await services.lobby.abandon(1, 101, is_manager=True)
        finally:
            await store.close()

    asyncio.run(lobby_then_more(0))
    assert _port(str(source), postgres_url) == 0  # a lobby of three
    asyncio.run(lobby_then_more(1))
    assert _port(str(source), postgres_url) == 0  # started, other players, moves
    assert _mirrors(postgres_url, source)
    asyncio.run(lobby_then_more(2))
    capsys.readouterr()
    assert _port(str(source), postgres_url) == 0, capsys.readouterr().err
    assert _mirrors(postgres_url, source)
    assert dump(postgres_url)["games"][0][4] == "abandoned"
