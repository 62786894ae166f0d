"""Ratings people understand, through the fake Discord, in every language: a rated game's
results say how each player's rating moved (on the leaderboard's scale), the leaderboard shows
the asker's own place outside its top 10 and says what its figures are, a moderator starts a
new season (a member who is not one is refused, kindly) while the last one stays readable, and
a rated game abandoned while it ran is in the archive, marked as abandoned."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from fake_discord import MANAGE_GUILD, FakeDiscord
from fake_discord.models import Channel, User
from players import Table, play_by_commands

from bot.core.clock import ManualClock
from bot.core.services import Services
from bot.text import i18n
from bot.text.ratings import figure, signed
from engine import Game, Undo

LANGUAGES = ("en", "ja", "pt-BR", "fa")
#: a Discord client in each language (Persian has none: its readers choose it in settings)
CLIENTS = {"en": "en-US", "ja": "ja", "pt-BR": "pt-BR", "fa": "en-US"}
T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


async def speaker(sim: FakeDiscord, name: str, locale: str, channel: Channel) -> User:
    """A member who reads `locale`: their client's language, or Persian chosen in settings."""
    user = sim.user(name, locale=CLIENTS[locale])
    sim.member(channel.guild, user)
    if locale == "fa":
        await sim.slash(user, "alhambra settings", channel=channel, language="fa")
    return user


def plain(locale: str, key: str, **params: object) -> str:
    return i18n.plain(i18n.t(locale, key, **params))


async def _to_the_last_move(services: Services, game_id: int, seed: int) -> Game:
    """Random legal moves through the service until the next one would end the game; returns
    the game as it stands then (its last move is for the test to make through Discord)."""
    rng = random.Random(seed)
    while True:
        async with services.store.read() as tx:
            snapshot = await tx.snapshot(game_id)
        assert snapshot is not None
        state = Game.from_json(snapshot)
        assert not state.is_over
        info = await services.lobby.game(game_id)
        player = info.current_player
        assert player is not None and player.user_id is not None
        move = rng.choice([a for a in state.legal_actions() if not isinstance(a, Undo)])
        trial = state.copy()
        trial.apply(move)
        if trial.is_over:
            return state
        await services.play.act(game_id, player.user_id, move, info.version)


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_the_results_of_a_rated_game_say_how_each_rating_moved(
    sim: FakeDiscord, run_bot, make_bot, db_path, locale: str
) -> None:
    sim.reply_timeout = 60  # the last move draws the results and every Alhambra growing
    ana, bruno = sim.user("ana"), sim.user("bruno")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot(clock=ManualClock(T0))) as bot:
        await sim.slash(
            ana, "alhambra new", channel=channel, rated=True, thread=False, language=locale
        )
        await sim.slash(bruno, "alhambra join", channel=channel)
        await sim.slash(ana, "alhambra start", channel=channel)
        await bot.idle()
        game = await bot.services.lobby.game_in_channel(channel.id)
        dora = await speaker(sim, "dora", locale, channel)  # follows the game by DM
        await sim.slash(dora, "alhambra follow", channel=channel, how="dm")
        state = await _to_the_last_move(bot.services, game.id, seed=11)
        users = {ana.id: ana, bruno.id: bruno}
        table = Table(sim, channel, db_path, users)
        seat = state.current_seat
        mover = users[next(s.user_id for s in game.seats if s.seat == seat)]  # type: ignore[index]
        last = next(
            a
            for a in state.legal_actions()
            if not isinstance(a, Undo) and (t := state.copy()).apply(a) is not None and t.is_over
        )
        await play_by_commands(table, last, mover, state)
        await bot.idle()
        board = dict(await bot.services.archive.leaderboard(guild.id))
    title = plain(locale, "results.title")
    results = [m for m in sim.channel_messages(channel) if title in i18n.plain(m.content)]
    assert len(results) == 1
    text = i18n.plain(results[0].content)
    assert set(board) == {ana.id, bruno.id} and all(r.games == 1 for r in board.values())
    line = next(
        ln
        for ln in text.splitlines()
        if plain(locale, "ratings.results", season=1, changes="") in ln
    )
    for user in (ana, bruno):  # newcomers: from 1,500 to the figure the board shows
        after = board[user.id].points
        moved = plain(
            locale,
            "ratings.change",
            name=user.name,
            before=figure(locale, 1500),
            after=figure(locale, after),
            delta=signed(locale, after - 1500),
        )
        assert moved in line, (moved, line)
    # the follower's DM of the results says it too
    told = i18n.plain(sim.dms(dora)[-1].content)
    assert title in told and line in told.splitlines()
    if locale == "en":  # as a reader sees it
        winner = max(board, key=lambda u: board[u].points)
        gain = board[winner].points - 1500
        assert f"{users[winner].name} 1,500 → {board[winner].points:,} (+{gain})" in line


