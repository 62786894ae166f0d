"""A complete 3-player game (two people and a computer seat) in each language, played the
default way (the game in its own thread, each turn ending after its undo window), checking
what the issue about playing in a chat channel promised the people at the table:

- no message addresses the computer seat as the player to move;
- the posts are at most the people's turns + the scoring rounds + lobby and results;
- the panel that opens a person's turn shows their money (no look click needed);
- the undo window: undo inside it, the end after it;
- DMs in each user's remembered language;
- every picture has a description (alt text).

The restart inside the window is `test_bot_last_tap.py`'s.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from database import connect as connect_db
from fake_discord import FakeDiscord
from players import Table, play_to_the_end, stored_game

from bot.core.clock import ManualClock
from bot.core.services import Services
from bot.core.store import Store
from bot.text import i18n

#: also on PostgreSQL in the default run (tests/e2e/database.py)
pytestmark = pytest.mark.both_engines

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)
WINDOW = 10

#: How each DM starts, per language (turn DMs; reminders are not due in a game played live).
TURN_DM = {
    "en": "It is your turn in Alhambra",
    "ja": "のアルハンブラで、あなたの手番です",
    "pt-BR": "É a sua vez em Alhambra",
}


def human_seats(db_path, game_id: int) -> set[int]:
    with connect_db(db_path) as conn:
        rows = conn.execute(
            "SELECT seat FROM seats WHERE game_id = ? AND kind = 'human'", (game_id,)
        ).fetchall()
    return {r[0] for r in rows}


async def settle(bot) -> None:
    await bot.timers.started.wait()
    await bot.timers.run_due()
    await bot.calm()


def to_play(table: Table):
    _, game, seats = table.state()
    return table.users.get(seats.get(game.current_seat))


async def first_turn_by_buttons(sim: FakeDiscord, table: Table, bot, clock, locale: str) -> None:
    """The first person's turn, by the buttons of the language: the panel shows the money at
    once; the last tap is held; an undo inside the window; the end after it."""
    t = i18n.t
    await sim.wait_until(lambda: to_play(table) is not None, timeout=30)  # a computer opened
    await bot.idle()
    user = to_play(table)
    assert user is not None
    turn = table.turn_message()
    opened = await sim.click(user, turn, t(locale, "button.take"))
    panel = opened.response
    assert panel is not None and panel.ephemeral
    mine = t(locale, "panel.money", totals="", count=2)[:6]  # "💰 You" / "💰 あなた"
    assert mine in panel.content, panel.content  # the money, with no look click
    assert [a.description for a in panel.attachments if a.filename.startswith("hand")]

    async def pick_first() -> None:
        select = panel.selects()[0]
        edits = panel.edits
        await sim.select(user, panel, select["custom_id"], [select["options"][0]["value"]])
        await sim.wait_until(lambda: panel.edits > edits)

    await pick_first()
    held = t(locale, "panel.held", when="<t:")
    assert held[: held.index("<t:") + 3] in panel.content, panel.content
    assert t(locale, "action.end_turn_now") in panel.button_labels()
    edits = panel.edits
    clock.advance(timedelta(seconds=WINDOW - 2))
    await sim.click(user, panel, t(locale, "action.undo"))  # inside the window
    await sim.wait_until(lambda: panel.edits > edits)
    assert to_play(table) is user and mine in panel.content
    edits = panel.edits
    await sim.click(user, panel, t(locale, "button.take"))
    await sim.wait_until(lambda: panel.edits > edits)
    await pick_first()
    clock.advance(timedelta(seconds=WINDOW + 1))  # the window passes: the turn ends by itself
    await settle(bot)
    await bot.idle()
    assert to_play(table) is not user


@pytest.mark.parametrize("locale", ["en", "ja", "pt-BR"])
async def test_a_whole_game_in_each_language(
    sim: FakeDiscord, run_bot, make_bot, db_path, locale: str
) -> None:
    clock = ManualClock(T0)
    discord_locale = "en-US" if locale == "en" else locale
    ana = sim.user("ana", locale=discord_locale)
    bruno = sim.user("bruno", locale=discord_locale)
    guild = sim.guild("Club", owner=ana, locale=discord_locale)
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot(clock=clock, undo_window=WINDOW)) as bot:
        opened = await sim.slash(ana, "alhambra new", channel=channel)
        await opened.wait_followups(1)  # the link to the thread, once it is open
        assert opened.response is not None and opened.response.thread is not None
        home = opened.response.thread
        lobby = sim.channel_messages(home)[0]
        await sim.click(bruno, lobby, i18n.t(locale, "button.join"))
        await sim.slash(ana, "alhambra add-bot", channel=home, level="normal")
        started = await sim.click(ana, lobby, i18n.t(locale, "button.start"))
        await started.wait_followups(1)
        await bot.idle()
        table = Table(sim, home, db_path, {ana.id: ana, bruno.id: bruno}, seed=7, locale=locale)
        await first_turn_by_buttons(sim, table, bot, clock, locale)
        for user in (ana, bruno):  # from now on their turns end at their last decision
            await sim.slash(user, "alhambra settings", channel=home, undo_window=0)
        final = await play_to_the_end(table, bot, by="commands")
        await bot.idle()
        game_id, _, _ = stored_game(db_path, home.id)
    assert final.is_over

    people = {ana.id, bruno.id}
    posts = sim.channel_messages(home)
    # no message addresses the computer seat as the player to move: every turn message is a
    # person's, and names them
    turn_posts = [m for m in posts if _was_turn_message(m)]
    assert turn_posts and all(any(f"<@{p}>" in m.content for p in people) for m in turn_posts)
    assert all(m.pinged() <= people for m in posts)
    # the posts: the people's turns, the scoring rounds, the lobby and the results (and the
    # table a computer's opening turn shows); the channel itself keeps one line
    store = await Store.open(str(db_path))
    try:
        turns = (await Services.build(store).play.log(game_id)).turns()
    finally:
        await store.close()
    humans = human_seats(db_path, game_id)
    people_turns = sum(turn.seat in humans for turn in turns)
    assert len(turn_posts) == people_turns  # one message per person's turn, none for Zaida
    first = posts.index(turn_posts[0])
    lobby_posts, later = posts[:first], [m for m in posts[first:] if m not in turn_posts]
    # before the first turn: the lobby, the computer's seat, the table of its opening turn
    assert len(lobby_posts) <= 3, [m.content[:80] for m in lobby_posts]
    # after: a post per scoring round, the last one with the results, and the growth of every
    # Alhambra in a message of its own (so the final score sheet is shown at full size)
    sheets, growth = later[:-1], later[-1]
    assert len(sheets) == 3 and all(m.attachments[0].filename == "scores.png" for m in sheets)
    assert [a.filename for a in growth.attachments] == ["growth.webp"]
    assert len(posts) <= people_turns + 3 + 4
    assert len(sim.channel_messages(channel)) == 1
    # DMs in each user's remembered language: the first turn of each (later ones are played
    # live, so the turn message's mention is the one notification)
    for user in (ana, bruno):
        dms = sim.dms(user)
        assert dms and all(TURN_DM[locale] in m.content for m in dms), [m.content for m in dms]
    # every picture anyone was shown has a description
    shown = [*posts, *sim.channel_messages(channel)]
    for user in (ana, bruno):
        shown += [*sim.dms(user), *sim.ephemeral_to(user)]
    pictures = [a for m in shown for a in m.attachments]
    assert pictures and all(a.description for a in pictures), [
        a.filename for a in pictures if not a.description
    ]


def _was_turn_message(message) -> bool:
    """A turn message (its buttons may have been taken off since)."""
    versions = [message.components, *(h.get("components") or [] for h in message.history)]
    return any("alh:t:" in repr(components) for components in versions)
