"""`/alhambra-history`: a finished game's replay, turn by turn, equals the engine's replay of
its stored log at every step it shows; the server's archive lists its finished games; and the
command tree, both top-level commands, keeps every Discord limit."""

from __future__ import annotations

import copy
import dataclasses
import re

import pytest
from fake_discord import FakeDiscord, InteractionNotAnswered
from fake_discord.ids import snowflake
from fake_discord.models import Message
from players import engine_steps, finished_game, play_scoring_rounds

import render
from bot.discord_app import history
from bot.text import i18n
from bot.text.alt import hand_alt
from engine import Game

#: the tests marked so also run on PostgreSQL in the default run (tests/e2e/database.py): the
#: archive, a replay and a record; the rest of the module too with ALHAMBRA_TEST_DB=postgres
BOTH = pytest.mark.both_engines

LABELS = ["⏮ Start", "◀ Turn before", "Next turn ▶", "End ⏭", "Score sheet"]


def _standing(text: str) -> list[int]:
    line = next(line for line in text.splitlines() if line.startswith("Points then:"))
    return [int(n) for n in re.findall(r" (\d+)(?:,|$)", line)]


async def test_a_replay_steps_through_the_game_as_the_engine_replays_it(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno, watcher = sim.user("ana"), sim.user("bruno"), sim.user("watcher")
    guild = sim.guild("Club", owner=ana)
    for user in (bruno, watcher):
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    other = sim.channel(guild, "elsewhere")
    async with run_bot(make_bot()) as bot:
        game_id = await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id])
        expected = await engine_steps(bot.services, game_id)
        steps = len(expected) - 1

        # anyone in the server, from any channel; the answer is theirs alone
        shown = await sim.slash(watcher, "alhambra-history replay", channel=other, game=game_id)
        page = shown.response
        assert page.ephemeral and page.attachment("table.png").is_png()
        assert f"Replay of game #{game_id}: as dealt ({steps} turns in all)" in page.content
        assert page.button_labels() == LABELS
        assert [b["disabled"] for b in page.buttons()] == [True, True, False, False, False]

        for step in (1, 2, 3):
            edits = page.edits
            await sim.click(watcher, page, "Next turn ▶")
            await sim.wait_until(lambda edits=edits: page.edits > edits)
            assert f"after turn {step} of {steps}" in page.content
            assert f"__Turn {step}__" in page.content
            ranked = sorted(expected[step].scores, reverse=True)
            assert _standing(page.content) == ranked
            assert page.attachment("table.png").is_png()

        edits = page.edits
        await sim.click(watcher, page, "End ⏭")
        await sim.wait_until(lambda: page.edits > edits)
        assert f"after turn {steps} of {steps}" in page.content
        assert _standing(page.content) == sorted(expected[-1].scores, reverse=True)
        assert [b["disabled"] for b in page.buttons()] == [False, False, True, True, False]

        # a game of another server is not there (a forged button or number)
        elsewhere = sim.guild("Other", owner=watcher)
        outsider = await sim.slash(
            watcher, "alhambra-history replay", channel=sim.channel(elsewhere, "x"), game=game_id
        )
        assert "no such game" in outsider.response.content.lower()


async def test_the_archive_lists_the_server_s_finished_games(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno, carla = sim.user("ana"), sim.user("bruno"), sim.user("carla")
    guild = sim.guild("Club", owner=ana)
    for user in (bruno, carla):
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        empty = await sim.slash(ana, "alhambra-history games", channel=channel)
        assert "No finished games yet." in empty.response.content
        first = await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id])
        second = await finished_game(bot.services, guild.id, channel.id, [carla.id, bruno.id])
        listed = await sim.slash(ana, "alhambra-history games", channel=channel)
        text = listed.response.content
        assert listed.response.ephemeral
        assert text.index(f"#{second} ") < text.index(f"#{first} ")  # the latest first
        assert "/alhambra-history replay game:" in text
        mine = await sim.slash(ana, "alhambra-history games", channel=channel, player=ana)
        assert f"#{first} " in mine.response.content and f"#{second} " not in mine.response.content


