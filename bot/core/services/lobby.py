"""Opening a game and gathering its players: the lobby's use cases, from a new game to its start
(a seed from `secrets`, injectable for tests), and ending a game without a result."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import Options, new_game
from engine.ai import display_name

from ..clock import Clock
from ..db import Conflict
from ..errors import (
    AlreadyJoined,
    GameAlreadyRunning,
    InvalidRequest,
    NoGameHere,
    NotAPlayer,
    NotEnoughPlayers,
    NotHost,
    Outdated,
    RatedNeedsPeople,
)
from ..preferences import LANGUAGE_CODE
from ..records import DeadlineRules, GameInfo
from ..results import StartResult
from ..store import Store
from .guards import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Service,
    already_running,
    check_new_game,
    clean_name,
    need_game,
    need_host,
    need_level,
    need_lobby,
    need_room,
    over,
    rate_game,
)


class Lobby(Service):
    """Opening, joining, leaving, starting and ending games, and finding them."""

    def __init__(self, store: Store, clock: Clock, seed_source: Callable[[], int]) -> None:
        super().__init__(store, clock)
        self._seed = seed_source

    # --- finding games ----------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameInfo:
        async with self.store.read() as tx:
            return await need_game(tx, game_id)

    async def game_in_channel(self, channel_id: int) -> GameInfo:
        """The lobby or running game of a channel."""
        async with self.store.read() as tx:
            game = await tx.open_game_in_channel(channel_id)
        if game is None:
            raise NoGameHere()
        return game

    async def game_to_show(self, channel_id: int) -> GameInfo:
        """The game a channel's score sheet, log and boards are about: the running game, else
        the last one that finished there (also while a new one gathers players), else the lobby
        (which has nothing to show yet)."""
        async with self.store.read() as tx:
            game = await tx.open_game_in_channel(channel_id)
            if game is None or game.status == "lobby":
                game = await tx.last_finished_game_in_channel(channel_id) or game
        if game is None:
            raise NoGameHere()
        return game

    # --- the lobby --------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        channel_id: int,
        host_id: int,
        host_name: str,
        guild_id: int | None = None,
        options: Options | dict[str, Any] | None = None,
        max_players: int = MAX_PLAYERS,
        deadline_rules: DeadlineRules | None = None,
        rated: bool = False,
        view_channel_id: int | None = None,
        locale: str = "en",
    ) -> GameInfo:
        """Open a lobby in a channel; the host takes the first place at the table. The deadline
        rules, if any, are stored in the same transaction. `view_channel_id`: the channel whose
        View Channel decides who may look back at the game from elsewhere (the game's own, or
        its public thread's parent: `GameInfo.view_channel_id`). `locale`: the language of the
        game's public side, kept for its whole life (`GameInfo.locale`); the adapter offers
        only the catalogue's languages, the core refuses what is not a language code at all."""
        name = clean_name(host_name)
        opts = check_new_game(options, max_players, deadline_rules)
        if not isinstance(locale, str) or not LANGUAGE_CODE.match(locale):
            raise InvalidRequest(variant="language", language=locale)
        now = self._now()
        try:
            async with self.store.write() as tx:
                existing = await tx.open_game_in_channel(channel_id)
                if existing is not None:
                    raise already_running(existing)
                game_id = await tx.insert_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    options=opts.model_dump(mode="json"),
                    max_players=max_players,
                    now=now,
                    view_channel_id=view_channel_id,
                    locale=locale,
                )
                await tx.insert_seat(
                    game_id, kind="human", user_id=host_id, level=None, name=name, now=now
                )
                if deadline_rules is not None:
                    await tx.set_deadline_rules(game_id, deadline_rules, now)
                if rated:
                    await tx.set_rated(game_id, True, now)
                return await need_game(tx, game_id)
        except Conflict:
            # The one-open-game-per-channel index caught a race with another process.
            raise GameAlreadyRunning() from None

    async def join(self, game_id: int, user_id: int, name: str) -> GameInfo:
        name = clean_name(name)
        async with self.store.write() as tx:
            game = await need_lobby(tx, game_id)
            if game.seat_of(user_id) is not None:
                raise AlreadyJoined()
            need_room(game)
            await tx.insert_seat(
                game_id, kind="human", user_id=user_id, level=None, name=name, now=self._now()
            )
            return await need_game(tx, game_id)

    async def add_computer(
        self, game_id: int, user_id: int, level: str = "easy", name: str | None = None
    ) -> GameInfo:
        """The host adds a computer player to the lobby."""
        need_level(level)
        async with self.store.write() as tx:
            game = await need_lobby(tx, game_id)
            need_host(game, user_id)
            if game.rated:
                raise RatedNeedsPeople()
            need_room(game)
            if name is not None:
                label = clean_name(name)
            else:  # "Bot Ali (hard)": a fresh name, the same one if the request is replayed
                taken = frozenset(s.name for s in game.seats)
                label = display_name(level, random.Random(game_id * 7 + len(game.seats)), taken)
            await tx.insert_seat(
                game_id, kind="computer", user_id=None, level=level, name=label, now=self._now()
            )
            return await need_game(tx, game_id)

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        """Leave a lobby. A leaving host hands over to the next human; the last human closes it."""
        now = self._now()
        async with self.store.write() as tx:
            game = await need_lobby(tx, game_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(variant="lobby")
            await tx.delete_seat(game_id, seat.join_order, now)
            others = [s for s in game.seats if s.user_id not in (None, user_id)]
            if not others:
                await tx.end_game(game_id, "abandoned", now)
            elif game.host_id == user_id:
                host = others[0].user_id
                assert host is not None
                await tx.set_host(game_id, host, now)
            return await need_game(tx, game_id)

    async def start(self, game_id: int, user_id: int) -> StartResult:
        """The host starts the game: random seats and a seed from `secrets`."""
        now = self._now()
        async with self.store.write() as tx:
            game = await need_lobby(tx, game_id)
            need_host(game, user_id)
            if len(game.seats) < MIN_PLAYERS:
                raise NotEnoughPlayers()
            seed = self._seed()
            state = new_game(len(game.seats), seed, Options.model_validate(game.options))
            # state.seating[seat] is the join index (0..n-1) of the player sitting there.
            ordered = sorted(game.seats, key=lambda s: s.join_order)
            seats = {ordered[index].join_order: seat for seat, index in enumerate(state.seating)}
            started = await tx.start_game(
                game_id,
                seed=seed,
                snapshot=state.to_json(),
                current_seat=state.current_seat,
                seats=seats,
                now=now,
            )
            if not started:  # pragma: no cover - the write lock makes this impossible
                raise Outdated()
            info = await need_game(tx, game_id)
        return StartResult(
            info, state.setup_events(), state.view(None), state.view(state.current_seat)
        )

    async def set_rated(self, game_id: int, user_id: int, rated: bool) -> GameInfo:
        """The host makes their lobby rated (or not): its result will move the server's
        ratings if every seat is a person when it ends."""
        async with self.store.write() as tx:
            game = await need_lobby(tx, game_id)
            if game.host_id != user_id:
                raise NotHost()
            await tx.set_rated(game_id, rated, self._now())
            return await need_game(tx, game_id)

    # --- running games ----------------------------------------------------------------------------

    async def abandon(self, game_id: int, user_id: int, *, is_manager: bool = False) -> GameInfo:
        """End a lobby or a running game without a result: its host or a server manager. A
        player who ends a running game loses their seat in it (`forfeits`), which a rated game
        counts as last place, the others sharing first."""
        now = self._now()
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            if not game.is_open:
                raise over(game)
            if user_id != game.host_id and not is_manager:
                raise NotHost(variant="abandon")
            mine = game.seat_of(user_id)
            if game.status == "active" and mine is not None and mine.seat is not None:
                await tx.forfeit(game_id, mine.seat, user_id, "abandoned", now)
            await tx.end_game(game_id, "abandoned", now)
            if game.status == "active" and game.rated:
                await rate_game(tx, game, None, now)
            return await need_game(tx, game_id)
