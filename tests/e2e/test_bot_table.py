"""The table, as a whole game shows it in its thread: short turn messages with their details one
click away, no stale first post, results at full size, everyone's Alhambra at a glance, the
game's progress, forced choices taken for the player and the hand not uploaded again.

The figures are printed (`-s`) so a change can be compared with the one before it: posts per
game, characters per turn message, preview scales.
"""

from __future__ import annotations

import statistics
from datetime import UTC, datetime

import pytest
from fake_discord import FakeDiscord
from fake_discord.models import Message
from players import Table, open_game, play_to_the_end

from bot.text import i18n
from render.display import scale

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)
#: At most this many characters of text in the median turn message: a phone screen's worth.
MEDIAN_TURN_TEXT = 400


def turn_text(message: Message) -> str:
    """What a turn message says in words when it is posted: its text and its embed's."""
    first = message.history[0] if message.history else {"content": message.content}
    embeds = (message.history[0].get("embeds") if message.history else None) or message.embeds
    parts = [first.get("content") or ""]
    for embed in embeds or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)


def was_turn_message(message: Message) -> bool:
    versions = [message.components, *(h.get("components") or [] for h in message.history)]
    return any("alh:t:" in repr(components) for components in versions)


async def whole_game(sim: FakeDiscord, run_bot, make_bot, db_path, locale: str = "en"):
    """A 3-player game (ana, bruno and a normal computer player, who opens it) in its thread,
    played to the end by slash commands; returns (thread, table, bot-less figures)."""
    from bot.core.clock import ManualClock

    clock = ManualClock(T0)
    discord_locale = "en-US" if locale == "en" else locale
    ana = sim.user("ana", locale=discord_locale)
    bruno = sim.user("bruno", locale=discord_locale)
    guild = sim.guild("Club", owner=ana, locale=discord_locale)
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot(clock=clock)) as bot:
        opened = await sim.slash(ana, "alhambra new", channel=channel)
        await opened.wait_followups(1)
        home = opened.response.thread
        lobby = sim.channel_messages(home)[0]
        await sim.click(bruno, lobby, i18n.t(locale, "button.join"))
        await sim.slash(ana, "alhambra add-bot", channel=home, level="normal")
        started = await sim.click(ana, lobby, i18n.t(locale, "button.start"))
        await started.wait_followups(1)
        await bot.idle()
        table = Table(sim, home, db_path, {ana.id: ana, bruno.id: bruno}, seed=7, locale=locale)
        final = await play_to_the_end(table, bot, by="commands")
        await bot.idle()
        await bot.calm()
    assert final.is_over
    return home, table


@pytest.mark.parametrize("locale", ["en", "ja", "pt-BR"])
async def test_a_whole_game_at_the_table(
    sim: FakeDiscord, run_bot, make_bot, db_path, locale: str
) -> None:
    home, _ = await whole_game(sim, run_bot, make_bot, db_path, locale)
    posts = sim.channel_messages(home)
    turns = [m for m in posts if was_turn_message(m)]
    lengths = [len(turn_text(m)) for m in turns]
    median = statistics.median(lengths)
    # the results: the final score sheet alone in its message, shown at a readable size
    sheets = [m for m in posts if any(a.filename == "scores.png" for a in m.attachments)]
    final = sheets[-1]
    size = final.attachment("scores.png").image().size
    shown = "attachment" if len(final.attachments) == 1 else "pair"
    desktop, phone = scale(size, shown, "desktop"), scale(size, shown, "phone")
    print(
        f"\n{locale}: posts per game: {len(posts)} ({len(turns)} turn messages);"
        f" turn message characters: median {median}, max {max(lengths)};"
        f" final score sheet {size} at x{desktop:.2f} desktop, x{phone:.2f} phone"
    )
    assert median <= MEDIAN_TURN_TEXT, lengths
    assert final.attachments == [final.attachment("scores.png")]
    assert desktop >= 0.75
    # the computer opened the game: its first post says the order and the money, and names
    # nobody "to play"; no post keeps a table once the game is over (they go stale)
    begins = i18n.t(locale, "game.started", order="")[:8]
    start = next(m for m in posts if m.content.startswith(begins))
    assert not start.embeds and not start.attachments and not start.buttons()
    assert not [m for m in posts if any(a.filename == "table.png" for a in m.attachments)]
    # the growth of every Alhambra follows the results, in a message of its own
    growth = posts[posts.index(final) + 1]
    assert [a.filename for a in growth.attachments] == ["growth.webp"]


async def test_everyones_alhambra_and_the_details_are_one_click_from_the_turn_message(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    names = ["ana", "bruno", "chiyo", "dara"]
    users = [sim.user(n) for n in names]
    guild = sim.guild("Club", owner=users[0])
    for user in users[1:]:
        sim.member(guild, user)
    watcher = sim.user("watcher")
    sim.member(guild, watcher)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()):
        lobby = (await open_game(sim, users[0], channel)).response
        for user in users[1:]:
            await sim.click(user, lobby, "Join")
        started = await sim.click(users[0], lobby, "Start")
        await started.wait_followups(1)
        turn = started.followups[0]
        # every player's Alhambra in one picture, to anyone, with the menu to look closer
        glance = await sim.click(watcher, turn, "Every Alhambra")
        shown = glance.messages[-1]
        assert shown.ephemeral and "Everyone's Alhambra" in shown.content
        [picture] = shown.attachments
        assert picture.filename == "boards.png" and picture.is_png()
        assert all(f"{n}: 0 points" in picture.description for n in names), picture.description
        assert scale(picture.image().size, "attachment", "desktop") >= 0.75
        [menu] = shown.selects()
        assert sorted(o["label"] for o in menu["options"]) == names
        # the details the turn message leaves out, in words
        details = (await sim.click(watcher, turn, "Details")).response
        assert details.ephemeral and "**Market**" in details.content
        assert "buildings left in the supply" in details.content
        assert "buildings left in the supply" in turn.embed["description"]


