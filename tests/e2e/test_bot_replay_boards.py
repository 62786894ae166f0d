"""A replay shows every Alhambra at each step, and a review's lines open their position, in every
language, through the fake Discord: the boards picture is byte for byte the engine's position at
that step (what anyone saw: never a hand), legible where Discord first shows it; a player's own
hand is a button away; each listed turn of a review opens the replay where that turn began; and
a forged button (a step the game never had, a game that does not exist or that the asker cannot
view) is answered with a friendly refusal and changes nothing."""

from __future__ import annotations

import dataclasses
import re

import pytest
from fake_discord import VIEW_CHANNEL, FakeDiscord, snowflake
from fake_discord.models import Channel, Message, User
from players import engine_steps, finished_game

import render
from bot.core.errors import InvalidRequest, NoGameHere
from bot.text import i18n
from bot.text.alt import boards_alt
from bot.text.present import error_text, player_names
from engine import Game
from render.display import MIN_SCREEN_PX, SHOWN, measure

LOCALES = ["en", "ja", "pt-BR", "fa"]
#: the Discord client language of each catalogue language (Persian is chosen in the settings)
CLIENT = {"en": "en-US", "ja": "ja", "pt-BR": "pt-BR", "fa": "en-US"}
#: a review plays its closest calls to the end: seconds of CPU, more on a busy machine
REVIEW_WAIT = 60.0
#: a game number no game has
NOBODY_S = 10**12


def _word(locale: str, key: str, **params: object) -> str:
    """A button's label as the fake shows it (the isolating marks of Persian taken off)."""
    return i18n.plain(i18n.t(locale, key, **params))


def _boards(state: Game, names: list[str], locale: str) -> bytes:
    return render.render_boards(state.view(None), names, labels=i18n.image_labels(locale))


def _table(state: Game, names: list[str], locale: str) -> bytes:
    return render.render_table(state.view(None), names, labels=i18n.image_labels(locale))


def _shows_step(page: Message, state: Game, names: list[str], locale: str) -> None:
    """The replay's message shows `state`: the table in the embed, every Alhambra as the one
    file beside it (shown at the attachment's size), both byte for byte the engine's."""
    assert [a.filename for a in page.attachments] == ["table.png", "boards.png"]
    assert page.embed["image"]["url"] == "attachment://table.png"
    assert page.attachment("table.png").data == _table(state, names, locale)
    boards = page.attachment("boards.png")
    assert boards.data == _boards(state, names, locale)
    assert boards.description == boards_alt(locale, names, state.view(None))


def _legible(state: Game, names: list[str], locale: str) -> None:
    """No text under 10 px where Discord first shows the replay's pictures, desktop and phone."""
    labels = i18n.image_labels(locale)
    view = state.view(None)
    for kind, draw in (
        ("boards", lambda: render.boards_image(view, names, labels=labels)),
        ("table", lambda: render.table_image(view, names, labels=labels)),
    ):
        _, legible = measure(draw, SHOWN[kind])
        for device, px in legible.screen.items():
            assert px >= MIN_SCREEN_PX - 1e-9, (kind, locale, device, legible)


async def _click(sim: FakeDiscord, user: User, page: Message, label: str) -> None:
    edits = page.edits
    await sim.click(user, page, label)
    await sim.wait_until(lambda: page.edits > edits)


async def _people(sim: FakeDiscord, locale: str):
    ana = sim.user("ana", locale=CLIENT[locale])
    bruno = sim.user("bruno")
    watcher = sim.user("watcher", locale=CLIENT[locale])
    guild = sim.guild("Club", owner=sim.user("owner"))
    for user in (ana, bruno, watcher):
        sim.member(guild, user)
    return ana, bruno, watcher, guild, sim.channel(guild, "alhambra")


async def _persian(sim: FakeDiscord, channel: Channel, locale: str, *users: User) -> None:
    if locale == "fa":
        for user in users:
            await sim.slash(user, "alhambra settings", channel=channel, language="fa")