def _tampered(page: Message, custom_id: str) -> Message:
    """A copy of an archive page whose "Older" button carries another custom id, as a modified
    client could send it (discord.py only hears of ids that are on the message)."""
    components = copy.deepcopy(page.components)
    for row in components:
        for button in row["components"]:
            if button.get("label") == "Older ▶":
                button["custom_id"], button["disabled"] = custom_id, False
    return dataclasses.replace(
        page, id=snowflake(), components=components, edits=0, history=[], attachments=[]
    )


def _press(message: Message) -> dict:
    """The interaction data of pressing the message's "Older" button."""
    button = next(b for b in message.buttons() if b.get("label") == "Older ▶")
    return {"custom_id": button["custom_id"], "component_type": 2}


def _listed(text: str) -> list[int]:
    """The game numbers an archive page lists, in its order."""
    return [int(n) for n in re.findall(r"^#(\d+) ", text, re.MULTILINE)]


async def test_the_archive_pages_through_older_games(
    sim: FakeDiscord, run_bot, make_bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history, "ARCHIVE_SIZE", 2)  # pages of 2: five games make three pages
    ana, bruno, carla, dora = (sim.user(n) for n in ("ana", "bruno", "carla", "dora"))
    guild = sim.guild("Club", owner=ana)
    for user in (bruno, carla):
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    other = sim.guild("Other", owner=dora)
    elsewhere = sim.channel(other, "general")
    async with run_bot(make_bot()) as bot:
        tables = [[ana.id, bruno.id], [carla.id, bruno.id]] * 2 + [[ana.id, carla.id]]
        played = [await finished_game(bot.services, guild.id, channel.id, t) for t in tables]
        theirs = await finished_game(
            bot.services, other.id, elsewhere.id, [dora.id, sim.user("eve").id]
        )
        latest = played[::-1]

        page = (await sim.slash(ana, "alhambra-history games", channel=channel)).response
        assert page.ephemeral and "Finished games in this server · page 1" in page.content
        assert _listed(page.content) == latest[:2]
        assert page.button_labels() == ["◀ Newer", "Older ▶"]
        assert [b["disabled"] for b in page.buttons()] == [True, False]
        assert all(len(b["custom_id"]) <= 100 for b in page.buttons())

        seen = _listed(page.content)
        for number, disabled in ((2, [False, False]), (3, [False, True])):
            edits = page.edits
            await sim.click(ana, page, "Older ▶")
            await sim.wait_until(lambda edits=edits: page.edits > edits)
            assert f"· page {number}" in page.content
            assert [b["disabled"] for b in page.buttons()] == disabled
            seen += _listed(page.content)
        assert seen == latest  # every game once, the latest first
        edits = page.edits
        await sim.click(ana, page, "◀ Newer")
        await sim.wait_until(lambda: page.edits > edits)
        assert "· page 2" in page.content and _listed(page.content) == latest[2:4]

        # a page past the end (a forged or an old button): a clear refusal, the list unchanged
        before, edits = page.content, page.edits
        for offset in (6, 40):
            forged = _tampered(page, f"alh:a:{offset}:0")
            refused = await sim.forge(ana, channel, _press(forged), source=forged)
            assert refused.ephemeral and "no more finished games" in refused.content
            assert refused.response is not forged and not refused.response.components
            assert forged.edits == 0
        # not a page boundary, or a user id no database holds: not valid, nothing changes
        for custom_id in ("alh:a:3:0", f"alh:a:0:{2**63}"):
            forged = _tampered(page, custom_id)
            refused = await sim.forge(ana, channel, _press(forged), source=forged)
            assert "That request is not valid." in refused.content and forged.edits == 0
        for custom_id in ("alh:a:-2:0", "alh:a:02:0", f"alh:a:0:{'9' * 20}", "alh:a:2:0:x"):
            forged = _tampered(page, custom_id)
            with pytest.raises(InteractionNotAnswered):  # not one of the bot's buttons at all
                await sim.forge(ana, channel, _press(forged), source=forged, timeout=1)
        assert (page.content, page.edits) == (before, edits)

        # the server is the interaction's, whatever the button says
        forged = _tampered(page, "alh:a:0:0")
        there = await sim.forge(dora, elsewhere, _press(forged), source=forged)
        assert _listed(there.content) == [theirs] and not there.response.buttons()
        forged = _tampered(page, f"alh:a:2:{ana.id}")
        there = await sim.forge(dora, elsewhere, _press(forged), source=forged)
        assert "no more finished games" in there.content
        assert (page.content, page.edits) == (before, edits)

        # a player's own games page too, the filter kept by the buttons
        mine = (
            await sim.slash(ana, "alhambra-history games", channel=channel, player=ana)
        ).response
        own = [g for g, t in zip(played, tables, strict=True) if ana.id in t][::-1]
        assert "ana's finished games · page 1" in mine.content
        assert _listed(mine.content) == own[:2]
        assert all(b["custom_id"].endswith(f":{ana.id}") for b in mine.buttons())
        await sim.click(ana, mine, "Older ▶")
        await sim.wait_until(lambda: "page 2" in mine.content)
        assert "ana's finished games · page 2" in mine.content
        assert _listed(mine.content) == own[2:]
        assert [b["disabled"] for b in mine.buttons()] == [False, True]

        # the games fit one page: no buttons, no page number
        monkeypatch.setattr(history, "ARCHIVE_SIZE", 10)
        whole = (await sim.slash(bruno, "alhambra-history games", channel=channel)).response
        assert _listed(whole.content) == latest and not whole.buttons()
        assert "page" not in whole.content


