"""Ratings people understand, in the store and the service, on both engines: each rated game
keeps how it moved every player's rating (on the familiar scale), a season's board gives the
asker's own place wherever it is, a moderator closes a season (kept, readable, and rebuilt as
it was) and the next starts fresh, and the archive lists rated games abandoned while running."""

from __future__ import annotations

import pytest

from bot.core.clock import ManualClock
from bot.core.errors import SeasonRefused
from bot.core.ratings import BASE, PER_POINT, Rating, new_rating
from bot.core.services import Services

GUILD = 1


async def _abandoned_by_host(
    services: Services, clock: ManualClock, users: list[int], channel: int, guild: int = GUILD
) -> int:
    """A rated game of `users` that its host ends while it runs: the host counts as last,
    the others share first (the quickest rated result there is)."""
    game = await services.lobby.create_game(
        channel_id=channel, host_id=users[0], host_name="P0", guild_id=guild, rated=True
    )
    for i, user in enumerate(users[1:], start=1):
        await services.lobby.join(game.id, user, f"P{i}")
    await services.lobby.start(game.id, users[0])
    clock.advance(60)
    await services.lobby.abandon(game.id, users[0])
    clock.advance(60)
    return game.id


def test_the_scale_starts_at_1500_and_follows_the_conservative_figure() -> None:
    assert new_rating().points == BASE == 1500
    assert Rating(30.0, 2.0).points == round(1500 + PER_POINT * 24.0)
    assert Rating(25.0, 10.0).points < 1500 < Rating(26.0, 5.0).points


async def test_a_rated_game_keeps_how_it_moved_each_rating(
    services: Services, clock: ManualClock
) -> None:
    game_id = await _abandoned_by_host(services, clock, [21, 22, 23], channel=10)
    changes = {c.user_id: c for c in await services.archive.rating_changes(game_id)}
    assert set(changes) == {21, 22, 23}
    assert all(c.before.points == 1500 and c.season == 1 for c in changes.values())
    assert changes[21].delta < 0 < changes[22].delta == changes[23].delta
    board = dict(await services.archive.leaderboard(GUILD))
    assert {u: r.points for u, r in board.items()} == {
        u: c.after.points for u, c in changes.items()
    }  # the figure the results show is the board's

    again = await _abandoned_by_host(services, clock, [22, 21], channel=11)
    moved = {c.user_id: c for c in await services.archive.rating_changes(again)}
    assert moved[22].before == board[22] and moved[21].before == board[21]
    assert moved[22].delta < 0 < moved[21].delta
    assert moved[21].after.games == 2

    unrated = await services.lobby.create_game(
        channel_id=12, host_id=21, host_name="P0", guild_id=GUILD
    )
    assert await services.archive.rating_changes(unrated.id) == []


async def test_the_board_gives_the_askers_own_place_outside_the_top(
    services: Services, clock: ManualClock
) -> None:
    players = list(range(100, 112))  # twelve: two more than the board lists
    for n, host in enumerate(players):
        await _abandoned_by_host(services, clock, [host, players[(n + 1) % 12]], channel=20 + n)
    full = await services.archive.leaderboard(GUILD, limit=100)
    assert len(full) == 12
    last = full[-1][0]
    board = await services.archive.season_board(GUILD, user_id=last)
    assert len(board.top) == 10 and board.players == 12 and board.season == board.current == 1
    assert [s.user_id for s in board.top] == [u for u, _ in full[:10]]
    assert board.mine is not None and (board.mine.rank, board.mine.of) == (12, 12)
    assert board.mine.rating == full[-1][1]
    for rank, (user, _) in enumerate(full, start=1):  # the same order, whoever asks
        mine = (await services.archive.season_board(GUILD, user_id=user)).mine
        assert mine is not None and mine.rank == rank
    assert (await services.archive.season_board(GUILD, user_id=999)).mine is None


async def test_a_moderator_starts_a_season_and_the_last_one_stays(
    services: Services, clock: ManualClock
) -> None:
    await _abandoned_by_host(services, clock, [21, 22, 23], channel=30)
    await _abandoned_by_host(services, clock, [31, 32], channel=31, guild=2)  # another server
    first = await services.archive.season_board(GUILD, user_id=21)
    other = await services.archive.season_board(2)

    with pytest.raises(SeasonRefused) as refused:
        await services.archive.new_season(GUILD, 22, 1, is_manager=False)
    assert refused.value.key == "error.season"
    assert (await services.archive.season_board(GUILD)).top == first.top  # nothing changed

    assert await services.archive.new_season(GUILD, 99, 1, is_manager=True) == 2
    clock.advance(60)
    for closing, key in ((1, "error.season.closed"), (5, "error.season.unknown")):
        with pytest.raises(SeasonRefused) as refused:  # pressed twice: one season only
            await services.archive.new_season(GUILD, 99, closing, is_manager=True)
        assert refused.value.key == key
    now = await services.archive.season_board(GUILD, user_id=21)
    assert (now.season, now.current, now.top, now.mine) == (2, 2, [], None)
    old = await services.archive.season_board(GUILD, season=1, user_id=21)
    assert (old.season, old.current) == (1, 2)
    assert old.top == first.top and old.mine == first.mine
    with pytest.raises(SeasonRefused) as refused:
        await services.archive.season_board(GUILD, season=3)
    assert refused.value.key == "error.season.unknown"
    assert (await services.archive.season_board(2)).top == other.top  # not the other server's

    fresh = await _abandoned_by_host(services, clock, [22, 21], channel=32)
    changes = await services.archive.rating_changes(fresh)
    assert all(c.season == 2 and c.before == new_rating() for c in changes)
    second = await services.archive.season_board(GUILD, user_id=21)
    assert {s.user_id for s in second.top} == {21, 22} and second.mine is not None
    assert all(s.rating.games == 1 for s in second.top)

    # rebuilt from the results: each game in its season, the closed season as it was
    assert await services.archive.rebuild_ratings() == 3
    assert (await services.archive.season_board(GUILD, season=1)).top == old.top
    assert (await services.archive.season_board(GUILD)).top == second.top
    assert (await services.archive.season_board(2)).top == other.top
    assert await services.archive.rating_changes(fresh) == changes


async def test_the_archive_lists_rated_games_abandoned_while_running(
    services: Services, clock: ManualClock
) -> None:
    rated = await _abandoned_by_host(services, clock, [21, 22], channel=40)
    lobby = await services.lobby.create_game(
        channel_id=41, host_id=21, host_name="P0", guild_id=GUILD, rated=True
    )
    await services.lobby.abandon(lobby.id, 21)  # never started: no game to look back at
    plain = await services.lobby.create_game(
        channel_id=42, host_id=21, host_name="P0", guild_id=GUILD
    )
    await services.lobby.join(plain.id, 22, "P1")
    await services.lobby.start(plain.id, 21)
    await services.lobby.abandon(plain.id, 21)  # unrated: it counted for nothing
    page = await services.archive.finished_games(GUILD)
    assert [(e.game.id, e.game.status) for e in page.games] == [(rated, "abandoned")]
    mine = await services.archive.finished_games(GUILD, user_id=22)
    assert [e.game.id for e in mine.games] == [rated]
