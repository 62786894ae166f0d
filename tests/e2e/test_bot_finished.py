"""A finished game stays visible: its results message offers the score sheet, the whole log
page by page, and every Alhambra; `/alhambra scores`, `log` and `board` answer for it while no
game runs in the channel, after a restart and while a new game gathers players."""

from __future__ import annotations

import io
import re

from database import connect as connect_db
from fake_discord import FakeDiscord
from fake_discord.models import Message
from PIL import Image
from players import Table, open_game, play_to_the_end, stored_game

from bot.text import i18n
from engine import Options, TurnEnded, new_game
from engine.actions import action_from_json
from render.growth import MAX_FRAMES

COMPONENT = 2


async def _finished_game(sim: FakeDiscord, bot, db_path, channel, users):
    """ana and bruno play a whole game against a computer seat; returns the results message."""
    ana, bruno = users
    lobby = (await open_game(sim, ana, channel)).response
    await sim.click(bruno, lobby, "Join")
    await sim.slash(ana, "alhambra add-bot", channel=channel, level="easy")
    started = await sim.click(ana, lobby, "Start")
    await started.wait_followups(1)
    table = Table(sim, channel, db_path, {u.id: u for u in users})
    final = await play_to_the_end(table, bot)
    await bot.idle()
    assert final.is_over
    results = [m for m in sim.channel_messages(channel) if "The game is over!" in m.content]
    assert len(results) == 1
    return results[0], final