@pytest.mark.parametrize("locale", LOCALES)
async def test_every_step_of_a_replay_shows_every_alhambra(
    sim: FakeDiscord, run_bot, make_bot, locale: str
) -> None:
    ana, bruno, watcher, guild, channel = await _people(sim, locale)
    async with run_bot(make_bot()) as bot:
        services = bot.services
        await _persian(sim, channel, locale, ana, watcher)
        game_id = await finished_game(services, guild.id, channel.id, [ana.id, bruno.id])
        expected = await engine_steps(services, game_id)
        steps = len(expected) - 1
        names = player_names(locale, await services.lobby.game(game_id))

        # a watcher: the table and every Alhambra at each step, as the engine replays them
        page = (
            await sim.slash(watcher, "alhambra-history replay", channel=channel, game=game_id)
        ).response
        assert page.ephemeral
        _shows_step(page, expected[0], names, locale)
        _legible(expected[0], names, locale)
        for step in (1, 2, 3):
            await _click(sim, watcher, page, _word(locale, "button.replay_next"))
            assert i18n.plain(
                i18n.t(locale, "replay.title", game=game_id, step=step, steps=steps)
            ) in i18n.plain(page.content)
            _shows_step(page, expected[step], names, locale)
        await _click(sim, watcher, page, _word(locale, "button.replay_last"))
        _shows_step(page, expected[steps], names, locale)
        _legible(expected[steps], names, locale)
        await _click(sim, watcher, page, _word(locale, "button.replay_back"))
        _shows_step(page, expected[steps - 1], names, locale)
        assert _word(locale, "button.replay_hand") not in page.button_labels()  # no hand of theirs

        # a player: every Alhambra too, and their own hand (only theirs) a button away, kept
        # while stepping, and every Alhambra again a button away
        mine = (
            await sim.slash(ana, "alhambra-history replay", channel=channel, game=game_id, turn=2)
        ).response
        _shows_step(mine, expected[2], names, locale)
        await _click(sim, ana, mine, _word(locale, "button.replay_hand"))
        seat = names.index("ana")
        hand = render.render_hand(
            expected[2].view(seat), name="ana", labels=i18n.image_labels(locale)
        )
        assert [a.filename for a in mine.attachments] == ["table.png", "hand.png"]
        assert mine.attachment("hand.png").data == hand
        await _click(sim, ana, mine, _word(locale, "button.replay_next"))
        assert [a.filename for a in mine.attachments] == ["table.png", "hand.png"]
        assert mine.attachment("table.png").data == _table(expected[3], names, locale)
        await _click(sim, ana, mine, _word(locale, "button.boards"))
        _shows_step(mine, expected[3], names, locale)

        # a running game: what anyone saw, every Alhambra, never a hand of another
        running = await services.lobby.create_game(
            channel_id=channel.id, host_id=ana.id, host_name="ana", guild_id=guild.id
        )
        await services.lobby.join(running.id, bruno.id, "bruno")
        await services.lobby.start(running.id, ana.id)
        live = (
            await sim.slash(watcher, "alhambra-history replay", channel=channel, game=running.id)
        ).response
        assert [a.filename for a in live.attachments] == ["table.png", "boards.png"]
        assert _word(locale, "button.replay_hand") not in live.button_labels()


def _forge(sim: FakeDiscord, who: User, where: Channel, source: Message, custom_id: str):
    """A button as a modified client could send it, on a copy of a message of the bot's."""
    component = {"type": 2, "custom_id": custom_id, "style": 2, "label": "…"}
    copy = dataclasses.replace(
        source, id=snowflake(), components=[{"type": 1, "components": [component]}]
    )
    return sim.forge(who, where, {"custom_id": custom_id, "component_type": 2}, source=copy)


async def _answer(sim: FakeDiscord, result) -> str:
    """What the asker was told: the reply, or after a deferred update its followup."""
    if result.callback_type == 6:  # the message was to change: the refusal follows
        await sim.wait_until(lambda: result.followups)
    told = [m.content for m in result.followups if m.content]
    return told[-1] if told else result.response.content


