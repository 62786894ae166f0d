"""Games in threads of their own: `/alhambra new` opens a public thread by default, leaves one
line in the channel, and plays everything else in the thread; without the permission, inside a
thread already, or with `thread:False`, the game is played where the command was used.

The fake Discord computes the bot's permissions as Discord does (the server's, then the channel's
overwrites; a thread's from its parent) and refuses what they do not allow.
"""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from database import connect as connect_db
from fake_discord import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS, FakeDiscord
from players import open_game, stored_game

#: The permissions of the invite link before games had threads: all but Create Public Threads.
OLD_INVITE = 274878024704
#: The invite link's permissions now (README).
INVITE = OLD_INVITE | CREATE_PUBLIC_THREADS


def games(db_path: Path) -> list[tuple[int, int, str]]:
    """(id, channel id, status) of every game."""
    with connect_db(db_path) as conn:
        return conn.execute("SELECT id, channel_id, status FROM games ORDER BY id").fetchall()


def threads(sim: FakeDiscord) -> list:
    return [c for g in sim.guilds for c in g.channels if c.is_thread]


@pytest.fixture
def table(sim: FakeDiscord):
    """A server with a games channel; the owner `ann` and `bob` speak English, `cid` Japanese."""
    ann = sim.user("ann")
    guild = sim.guild("Alhambra Club", owner=ann)
    channel = sim.channel(guild, "alhambra")
    users = {"ann": ann}
    for name, locale in (("bob", "en-US"), ("cid", "ja")):
        users[name] = sim.user(name, locale=locale)
        sim.member(guild, users[name])
    return guild, channel, users


async def test_a_new_game_gets_a_thread_and_the_channel_keeps_one_line(
    sim, run_bot, make_bot, db_path, table
) -> None:
    guild, channel, u = table
    async with run_bot(make_bot()) as bot:
        opened = await sim.slash(
            u["ann"], "alhambra new", channel=channel, max_players=4, deadline=48
        )
        opening = opened.response
        assert opening is not None and opening.channel is channel and not opening.ephemeral
        assert opening.content == (
            "**ann** opened a game of Alhambra (classic holes rule, up to 4 players, "
            "48 hours per turn): join in its thread."
        )
        note = (await opened.wait_followups(1)).followups[0]
        thread = opening.thread
        assert thread is not None and thread.id == opening.id and thread.parent is channel
        assert thread.type == 11 and thread.name == "Alhambra · ann"
        assert thread.auto_archive_duration == 10080
        assert note.ephemeral and note.visible_to is u["ann"]
        assert f"https://discord.com/channels/{guild.id}/{thread.id}" in note.content
        (lobby,) = sim.channel_messages(thread)
        assert lobby.button_labels() == ["Join", "Leave", "Start", "Follow", "Help"]
        assert "ann" in lobby.embed["fields"][0]["value"]
        [(_, home, status)] = games(db_path)
        assert (home, status) == (thread.id, "lobby")

        # the lobby's buttons and the commands work in the thread, and only there
        await sim.click(u["bob"], lobby, "Join")
        join = {"custom_id": lobby.buttons()[0]["custom_id"], "component_type": 2}
        forged = await sim.forge(u["cid"], channel, join, source=lobby)
        assert forged.ephemeral and "ゲームはありません" in forged.content
        joined = await sim.slash(u["cid"], "alhambra join", channel=thread)
        assert joined.ephemeral and "参加しました" in joined.content  # cid reads Japanese
        await sim.wait_until(lambda: "cid" in lobby.embed["fields"][0]["value"])
        elsewhere = await sim.slash(u["bob"], "alhambra status", channel=channel)
        assert "There is no game in this channel" in elsewhere.content
        status = await sim.slash(u["bob"], "alhambra status", channel=thread)
        assert "bob" in status.text and "cid" in status.text

        started = await sim.click(u["ann"], lobby, "Start")
        turn = (await started.wait_followups(1)).followups[0]
        assert turn.channel is thread and turn.buttons()
        _, game, seats = stored_game(db_path, thread.id)
        player = next(user for user in u.values() if user.id == seats[game.current_seat])
        panel = (await sim.click(player, turn, "Take money")).response
        assert panel.ephemeral and panel.channel is thread
        value = panel.selects()[0]["options"][0]["value"]
        edits = panel.edits
        await sim.select(player, panel, panel.selects()[0]["custom_id"], [value])
        await sim.wait_until(lambda: panel.edits > edits)
        await sim.wait_until(lambda: turn.buttons() == [])  # the next turn message replaced it
        await bot.calm()
        after = stored_game(db_path, thread.id)[1]
        assert after.current_seat != game.current_seat
        newest = sim.channel_messages(thread)[-1]
        assert newest is not turn and "took" in newest.content and newest.buttons()
    assert sim.channel_messages(channel) == [opening]  # the channel heard one line