def ended_turns(db_path, game_id: int) -> int:
    """How many turns the stored game ended, counted by replaying its actions."""
    with connect_db(db_path) as conn:
        seed, options = conn.execute(
            "SELECT seed, options FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        players = conn.execute(
            "SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
        actions = [
            action_from_json(a)
            for (a,) in conn.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
    game = new_game(players, seed, Options.model_validate_json(options))
    return sum(isinstance(e, TurnEnded) for a in actions for e in game.apply(a))


def _turn_headings(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"^__Turn (\d+)__$", text, re.M)]


async def _read_whole_log(sim: FakeDiscord, user, shown) -> list[int]:
    """From the last page back to the first with "◀ Earlier": every page fits a message and
    names its place; returns the turn numbers read, in the order of the game."""
    page = shown.response
    match = re.search(r"page (\d+) of (\d+)", page.content)
    assert match and match[1] == match[2], page.content  # the latest page first
    pages = int(match[2])
    assert pages > 1, "a whole game does not fit one message"
    assert page.button_labels() == ["◀ Earlier"]
    read: list[list[int]] = [_turn_headings(page.content)]
    for number in range(pages - 1, 0, -1):
        edits = page.edits
        await sim.click(user, page, "◀ Earlier")
        await sim.wait_until(lambda edits=edits: page.edits > edits)
        assert f"page {number} of {pages}" in page.content
        assert len(page.content) <= 2000
        labels = page.button_labels()
        assert labels == (["◀ Earlier", "Later ▶"] if number > 1 else ["Later ▶"]), labels
        read.insert(0, _turn_headings(page.content))
    return [turn for headings in read for turn in headings]


async def test_the_results_show_the_finished_game(sim, run_bot, make_bot, db_path) -> None:
    users = [sim.user("ana"), sim.user("bruno")]
    guild = sim.guild("Club", owner=users[0])
    sim.member(guild, users[1])
    watcher = sim.user("watcher")
    sim.member(guild, watcher)
    japanese = sim.user("kenji", locale="ja")
    sim.member(guild, japanese)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        results, _ = await _finished_game(sim, bot, db_path, channel, users)
        game_id = stored_game(db_path, channel.id)[0]
        assert results.button_labels() == ["Score sheet", "Log", "Every Alhambra", "Help"]
        # where to look back at this very game, by the commands' real names, and the help
        assert f"`/alhambra-history replay game:{game_id}`" in results.content
        assert f"`/alhambra-history review game:{game_id}`" in results.content
        assert "`/alhambra help`" in results.content
        helped = await sim.click(japanese, results, "Help")  # in the clicker's language
        assert helped.ephemeral and helped.response.embed["title"] == i18n.t("ja", "help.title")
        replay = await sim.slash(watcher, "alhambra-history replay", channel=channel, game=game_id)
        assert replay.ephemeral and f"#{game_id}" in replay.text  # (the review: test_bot_review)

        # anyone in the channel, player or not, may look
        sheet = await sim.click(watcher, results, "Score sheet")
        assert sheet.ephemeral and sheet.response.attachment("scores.png").is_png()

        # the final score sheet alone in its message, to be read at full size
        assert [a.filename for a in results.attachments] == ["scores.png"]
        # every Alhambra growing, turn by turn: an animation Discord plays inline, in the next
        # message
        posts = sim.channel_messages(channel)
        growth = posts[posts.index(results) + 1].attachment("growth.webp")
        with Image.open(io.BytesIO(growth.data)) as animation:
            assert animation.format == "WEBP" and animation.is_animated
            frames = await bot.services.archive.growth(game_id)
            assert animation.n_frames == min(len(frames.frames), MAX_FRAMES) > 10
            assert frames.turns[-1] == ended_turns(db_path, game_id)
        assert len(growth.data) < 8 * 1024 * 1024  # well under Discord's upload limit
        assert "growing, turn by turn" in growth.description

        # every Alhambra in one picture, with a menu of every player to see one larger
        boards = await sim.click(watcher, results, "Every Alhambra")
        shown = boards.messages[-1]
        assert "Every Alhambra at the end of the game" in boards.text
        [picture] = shown.attachments
        assert picture.filename == "boards.png" and picture.is_png()
        assert all(f"{n}: " in picture.description for n in ("ana", "bruno"))
        [menu] = shown.selects()
        assert {"ana", "bruno"} <= {o["label"] for o in menu["options"]}
        described = set()
        for option in menu["options"]:  # each picture says whose Alhambra it is
            edits = shown.edits  # the picture is drawn after Discord is answered
            await sim.select(watcher, shown, menu["custom_id"], [option["value"]])
            await sim.wait_until(lambda e=edits: shown.edits > e)
            [picture] = shown.attachments
            described.add(picture.description.split("'s Alhambra")[0])
        assert len(described) == 3 and {"ana", "bruno"} <= described, described
        sheet = await sim.click(japanese, results, "Score sheet")
        final = i18n.t("ja", "alt.scores.final") + i18n.t("ja", "alt.scores.standings", rows="1")
        assert sheet.response.attachment("scores.png").description.startswith(final[:-1])
        boards = await sim.click(japanese, results, "Every Alhambra")
        said = [a.description for a in boards.messages[-1].attachments]
        assert said and all(d.startswith("全員のアルハンブラ") for d in said), said

        shown = await sim.click(users[1], results, "Log")
        turns = await _read_whole_log(sim, users[1], shown)
        assert turns == list(range(1, ended_turns(db_path, game_id) + 1)), "every turn, in order"

        # Later ▶ goes forward again
        page = shown.response
        edits = page.edits
        await sim.click(users[1], page, "Later ▶")
        await sim.wait_until(lambda: page.edits > edits)
        assert re.search(r"page 2 of \d+", page.content)

    async with run_bot(make_bot()):  # after a restart, with no game running in the channel
        scores = await sim.slash(watcher, "alhambra scores", channel=channel)
        assert scores.ephemeral and scores.response.attachment("scores.png").is_png()
        first = await sim.slash(users[0], "alhambra log", channel=channel, page=1)
        assert "page 1 of" in first.content and "__Turn 1__" in first.content
        assert first.response.button_labels() == ["Later ▶"]
        latest = await sim.slash(users[0], "alhambra log", channel=channel)
        match = re.search(r"page (\d+) of (\d+)", latest.content)
        assert match and match[1] == match[2]
        far = await sim.slash(users[0], "alhambra log", channel=channel, page=999)
        assert f"page {match[2]} of {match[2]}" in far.content  # past the end: the last page
        board = await sim.slash(watcher, "alhambra board", channel=channel, player="bruno")
        assert board.content == "bruno" and board.response.attachment("alhambra.png").is_png()
        choices = await sim.autocomplete(watcher, "alhambra board", "player", "", channel=channel)
        assert {c["value"] for c in choices} >= {"ana", "bruno"}

        # a new game gathering players: the finished one is still what the channel shows
        await open_game(sim, users[1], channel)
        again = await sim.slash(watcher, "alhambra scores", channel=channel)
        assert again.response.attachment("scores.png").is_png()
        sheet = await sim.click(watcher, results, "Score sheet")  # the old buttons still work
        assert sheet.response.attachment("scores.png").is_png()
        assert stored_game(db_path, channel.id)[0] != game_id  # the lobby is the newest game


def _bot_message(sim: FakeDiscord, channel, *custom_ids: str) -> Message:
    """A message of the bot's in `channel` carrying buttons with these custom ids: what a forged
    interaction needs, as Discord and discord.py deliver clicks on a message's own buttons only."""
    row = [{"type": 2, "style": 2, "label": c, "custom_id": c} for c in custom_ids]
    message = Message(
        channel=channel, author=sim.bot_user, components=[{"type": 1, "components": row}]
    )
    sim.add_message(message)
    return message


async def test_results_and_log_buttons_answer_only_at_home(sim, run_bot, make_bot, db_path) -> None:
    users = [sim.user("ana"), sim.user("bruno")]
    guild = sim.guild("Club", owner=users[0])
    sim.member(guild, users[1])
    channel = sim.channel(guild, "alhambra")
    stranger = sim.user("mallory")
    elsewhere = sim.channel(sim.guild("Elsewhere", owner=stranger), "general")
    sim.member(guild, stranger)
    same_server = sim.channel(guild, "off-topic")
    async with run_bot(make_bot()):
        none = await sim.slash(users[0], "alhambra scores", channel=channel)
        assert "no Alhambra game" in none.content  # no game at all: nothing to show
        lobby = (await open_game(sim, users[0], channel)).response
        waiting = await sim.slash(users[0], "alhambra log", channel=channel)
        assert "not started" in waiting.content  # a lobby and no finished game before it
        await sim.click(users[1], lobby, "Join")
        started = await sim.click(users[0], lobby, "Start")
        await started.wait_followups(1)
        game_id = stored_game(db_path, channel.id)[0]
        # a player's hand, described: the cards and each currency's total
        hand = await sim.click(users[1], started.followups[0], "Show my hand")
        said = hand.response.attachment("hand.png").description
        assert said.startswith("bruno's hand: ") and "Totals: Crown " in said
        ids = [f"alh:r:{game_id}:{op}" for op in ("scores", "log", "boards")]
        ids.append(f"alh:l:{game_id}:1")
        for custom_id in ids:
            data = {"custom_id": custom_id, "component_type": COMPONENT}
            for where in (elsewhere, same_server, sim.dm_channel(stranger)):
                forged = await sim.forge(
                    stranger, where, data, source=_bot_message(sim, where, custom_id)
                )
                assert "no Alhambra game in this channel" in forged.text, (custom_id, forged.text)
                assert not any(m.attachments for m in forged.messages)
        # at home, results buttons of a game that has no results show nothing either
        for custom_id in ids[:3]:
            data = {"custom_id": custom_id, "component_type": COMPONENT}
            source = _bot_message(sim, channel, custom_id)
            at_home = await sim.forge(users[0], channel, data, source=source)
            assert at_home.ephemeral and "not valid" in at_home.text, at_home.text
            assert not any(m.attachments for m in at_home.messages)
        # a log page of this game, at home, is a page
        data = {"custom_id": ids[3], "component_type": COMPONENT}
        page = await sim.forge(users[1], channel, data, source=_bot_message(sim, channel, ids[3]))
        assert "Nothing has happened yet" in page.text
        # a game that does not exist
        data = {"custom_id": "alh:r:999999:scores", "component_type": COMPONENT}
        source = _bot_message(sim, channel, data["custom_id"])
        gone = await sim.forge(users[0], channel, data, source=source)
        assert gone.ephemeral and "no such game" in gone.text