def _hand_png(state: Game, seat: int, name: str) -> bytes:
    return render.render_hand(state.view(seat), name=name, labels=i18n.image_labels("en"))


async def test_a_player_s_replay_shows_their_own_hand_and_nobody_else_s(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno, watcher = sim.user("ana"), sim.user("bruno"), sim.user("watcher")
    guild = sim.guild("Club", owner=ana)
    for user in (bruno, watcher):
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        game_id = await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id])
        expected = await engine_steps(bot.services, game_id)
        game = await bot.services.lobby.game(game_id)
        seats = {}
        for user in (ana, bruno):
            seat = game.seat_of(user.id)
            assert seat is not None and seat.seat is not None
            seats[user.name] = seat.seat
        a, b = seats["ana"], seats["bruno"]
        assert expected[0].view(a).hand != expected[0].view(b).hand  # the test can tell them

        pages = {}
        for user in (ana, bruno, watcher):
            shown = await sim.slash(user, "alhambra-history replay", channel=channel, game=game_id)
            pages[user.name] = shown.response
        # every Alhambra beside the table; a player has their own hand a button away
        assert [a.filename for a in pages["watcher"].attachments] == ["table.png", "boards.png"]
        assert pages["watcher"].button_labels() == LABELS
        for user in (ana, bruno):
            page = pages[user.name]
            assert [a.filename for a in page.attachments] == ["table.png", "boards.png"]
            assert page.button_labels() == [*LABELS, "Your hand"]
            edits = page.edits
            await sim.click(user, page, "Your hand")
            await sim.wait_until(lambda page=page, edits=edits: page.edits > edits)
            assert page.button_labels() == [*LABELS, "Every Alhambra"]
            assert "as dealt" in page.content  # the same step
        for name, seat in seats.items():
            page = pages[name]
            assert [a.filename for a in page.attachments] == ["table.png", "hand.png"]
            # the table in an embed, so that the hand is shown whole beside it
            assert page.embed["image"]["url"] == "attachment://table.png"
            hand = page.attachment("hand.png")
            assert hand.data == _hand_png(expected[0], seat, name)
            assert hand.description == hand_alt("en", name, expected[0].view(seat))

        ana_page, bruno_page = pages["ana"], pages["bruno"]
        for step in (1, 2, 3):
            for user, page in ((ana, ana_page), (bruno, bruno_page)):
                edits = page.edits
                await sim.click(user, page, "Next turn ▶")
                await sim.wait_until(lambda page=page, edits=edits: page.edits > edits)
                assert f"after turn {step} of " in page.content
            for name, page in (("ana", ana_page), ("bruno", bruno_page)):
                seat = seats[name]
                assert page.attachment("hand.png").data == _hand_png(expected[step], seat, name)
                mine = hand_alt("en", name, expected[step].view(seat))
                assert page.attachment("hand.png").description == mine
            other = ana_page.attachment("hand.png").description
            assert other != bruno_page.attachment("hand.png").description  # never the other's
            assert ana_page.embed["image"]["url"] == "attachment://table.png"

        edits = pages["watcher"].edits
        await sim.click(watcher, pages["watcher"], "End ⏭")
        await sim.wait_until(lambda: pages["watcher"].edits > edits)
        assert [a.filename for a in pages["watcher"].attachments] == ["table.png", "boards.png"]


