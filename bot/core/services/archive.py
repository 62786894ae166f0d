"""What finished games leave behind, read back: the server's archive, a replay, the growth of each
Alhambra, ratings, and a player's record and head-to-head (counted from replayed logs)."""

from __future__ import annotations

import asyncio

from engine import Game, Options, TurnEnded, new_game

from ..clock import to_ms
from ..errors import ArchiveEnd, InvalidRequest, SeasonRefused
from ..ratings import Leaderboard, Rating, RatingChange, Standing
from ..records import Sight
from ..results import ArchivedGame, ArchivePage, Growth, ReplayStep
from ..stats import HeadToHead, PlayerStats, head_to_head, player_stats
from .guards import Service, rate_game, read_log

#: finished games a player's statistics are counted over (the latest)
STATS_GAMES = 200
#: the largest id a database column holds (Discord's ids are far below it)
MAX_ID = 2**63 - 1
#: how far back the archive pages (a million games, beyond any server's)
MAX_ARCHIVE_OFFSET = 999_999


class Archive(Service):
    """Finished games, replays, ratings and records: the read side of what games leave."""

    # --- the archive ------------------------------------------------------------------------------

    async def finished_games(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
        sight: Sight | None = None,
    ) -> ArchivePage:
        """A page of a server's finished games, the latest first (only `user_id`'s if given,
        and only those `sight` allows: what the member asking may see): `limit` of them after
        the `offset` latest, a whole number of pages. A page past the end of a list is refused
        (`ArchiveEnd`), the first one may be empty."""
        if limit < 1 or offset < 0 or offset % limit or offset > MAX_ARCHIVE_OFFSET:
            raise InvalidRequest()
        if user_id is not None and not 0 < user_id <= MAX_ID:
            raise InvalidRequest()
        async with self.store.read() as tx:
            found = await tx.finished_games(guild_id, user_id, limit + 1, offset, sight)
        if offset and not found:
            raise ArchiveEnd()
        out = []
        for game, snapshot in found[:limit]:
            state = Game.from_json(snapshot)
            out.append(ArchivedGame(game, state.ranking(), game.version))
        return ArchivePage(out, offset, limit, more=len(found) > limit)

    async def replay(
        self,
        game_id: int,
        step: int | None = None,
        *,
        user_id: int | None = None,
        exact: bool = False,
    ) -> ReplayStep:
        """The game after its `step`-th finished turn (the last one if None; clamped to the
        game, or with `exact` refused past its end: a step a button named), rebuilt from the
        seed and the log: what anyone may see of it then, and, if `user_id` has a seat in the
        game, what that seat alone saw (its own hand)."""
        game_log = await read_log(self.store, game_id)
        turns = game_log.turns()
        if exact and step is not None and not 0 <= step <= len(turns):
            raise InvalidRequest(variant="replay_step", game=game_id, steps=len(turns))
        wanted = len(turns) if step is None else max(0, min(step, len(turns)))
        version = 0 if wanted == 0 else turns[wanted - 1].seq
        game = game_log.game
        assert game.seed is not None
        seed, players = game.seed, len(game.seats)
        options = Options.model_validate(game.options)
        actions = [e.action for e in game_log.entries[:version]]

        def rebuild() -> Game:
            state = new_game(players, seed, options)
            for action in actions:
                state.apply(action)
            return state

        state = await asyncio.to_thread(rebuild)
        mine = game.seat_of(user_id) if user_id is not None else None
        seat = mine.seat if mine is not None else None
        own = state.view(seat) if seat is not None else None
        return ReplayStep(
            game_log, wanted, len(turns), state.view(None), state.ranking(), seat=seat, own=own
        )

    async def growth(self, game_id: int) -> Growth:
        """Every player's Alhambra after each finished turn (and as dealt), rebuilt from the
        log, keeping only the turns that changed one (and the last): the frames of the
        results' animation."""
        game_log = await read_log(self.store, game_id)
        game = game_log.game
        assert game.seed is not None
        seed, players = game.seed, len(game.seats)
        options = Options.model_validate(game.options)
        actions = [e.action for e in game_log.entries]

        def rebuild() -> Growth:
            state = new_game(players, seed, options)

            def grids() -> list[dict[tuple[int, int], int]]:
                return [
                    {(0, 0): 0} | {(c[0], c[1]): t for c, t in state.alhambra(s).tiles.items()}
                    for s in range(players)
                ]

            frames, turns = [grids()], [0]
            turn = 0
            for action in actions:
                if any(isinstance(e, TurnEnded) for e in state.apply(action)):
                    turn += 1
                    now = grids()
                    if now != frames[-1]:
                        frames.append(now)
                        turns.append(turn)
            if turns[-1] != turn:
                frames.append(grids())
                turns.append(turn)
            return Growth(frames, turns)

        return await asyncio.to_thread(rebuild)

    async def forfeits(self, game_id: int) -> dict[int, int]:
        """Who lost their seat in a game (to deadlines, a vote, or by ending it): user -> seat."""
        async with self.store.read() as tx:
            return await tx.forfeits(game_id)

    # --- ratings ----------------------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[int, Rating]]:
        """The current season's rated players of the server, best first."""
        async with self.store.read() as tx:
            return await tx.leaderboard(guild_id, limit)

    async def season_board(
        self,
        guild_id: int,
        limit: int = 10,
        *,
        season: int | None = None,
        user_id: int | None = None,
    ) -> Leaderboard:
        """A season of the server's ratings (the current one if None), best first (by skill
        less three uncertainties), its `limit` best players and `user_id`'s own standing, even
        outside them. A season the server never had is refused."""
        async with self.store.read() as tx:
            current = await tx.current_season(guild_id)
            if season is not None and not 1 <= season <= current:
                raise SeasonRefused(variant="unknown", season=season, current=current)
            closed = season if season is not None and season < current else None
            rows = await tx.leaderboard(guild_id, limit, closed)
            players = await tx.rated_players(guild_id, closed)
            mine = None if user_id is None else await tx.standing(guild_id, user_id, closed)
        top = [Standing(user, rank, players, r) for rank, (user, r) in enumerate(rows, start=1)]
        return Leaderboard(season or current, current, top, mine, players)

    async def current_season(self, guild_id: int) -> int:
        async with self.store.read() as tx:
            return await tx.current_season(guild_id)

    async def new_season(
        self, guild_id: int, user_id: int, closing: int, *, is_manager: bool
    ) -> int:
        """Close the server's season `closing` (its ratings kept, and shown as that season's)
        and start the next, in which everyone starts fresh: a server manager's decision. A
        season already closed is refused (a confirmation pressed twice starts one season).
        Returns the new season's number."""
        if not is_manager:
            raise SeasonRefused()
        async with self.store.write() as tx:
            current = await tx.current_season(guild_id)
            if closing != current:
                if 1 <= closing < current:
                    raise SeasonRefused(variant="closed", season=closing, current=current)
                raise SeasonRefused(variant="unknown", season=closing, current=current)
            await tx.close_season(guild_id, current, user_id, self._now())
            return current + 1

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """How a rated game moved its players' ratings (none if it moved none)."""
        async with self.store.read() as tx:
            return await tx.rating_changes(game_id)

    async def rebuild_ratings(self) -> int:
        """Every server's ratings recomputed from the results of its rated games, in the
        order they ended, each in the season of the time it ended (the seasons closed keep
        their own ratings); returns how many games were counted."""
        now = self._now()
        async with self.store.write() as tx:
            await tx.clear_ratings()
            starts = await tx.season_starts()
            kept: dict[int, int] = {}  # server -> the season its `ratings` hold now
            counted = 0
            for game, snapshot in await tx.rated_results():
                guild = game.guild_id
                if guild is None:
                    continue
                ended = to_ms(game.ended_at) if game.ended_at is not None else 0
                season = 1 + sum(1 for start in starts.get(guild, []) if start < ended)
                while kept.get(guild, 1) < season:
                    await tx.keep_season(guild, kept.get(guild, 1))
                    kept[guild] = kept.get(guild, 1) + 1
                ranks = Game.from_json(snapshot).ranks if game.status == "finished" else None
                if await rate_game(tx, game, ranks, now, season=season):
                    counted += 1
            for guild, seasons in starts.items():  # and the seasons closed since
                while kept.get(guild, 1) < 1 + len(seasons):
                    await tx.keep_season(guild, kept.get(guild, 1))
                    kept[guild] = kept.get(guild, 1) + 1
            return counted

    # --- records ----------------------------------------------------------------------------------

    async def player_stats(
        self,
        user_id: int,
        *,
        guild_id: int | None = None,
        limit: int = STATS_GAMES,
        sight: Sight | None = None,
    ) -> PlayerStats:
        """`user_id`'s record over their latest `limit` finished games, in one server or
        anywhere (only those `sight` allows, if given), counted from each game's replayed log
        (`core.stats`)."""
        async with self.store.read() as tx:
            ids = await tx.finished_game_ids(guild_id, user_id, limit, sight)
            hints = await tx.hints_used(user_id, ids)
        stats = player_stats(user_id, [await read_log(self.store, game_id) for game_id in ids])
        stats.hints = hints
        return stats

    async def head_to_head(
        self,
        user_id: int,
        other_id: int,
        *,
        guild_id: int | None = None,
        limit: int = STATS_GAMES,
        sight: Sight | None = None,
    ) -> HeadToHead:
        """`user_id` against `other_id` over the latest `limit` finished games both sat in, in
        one server or anywhere (only those `sight` allows, if given), counted from each game's
        replayed log (`core.stats`)."""
        async with self.store.read() as tx:
            ids = await tx.shared_finished_game_ids(guild_id, user_id, other_id, limit, sight)
        return head_to_head(
            user_id, other_id, [await read_log(self.store, game_id) for game_id in ids]
        )

    # --- view channels ----------------------------------------------------------------------------

    async def games_without_view_channel(
        self, after: int = 0, limit: int = 100
    ) -> list[tuple[int, int, int]]:
        """(game id, server id, channel id) of server games stored before their view channel
        was (`GameInfo.view_channel_id`), numbered after `after`, the oldest first: for the
        adapter to fill in."""
        async with self.store.read() as tx:
            return await tx.games_without_view_channel(after, limit)

    async def set_view_channel(self, game_id: int, channel_id: int) -> None:
        """Record the channel whose View Channel decides who may look back at the game."""
        async with self.store.write() as tx:
            await tx.set_view_channel(game_id, channel_id)
