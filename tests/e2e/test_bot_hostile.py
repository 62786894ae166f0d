"""Findings of a hostile-input review, each reproduced through the fake Discord: forged
components from elsewhere, a refused turn message, names that look like mentions, long input."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime, timedelta

from database import connect as connect_db
from fake_discord import FakeDiscord
from fake_discord.errors import InteractionNotAnswered
from players import open_game, stored_game
from test_bot_play import current_user, new_table, snapshot, start

from bot.core.clock import ManualClock
from bot.text.present import action_code
from engine import TakeMoney

COMPONENT = 2


def seats_of(db_path, game_id: int) -> list[tuple]:
    with connect_db(db_path) as conn:
        return conn.execute(
            "SELECT join_order, user_id FROM seats WHERE game_id = ? ORDER BY join_order",
            (game_id,),
        ).fetchall()


async def test_forged_lobby_buttons_from_elsewhere_change_nothing(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    guild, channel, users = await new_table(sim, ["ana", "bruno"])
    stranger = sim.user("mallory")
    other_guild = sim.guild("Elsewhere", owner=stranger)
    elsewhere = sim.channel(other_guild, "general")
    sim.member(guild, stranger)
    same_server = sim.channel(guild, "off-topic")
    async with run_bot(make_bot()):
        lobby = (await open_game(sim, users[0], channel)).response
        game_id = stored_game(db_path, channel.id)[0]
        before = seats_of(db_path, game_id)
        join = {"custom_id": f"alh:lobby:{game_id}:0:join", "component_type": COMPONENT}
        for where in (elsewhere, sim.dm_channel(stranger), same_server):
            forged = await sim.forge(stranger, where, join, source=lobby)
            assert forged.ephemeral and "no Alhambra game in this channel" in forged.content
        assert seats_of(db_path, game_id) == before
        # from the game's own channel the same button works
        joined = await sim.forge(stranger, channel, join, source=lobby)
        assert not joined.ephemeral and len(seats_of(db_path, game_id)) == len(before) + 1


async def test_forged_board_log_and_panel_from_another_server_show_nothing(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    _, channel, users = await new_table(sim, ["ana", "bruno"])
    stranger = sim.user("mallory")
    elsewhere = sim.channel(sim.guild("Elsewhere", owner=stranger), "general")
    async with run_bot(make_bot()):
        turn = await start(sim, channel, users)
        game_id, _, player, _ = current_user(db_path, channel, users)
        state = snapshot(db_path, game_id)
        board = (await sim.click(player, turn, "Every Alhambra")).response
        panel = (await sim.click(player, turn, "Take money")).response
        forged = [
            ({"custom_id": f"alh:v:{game_id}:board", "component_type": 3, "values": ["0"]}, board),
            ({"custom_id": f"alh:t:{game_id}:0:log", "component_type": COMPONENT}, turn),
            (
                {
                    "custom_id": panel.selects()[0]["custom_id"],
                    "component_type": 3,
                    "values": ["a0"],
                },
                panel,
            ),
        ]
        for data, source in forged:
            for who in (stranger, player):
                result = await sim.forge(who, elsewhere, data, source=source)
                assert "no Alhambra game in this channel" in result.text, result.text
                assert not any(m.attachments for m in result.messages)
        assert snapshot(db_path, game_id) == state


async def test_forged_values_are_refused_not_misread(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    _, channel, users = await new_table(sim, ["ana", "bruno"])
    async with run_bot(make_bot()):
        turn = await start(sim, channel, users)
        game_id, _, player, _ = current_user(db_path, channel, users)
        state = snapshot(db_path, game_id)
        board = (await sim.click(player, turn, "Every Alhambra")).response
        for value in ("a-1", "a²", "aX", "a", "a99999"):  # a-1 once applied the last legal move
            data = {"custom_id": f"alh:b:{game_id}:0:{value}", "component_type": COMPONENT}
            try:
                result = await sim.forge(player, channel, data, source=turn, timeout=3)
            except InteractionNotAnswered:
                continue  # not one of the bot's components at all: Discord says it failed
            assert result.ephemeral and "went wrong" not in result.text, (value, result.text)
        for value in ("²", "9", "-1", "x" * 50):
            board_data = {
                "custom_id": f"alh:v:{game_id}:board",
                "component_type": 3,
                "values": [value],
            }
            result = await sim.forge(player, channel, board_data, source=board)
            assert "went wrong" not in result.text and not result.response.attachments
        huge = {"custom_id": f"alh:t:{'9' * 20}:0:hand", "component_type": COMPONENT}
        with contextlib.suppress(InteractionNotAnswered):  # not the bot's: nothing crashes
            await sim.forge(player, channel, huge, source=turn, timeout=2)
        assert snapshot(db_path, game_id) == state


async def test_a_refused_turn_message_does_not_stall_the_game(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    _, channel, users = await new_table(sim, ["ana"])
    async with run_bot(make_bot()) as bot:
        lobby = (await open_game(sim, users[0], channel)).response
        await sim.slash(users[0], "alhambra add-bot", channel=channel, level="easy")
        started = await sim.click(users[0], lobby, "Start")
        await started.wait_followups(1)
        await sim.wait_until(  # the computer opens if it sits first
            lambda: (
                stored_game(db_path, channel.id)[2].get(
                    stored_game(db_path, channel.id)[1].current_seat
                )
                is not None
            ),
            timeout=10,
        )
        game_id, game, player, _ = current_user(db_path, channel, users)
        version = snapshot(db_path, game_id)[0][0]
        take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
        await bot.calm()  # the first turn's DM has gone out: the next post is the turn message
        sim.fail_next("send_message", status=403)  # the bot lost Send Messages for a moment
        result = await sim.slash(player, "alhambra take", channel=channel, cards=action_code(take))
        assert "went wrong" not in result.text and "unchanged" not in result.text, result.text
        await bot.idle()
        # the computer player moved on, and it is the person's turn again with timers armed
        _, after, _ = stored_game(db_path, channel.id)
        assert after.current_seat == game.current_seat
        assert snapshot(db_path, game_id)[0][0] > version + 2
        # the refused post was the person's next turn message (a computer's turn posts
        # nothing): it waits for its retry, and the person's reminder is armed
        timers = await bot.services.schedule.timers_of(game_id)
        assert {t.kind for t in timers} == {"reminder", "announce"}


async def test_a_name_that_looks_like_a_mention_pings_nobody(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    guild, channel, users = await new_table(sim, ["ana", "bruno"])
    victim = sim.user("victim")
    sim.member(guild, victim)
    async with run_bot(make_bot()) as bot:
        lobby = (await open_game(sim, users[0], channel)).response
        sim.member(guild, users[1]).nick = f"<@{victim.id}>"
        await sim.click(users[1], lobby, "Join")
        started = await sim.click(users[0], lobby, "Start")
        await started.wait_followups(1)
        for _ in range(4):  # both players take money a few times: their names are in summaries
            _, game, player, _ = current_user(db_path, channel, users)
            take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
            await sim.slash(player, "alhambra take", channel=channel, cards=action_code(take))
            await bot.idle()
    messages = sim.channel_messages(channel)
    assert any(f"<@\u200b{victim.id}>" in m.content for m in messages)  # shown, inert
    pinged = set().union(*(m.pinged() for m in messages))
    assert victim.id not in pinged and pinged <= {u.id for u in users}
    for message in messages:  # a turn message pings the player to move, and only them
        assert len(message.pinged()) <= 1


async def test_long_input_gets_a_bounded_answer(sim: FakeDiscord, run_bot, make_bot) -> None:
    _, channel, users = await new_table(sim, ["ana", "bruno"])
    async with run_bot(make_bot()):
        await start(sim, channel, users)
        for options in (
            {"quiet_hours": "x" * 2100},
            {"timezone": "y" * 2100},
        ):
            result = await sim.slash(users[0], "alhambra settings", channel=channel, **options)
            assert result.ephemeral and 0 < len(result.text) <= 2000
        result = await sim.slash(users[0], "alhambra board", channel=channel, player="z" * 2100)
        assert result.ephemeral and 0 < len(result.text) <= 2000


async def test_a_turn_the_channel_missed_is_posted_again_later(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(datetime(2024, 6, 3, 9, 0, tzinfo=UTC))
    _, channel, users = await new_table(sim, ["ana", "bruno"])
    async with run_bot(make_bot(clock=clock)) as bot:
        await start(sim, channel, users)
        await bot.calm()
        _, game, player, (other,) = current_user(db_path, channel, users)
        take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
        posts = len(sim.channel_messages(channel))
        sim.fail_next("send_message", status=403)
        result = await sim.slash(player, "alhambra take", channel=channel, cards=action_code(take))
        assert "went wrong" not in result.text
        await bot.calm()
        assert len(sim.channel_messages(channel)) == posts  # the channel was not told...
        owner = users[0]  # ...but the server's owner was, once
        told_owner = [m for m in sim.dms(owner) if "could not post" in m.content]
        assert len(told_owner) == 1 and "#alhambra" in told_owner[0].content
        clock.advance(timedelta(minutes=2))
        await bot.timers.started.wait()
        await bot.timers.run_due()
        await bot.calm()
        told = sim.channel_messages(channel)[-1]  # ...until the announcement was tried again
        assert len(sim.channel_messages(channel)) == posts + 1
        assert f"<@{other.id}>, it is your turn" in told.content and player.name in told.content
        assert told.attachment("table.png").is_png()
        assert "alh:t:" in told.buttons()[0]["custom_id"]
        assert await bot.timers.run_due() == 0  # told once, not again
        sim.fail_next("send_message", status=403)  # refused again later: the owner knows
        _, game, player, _ = current_user(db_path, channel, users)
        take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
        await sim.slash(player, "alhambra take", channel=channel, cards=action_code(take))
        await bot.calm()
        assert len([m for m in sim.dms(owner) if "could not post" in m.content]) == 1


async def test_a_mistyped_code_is_refused_in_the_players_language_and_logged_so(
    sim: FakeDiscord, run_bot, make_bot, db_path, caplog
) -> None:
    _, channel, users = await new_table(sim, ["ana", "bruno"], {"ana": "ja", "bruno": "ja"})
    caplog.set_level("INFO", logger="alhambra.interactions")
    async with run_bot(make_bot()):
        await start(sim, channel, users)
        _, _, player, _ = current_user(db_path, channel, users)
        result = await sim.slash(player, "alhambra take", channel=channel, cards="XYZ")
    assert result.ephemeral and "読み取れません" in result.content, result.content
    lines = [r.getMessage() for r in caplog.records if "command=take" in r.getMessage()]
    assert lines and "outcome=refused:bad_code" in lines[-1], lines