def _size(node: dict) -> int:
    """The characters Discord counts towards a command's 8,000 (4,000 before February 2024,
    discord-api-docs#6668): names, descriptions and choice names and values, of the command and
    everything in it, each field counted in its longest language (the default included)."""

    def longest(key: str) -> int:
        texts = [str(node.get(key) or ""), *(node.get(f"{key}_localizations") or {}).values()]
        return max(len(str(text)) for text in texts)

    total = longest("name") + longest("description")
    for choice in node.get("choices") or []:
        names = [choice.get("name", ""), *(choice.get("name_localizations") or {}).values()]
        total += len(str(choice.get("value", ""))) + max(len(str(name)) for name in names)
    return total + sum(_size(option) for option in node.get("options") or [])


def test_a_commands_size_counts_the_longest_language_of_each_field() -> None:
    node = {
        "name": "abc",
        "name_localizations": {"ja": "あ", "pt-BR": "abcdef"},
        "description": "1234",
        "description_localizations": {"ja": "1234567"},
        "options": [{"name": "x", "description": "yy", "choices": [{"name": "n", "value": "vv"}]}],
    }
    assert _size(node) == 6 + 7 + (1 + 2 + 2 + 1)


async def test_the_synced_commands_keep_every_discord_limit(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    async with run_bot(make_bot()):
        await sim.wait_until(lambda: sim.sync_log)
    _, commands = sim.sync_log[-1]
    names = sorted(c["name"] for c in commands)
    assert names == ["alhambra", "alhambra-history", "alhambra-plan"]
    assert len(commands) <= 100
    for command in commands:
        assert _size(command) <= 8000, command["name"]
        subcommands = command.get("options") or []
        assert len(subcommands) <= 25
        for sub in subcommands:
            assert len(sub.get("options") or []) <= 25
            assert 1 <= len(sub["description"]) <= 100
            assert re.fullmatch(r"[-_\w]{1,32}", sub["name"])
            for localized in (sub.get("name_localizations") or {}).values():
                assert re.fullmatch(r"[-_\w]{1,32}", localized) and localized == localized.lower()


@BOTH
async def test_a_record_and_hiding_it(sim: FakeDiscord, run_bot, make_bot) -> None:
    ana, bruno = sim.user("ana"), sim.user("bruno")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        game_id = await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id])
        final = await bot.services.archive.replay(game_id)
        game = final.log.game
        won = {seat.user_id for r, i, _ in final.ranking if r == 1 and (seat := game.at_seat(i))}

        mine = (await sim.slash(ana, "alhambra-history stats", channel=channel)).response
        assert mine.ephemeral and "ana's record in this server" in mine.content
        share = 100 if ana.id in won else 0
        assert f"Games: 1 · wins: {1 if ana.id in won else 0} ({share}%)" in mine.content
        assert "By table: 2 players" in mine.content and "Time to move: median " in mine.content
        assert "Per game, by building type: Pavilion " in mine.content
        picture = mine.attachment("stats.png")
        assert picture.is_png() and picture.image().size == (640, 496)
        assert (picture.description or "").startswith("ana's record: one game, ")

        hid = await sim.slash(bruno, "alhambra-history stats", channel=channel, hide=True)
        assert "hidden from others" in hid.response.content
        refused = await sim.slash(ana, "alhambra-history stats", channel=channel, player=bruno)
        assert "bruno keeps their statistics to themselves." in refused.response.content
        own = await sim.slash(bruno, "alhambra-history stats", channel=channel)
        assert "Games: 1" in own.response.content and "(hidden from others)" in own.response.content
        await sim.slash(bruno, "alhambra-history stats", channel=channel, hide=False)
        shown = await sim.slash(ana, "alhambra-history stats", channel=channel, player=bruno)
        assert "bruno's record in this server" in shown.response.content
        assert "Games: 1" in shown.response.content

        elsewhere = await sim.slash(ana, "alhambra-history stats", channel=channel, everywhere=True)
        assert "ana's record in every server" in elsewhere.response.content

        carla = sim.user("carla")
        sim.member(guild, carla)
        empty = (await sim.slash(carla, "alhambra-history stats", channel=channel)).response
        assert "No finished games yet." in empty.content and not empty.attachments


