"""Failures that heal by themselves, through the fake Discord and the real bot, with no restart:
a worker process killed between two pictures, every worker stopped around the move that hands
the turn to a computer player, and the first writes after a move's commit failing. In each the
player hears the truth about their move and the game goes on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal

import pytest
from database import connect as connect_db
from fake_discord import FakeDiscord
from players import open_game, stored_game

from bot.core.errors import StorageFull
from bot.core.store import Store
from bot.core.verify import verify_database
from bot.text.present import action_code
from engine import TakeMoney

#: what a player must never read about a move the store accepted
NOT_SAVED = ("not saved", "nothing changed", "The game is unchanged")


def moves(db_path, game_id: int) -> int:
    with connect_db(db_path) as conn:
        row = conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
    return int(row[0])


def computer_moves(db_path, game_id: int) -> int:
    with connect_db(db_path) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM actions a JOIN seats s ON s.game_id = a.game_id "
            "AND s.seat = a.seat WHERE a.game_id = ? AND s.kind = 'computer'",
            (game_id,),
        ).fetchone()
    return int(row[0])


async def with_a_computer(sim: FakeDiscord, level: str = "easy"):
    """Ana and a computer player at a table in ana's server, the game started."""
    ana = sim.user("ana")
    guild = sim.guild("Club", owner=ana)
    channel = sim.channel(guild, "alhambra")
    await open_game(sim, ana, channel)
    await sim.slash(ana, "alhambra add-bot", channel=channel, level=level)
    await sim.slash(ana, "alhambra start", channel=channel)
    return ana, channel


async def anas_turn(sim: FakeDiscord, bot, db_path, channel, ana) -> tuple[int, object]:
    """Wait until the computer has played and it is ana's turn; (game id, state)."""

    def hers() -> bool:
        _, game, seats = stored_game(db_path, channel.id)
        return game is not None and seats.get(game.current_seat) == ana.id

    await sim.wait_until(hers, timeout=60)
    await bot.calm()
    game_id, game, _ = stored_game(db_path, channel.id)
    return game_id, game


async def take(sim: FakeDiscord, db_path, channel, user):
    """`/alhambra take` of the first money on offer: a move that ends the turn."""
    _, game, _ = stored_game(db_path, channel.id)
    move = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    return await sim.slash(user, "alhambra take", channel=channel, cards=action_code(move))


def has_picture(result) -> bool:
    return any(m.attachments for m in result.messages)


async def test_a_worker_killed_between_two_pictures_costs_nobody_an_answer(
    sim, run_bot, make_bot
) -> None:
    """The OOM killer takes the only worker while it is idle. The next picture is drawn by a
    fresh pool at once; and a worker killed with nobody asking is replaced by the supervisor
    before anyone meets the broken pool."""
    ana, bruno = sim.user("ana"), sim.user("bruno")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot(workers=1)) as bot:
        await open_game(sim, ana, channel)
        await sim.slash(bruno, "alhambra join", channel=channel)
        await sim.slash(ana, "alhambra start", channel=channel)
        await bot.calm()
        hand = await sim.slash(ana, "alhambra hand", channel=channel, timeout=60)
        assert has_picture(hand), hand.text
        (first,) = bot.workers.pids()

        os.kill(first, signal.SIGKILL)
        await sim.wait_until(lambda: first not in bot.workers.pids(), timeout=10)
        for user, command in ((ana, "alhambra hand"), (bruno, "alhambra scores")):
            answer = await sim.slash(user, command, channel=channel, timeout=60)
            assert has_picture(answer), answer.text
            assert "went wrong" not in answer.text and "busy" not in answer.text

        (second,) = bot.workers.pids()
        assert second != first
        os.kill(second, signal.SIGKILL)  # nobody asks for a picture now: a fresh worker
        # is started all the same, within the supervisor's few seconds
        await sim.wait_until(lambda: bool(set(bot.workers.pids()) - {first, second}), timeout=15)
        hand = await sim.slash(ana, "alhambra hand", channel=channel, timeout=60)
        assert has_picture(hand), hand.text


async def test_a_computer_plays_once_its_stopped_workers_are_released(
    sim, run_bot, make_bot, db_path
) -> None:
    """Every worker is stopped (SIGSTOP) from the move that hands the turn to a computer
    player on: the turn message's picture and the computer's decisions time out, the pool is
    replaced and its workers are stopped too. Once they are released, the computer plays
    within a minute, without a restart."""
    async with run_bot(make_bot(workers=1, work_timeout=2)) as bot:
        ana, channel = await with_a_computer(sim)
        game_id, _ = await anas_turn(sim, bot, db_path, channel, ana)
        played = computer_moves(db_path, game_id)
        stopped: set[int] = set()
        holding = True

        async def stop_every_worker() -> None:
            while holding:
                for pid in set(bot.workers.pids()) - stopped:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGSTOP)
                    stopped.add(pid)
                await asyncio.sleep(0.01)

        stopper = asyncio.create_task(stop_every_worker())
        try:
            await sim.wait_until(lambda: bool(stopped), timeout=10)
            done = await take(sim, db_path, channel, ana)
            assert not any(words in done.text for words in NOT_SAVED), done.text
            # the decision times out (2 s), more than once, and the pool with it
            await sim.wait_until(lambda: len(stopped) >= 3, timeout=30)
            assert computer_moves(db_path, game_id) == played
        finally:
            holding = False
            await stopper
            for pid in stopped:  # released: the stopped ones go on (or are gone already)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
        await sim.wait_until(lambda: computer_moves(db_path, game_id) > played, timeout=60)
        await anas_turn(sim, bot, db_path, channel, ana)  # and the turn comes back to her


