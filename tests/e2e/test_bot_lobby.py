"""The real bot against the fake Discord: start-up, command sync, and the lobby.

Everything goes through discord.py and the bot's own database file; assertions read what a
player would see (channel messages, ephemeral replies, images) and what the database holds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from database import connect as connect_db
from fake_discord import MANAGE_GUILD, FakeDiscord
from players import open_game

LOBBY_COMMANDS = {"new", "join", "leave", "start", "status", "abandon", "rules"}


def db_rows(db_path: Path) -> dict[str, list[tuple]]:
    """Every game-related row, to prove a refused request wrote nothing."""
    with connect_db(db_path) as conn:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("games", "seats", "actions", "game_messages")
        }


@pytest.fixture
def table(sim: FakeDiscord):
    """A server with a games channel and five members; the owner is `ann`."""
    ann = sim.user("ann")
    guild = sim.guild("Alhambra Club", owner=ann)
    channel = sim.channel(guild, "alhambra")
    users = {"ann": ann}
    for name, locale in (("bob", "en-US"), ("cid", "ja"), ("dee", "pt-BR"), ("eve", "en-US")):
        users[name] = sim.user(name, locale=locale)
        sim.member(guild, users[name])
    return guild, channel, users


async def test_startup_syncs_the_commands_once(sim, run_bot, make_bot, table) -> None:
    async with run_bot(make_bot()) as bot:
        assert bot.synced
    command = sim.synced_command("alhambra")
    subcommands = {o["name"]: o for o in command["options"]}
    assert set(subcommands) >= LOBBY_COMMANDS
    assert command["description"].startswith("Play Alhambra")
    assert command["contexts"] == [0] or command.get("dm_permission") is False
    new = subcommands["new"]
    assert new["description"] == "Open a new game of Alhambra in this channel"
    assert new["description_localizations"]["ja"].startswith("このチャンネルで")
    assert new["name_localizations"]["pt-BR"] == "novo"
    holes = next(o for o in new["options"] if o["name"] == "holes")
    assert [c["value"] for c in holes["choices"]] == ["classic", "strict"]
    players = next(o for o in new["options"] if o["name"] == "max_players")
    assert (players["min_value"], players["max_value"]) == (2, 6)
    syncs = len(sim.sync_log)

    # A restart with the same commands does not spend Discord's sync rate limit again.
    async with run_bot(make_bot()) as bot:
        assert not bot.synced
    assert len(sim.sync_log) == syncs


async def test_dev_guild_sync_goes_to_that_server(sim, run_bot, make_bot, table) -> None:
    guild, _, _ = table
    async with run_bot(make_bot(dev_guild=guild.id)):
        pass
    names = {c["name"] for c in sim.synced_commands(guild)}
    assert "alhambra" in names


async def test_a_lobby_gathers_players_and_starts(sim, run_bot, make_bot, table, db_path) -> None:
    _, channel, u = table
    async with run_bot(make_bot()):
        opened = await open_game(sim, u["ann"], channel, holes="strict")
        lobby = opened.response
        assert lobby is not None and not lobby.ephemeral
        assert lobby.button_labels() == ["Join", "Leave", "Start", "Follow", "Help"]
        assert "strict" in opened.text and "ann" in opened.text
        assert "Turn deadline: No deadline" in opened.text

        # by button
        joined = await sim.click(u["bob"], lobby, "Join")
        assert joined.callback_type == 7  # the lobby message itself is updated
        assert "bob" in lobby.embed["fields"][0]["value"]
        # by command: a private confirmation, and the lobby message is redrawn
        by_command = await sim.slash(u["cid"], "alhambra join", channel=channel)
        assert by_command.ephemeral and "参加しました" in by_command.content
        await sim.wait_until(lambda: "cid" in lobby.embed["fields"][0]["value"])
        # someone joins and leaves again
        await sim.click(u["dee"], lobby, "Join")
        await sim.click(u["dee"], lobby, "Leave")
        assert "dee" not in lobby.embed["fields"][0]["value"]
        assert lobby.embed["fields"][0]["name"] == "Players (3/6)"

        started = await sim.click(u["ann"], lobby, "Start")
        assert started.callback_type == 7
        assert lobby.buttons() == []  # the lobby is closed for good
        await started.wait_followups(1)
        turn = started.followups[0]
        assert not turn.ephemeral
        assert "The game begins!" in turn.content and "it is your turn" in turn.content
        image = turn.attachment("table.png").image()
        assert image.width <= 1600 and image.height > 200

    rows = db_rows(db_path)
    assert [g[4] for g in rows["games"]] == ["active"]
    assert len(rows["seats"]) == 3


async def test_lobby_buttons_keep_working_after_a_restart(sim, run_bot, make_bot, table) -> None:
    _, channel, u = table
    async with run_bot(make_bot()):
        lobby = (await open_game(sim, u["ann"], channel)).response
    async with run_bot(make_bot()):
        await sim.click(u["bob"], lobby, "Join")
        assert "bob" in lobby.embed["fields"][0]["value"]
        started = await sim.click(u["ann"], lobby, "Start")
        await started.wait_followups(1)
        assert started.followups[0].attachment("table.png").is_png()


async def test_bad_input_is_refused_and_changes_nothing(
    sim, run_bot, make_bot, table, db_path
) -> None:
    guild, channel, u = table
    other = sim.channel(guild, "elsewhere")
    async with run_bot(make_bot()):
        # commands in a channel with no game
        for command in ("alhambra join", "alhambra leave", "alhambra start", "alhambra abandon"):
            before = db_rows(db_path)
            answer = await sim.slash(u["bob"], command, channel=other)
            assert answer.ephemeral and "no Alhambra game" in answer.content
            assert db_rows(db_path) == before

        lobby = (await open_game(sim, u["ann"], channel)).response
        for name in ("bob", "cid", "dee", "eve"):
            await sim.click(u[name], lobby, "Join")
        before = db_rows(db_path)
        # a second game in the same channel
        again = await open_game(sim, u["bob"], channel)
        assert again.ephemeral and "already" in again.content
        # a non-member clicking Leave
        stranger = sim.user("fay")
        sim.member(guild, stranger)
        left = await sim.click(stranger, lobby, "Leave")
        assert left.ephemeral and "not in this game" in left.content
        # someone else than the host starting
        not_host = await sim.click(u["bob"], lobby, "Start")
        assert not_host.ephemeral and "host" in not_host.content
        # an abandon by someone without the right
        refused = await sim.slash(u["bob"], "alhambra abandon", channel=channel)
        assert refused.ephemeral and "host or a member who can manage the server" in refused.content
        assert db_rows(db_path) == before

        # a seventh player (the table holds six)
        sixth = sim.user("gus")
        sim.member(guild, sixth)
        await sim.click(sixth, lobby, "Join")
        before = db_rows(db_path)
        full = await sim.click(stranger, lobby, "Join")
        assert full.ephemeral and "full" in full.content
        assert db_rows(db_path) == before

        started = await sim.slash(u["ann"], "alhambra start", channel=channel)
        assert not started.ephemeral and "The game begins!" in started.text
        # the bot remembers the turn message right after posting it
        await sim.wait_until(lambda: len(db_rows(db_path)["game_messages"]) == 2)
        before = db_rows(db_path)
        # a second start of a running game
        second = await sim.slash(u["ann"], "alhambra start", channel=channel)
        assert second.ephemeral and "already started" in second.content
        late_join = await sim.click(stranger, lobby, "Join") if lobby.buttons() else None
        assert late_join is None  # the lobby lost its buttons when the game started
        assert db_rows(db_path) == before


async def test_status_rules_and_abandon(sim, run_bot, make_bot, table, db_path) -> None:
    guild, channel, u = table
    async with run_bot(make_bot()):
        none = await sim.slash(u["bob"], "alhambra status", channel=channel)
        assert none.ephemeral and "no game" in none.content
        rules = await sim.slash(u["dee"], "alhambra rules", channel=channel)
        assert rules.ephemeral and "Alhambra em poucas palavras" in rules.text
        # the points of each round, in the reader's language, from the engine's table
        assert "Pontos nas pontuações" in rules.text
        assert "Pavilhão 16/8/1" in rules.text and "Torre 13/6" in rules.text
        # and as a table to look at, in the embed, described in the same words
        points = rules.response.attachment("points.png")
        assert points.is_png() and "Pavilhão 16/8/1" in points.description
        assert rules.response.embed["image"]["url"] == "attachment://points.png"

        lobby = (await open_game(sim, u["ann"], channel)).response
        await sim.click(u["bob"], lobby, "Join")
        status = await sim.slash(u["eve"], "alhambra status", channel=channel)
        assert status.ephemeral and "bob" in status.text
        await sim.click(u["ann"], lobby, "Start")
        playing = await sim.slash(u["eve"], "alhambra status", channel=channel)
        assert playing.ephemeral and "Turn 1" in playing.text
        assert "what scoring round 1 would pay now: " in playing.text  # the types anyone has
        assert playing.messages[-1].attachment("table.png").is_png()

        # a server manager who is not the host may abandon
        manager = sim.user("mod")
        sim.member(guild, manager, permissions=MANAGE_GUILD)
        ended = await sim.slash(manager, "alhambra abandon", channel=channel)
        assert not ended.ephemeral and "abandoned by mod" in ended.content
        after = await sim.slash(u["bob"], "alhambra status", channel=channel)
        assert "no game" in after.content
    assert [g[4] for g in db_rows(db_path)["games"]] == ["abandoned"]


async def test_a_failing_reply_does_not_lose_the_action(sim, run_bot, make_bot, table, db_path):
    _, channel, u = table
    async with run_bot(make_bot()):
        lobby = (await open_game(sim, u["ann"], channel)).response
        sim.fail_next("callback", status=429, count=1)
        joined = await sim.click(u["bob"], lobby, "Join")
        assert joined.acknowledged
        assert "bob" in lobby.embed["fields"][0]["value"]
        sim.fail_next("edit_message", status=500, count=1)
        await sim.slash(u["cid"], "alhambra join", channel=channel)
        await sim.wait_until(lambda: "cid" in lobby.embed["fields"][0]["value"])
    assert len(db_rows(db_path)["seats"]) == 3


async def test_the_lobby_shows_the_turn_deadline(sim, run_bot, make_bot, table) -> None:
    _, channel, u = table
    async with run_bot(make_bot()):
        opened = await open_game(sim, u["cid"], channel, deadline=48)
        assert "48時間" in opened.text or "48 hours" in opened.text


async def test_the_lobby_names_the_stand_in_level(sim, run_bot, make_bot, table) -> None:
    guild, _, u = table
    rooms = [sim.channel(guild, f"room-{i}") for i in range(5)]
    async with run_bot(make_bot()):
        default = await open_game(sim, u["ann"], rooms[0], deadline=24)
        assert (
            "A computer player (normal) plays a missed turn, and takes the seat after 3 missed "
            "deadlines in a row"
        ) in default.text
        expert = await open_game(
            sim, u["bob"], rooms[1], deadline=24, stand_in="expert", missed_deadlines=0
        )
        assert "A computer player (expert) plays a missed turn" in expert.text
        assert "takes the seat" in default.text and "takes the seat" not in expert.text
        seat = await open_game(
            sim,
            u["eve"],
            rooms[2],
            deadline=72,
            deadline_policy="skip",
            stand_in="hard",
            missed_deadlines=1,
        )
        assert "A computer player (hard) takes the seat after 1 missed deadline" in seat.text
        assert "plays a missed turn" not in seat.text
        waits = await open_game(  # nobody stands in: nothing to say
            sim, u["ann"], rooms[3], deadline=24, deadline_policy="wait", missed_deadlines=0
        )
        assert "A computer player" not in waits.text
        untimed = await open_game(sim, u["dee"], rooms[4], stand_in="easy")  # no deadline
        assert "A computer player" not in untimed.text and "(easy)" not in untimed.text

        # in the lobby of each server's language, with the level in its words, after a join,
        # and in a player's status
        japanese = sim.channel(sim.guild("クラブ", owner=u["cid"], locale="ja"), "japanese")
        sim.member(japanese.guild, u["bob"])
        ja = await open_game(sim, u["cid"], japanese, deadline=48, stand_in="expert")
        assert "コンピューター\uff08エキスパート\uff09が代わりに打ち" in ja.text
        joined = await sim.click(u["bob"], ja.response, "参加")
        assert "コンピューター\uff08エキスパート\uff09が代わりに打ち" in joined.text
        portuguese = sim.channel(sim.guild("Clube", owner=u["dee"], locale="pt-BR"), "jogos")
        pt = await open_game(sim, u["dee"], portuguese, deadline=48, stand_in="hard")
        assert "Um jogador computador (difícil) joga a vez perdida" in pt.text
        shown = await sim.slash(u["dee"], "alhambra status", channel=portuguese)
        assert "Um jogador computador (difícil) joga a vez perdida" in shown.text


async def test_a_forged_stand_in_level_opens_no_game(
    sim, run_bot, make_bot, table, db_path
) -> None:
    _, channel, u = table
    async with run_bot(make_bot()):
        before = db_rows(db_path)
        for forged in ("random", "grandmaster"):
            sent = await sim.forge_command(
                u["ann"],
                "alhambra new",
                channel=channel,
                thread=False,
                deadline=24,
                forged={"stand_in": forged},
            )
            assert sent.response.ephemeral
            assert sent.response.content == (
                "A computer player standing in plays at the easy, normal, hard or expert level: "
                "choose one of those."
            )
        assert db_rows(db_path) == before
        assert not sim.channel_messages(channel)