async def test_two_players_head_to_head(sim: FakeDiscord, run_bot, make_bot) -> None:
    ana, bruno, carla = sim.user("ana"), sim.user("bruno"), sim.user("carla")
    guild = sim.guild("Club", owner=ana)
    for user in (bruno, carla):
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        ahead = {ana.id: 0, bruno.id: 0}
        points = {ana.id: 0, bruno.id: 0}
        for _ in range(2):
            game_id = await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id])
            final = await bot.services.archive.replay(game_id)
            game = final.log.game
            by_user = {
                seat.user_id: (rank, score)
                for rank, i, score in final.ranking
                if (seat := game.at_seat(i)) and seat.user_id is not None
            }
            for user, other in ((ana.id, bruno.id), (bruno.id, ana.id)):
                ahead[user] += by_user[user][0] < by_user[other][0]
                points[user] += by_user[user][1]
        ties = 2 - ahead[ana.id] - ahead[bruno.id]

        shown = await sim.slash(ana, "alhambra-history stats", channel=channel, versus=bruno)
        text = shown.response.content
        assert shown.response.ephemeral and "ana against bruno in this server" in text
        assert "2 finished games together" in text
        assert (
            f"Finished ahead: ana {ahead[ana.id]} · bruno {ahead[bruno.id]} · tied {ties}" in text
        )
        assert (
            f"Average points in these games: ana {points[ana.id] / 2:.1f} · "
            f"bruno {points[bruno.id] / 2:.1f}"
        ) in text
        assert not shown.response.attachments

        # another player's pair, from their side, and a pair that never met
        turned = await sim.slash(
            carla, "alhambra-history stats", channel=channel, player=bruno, versus=ana
        )
        assert f"Finished ahead: bruno {ahead[bruno.id]} · ana {ahead[ana.id]}" in (
            turned.response.content
        )
        apart = await sim.slash(ana, "alhambra-history stats", channel=channel, versus=carla)
        assert "No finished games together yet." in apart.response.content

        # against yourself: a friendly refusal, whoever is named as the player
        for whose in (None, carla):
            extra = {"player": whose} if whose is not None else {}
            me = carla if whose is not None else ana
            refused = await sim.slash(
                me, "alhambra-history stats", channel=channel, versus=me, **extra
            )
            assert "Every game against yourself would be a tie" in refused.response.content

        # a hidden record: refused to others, on either side of the comparison
        await sim.slash(bruno, "alhambra-history stats", channel=channel, hide=True)
        hidden = await sim.slash(ana, "alhambra-history stats", channel=channel, versus=bruno)
        assert "bruno keeps their statistics to themselves." in hidden.response.content
        named = await sim.slash(
            carla, "alhambra-history stats", channel=channel, player=bruno, versus=ana
        )
        assert "bruno keeps their statistics to themselves." in named.response.content
        own = await sim.slash(bruno, "alhambra-history stats", channel=channel, versus=ana)
        assert "bruno against ana in this server" in own.response.content