async def test_two_games_at_once_in_two_threads_of_one_channel(
    sim, run_bot, make_bot, db_path, table
) -> None:
    _, channel, u = table
    async with run_bot(make_bot()) as bot:
        first = await sim.slash(u["ann"], "alhambra new", channel=channel)
        second = await sim.slash(u["bob"], "alhambra new", channel=channel, holes="strict")
        await first.wait_followups(1)
        await second.wait_followups(1)
        one, two = first.response.thread, second.response.thread
        assert one is not None and two is not None and one is not two
        assert "strict holes rule" in second.response.content
        # and a game played in the channel itself, at the same time
        here = (await open_game(sim, u["cid"], channel)).response
        (lobby_one,) = sim.channel_messages(one)
        (lobby_two,) = sim.channel_messages(two)
        await sim.click(u["bob"], lobby_one, "Join")
        await sim.click(u["ann"], lobby_two, "Join")
        await sim.click(u["bob"], here, "Join")
        await bot.calm()
        assert [row[1:] for row in games(db_path)] == [
            (one.id, "lobby"),
            (two.id, "lobby"),
            (channel.id, "lobby"),
        ]
        assert "bob" in lobby_one.embed["fields"][0]["value"]
        assert "ann" in lobby_two.embed["fields"][0]["value"]
        assert "bob" in here.embed["fields"][0]["value"]
        # one game per thread still holds
        again = await sim.slash(u["bob"], "alhambra new", channel=one)
        assert again.ephemeral and "already" in again.content
    assert sim.channel_messages(channel) == [first.response, second.response, here]
    assert len(threads(sim)) == 2


async def test_without_create_public_threads_the_game_is_in_the_channel_and_the_host_told(
    sim, run_bot, make_bot, db_path, table
) -> None:
    """A bot invited with the old link: it may post in threads but not create them."""
    guild, channel, u = table
    sim.member(guild, sim.bot_user, permissions=OLD_INVITE)
    async with run_bot(make_bot()) as bot:
        opened = await sim.slash(u["ann"], "alhambra new", channel=channel)
        lobby = opened.response
        assert lobby is not None and lobby.button_labels() == [
            "Join",
            "Leave",
            "Start",
            "Follow",
            "Help",
        ]
        note = (await opened.wait_followups(1)).followups[0]
        assert note.ephemeral and note.visible_to is u["ann"]
        assert "“Create Public Threads” permission" in note.content
        assert "here in the channel" in note.content
        await sim.click(u["bob"], lobby, "Join")
        await bot.calm()
    assert threads(sim) == [] and not any(r.path.endswith("/threads") for r in sim.requests)
    assert sim.channel_messages(channel) == [lobby]
    assert [row[1:] for row in games(db_path)] == [(channel.id, "lobby")]


async def test_a_channel_that_forbids_threads_gets_its_games_in_the_channel(
    sim, run_bot, make_bot, db_path, table
) -> None:
    """A moderator's overwrite on one channel: that channel plays in the channel (told in the
    host's language), another channel of the server still gets threads."""
    guild, channel, u = table
    sim.member(guild, sim.bot_user, permissions=INVITE)
    sim.overwrite(channel, guild, deny=CREATE_PUBLIC_THREADS)
    other = sim.channel(guild, "more-alhambra")
    mute = sim.channel(guild, "no-thread-talk")
    sim.overwrite(mute, sim.bot_user, deny=SEND_MESSAGES_IN_THREADS)
    async with run_bot(make_bot()):
        opened = await sim.slash(u["cid"], "alhambra new", channel=channel)
        note = (await opened.wait_followups(1)).followups[0]
        assert "「公開スレッドの作成」" in note.content and " " not in note.content
        assert opened.response.button_labels() == ["Join", "Leave", "Start", "Follow", "Help"]
        elsewhere = await sim.slash(u["ann"], "alhambra new", channel=other)
        await elsewhere.wait_followups(1)
        assert elsewhere.response.thread is not None
        # a thread the bot could open but not post in is no better
        silent = await sim.slash(u["bob"], "alhambra new", channel=mute)
        note = (await silent.wait_followups(1)).followups[0]
        assert "“Send Messages in Threads” permission" in note.content
        assert silent.response.button_labels() == ["Join", "Leave", "Start", "Follow", "Help"]
    assert [t.parent for t in threads(sim)] == [other]


