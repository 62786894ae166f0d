"""Following a game without a seat: the Follow button on the lobby and turn messages and
`/alhambra follow`. A follower by DM gets exactly what the channel reads after each turn (no
picture, no hand), with a button to stop; a follower in the thread is added to it and taken out
again; players, other servers' games and games that are over are refused."""

from __future__ import annotations

import pytest
from fake_discord import FakeDiscord
from players import stored_game

from bot.core.errors import InvalidRequest
from bot.text.present import action_code
from engine import TakeMoney


async def _take_money(sim: FakeDiscord, db_path, thread, users) -> None:
    """The player to move takes the first money they may (their turn ends at once)."""
    _, game, seats = stored_game(db_path, thread.id)
    assert game is not None
    player = next(u for u in users if u.id == seats[game.current_seat])
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    await sim.slash(player, "alhambra take", channel=thread, cards=action_code(take))


async def test_a_watcher_follows_by_dm_and_in_the_thread(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    ana, bruno, watcher = sim.user("ana"), sim.user("bruno"), sim.user("watcher")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    sim.member(guild, watcher)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot(undo_window=0)) as bot:
        opened = await sim.slash(ana, "alhambra new", channel=channel)
        await opened.wait_followups(1)
        thread = opened.response.thread
        (lobby,) = sim.channel_messages(thread)
        await sim.slash(bruno, "alhambra join", channel=thread)
        refused = (await sim.click(bruno, lobby, "Follow")).response
        assert refused.ephemeral and "You play in this game" in refused.content

        ask = (await sim.click(watcher, lobby, "Follow")).response
        assert ask.ephemeral and ask.visible_to is watcher
        assert ask.button_labels() == ["By DM", "Join the thread"]
        assert "never anyone's hand" in ask.content
        done = (await sim.click(watcher, ask, "By DM")).response
        assert "after each turn you get its summary by DM" in done.content

        await sim.slash(ana, "alhambra start", channel=thread)
        await bot.calm()
        told_before = len(sim.channel_messages(thread))
        for _ in range(3):
            await _take_money(sim, db_path, thread, [ana, bruno])
            await bot.calm()
        turns = sim.channel_messages(thread)[told_before:]
        dms = sim.dms(watcher)
        assert len(turns) == 3 and len(dms) == 3
        for turn, dm in zip(turns, dms, strict=True):
            head, *summary = dm.content.splitlines()
            assert head.startswith("**Game #") and f"/{thread.id}/{turn.id}" in head
            # the same turns, in full: the channel has a line per turn, the DM every step
            told = [line for line in turn.content.splitlines() if "<@" not in line]
            assert told and summary
            assert all(line.split(":")[0] in dm.content for line in told), (told, summary)
            assert not dm.attachments and not dm.embeds  # words the channel read, no picture
            assert dm.button_labels() == ["Stop following"]
        assert "Follow" in turns[-1].button_labels()  # the turn message offers it too

        stopped = (await sim.click(watcher, dms[-1], "Stop following")).response
        assert "You no longer follow game" in stopped.content
        await _take_money(sim, db_path, thread, [ana, bruno])
        await bot.calm()
        assert len(sim.dms(watcher)) == 3  # nothing more

        # in the thread: the bot adds them, and takes them out when they change or stop
        turn = sim.channel_messages(thread)[-1]
        ask = (await sim.click(watcher, turn, "Follow")).response
        joined = (await sim.click(watcher, ask, "Join the thread")).response
        assert "you are in its thread now" in joined.content and watcher.id in thread.members
        again = (await sim.click(watcher, turn, "Follow")).response
        assert "in its thread" in again.content
        assert again.button_labels() == ["By DM", "Join the thread", "Stop following"]
        await sim.click(watcher, again, "By DM")
        assert watcher.id not in thread.members
        await sim.slash(watcher, "alhambra follow", channel=thread, how="thread")
        assert watcher.id in thread.members
        gone = await sim.slash(watcher, "alhambra follow", channel=thread, how="stop")
        assert "You no longer follow game" in gone.content and watcher.id not in thread.members
        not_now = await sim.slash(watcher, "alhambra follow", channel=thread, how="stop")
        assert "You do not follow this game" in not_now.content
        game_id = stored_game(db_path, thread.id)[0]
        with pytest.raises(InvalidRequest, match="Follow by dm or thread"):  # a forged way
            await bot.services.people.follow(game_id, watcher.id, "carrier pigeon")
        assert await bot.services.people.followers(game_id) == []


async def test_following_is_refused_where_it_cannot_work(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    ana, bruno, watcher = sim.user("ana"), sim.user("bruno"), sim.user("watcher")
    guild, other = sim.guild("Club", owner=ana), sim.guild("Elsewhere", owner=bruno)
    sim.member(guild, bruno)
    sim.member(guild, watcher)
    sim.member(other, watcher)
    channel, far = sim.channel(guild, "alhambra"), sim.channel(other, "games")
    async with run_bot(make_bot()) as bot:
        await sim.slash(ana, "alhambra new", channel=channel, thread=False)
        game_id, _, _ = stored_game(db_path, channel.id)
        in_channel = await sim.slash(watcher, "alhambra follow", channel=channel, how="thread")
        assert "played in the channel itself" in in_channel.content
        assert await bot.services.people.followers(game_id) == []

        # this game's number, given in another server, names no game there
        by_number = await sim.slash(watcher, "alhambra follow", channel=far, game=game_id)
        assert "There is no such game" in by_number.content
        assert await bot.services.people.followers(game_id) == []

        await sim.slash(ana, "alhambra abandon", channel=channel)
        over = await sim.slash(watcher, "alhambra follow", channel=channel, game=game_id)
        assert over.ephemeral and "This game was abandoned" in over.content
        assert await bot.services.people.followers(game_id) == []
