"""Games that span days, through the fake Discord with a manual clock: turn DMs and mentions,
reminders (configured times, quiet hours, one DM for several games), blocked DMs, deadlines
and their policies, hand-over after missed deadlines, restarts with pending timers, and votes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from database import connect as connect_db
from fake_discord import FakeDiscord
from players import open_game, stored_game

from bot.core.clock import ManualClock
from bot.text.present import action_code
from engine import TakeMoney

#: also on PostgreSQL in the default run (tests/e2e/database.py)
pytestmark = pytest.mark.both_engines

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)  # 18:00 in Tokyo


def db_rows(db_path, sql: str, *params) -> list[tuple]:
    with connect_db(db_path) as conn:
        return conn.execute(sql, params).fetchall()


async def table(sim: FakeDiscord, names: list[str], channel: str = "alhambra"):
    users = [sim.user(n) for n in names]
    guild = sim.guild("Club", owner=users[0])
    for user in users[1:]:
        sim.member(guild, user)
    return guild, sim.channel(guild, channel), users


async def start(sim: FakeDiscord, channel, users, bots: int = 0, **options):
    await open_game(sim, users[0], channel, **options)
    for user in users[1:]:
        await sim.slash(user, "alhambra join", channel=channel)
    for _ in range(bots):
        await sim.slash(users[0], "alhambra add-bot", channel=channel, level="random")
    await sim.slash(users[0], "alhambra start", channel=channel)


def to_play(db_path, channel, users):
    """(user to play, the others) in the channel's game."""
    _, game, seats = stored_game(db_path, channel.id)
    by_id = {u.id: u for u in users}
    player = by_id.get(seats[game.current_seat])
    return player, [u for u in users if u is not player]


async def take_money(sim: FakeDiscord, db_path, channel, user) -> None:
    _, game, _ = stored_game(db_path, channel.id)
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    done = await sim.slash(user, "alhambra take", channel=channel, cards=action_code(take))
    assert "Done" in done.content or "turn" in done.content, done.content


def reminders(sim: FakeDiscord, user) -> list:
    return [m for m in sim.dms(user) if "waiting for your move" in m.content]


async def settle(bot) -> None:
    """Fire what is due now (the test moved the clock) and wait for what that started."""
    await bot.timers.started.wait()
    await bot.timers.run_due()
    await bot.calm()


async def test_turn_start_dm_and_channel_mention(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    guild, channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock)) as bot:
        await start(sim, channel, users)
        first, (second,) = to_play(db_path, channel, users)
        await bot.calm()
        turn = sim.channel_messages(channel)[-1]
        assert f"<@{first.id}>" in turn.content
        [dm] = sim.dms(first)
        assert (
            "It is your turn" in dm.content and "Club" in dm.content and "#alhambra" in dm.content
        )
        assert f"https://discord.com/channels/{guild.id}/{channel.id}/{turn.id}" in dm.content
        # the DM brings what the channel does not show: the hand, and what it buys
        assert [a.filename for a in dm.attachments] == ["hand.png"]
        assert dm.attachments[0].description  # the hand in words
        assert "Your money:" in dm.content and "you have" in dm.content
        # ...and the turn message what everybody sees: the picture, the game's progress, and
        # the market, the pool and the leaders in words one click away
        [embed] = turn.embeds
        assert "buildings left in the supply" in embed["description"]
        details = (await sim.click(first, turn, "Details")).response
        assert details.ephemeral
        assert "**Market**" in details.content and "**Money**" in details.content
        assert "scoring round 1 would pay" in details.content
        assert sim.dms(second) == []

        clock.advance(timedelta(hours=3))
        await take_money(sim, db_path, channel, first)
        await bot.calm()
        assert f"<@{second.id}>" in sim.channel_messages(channel)[-1].content
        [dm] = sim.dms(second)
        assert "Since your last turn" in dm.content and f"{first.name} took" in dm.content

        clock.advance(timedelta(hours=3))
        await take_money(sim, db_path, channel, second)
        await bot.calm()
        assert len(sim.dms(first)) == 2
        assert f"{second.name} took" in sim.dms(first)[-1].content
        assert f"{first.name} took" not in sim.dms(first)[-1].content  # only since my turn

        # playing live (a move minutes ago): the mention is enough, no DM
        clock.advance(timedelta(minutes=1))
        await take_money(sim, db_path, channel, first)
        await bot.calm()
        assert len(sim.dms(second)) == 1