@pytest.mark.parametrize("locale", LOCALES)
async def test_forged_replay_buttons_are_refused_and_change_nothing(
    sim: FakeDiscord, run_bot, make_bot, locale: str
) -> None:
    ana, bruno, watcher, guild, channel = await _people(sim, locale)
    pair = sim.channel(guild, "pair")  # only ana and bruno may view it
    sim.overwrite(pair, guild, deny=VIEW_CHANNEL)
    for user in (ana, bruno):
        sim.overwrite(pair, user, allow=VIEW_CHANNEL)
    async with run_bot(make_bot()) as bot:
        services = bot.services
        await _persian(sim, channel, locale, ana, watcher)
        game_id = await finished_game(services, guild.id, channel.id, [ana.id, bruno.id])
        hidden = await finished_game(services, guild.id, pair.id, [ana.id, bruno.id])
        steps = len(await engine_steps(services, game_id)) - 1
        page = (
            await sim.slash(watcher, "alhambra-history replay", channel=channel, game=game_id)
        ).response
        before = (page.content, page.edits, [a.data for a in page.attachments])

        past_end = error_text(
            InvalidRequest(variant="replay_step", game=game_id, steps=steps), locale
        )
        no_such = error_text(NoGameHere(variant="unknown"), locale)
        invalid = error_text(InvalidRequest(), locale)
        for custom_id, told in (
            (f"alh:r:{game_id}:{steps + 1}:0", past_end),
            (f"alh:r:{game_id}:9999:3", past_end),
            (f"alh:rh:{game_id}:{steps + 7}:4", past_end),
            (f"alh:rs:{game_id}:9999", past_end),
            (f"alh:rp:{game_id}:{steps + 1}", past_end),
            (f"alh:rp:{game_id}:9999", past_end),
            (f"alh:rp:{game_id}:0", invalid),
            (f"alh:r:{NOBODY_S}:1:0", no_such),
            (f"alh:rh:{NOBODY_S}:1:0", no_such),
            (f"alh:rp:{NOBODY_S}:1", no_such),
            (f"alh:r:{hidden}:1:0", no_such),  # a game of a channel the watcher cannot view
            (f"alh:rh:{hidden}:1:0", no_such),
            (f"alh:rp:{hidden}:1", no_such),
        ):
            result = await _forge(sim, watcher, channel, page, custom_id)
            assert await _answer(sim, result) == told, (custom_id, result.describe())
            assert all(not m.attachments for m in result.followups), custom_id
            if result.callback_type == 6:  # the message the button was on: left as it was
                assert result.response is not None and result.response.edits == 0, custom_id
        assert (page.content, page.edits, [a.data for a in page.attachments]) == before

        # another server's member: no such game either
        other = sim.guild("Other", owner=watcher)
        far = sim.channel(other, "x")
        elsewhere = await _forge(sim, watcher, far, page, f"alh:rp:{game_id}:1")
        assert await _answer(sim, elsewhere) == no_such
        # the players of the private game may open it
        theirs = await _forge(sim, ana, channel, page, f"alh:rp:{hidden}:1")
        assert [a.filename for a in theirs.response.attachments] == ["table.png", "boards.png"]


def _turns(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\*\*\D*(\d+)\D*\*\*", text.split("\n", 1)[1])]


@pytest.mark.parametrize("locale", LOCALES)
async def test_show_position_opens_the_replay_where_a_reviewed_turn_began(
    sim: FakeDiscord, run_bot, make_bot, locale: str
) -> None:
    ana, bruno, watcher, guild, channel = await _people(sim, locale)
    async with run_bot(make_bot()) as bot:
        services = bot.services
        await _persian(sim, channel, locale, ana, watcher)
        game_id = await finished_game(services, guild.id, channel.id, [ana.id, bruno.id])
        expected = await engine_steps(services, game_id)
        steps = len(expected) - 1
        names = player_names(locale, await services.lobby.game(game_id))

        review = (
            await sim.slash(
                ana, "alhambra-history review", channel=channel, game=game_id, timeout=REVIEW_WAIT
            )
        ).response
        listed = _turns(i18n.plain(review.content).translate(i18n_digits()))
        assert 1 <= len(listed) <= 5
        labels = [_word(locale, "button.show_position", turn=t) for t in listed]
        assert [i18n.plain(b) for b in review.button_labels()] == labels  # one per line, in order

        for number in listed[:2]:
            label = i18n.t(locale, "button.show_position", turn=number)  # as sent, marks and all
            opened = (await sim.click(ana, review, label)).response
            assert opened.ephemeral and opened.id != review.id
            text = i18n.plain(opened.content)
            assert i18n.plain(i18n.t(locale, "replay.from_review", turn=number)) in text
            key = "replay.title_start" if number == 1 else "replay.title"
            head = i18n.t(locale, key, game=game_id, step=number - 1, steps=steps)
            assert i18n.plain(head) in text
            _shows_step(opened, expected[number - 1], names, locale)
            # and it steps on like any replay: the turn as it was played
            await _click(sim, ana, opened, _word(locale, "button.replay_next"))
            _shows_step(opened, expected[number], names, locale)
        # the review itself is left as it was
        assert [i18n.plain(b) for b in review.button_labels()] == labels


def i18n_digits() -> dict[int, str]:
    """Persian and Arabic-Indic digits read as ASCII ones."""
    table: dict[int, str] = {}
    for zero in (0x06F0, 0x0660):
        table |= {zero + k: str(k) for k in range(10)}
    return table
