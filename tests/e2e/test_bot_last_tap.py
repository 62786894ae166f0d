"""A forgiving last tap, through the fake Discord with a manual clock: after the last decision
of a turn the turn waits for the player's undo window before it ends ("Your turn ends in 10
seconds [Undo] [End turn now]"); undo inside it, the end after it, the end on demand, a restart
inside it, and the per-user settings (0 = at once, or always ask)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from database import connect as connect_db
from fake_discord import FakeDiscord
from fake_discord.errors import SimulationError
from fake_discord.models import Message
from players import stored_game

from bot.core.clock import ManualClock
from bot.text.present import action_code
from engine import TakeMoney

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)


def held_timers(db_path) -> list[tuple]:
    with connect_db(db_path) as conn:
        return conn.execute("SELECT seat, version FROM timers WHERE kind = 'end_turn'").fetchall()


async def table(sim: FakeDiscord, names: list[str]):
    users = [sim.user(n) for n in names]
    guild = sim.guild("Club", owner=users[0])
    for user in users[1:]:
        sim.member(guild, user)
    return sim.channel(guild, "alhambra"), users


async def start(sim: FakeDiscord, channel, users) -> None:
    await sim.slash(users[0], "alhambra new", channel=channel, thread=False)
    for user in users[1:]:
        await sim.slash(user, "alhambra join", channel=channel)
    await sim.slash(users[0], "alhambra start", channel=channel)


def to_play(db_path, channel, users):
    _, game, seats = stored_game(db_path, channel.id)
    by_id = {u.id: u for u in users}
    player = by_id[seats[game.current_seat]]
    return player, [u for u in users if u is not player]


async def settle(bot) -> None:
    await bot.timers.started.wait()
    await bot.timers.run_due()
    await bot.calm()


async def take_by_buttons(sim: FakeDiscord, channel, user, panel: Message | None = None):
    """Open the take panel from the turn message (or use `panel`) and take the first offer;
    returns the panel once the bot redrew it."""
    if panel is None:
        turn = sim.channel_messages(channel)[-1]
        opened = await sim.click(user, turn, "Take money")
        panel = opened.response
        assert panel is not None and panel.ephemeral, opened.text
    else:
        edits = panel.edits
        await sim.click(user, panel, "Take money")
        await sim.wait_until(lambda: panel.edits > edits)
    select = panel.selects()[0]
    edits = panel.edits
    await sim.select(user, panel, select["custom_id"], [select["options"][0]["value"]])
    await sim.wait_until(lambda: panel.edits > edits)
    return panel


async def test_the_last_tap_waits_for_the_undo_window(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock, undo_window=10)) as bot:
        await start(sim, channel, users)
        await bot.calm()
        first, (second,) = to_play(db_path, channel, users)
        posts = len(sim.channel_messages(channel))

        panel = await take_by_buttons(sim, channel, first)
        due = int((T0 + timedelta(seconds=10)).timestamp())
        assert f"Your turn ends <t:{due}:R>" in panel.content, panel.content
        assert {"Undo", "End turn now"} <= set(panel.button_labels())
        assert to_play(db_path, channel, users)[0] is first  # not final yet
        assert len(sim.channel_messages(channel)) == posts  # and nothing told
        assert len(held_timers(db_path)) == 1

        # undo inside the window: the money goes back and nothing ends the turn later
        clock.advance(timedelta(seconds=5))
        edits = panel.edits
        await sim.click(first, panel, "Undo")
        await sim.wait_until(lambda: panel.edits > edits)
        assert "Your money" in panel.content and "Take money" in panel.button_labels()
        assert held_timers(db_path) == []
        clock.advance(timedelta(minutes=1))
        await settle(bot)
        assert to_play(db_path, channel, users)[0] is first
        assert len(sim.channel_messages(channel)) == posts

        # take again and let the window pass: the turn ends by itself and is told
        panel = await take_by_buttons(sim, channel, first, panel)
        assert "Your turn ends" in panel.content
        clock.advance(timedelta(seconds=9))
        await settle(bot)
        assert to_play(db_path, channel, users)[0] is first  # one second left
        clock.advance(timedelta(seconds=2))
        await settle(bot)
        assert to_play(db_path, channel, users)[0] is second
        assert f"<@{second.id}>" in sim.channel_messages(channel)[-1].content
        assert held_timers(db_path) == []

        # a late undo is refused in words and changes nothing
        before = connect_db(db_path).execute("SELECT version FROM games").fetchone()
        late = await sim.click(first, panel, "Undo")
        assert "Too late: your turn has ended" in late.text, late.text
        after = connect_db(db_path).execute("SELECT version FROM games").fetchone()
        assert before == after


async def test_end_turn_now_ends_it_at_once(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock, undo_window=10)) as bot:
        await start(sim, channel, users)
        await bot.calm()
        first, (second,) = to_play(db_path, channel, users)
        panel = await take_by_buttons(sim, channel, first)
        edits = panel.edits
        await sim.click(first, panel, "End turn now")
        await sim.wait_until(lambda: panel.edits > edits)
        await bot.calm()
        assert panel.content == "Your turn is over."
        assert to_play(db_path, channel, users)[0] is second
        assert held_timers(db_path) == []
        fired = bot.timers.fired
        clock.advance(timedelta(minutes=1))
        await settle(bot)
        assert bot.timers.fired == fired  # nothing left to end


async def test_a_restart_inside_the_window_keeps_it(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock, undo_window=10)) as bot:
        await start(sim, channel, users)
        await bot.calm()
        first, (second,) = to_play(db_path, channel, users)
        await take_by_buttons(sim, channel, first)
    clock.advance(timedelta(seconds=4))
    async with run_bot(make_bot(clock=clock, undo_window=10)) as bot:
        await settle(bot)
        # the start-up does not end a held turn early, and the panel still says when it ends
        assert to_play(db_path, channel, users)[0] is first
        turn = sim.channel_messages(channel)[-1]
        opened = await sim.click(first, turn, "Take money")
        assert opened.response is not None and "Your turn ends" in opened.response.content
        assert "Undo" in opened.response.button_labels()
        clock.advance(timedelta(seconds=7))
        await settle(bot)
        assert to_play(db_path, channel, users)[0] is second
        assert f"<@{second.id}>" in sim.channel_messages(channel)[-1].content


async def test_a_restart_after_the_window_ends_the_turn(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock, undo_window=10)) as bot:
        await start(sim, channel, users)
        await bot.calm()
        first, (second,) = to_play(db_path, channel, users)
        await take_by_buttons(sim, channel, first)
    clock.advance(timedelta(hours=1))  # the bot was down when the window closed
    async with run_bot(make_bot(clock=clock, undo_window=10)) as bot:
        await settle(bot)
        assert to_play(db_path, channel, users)[0] is second
        turns = [m for m in sim.channel_messages(channel) if f"<@{second.id}>" in m.content]
        assert len(turns) == 1  # told once, though both the timer and the start-up could


async def test_each_player_chooses_their_window(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock, undo_window=10)) as bot:
        await start(sim, channel, users)
        await bot.calm()
        first, (second,) = to_play(db_path, channel, users)
        said = await sim.slash(first, "alhambra settings", channel=channel, undo_window=0)
        assert "My turn ends at once after my last decision." in said.content, said.content
        said = await sim.slash(second, "alhambra settings", channel=channel, auto_end_turn=False)
        assert "My turn ends when I press End turn." in said.content
        said = await sim.slash(second, "alhambra settings", channel=channel)
        assert "My turn ends when I press End turn." in said.content  # kept
        # 0: the last tap ends the turn, no window
        panel = await take_by_buttons(sim, channel, first)
        assert panel.content == "Your turn is over."
        await bot.calm()
        assert to_play(db_path, channel, users)[0] is second
        # always ask: no countdown, the player ends it
        panel = await take_by_buttons(sim, channel, second)
        assert (
            "Nothing is left to decide" in panel.content and "Your turn ends" not in panel.content
        )
        assert "End turn" in panel.button_labels() and held_timers(db_path) == []
        clock.advance(timedelta(minutes=5))
        await settle(bot)
        assert to_play(db_path, channel, users)[0] is second
        # choosing a window is choosing that the turn ends by itself
        said = await sim.slash(second, "alhambra settings", channel=channel, undo_window=3)
        assert "My turn ends 3 seconds after my last decision" in said.content
        edits = panel.edits
        await sim.click(second, panel, "End turn")
        await sim.wait_until(lambda: panel.edits > edits)
        assert to_play(db_path, channel, users)[0] is first


async def test_a_slash_command_move_is_held_too(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock, undo_window=10)) as bot:
        await start(sim, channel, users)
        await bot.calm()
        first, _ = to_play(db_path, channel, users)
        _, game, _ = stored_game(db_path, channel.id)
        take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
        done = await sim.slash(first, "alhambra take", channel=channel, cards=action_code(take))
        assert "Your turn ends" in done.content, done.content
        panel = done.response
        assert panel is not None and {"Undo", "End turn now"} <= set(panel.button_labels())
        edits = panel.edits
        await sim.click(first, panel, "Undo")
        await sim.wait_until(lambda: panel.edits > edits)
        assert to_play(db_path, channel, users)[0] is first and held_timers(db_path) == []


async def test_a_bad_window_is_refused_and_changes_nothing(sim, run_bot, make_bot, db_path):
    channel, users = await table(sim, ["ana"])
    async with run_bot(make_bot()):
        said = await sim.slash(users[0], "alhambra settings", channel=channel, undo_window=3)
        assert "3 seconds" in said.content
        with pytest.raises(SimulationError, match="outside"):  # the command declares its range
            await sim.slash(users[0], "alhambra settings", channel=channel, undo_window=61)
        with pytest.raises(SimulationError, match="not one of the choices"):
            await sim.slash(users[0], "alhambra settings", channel=channel, notify="loud")
        said = await sim.slash(users[0], "alhambra settings", channel=channel)
        assert "My turn ends 3 seconds after my last decision" in said.content