async def test_reminders_at_the_configured_times_and_not_in_quiet_hours(
    sim, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    _, channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock)) as bot:
        bad = await sim.slash(users[0], "alhambra settings", channel=channel, quiet_hours="late")
        assert bad.ephemeral and "could not read the quiet hours" in bad.content
        for user in users:
            saved = await sim.slash(
                user,
                "alhambra settings",
                channel=channel,
                first_reminder=2,
                repeat=3,
                quiet_hours="22-7",
                timezone="Asia/Tokyo",
            )
            assert "First reminder after 2 h, then every 3 h" in saved.content
            assert "22:00-07:00 (Asia/Tokyo)" in saved.content
        await start(sim, channel, users)
        player, (other,) = to_play(db_path, channel, users)
        await settle(bot)
        assert reminders(sim, player) == []

        def at(hours: float):
            clock.set(T0 + timedelta(hours=hours))

        at(1.99)
        await settle(bot)
        assert reminders(sim, player) == []
        at(2)  # 20:00 in Tokyo
        await settle(bot)
        assert len(reminders(sim, player)) == 1
        at(5)  # 23:00 in Tokyo: quiet, so it waits for 07:00 (22:00 UTC)
        await settle(bot)
        at(12.99)
        await settle(bot)
        assert len(reminders(sim, player)) == 1
        at(13)
        await settle(bot)
        assert len(reminders(sim, player)) == 2
        assert reminders(sim, other) == []