async def test_a_thread_discord_refuses_turns_the_opening_line_into_the_lobby(
    sim, run_bot, make_bot, db_path, table
) -> None:
    """The permission was there when the command was sent, gone when the thread is made."""
    _, channel, u = table
    async with run_bot(make_bot()):
        sim.fail_next("create_thread", status=403)
        opened = await sim.slash(u["bob"], "alhambra new", channel=channel)
        note = (await opened.wait_followups(1)).followups[0]
        assert "“Create Public Threads”" in note.content
        lobby = opened.response
        assert lobby.content == "" and lobby.button_labels() == [
            "Join",
            "Leave",
            "Start",
            "Follow",
            "Help",
        ]
        await sim.click(u["ann"], lobby, "Join")
        assert "ann" in lobby.embed["fields"][0]["value"]
    assert sim.channel_messages(channel) == [lobby] and threads(sim) == []
    assert [row[1:] for row in games(db_path)] == [(channel.id, "lobby")]


async def test_a_refused_thread_where_the_channel_has_a_game_leaves_nothing_behind(
    sim, run_bot, make_bot, db_path, table
) -> None:
    _, channel, u = table
    async with run_bot(make_bot()):
        here = (await open_game(sim, u["ann"], channel)).response
        before = games(db_path)
        sim.fail_next("create_thread", status=403)
        opened = await sim.slash(u["bob"], "alhambra new", channel=channel)
        await opened.wait_followups(1)
        await opened.wait(lambda r: r.original_deleted)
        assert "already" in opened.followups[0].content and opened.followups[0].ephemeral
    assert sim.channel_messages(channel) == [here] and threads(sim) == []
    assert games(db_path) == before


async def test_a_lobby_that_cannot_be_posted_in_the_thread_takes_everything_back(
    sim, run_bot, make_bot, db_path, table
) -> None:
    _, channel, u = table
    async with run_bot(make_bot()):
        sim.fail_next("send_message", status=403)  # the lobby, the bot's first post there
        opened = await sim.slash(u["ann"], "alhambra new", channel=channel)
        await opened.wait_followups(1)
        await opened.wait(lambda r: r.original_deleted)
        assert "something went wrong" in opened.followups[0].content
    assert sim.channel_messages(channel) == [] and threads(sim) == []
    assert [row[2] for row in games(db_path)] == ["abandoned"]
    assert sim.requests_to("DELETE", "/channels/")[0].status == 200  # the thread went


async def test_thread_false_plays_in_the_channel_as_before(
    sim, run_bot, make_bot, db_path, table
) -> None:
    _, channel, u = table
    async with run_bot(make_bot()) as bot:
        opened = await open_game(sim, u["ann"], channel)
        assert opened.response.button_labels() == ["Join", "Leave", "Start", "Follow", "Help"]
        await bot.calm()
        assert opened.followups == []
    assert threads(sim) == [] and sim.channel_messages(channel) == [opened.response]
    assert [row[1:] for row in games(db_path)] == [(channel.id, "lobby")]


async def test_inside_a_thread_the_game_is_played_right_there(
    sim, run_bot, make_bot, db_path, table
) -> None:
    _, channel, u = table
    chat = sim.thread(channel, "game night")
    async with run_bot(make_bot()) as bot:
        opened = await sim.slash(u["ann"], "alhambra new", channel=chat)
        lobby = opened.response
        assert lobby.channel is chat and lobby.button_labels() == [
            "Join",
            "Leave",
            "Start",
            "Follow",
            "Help",
        ]
        await sim.click(u["bob"], lobby, "Join")
        await bot.calm()
        assert opened.followups == []  # nothing to explain
    assert threads(sim) == [chat] and sim.channel_messages(channel) == []
    assert [row[1:] for row in games(db_path)] == [(chat.id, "lobby")]


async def test_the_opening_line_and_thread_name_speak_the_servers_language(
    sim, run_bot, make_bot, db_path
) -> None:
    host = sim.user("@everyone")
    guild = sim.guild("アルハンブラ部", owner=host, locale="ja")
    channel = sim.channel(guild, "ゲーム")
    async with run_bot(make_bot()):
        opened = await sim.slash(host, "alhambra new", channel=channel, holes="strict", deadline=24)
        await opened.wait_followups(1)
    opening = opened.response
    assert opening.content == (
        "**@\u200beveryone**さんがアルハンブラのゲームを開きました"
        "\uff08穴のルールは厳格、最大6人、手番ごとに24時間\uff09。参加はスレッドからどうぞ。"
    )
    assert opening.allowed_mentions == discord.AllowedMentions.none().to_dict()
    assert opening.thread.name == "アルハンブラ・@\u200beveryone"