async def test_a_rated_game_and_the_leaderboard(sim: FakeDiscord, run_bot, make_bot) -> None:
    ana, bruno = sim.user("ana"), sim.user("bruno")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        empty = await sim.slash(ana, "alhambra-history leaderboard", channel=channel)
        assert "No rated games have ended here yet" in empty.response.content

        opened = await sim.slash(ana, "alhambra new", channel=channel, rated=True, thread=False)
        lobby = opened.response
        assert "Rated: the result moves this server's ratings" in lobby.embeds[0]["description"]
        refused = await sim.slash(ana, "alhambra add-bot", channel=channel, level="easy")
        assert "computer players cannot join it" in refused.response.content
        game = await bot.services.lobby.game_in_channel(channel.id)
        assert game.rated
        await bot.services.lobby.abandon(game.id, ana.id)

        game_id = await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id])
        assert not (await bot.services.lobby.game(game_id)).rated  # unrated: nobody ranked
        assert await bot.services.archive.leaderboard(guild.id) == []
        rated = await bot.services.lobby.create_game(
            channel_id=channel.id, host_id=ana.id, host_name="ana", guild_id=guild.id, rated=True
        )
        await bot.services.lobby.abandon(rated.id, ana.id)  # abandoned before it started: nothing
        assert await bot.services.archive.leaderboard(guild.id) == []

        await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id], rated=True)
        board = (await sim.slash(bruno, "alhambra-history leaderboard", channel=channel)).response
        assert board.ephemeral and "Leaderboard of this server" in board.content
        lines = [line for line in board.content.splitlines() if line[:2] in ("1.", "2.")]
        assert len(lines) == 2 and all("(1 game)" in line for line in lines)
        assert {f"<@{ana.id}>", f"<@{bruno.id}>"} <= set(" ".join(lines).replace(":", " ").split())