async def test_one_combined_reminder_for_three_waiting_games(
    sim, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    ana = sim.user("ana")
    guild = sim.guild("Club", owner=ana)
    channels = [sim.channel(guild, f"table-{i}") for i in range(3)]
    async with run_bot(make_bot(clock=clock)) as bot:
        for channel in channels:
            await start(sim, channel, [ana], bots=1)
            await bot.calm()
        waiting = await bot.services.people.games_waiting_on(ana.id)
        assert len(waiting) == 3
        mine = await sim.slash(ana, "alhambra mygames", channel=channels[0])
        assert mine.ephemeral and "Games waiting on you (3)" in mine.content
        assert all(f"/{c.id}/" in mine.content for c in channels)

        clock.advance(timedelta(hours=12))
        await settle(bot)
        [reminder] = reminders(sim, ana)
        assert "3 games waiting" in reminder.content
        assert all(f"/{c.id}/" in reminder.content for c in channels)
        clock.advance(timedelta(hours=12))
        await settle(bot)
        assert len(reminders(sim, ana)) == 1  # the next one is a day after the last
        clock.advance(timedelta(hours=12))
        await settle(bot)
        assert len(reminders(sim, ana)) == 2


async def test_a_blocked_dm_falls_back_to_one_channel_mention_per_turn(
    sim, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    _, channel, (ana,) = await table(sim, ["ana"])
    sim.block_dms(ana)
    async with run_bot(make_bot(clock=clock)) as bot:
        await start(sim, channel, [ana], bots=1)
        await bot.calm()
        dm = sim.dm_channel(ana)
        assert len(sim.requests_to("POST", f"/channels/{dm.id}/messages")) == 1  # refused

        def nudges() -> list:
            return [
                m
                for m in sim.channel_messages(channel)
                if "still waiting for your move" in m.content and f"<@{ana.id}>" in m.content
            ]

        for _ in range(3):  # 12 h, 36 h, 60 h into the turn
            clock.advance(timedelta(hours=12 if not nudges() else 24))
            await settle(bot)
        assert len(nudges()) == 1
        assert len(sim.requests_to("POST", f"/channels/{dm.id}/messages")) == 1

        await take_money(sim, db_path, channel, ana)  # the next turn, after the computer's
        await bot.calm()
        clock.advance(timedelta(hours=12))
        await settle(bot)
        clock.advance(timedelta(hours=24))
        await settle(bot)
        assert len(nudges()) == 2
        assert len(sim.requests_to("POST", f"/channels/{dm.id}/messages")) == 1


async def test_a_passed_deadline_makes_the_computer_play_or_skips(
    sim, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    _, played, users = await table(sim, ["ana", "bruno"])
    skipped = sim.channel(played.guild, "skipping")
    async with run_bot(make_bot(clock=clock)) as bot:
        await start(sim, played, users, deadline=24)
        await start(sim, skipped, users, deadline=24, deadline_policy="skip")
        await bot.calm()
        late = {ch.id: to_play(db_path, ch, users)[0] for ch in (played, skipped)}
        clock.advance(timedelta(hours=23, minutes=59))
        await settle(bot)
        assert all(to_play(db_path, ch, users)[0] is late[ch.id] for ch in (played, skipped))
        clock.advance(timedelta(minutes=1))
        await settle(bot)
        for channel, policy in ((played, "computer"), (skipped, "skip")):
            game_id, _, _ = stored_game(db_path, channel.id)
            player = late[channel.id]
            assert to_play(db_path, channel, users)[0] is not player
            texts = [m.content for m in sim.channel_messages(channel)]
            word = "plays this turn" if policy == "computer" else "is skipped"
            assert any(player.name in t and word in t for t in texts)
            kinds = [
                (json.loads(a)["kind"],)
                for (a,) in db_rows(
                    db_path,
                    "SELECT action FROM actions WHERE game_id = ? AND user_id IS NULL",
                    game_id,
                )
            ]
            if policy == "skip":
                assert kinds == [("skip",)]
            else:
                assert kinds and ("skip",) not in kinds
            assert db_rows(db_path, "SELECT kind FROM seats WHERE game_id = ?", game_id) == [
                ("human",),
                ("human",),
            ]
            # the next player's turn has its own deadline
            assert db_rows(
                db_path, "SELECT kind FROM timers WHERE game_id = ? ORDER BY kind", game_id
            ) == [("deadline",), ("reminder",)]


@pytest.mark.parametrize("rated", [False, True])
async def test_missed_deadlines_in_a_row_hand_the_seat_to_a_computer(
    sim, run_bot, make_bot, db_path, rated: bool
) -> None:
    clock = ManualClock(T0)
    _, channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock)) as bot:
        await start(
            sim,
            channel,
            users,
            deadline=24,
            deadline_policy="skip",
            missed_deadlines=2,
            rated=rated,
        )
        await bot.calm()
        silent, (active,) = to_play(db_path, channel, users)
        clock.advance(timedelta(hours=24))
        await settle(bot)  # the silent player's turn is skipped (1 of 2)
        await take_money(sim, db_path, channel, active)
        await bot.calm()
        clock.advance(timedelta(hours=24))
        await settle(bot)
        game_id, _, seats = stored_game(db_path, channel.id)
        texts = [m.content for m in sim.channel_messages(channel)]
        said = next(t for t in texts if f"{silent.name} missed 2 turn deadlines in a row" in t)
        assert ("The game is rated, so" in said) == rated  # a rated game counts them last
        assert silent.id not in seats.values()
        assert db_rows(
            db_path, "SELECT user_id, cause FROM forfeits WHERE game_id = ?", game_id
        ) == [(silent.id, "deadlines")]
        assert db_rows(
            db_path,
            "SELECT level FROM seats WHERE game_id = ? AND kind = ?",
            game_id,
            "computer",
        ) == [("normal",)]  # the stand-in level unless the host chose another
        # the computer player played that turn: it is the active player's turn again
        assert to_play(db_path, channel, users)[0] is active


async def test_the_stand_in_plays_at_the_level_the_host_chose(
    sim, run_bot, make_bot, db_path, monkeypatch
) -> None:
    import bot.turns.flow as flow

    asked: list[tuple[int, str]] = []  # (seat, level) of every computer decision
    decide = flow.decide

    async def spy(services, game_id: int, seat: int, level: str):
        asked.append((seat, level))
        return await decide(services, game_id, seat, level)

    monkeypatch.setattr(flow, "decide", spy)
    clock = ManualClock(T0)
    _, channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock)) as bot:
        lobby = await open_game(
            sim, users[0], channel, deadline=24, stand_in="expert", missed_deadlines=2
        )
        assert (
            "A computer player (expert) plays a missed turn, and takes the seat after 2 missed "
            "deadlines in a row"
        ) in lobby.text
        await sim.slash(users[1], "alhambra join", channel=channel)
        await sim.slash(users[0], "alhambra start", channel=channel)
        await bot.calm()
        game_id, game, _ = stored_game(db_path, channel.id)
        assert db_rows(db_path, "SELECT stand_in_level FROM games WHERE id = ?", game_id) == [
            ("expert",)
        ]
        silent, (active,) = to_play(db_path, channel, users)
        seat = game.current_seat
        assert asked == []

        clock.advance(timedelta(hours=24))
        await settle(bot)  # the first missed deadline: an expert plays the turn for them
        texts = [m.content for m in sim.channel_messages(channel)]
        assert any(f"{silent.name} let the turn deadline pass" in t for t in texts)
        assert asked and set(asked) == {(seat, "expert")}
        assert to_play(db_path, channel, users)[0] is active
        played = db_rows(
            db_path, "SELECT COUNT(*) FROM actions WHERE game_id = ? AND user_id IS NULL", game_id
        )
        assert played[0][0] == len(asked)  # each of its decisions was played for the seat

        await take_money(sim, db_path, channel, active)
        await bot.calm()
        clock.advance(timedelta(hours=24))
        await settle(bot)  # the second in a row: an expert takes the seat for good
        texts = [m.content for m in sim.channel_messages(channel)]
        assert any(f"{silent.name} missed 2 turn deadlines in a row" in t for t in texts)
        assert db_rows(
            db_path, "SELECT kind, level FROM seats WHERE game_id = ? AND user_id IS NULL", game_id
        ) == [("computer", "expert")]
        assert {level for _, level in asked} == {"expert"}  # and it plays as one
        assert to_play(db_path, channel, users)[0] is active


