"""`/alhambra hint` and the panel's Hint button: what the `hard` level (or the level the player
asks: normal, hard, expert) would do, only to the player whose decision it is, never in a rated
game, and every use counted."""

from __future__ import annotations

import random

from fake_discord import FakeDiscord
from players import open_game

from bot.core.services import Services
from bot.text.present import action_label
from engine import Undo


async def _running(sim: FakeDiscord, services: Services, channel, users, *, rated: bool = False):
    """A game of the users started through Discord (so its turn message is in the channel)."""
    lobby = (await open_game(sim, users[0], channel, rated=rated)).response
    for user in users[1:]:
        await sim.click(user, lobby, "Join")
    started = await sim.click(users[0], lobby, "Start")
    await started.wait_followups(1)
    return await services.lobby.game_in_channel(channel.id), started.followups[0]


def _table(sim: FakeDiscord, *users):
    """The first user's server with the others as members, and its game channel."""
    guild = sim.guild("Club", owner=users[0])
    for user in users[1:]:
        sim.member(guild, user)
    return sim.channel(guild, "alhambra")


async def _panel(sim: FakeDiscord, mover, turn):
    """The mover's private panel at its first screen (opened from the turn message and back)."""
    panel = (await sim.click(mover, turn, "Take money")).response
    edits = panel.edits
    await sim.click(mover, panel, "Back")
    await sim.wait_until(lambda: panel.edits > edits)
    return panel


def _split(users, info):
    current = info.current_player.user_id
    mover = next(u for u in users if u.id == current)
    other = next(u for u in users if u.id != current)
    return mover, other