async def test_ending_a_running_rated_game_counts_its_host_last(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno, carla = sim.user("ana"), sim.user("bruno"), sim.user("carla")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    sim.member(guild, carla)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        await sim.slash(ana, "alhambra new", channel=channel, rated=True, thread=False)
        for user in (bruno, carla):
            await sim.slash(user, "alhambra join", channel=channel)
        await sim.slash(ana, "alhambra start", channel=channel)
        game = await bot.services.lobby.game_in_channel(channel.id)
        ended = (await sim.slash(ana, "alhambra abandon", channel=channel)).response
        assert "abandoned by ana" in ended.content
        assert "ana counts as last place, the other players share first" in ended.content
        board = (await sim.slash(carla, "alhambra-history leaderboard", channel=channel)).response
        ranked = [line for line in board.content.splitlines() if line[:2] in ("1.", "2.", "3.")]
        assert len(ranked) == 3 and f"<@{ana.id}>" in ranked[2]  # bruno and carla tie above
        assert (await bot.services.lobby.game(game.id)).status == "abandoned"


async def test_the_players_behind_cannot_vote_a_rated_game_away(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    """After two scoring rounds of a rated game, the two players behind vote to abandon it:
    the vote says that a rated game needs every player's vote, the game goes on and nobody's
    rating moves; only the leader's vote ends it."""
    ana, bruno, carla = sim.user("ana"), sim.user("bruno"), sim.user("carla")
    users = {u.id: u for u in (ana, bruno, carla)}
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    sim.member(guild, carla)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        await sim.slash(ana, "alhambra new", channel=channel, rated=True, thread=False)
        for user in (bruno, carla):
            await sim.slash(user, "alhambra join", channel=channel)
        await sim.slash(ana, "alhambra start", channel=channel)
        game = await bot.services.lobby.game_in_channel(channel.id)
        standing = await play_scoring_rounds(bot.services, game.id, rounds=2)
        by_seat = {s.seat: s.user_id for s in game.seats}
        order = [users[by_seat[seat]] for _, seat, _ in standing.ranking()]  # leader first
        leader, behind = order[0], order[1:]

        rule = "The game is rated, so abandoning it needs every player's vote"
        for count, user in enumerate(behind, start=1):
            said = await sim.slash(user, "alhambra vote", channel=channel, motion="abandon")
            assert not said.ephemeral
            assert f"{user.name} votes to abandon the game: {count} of 3 votes needed." in (
                said.content
            )
            assert rule in said.content
        assert (await bot.services.lobby.game(game.id)).status == "active"
        board = (await sim.slash(carla, "alhambra-history leaderboard", channel=channel)).response
        assert "No rated games have ended here yet" in board.content

        ended = await sim.slash(leader, "alhambra vote", channel=channel, motion="abandon")
        assert "Every player voted to abandon the game." in ended.content
        assert (await bot.services.lobby.game(game.id)).status == "abandoned"
        board = (await sim.slash(carla, "alhambra-history leaderboard", channel=channel)).response
        assert "No rated games have ended here yet" in board.content


@BOTH
async def test_a_replay_can_start_at_any_turn(sim: FakeDiscord, run_bot, make_bot) -> None:
    ana, bruno = sim.user("ana"), sim.user("bruno")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        game_id = await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id])
        steps = (await bot.services.archive.replay(game_id)).steps
        third = await sim.slash(
            bruno, "alhambra-history replay", channel=channel, game=game_id, turn=3
        )
        assert f"turn 3 of {steps}" in third.response.content.lower()
        assert [b["disabled"] for b in third.response.buttons()] == [
            False,
            False,
            False,
            False,
            False,
            False,
        ]
        beyond = await sim.slash(
            bruno, "alhambra-history replay", channel=channel, game=game_id, turn=9999
        )
        assert f"turn {steps} of {steps}" in beyond.response.content.lower()
        assert [b["disabled"] for b in beyond.response.buttons()] == [
            False,
            False,
            True,
            True,
            False,
            False,
        ]


@BOTH
async def test_a_game_of_the_archive_opens_with_its_results_and_score_sheet(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno, carla = sim.user("ana"), sim.user("bruno"), sim.user("carla")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    sim.member(guild, carla)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        game_id = await finished_game(bot.services, guild.id, channel.id, [ana.id, bruno.id])
        listed = (await sim.slash(carla, "alhambra-history games", channel=channel)).response
        menu = listed.selects()[0]
        assert [o["value"] for o in menu["options"]] == [str(game_id)]
        assert menu["options"][0]["label"].startswith(f"Game #{game_id}: won by ")
        opened = (await sim.select(carla, listed, menu["custom_id"], [str(game_id)])).response
        final = await bot.services.archive.replay(game_id)
        assert f"after turn {final.steps} of {final.steps}" in opened.content
        assert "**The game is over!**" in opened.content and "Winner: " in opened.content
        assert opened.button_labels() == LABELS and opened.ephemeral
        sheet = (await sim.click(carla, opened, "Score sheet")).response
        assert sheet.ephemeral and [a.filename for a in sheet.attachments] == ["scores.png"]

        # a number that is no game of this server opens nothing
        other = sim.guild("Elsewhere", owner=carla)
        far = sim.channel(other, "games")
        elsewhere = await sim.slash(carla, "alhambra-history replay", channel=far, game=game_id)
        assert "no such game" in elsewhere.response.content.lower()