async def _abandoned_by_host(services: Services, guild: int, channel: int, users: list[int]) -> int:
    """A rated game its host ends while it runs (the host last, the others tied first)."""
    game = await services.lobby.create_game(
        channel_id=channel, host_id=users[0], host_name="host", guild_id=guild, rated=True
    )
    for i, user in enumerate(users[1:], start=1):
        await services.lobby.join(game.id, user, f"p{i}")
    await services.lobby.start(game.id, users[0])
    await services.lobby.abandon(game.id, users[0])
    return game.id


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_the_leaderboard_shows_your_own_place_and_its_scale(
    sim: FakeDiscord, run_bot, make_bot, locale: str
) -> None:
    owner = sim.user("owner")
    guild = sim.guild("Club", owner=owner)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        me = await speaker(sim, "me", locale, channel)
        newcomer = await speaker(sim, "newcomer", locale, channel)
        others = [sim.user(f"p{n}") for n in range(11)]
        for user in others:
            sim.member(guild, user)
        # eleven others win a game each; I lose mine: twelve rated players, me last
        for n, user in enumerate(others):
            rival = others[(n + 1) % len(others)]
            await _abandoned_by_host(bot.services, guild.id, 100 + n, [rival.id, user.id])
        await _abandoned_by_host(bot.services, guild.id, 200, [me.id, others[0].id])
        full = await bot.services.archive.leaderboard(guild.id, limit=100)
        assert len(full) == 12 and full[-1][0] == me.id
        mine = full[-1][1]

        shown = (await sim.slash(me, "alhambra-history leaderboard", channel=channel)).response
        assert shown.ephemeral
        lines = i18n.plain(shown.content).splitlines()
        listed = [
            ln for ln in lines if f"<@{me.id}>" in ln or any(f"<@{u}>" in ln for u, _ in full)
        ]
        assert len(listed) == 10 and all(f"<@{me.id}>" not in ln for ln in listed)
        own = plain(locale, "leaderboard.you", rank=12, rating=figure(locale, mine.points), count=1)
        assert own in lines, (own, lines)
        assert lines.index(own) > max(lines.index(ln) for ln in listed)  # after the top 10
        assert f"-# {plain(locale, 'leaderboard.scale')}" in lines
        top_user, top = full[0]
        first = plain(
            locale,
            "leaderboard.line",
            rank=1,
            name=f"<@{top_user}>",
            rating=figure(locale, top.points),
            count=top.games,
        )
        assert first in lines  # the same figure as the results and the record
        if locale == "en":
            assert f"… 12. You: {mine.points:,} (1 game)" in lines
            assert "1,500 + 48 × (μ − 3σ)" in shown.content  # noqa: RUF001

        # one without a rating yet is told how to get one
        none = (await sim.slash(newcomer, "alhambra-history leaderboard", channel=channel)).response
        assert plain(locale, "leaderboard.you_none") in i18n.plain(none.content)

        # and a record in this server shows the same figure and place
        record = (await sim.slash(me, "alhambra-history stats", channel=channel)).response
        assert plain(
            locale, "stats.rating", season=1, rating=figure(locale, mine.points), rank=12, of=12
        ) in i18n.plain(record.content)


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_a_moderator_starts_a_new_season_and_the_last_one_stays(
    sim: FakeDiscord, run_bot, make_bot, locale: str
) -> None:
    owner = sim.user("owner")
    guild = sim.guild("Club", owner=owner)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        player = await speaker(sim, "player", locale, channel)
        moderator = await speaker(sim, "moderator", locale, channel)
        sim.member(guild, moderator, permissions=MANAGE_GUILD)
        rival = sim.user("rival")
        sim.member(guild, rival)
        await _abandoned_by_host(bot.services, guild.id, 10, [rival.id, player.id])
        before = await bot.services.archive.leaderboard(guild.id)

        # not a moderator: refused in a friendly line, and nothing changes
        refused = (await sim.slash(player, "alhambra-history new-season", channel=channel)).response
        assert refused.ephemeral and i18n.plain(refused.content) == plain(locale, "error.season")
        assert await bot.services.archive.current_season(guild.id) == 1

        # a moderator is asked first; the season starts only with the button
        asked = (
            await sim.slash(moderator, "alhambra-history new-season", channel=channel)
        ).response
        assert asked.ephemeral
        command = f"/alhambra-history {i18n.t(locale, 'cmd.leaderboard.name')} season:1"
        assert i18n.plain(asked.content) == plain(
            locale, "season.confirm", season=1, next=2, command=command
        )
        assert await bot.services.archive.current_season(guild.id) == 1
        label = plain(locale, "button.season_confirm", next=2)
        assert [i18n.plain(shown) for shown in asked.button_labels()] == [label]

        edits = asked.edits
        await sim.click(moderator, asked, "alh:season:1")  # its custom id: any language
        await sim.wait_until(lambda: asked.edits > edits)
        assert i18n.plain(asked.content) == plain(
            locale, "season.started", season=2, closed=1, command=command
        )
        assert await bot.services.archive.current_season(guild.id) == 2

        # the new season starts fresh: nobody is on its board yet
        now = (await sim.slash(player, "alhambra-history leaderboard", channel=channel)).response
        text = i18n.plain(now.content)
        assert plain(locale, "leaderboard.title_season", season=2) in text
        assert plain(locale, "leaderboard.empty_season", season=2) in text
        assert plain(locale, "leaderboard.season_before", command=command) in text

        # the last season stays readable, with the figures it ended with
        old = await sim.slash(player, "alhambra-history leaderboard", channel=channel, season=1)
        text = i18n.plain(old.response.content)
        assert plain(locale, "leaderboard.title_closed", season=1, current=2) in text
        for rank, (user_id, rating) in enumerate(before, start=1):
            line = plain(
                locale,
                "leaderboard.line",
                rank=rank,
                name=f"<@{user_id}>",
                rating=figure(locale, rating.points),
                count=rating.games,
            )
            assert line in text
        missing = await sim.slash(player, "alhambra-history leaderboard", channel=channel, season=7)
        assert i18n.plain(missing.response.content) == plain(
            locale, "error.season.unknown", season=7, current=2
        )

        # a rated game of the new season moves ratings from a fresh start
        await _abandoned_by_host(bot.services, guild.id, 11, [rival.id, player.id])
        fresh = dict(await bot.services.archive.leaderboard(guild.id))
        assert set(fresh) == {rival.id, player.id} and all(r.games == 1 for r in fresh.values())


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_a_rated_game_abandoned_while_running_is_in_the_archive(
    sim: FakeDiscord, run_bot, make_bot, locale: str
) -> None:
    owner = sim.user("owner")
    guild = sim.guild("Club", owner=owner)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        ana = await speaker(sim, "ana", locale, channel)
        bruno = await speaker(sim, "bruno", locale, channel)
        await sim.slash(
            ana, "alhambra new", channel=channel, rated=True, thread=False, language=locale
        )
        await sim.slash(bruno, "alhambra join", channel=channel)
        await sim.slash(ana, "alhambra start", channel=channel)
        game = await bot.services.lobby.game_in_channel(channel.id)
        ended = (await sim.slash(ana, "alhambra abandon", channel=channel)).response
        assert (await bot.services.lobby.game(game.id)).status == "abandoned"
        # its end says how it moved the ratings, as a finished game's results do
        said = i18n.plain(ended.content).splitlines()
        assert said[0] == plain(locale, "reply.abandoned_rated", name="ana")
        board = dict(await bot.services.archive.leaderboard(guild.id))
        for user in (bruno, ana):  # the others share first; the host is last
            after = board[user.id].points
            moved = plain(
                locale,
                "ratings.change",
                name=user.name,
                before=figure(locale, 1500),
                after=figure(locale, after),
                delta=signed(locale, after - 1500),
            )
            assert moved in said[1], (moved, said)
        assert board[bruno.id].points > 1500 > board[ana.id].points
        assert {c.user_id for c in await bot.services.archive.rating_changes(game.id)} == {
            ana.id,
            bruno.id,
        }  # it moved both ratings

        listed = (await sim.slash(bruno, "alhambra-history games", channel=channel)).response
        text = i18n.plain(listed.content)
        line = next(ln for ln in text.splitlines() if f"#{game.id}" in ln)
        tail = plain(locale, "archive.abandoned", line="")
        assert line.endswith(tail), (line, tail)
        choice = plain(locale, "archive.choice_abandoned", game=game.id)
        options = [i18n.plain(o["label"]) for s in listed.selects() for o in s["options"]]
        assert options == [choice]
        menu = listed.selects()[0]
        opened = (await sim.select(bruno, listed, menu["custom_id"], [str(game.id)])).response
        assert opened is not None and opened.ephemeral  # its replay, at the last turn played