async def test_a_hint_answers_the_player_to_move_and_is_counted(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno, watcher = sim.user("ana"), sim.user("bruno"), sim.user("watcher")
    channel = _table(sim, ana, bruno, watcher)
    async with run_bot(make_bot()) as bot:
        services = bot.services
        info, turn = await _running(sim, services, channel, [ana, bruno])
        mover, other = _split([ana, bruno], info)
        view = (await services.play.view(info.id, mover.id)).view
        before = await services.lobby.game(info.id)

        asked = (await sim.slash(mover, "alhambra hint", channel=channel)).response
        assert asked.ephemeral
        text = asked.content
        assert text.startswith("Hint: the hard level would play **")
        suggested = text.split("**")[1]
        labels = [action_label("en", a, view) for a in view.legal if not isinstance(a, Undo)]
        assert suggested in labels  # a legal move of theirs, in the panel's words
        reason = text.splitlines()[1]
        assert reason and "{" not in reason and not reason.startswith("Hint")
        assert "You have asked for 1 hint in this game" in text
        assert (await services.lobby.game(info.id)).version == before.version  # nothing was played
        assert await services.play.hints_of_game(info.id) == {view.seat: 1}

        # the same decision asked again: the same move (the level's seed is the seat's), counted
        again = (await sim.slash(mover, "alhambra hint", channel=channel)).response
        assert again.content.split("**")[1] == suggested
        assert "You have asked for 2 hints in this game" in again.content

        # not their decision, not their game: refused, nothing recorded
        refused = (await sim.slash(other, "alhambra hint", channel=channel)).response
        assert refused.ephemeral and "It is " in refused.content and "not yours" in refused.content
        outsider = (await sim.slash(watcher, "alhambra hint", channel=channel)).response
        assert "You are not playing in this game." in outsider.content
        assert await services.play.hints_of_game(info.id) == {view.seat: 2}

        # the panel's Hint button answers the same, in a message of its own
        panel = await _panel(sim, mover, turn)
        pressed = await sim.click(mover, panel, "Hint")
        hinted = pressed.response
        assert hinted.ephemeral and hinted.content.split("**")[1] == suggested
        assert "You have asked for 3 hints" in hinted.content

        # played to the end: the hints are in the player's record
        rng = random.Random(3)
        current = await services.lobby.game(info.id)
        while current.status == "active":
            player = current.current_player
            legal = (await services.play.view(current.id, player.user_id)).view.legal
            move = rng.choice([a for a in legal if not isinstance(a, Undo)])
            done = await bot.flow.act(
                current.id, player.user_id, move, current.version, locale="en"
            )
            current = done.game
        await sim.wait_until(
            lambda: any("The game is over!" in m.content for m in sim.channel_messages(channel))
        )
        results = next(m for m in sim.channel_messages(channel) if "The game is over!" in m.content)
        assert f"Hints asked: {mover.name} 3" in results.content
        mine = (await sim.slash(mover, "alhambra-history stats", channel=channel)).response
        assert "Hints asked: 3" in mine.content
        theirs = (await sim.slash(other, "alhambra-history stats", channel=channel)).response
        assert "Hints asked: 0" in theirs.content
        over = (await sim.slash(mover, "alhambra hint", channel=channel)).response
        assert not over.content.startswith("Hint:")  # refused: the game is over


async def test_hints_are_refused_in_a_rated_game(sim: FakeDiscord, run_bot, make_bot) -> None:
    ana, bruno = sim.user("ana"), sim.user("bruno")
    channel = _table(sim, ana, bruno)
    async with run_bot(make_bot()) as bot:
        info, turn = await _running(sim, bot.services, channel, [ana, bruno], rated=True)
        mover, _ = _split([ana, bruno], info)
        refused = (await sim.slash(mover, "alhambra hint", channel=channel)).response
        assert refused.ephemeral
        assert "This game is rated, so hints are off" in refused.content
        assert await bot.services.play.hints_of_game(info.id) == {}
        panel = await _panel(sim, mover, turn)
        assert "Take money" in panel.button_labels() and "Hint" not in panel.button_labels()


async def test_a_player_chooses_the_level_a_hint_comes_from(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno = sim.user("ana"), sim.user("bruno")
    channel = _table(sim, ana, bruno)
    async with run_bot(make_bot()) as bot:
        services = bot.services
        info, turn = await _running(sim, services, channel, [ana, bruno])
        mover, _ = _split([ana, bruno], info)
        view = (await services.play.view(info.id, mover.id)).view
        labels = [action_label("en", a, view) for a in view.legal if not isinstance(a, Undo)]

        expert = (await sim.slash(mover, "alhambra hint", channel=channel, level="expert")).response
        assert expert.ephemeral
        assert expert.content.startswith("Hint: the expert level would play **")
        assert expert.content.split("**")[1] in labels
        assert "You have asked for 1 hint in this game" in expert.content
        normal = (await sim.slash(mover, "alhambra hint", channel=channel, level="normal")).response
        assert normal.content.startswith("Hint: the normal level would play **")
        assert normal.content.split("**")[1] in labels
        assert await services.play.hints_of_game(info.id) == {view.seat: 2}

        # a value Discord's choices would not send (a forged request): refused, nothing recorded
        for forged in ("random", "easy", "grandmaster"):
            sent = await sim.forge_command(
                mover, "alhambra hint", channel=channel, forged={"level": forged}
            )
            refused = sent.response
            assert refused.ephemeral
            assert refused.content == (
                "A hint comes from the normal, hard or expert level: choose one of those."
            )
        assert await services.play.hints_of_game(info.id) == {view.seat: 2}
        assert (await services.lobby.game(info.id)).version == info.version  # nothing was played

        # the panel's Hint button keeps the hard level
        panel = await _panel(sim, mover, turn)
        pressed = (await sim.click(mover, panel, "Hint")).response
        assert pressed.content.startswith("Hint: the hard level would play **")


async def test_a_forged_hint_level_is_refused_in_the_readers_language(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno = sim.user("ana", locale="pt-BR"), sim.user("bruno")
    channel = _table(sim, ana, bruno)
    async with run_bot(make_bot()) as bot:
        info, _ = await _running(sim, bot.services, channel, [ana, bruno])
        for user in (ana, bruno):
            sent = await sim.forge_command(
                user, "alhambra hint", channel=channel, forged={"level": "x"}
            )
            refused = sent.response
            assert refused.ephemeral
            if user is ana:
                assert "médio, difícil ou especialista" in refused.content
            else:
                assert "normal, hard or expert" in refused.content
        assert await bot.services.play.hints_of_game(info.id) == {}