async def test_the_sweep_sets_a_computer_going_when_even_its_retry_could_not_be_written(
    sim, run_bot, make_bot, db_path, monkeypatch
) -> None:
    """The computer's decision times out (its worker is stopped) and the disk is full, so not
    even its retry can be written: the periodic sweep finds the game waiting on a computer and
    sets it going once the trouble has passed."""
    from bot.discord_app import client

    monkeypatch.setattr(client, "SWEEP_EVERY_S", 1.0, raising=False)
    async with run_bot(make_bot(workers=1, work_timeout=1)) as bot:
        ana, channel = await with_a_computer(sim)
        game_id, _ = await anas_turn(sim, bot, db_path, channel, ana)
        played = computer_moves(db_path, game_id)
        retries: list[int] = []

        async def full_disk(game_id: int, due, attempts: int) -> None:
            retries.append(attempts)
            raise StorageFull()

        (worker,) = bot.workers.pids()
        with pytest.MonkeyPatch.context() as disk:  # full until the block ends
            disk.setattr(bot.services.schedule, "computers_later", full_disk, raising=False)
            os.kill(worker, signal.SIGSTOP)
            try:
                await take(sim, db_path, channel, ana)
                await sim.wait_until(lambda: bool(retries), timeout=30)
            finally:  # released (or replaced already: its decision timed out)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker, signal.SIGCONT)
        await sim.wait_until(lambda: computer_moves(db_path, game_id) > played, timeout=60)
        await anas_turn(sim, bot, db_path, channel, ana)


class FailingWrites:
    """The store of a running bot whose writes fail (as on a full disk) for a while: armed
    right after a move of `user_id` was committed, the `skip`+1-th write transaction after it
    raises `StorageFull`, the others go through. A fault at the store's edge, on the real
    database: the commit that went before it stays."""

    def __init__(self, bot, user_id: int, skip: int) -> None:
        self.store: Store = bot.store
        self.services = bot.services
        self.user_id, self.skip = user_id, skip
        self.armed = False
        self.failed = 0
        self._write = self.store.write
        self._act = self.services.play.act

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(self.services.play, "act", self.act)
        monkeypatch.setattr(self.store, "write", self.write)

    async def act(self, game_id, user_id, *args, **kwargs):
        result = await self._act(game_id, user_id, *args, **kwargs)
        if user_id == self.user_id and not self.failed:
            self.armed = True  # committed: now the writes that follow it
        return result

    def write(self, *args, **kwargs):
        if self.armed:
            if self.skip == 0:
                self.armed = False
                self.failed += 1
                raise StorageFull()
            self.skip -= 1
        return self._write(*args, **kwargs)


#: the writes that follow a person's move that ends their turn (their undo window is zero)
AFTER_THE_MOVE = ("ending the turn", "noting it told and arming the next", "the computer's move")


@pytest.mark.parametrize("failing", range(len(AFTER_THE_MOVE)), ids=AFTER_THE_MOVE.__getitem__)
async def test_a_write_failing_right_after_a_move_leaves_it_saved_and_the_game_going(
    sim, run_bot, make_bot, db_path, monkeypatch, failing
) -> None:
    """The first (second, third) write after the move's commit fails, as a disk that fills or
    a database that fails over at that moment would: ending the turn, noting the turn told
    with the next turn's timers, the computer's move. The player is told their move was done,
    never that it was not saved, and the next turn is told and played by the computer, by
    itself."""
    async with run_bot(make_bot()) as bot:
        ana, channel = await with_a_computer(sim)
        game_id, _ = await anas_turn(sim, bot, db_path, channel, ana)
        played, before = computer_moves(db_path, game_id), moves(db_path, game_id)
        faults = FailingWrites(bot, ana.id, failing)
        faults.install(monkeypatch)
        done = await take(sim, db_path, channel, ana)
        await sim.wait_until(lambda: faults.failed == 1, timeout=30)  # the fault was met
        assert not any(words in done.text for words in NOT_SAVED), done.text
        assert "Done" in done.text or "saved" in done.text, done.text
        assert moves(db_path, game_id) > before  # the move stands
        # the computer plays its turn and the game comes back to ana, with no restart
        await sim.wait_until(lambda: computer_moves(db_path, game_id) > played, timeout=60)
        await anas_turn(sim, bot, db_path, channel, ana)
    report = verify_database(db_path)
    assert report.ok, report.problems