async def test_the_held_turn_says_what_you_did(sim: FakeDiscord, run_bot, make_bot, db_path):
    """After the last decision the panel says what the turn did above its countdown, so a
    mis-tap is seen while Undo still helps."""
    from bot.core.clock import ManualClock

    users = [sim.user("ana"), sim.user("bruno")]
    guild = sim.guild("Club", owner=users[0])
    sim.member(guild, users[1])
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot(clock=ManualClock(T0), undo_window=10)):
        lobby = (await open_game(sim, users[0], channel)).response
        await sim.click(users[1], lobby, "Join")
        started = await sim.click(users[0], lobby, "Start")
        await started.wait_followups(1)
        turn = started.followups[0]
        table = Table(sim, channel, db_path, {u.id: u for u in users})
        _, game, seats = table.state()
        player = table.users[seats[game.current_seat]]
        panel = (await sim.click(player, turn, "Take money")).response
        select = panel.selects()[0]
        option = select["options"][0]
        edits = panel.edits
        await sim.select(player, panel, select["custom_id"], [option["value"]])
        await sim.wait_until(lambda: panel.edits > edits)
        assert "Your turn ends" in panel.content
        said = panel.content.splitlines()
        assert said[0] == "You did this turn:", panel.content
        took = option["label"].removeprefix("Take ").split(" (")[0]  # "Dirham 4 (total 4)"
        assert said[1] == f"{player.name} took {took}.", said


async def test_forced_choices_are_taken_for_the_player(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    """A menu with one way on opens the next one at once, and a placement that is the only
    one possible is made for the player, saying so: one game played to the end by commands,
    with those moments played by the buttons."""
    from players import play_by_commands

    from engine import PlaceFromReserve, RemoveToReserve, Swap, Undo

    users = [sim.user("ana"), sim.user("bruno")]
    guild = sim.guild("Club", owner=users[0])
    sim.member(guild, users[1])
    channel = sim.channel(guild, "alhambra")
    redesigns = placements = 0
    async with run_bot(make_bot()) as bot:
        lobby = (await open_game(sim, users[0], channel)).response
        await sim.click(users[1], lobby, "Join")
        await sim.slash(users[0], "alhambra add-bot", channel=channel, level="normal")
        started = await sim.click(users[0], lobby, "Start")
        await started.wait_followups(1)
        table = Table(sim, channel, db_path, {u.id: u for u in users}, seed=7)
        for _ in range(2000):
            await bot.idle()
            _, game, seats = table.state()
            if game.is_over:
                break
            user = table.users.get(seats.get(game.current_seat))
            if user is None:
                before = game.to_json()
                await sim.wait_until(lambda seen=before: table.state()[1].to_json() != seen)
                continue
            view = game.view(game.current_seat)
            moves = [a for a in view.legal if not isinstance(a, Undo)]
            kinds = {type(a) for a in moves} & {RemoveToReserve, PlaceFromReserve, Swap}
            if view.phase == "place" and len(moves) == 1:
                version = game.to_json()
                label = "Place your buildings" if view.final_placement else "Buy"
                opened = await sim.click(user, table.turn_message(), label)
                assert "Only one choice here, taken for you:" in opened.response.content
                await bot.idle()
                assert table.state()[1].to_json() != version  # made
                placements += 1
                continue
            if view.phase == "action" and len(kinds) == 1 and redesigns < 3:
                opened = await sim.click(user, table.turn_message(), "Redesign")
                panel = opened.response
                assert panel.content.startswith("Only one choice here, taken for you:")
                values = [o["value"] for s in panel.selects() for o in s["options"]]
                assert values and all(v.startswith("a") for v in values)  # the moves at once
                redesigns += 1
            await play_by_commands(table, table.choose(game), user, game)
        else:
            raise AssertionError("the game did not end")
    print(f"\nforced: {redesigns} redesign menus skipped, {placements} placements made")
    assert redesigns and placements


async def test_the_hand_is_not_uploaded_again_on_every_panel_step(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    """Moving between the money menus keeps the hand picture already shown (the same
    attachment), instead of uploading the same picture at every step."""
    users = [sim.user("ana"), sim.user("bruno")]
    guild = sim.guild("Club", owner=users[0])
    sim.member(guild, users[1])
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()):
        lobby = (await open_game(sim, users[0], channel)).response
        await sim.click(users[1], lobby, "Join")
        started = await sim.click(users[0], lobby, "Start")
        await started.wait_followups(1)
        turn = started.followups[0]
        table = Table(sim, channel, db_path, {u.id: u for u in users})
        _, game, seats = table.state()
        player = table.users[seats[game.current_seat]]

        def hands() -> int:  # the panel's hand pictures (the turn's DM has its own)
            return sum(a.filename == first.filename for a in sim.uploads.values())

        panel = (await sim.click(player, turn, "Take money")).response
        [first] = panel.attachments
        assert first.filename.startswith("hand")
        assert hands() == 1
        for label in ("Back", "Buy", "Back", "Take money"):
            edits = panel.edits
            await sim.click(player, panel, label)
            await sim.wait_until(lambda e=edits: panel.edits > e)
            assert panel.attachments == [first], label  # the very same attachment
        assert hands() == 1