async def test_a_restart_with_pending_timers_fires_each_due_timer_once(
    sim, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    _, channel, users = await table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock)) as bot:
        await start(sim, channel, users, deadline=24, deadline_policy="skip")
        await bot.calm()
    late, _ = to_play(db_path, channel, users)
    dms_before = len(sim.dms(late))
    clock.advance(timedelta(hours=30))  # both the 12 h reminder and the 24 h deadline are due
    async with run_bot(make_bot(clock=clock)) as bot:
        await settle(bot)
        assert bot.timers.fired == 2
        assert await bot.timers.run_due() == 0
    async with run_bot(make_bot(clock=clock)) as bot:  # and again: nothing fires twice
        await settle(bot)
        assert bot.timers.fired == 0
    game_id, _, _ = stored_game(db_path, channel.id)
    assert len(reminders(sim, late)) == 1 and len(sim.dms(late)) == dms_before + 1
    actions = db_rows(db_path, "SELECT action FROM actions WHERE game_id = ?", game_id)
    assert sum(json.loads(a)["kind"] == "skip" for (a,) in actions) == 1
    texts = [m.content for m in sim.channel_messages(channel)]
    assert sum("is skipped" in t for t in texts) == 1


async def test_a_vote_to_abandon_ends_the_game_for_everyone(
    sim, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    _, channel, users = await table(sim, ["ana", "bruno", "chiyo"])
    ana, bruno, chiyo = users
    async with run_bot(make_bot(clock=clock)) as bot:
        await start(sim, channel, users, deadline=48)
        await bot.calm()
        turn = sim.channel_messages(channel)[-1]
        first = await sim.slash(ana, "alhambra vote", channel=channel, motion="abandon")
        assert not first.ephemeral and "1 of 2 votes" in first.content
        again = await sim.slash(ana, "alhambra vote", channel=channel, motion="abandon")
        assert again.ephemeral and "already voted" in again.content
        done = await sim.slash(bruno, "alhambra vote", channel=channel, motion="abandon")
        assert "voted to abandon the game" in done.content
        await bot.calm()
        game_id, _, _ = stored_game(db_path, channel.id)
        assert db_rows(db_path, "SELECT status FROM games WHERE id = ?", game_id) == [
            ("abandoned",)
        ]
        assert db_rows(db_path, "SELECT COUNT(*) FROM timers WHERE game_id = ?", game_id) == [(0,)]
        assert turn.buttons() == []
        for user in users:
            refused = await sim.slash(user, "alhambra take", channel=channel, cards="CR1")
            assert refused.ephemeral and "no Alhambra game" in refused.content
        mine = await sim.slash(chiyo, "alhambra mygames", channel=channel)
        assert "No game is waiting on you" in mine.content


async def test_a_vote_hands_a_silent_players_seat_to_a_computer(
    sim, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    _, channel, users = await table(sim, ["ana", "bruno", "chiyo"])
    async with run_bot(make_bot(clock=clock)) as bot:
        await start(sim, channel, users)
        await bot.calm()
        silent, voters = to_play(db_path, channel, users)
        clock.advance(timedelta(hours=48))  # their turn has waited: they are silent
        for voter in voters:
            result = await sim.slash(
                voter, "alhambra vote", channel=channel, motion="hand_over", player=silent.name
            )
        assert f"takes over {silent.name}'s seat" in result.content
        assert "counts as last place" not in result.content  # not a rated game
        await bot.calm()
        game_id, _, seats = stored_game(db_path, channel.id)
        assert silent.id not in seats.values()
        assert db_rows(
            db_path, "SELECT user_id, cause FROM forfeits WHERE game_id = ?", game_id
        ) == [(silent.id, "vote")]
        assert to_play(db_path, channel, users)[0] is not silent
