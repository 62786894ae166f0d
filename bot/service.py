"""The use cases of the bot, Discord-agnostic: plain ids and engine actions in, plain results out.

Every slash command, button and the offline mode go through here. Reading the rules is the
engine's job; this module decides who may do what, and keeps the store consistent:

- a move is checked against a snapshot read outside any lock, applied by the engine, and saved
  in ONE transaction that appends the action and bumps the version only if it still has the
  expected value (optimistic concurrency: of many simultaneous clicks exactly one wins, across
  processes too);
- a refused request raises a `ServiceError` before or inside a transaction that is rolled
  back, so it writes nothing;
- time comes from the injected clock, seeds from `secrets` (injectable for tests).
"""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import sqlite3
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import pydantic

from engine import (
    Action,
    EndTurn,
    Game,
    IllegalAction,
    Options,
    Skip,
    TurnEnded,
    TurnStarted,
    Undo,
    action_from_dict,
    action_to_json,
    new_game,
)
from engine.ai import LEVELS, display_name

from .clock import Clock, SystemClock, from_ms, to_ms
from .errors import (
    AlreadyJoined,
    GameAlreadyRunning,
    GameAlreadyStarted,
    GameNotStarted,
    GameOver,
    IllegalMove,
    InvalidRequest,
    LobbyFull,
    NoGameHere,
    NotAPlayer,
    NotEnoughPlayers,
    NotHost,
    NotYourTurn,
    Outdated,
)
from .results import ActResult, GameLog, LogEntry, MyGame, StartResult, ViewResult
from .store import GameInfo, SeatInfo, Store, TimerKind, TimerRow, Tx, UserSettings

MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: Computer player strengths (engine.ai); the service records them, the bot drives them.
COMPUTER_LEVELS: tuple[str, ...] = tuple(LEVELS)
NAME_LIMIT = 32  # Discord's own limit for nicknames
_LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Z]{2})?$")
_UNSET: Any = object()


def clean_name(name: str) -> str:
    """A display name fit for the table: control characters removed, trimmed, not empty."""
    text = "".join(ch for ch in str(name) if unicodedata.category(ch)[0] != "C").strip()
    if not text:
        raise InvalidRequest("A player needs a name that is not empty.")
    return text[:NAME_LIMIT]


def parse_action(action: Action | dict[str, Any]) -> Action:
    if isinstance(action, dict):
        try:
            return action_from_dict(action)
        except (pydantic.ValidationError, ValueError, TypeError):
            raise IllegalMove("That is not a move this game understands.") from None
    return action


class GameService:
    """The use cases over one `Store`. Several instances (processes) may share a database."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        self._seed = seed_source or (lambda: secrets.randbits(63))

    def _now(self) -> datetime:
        return self.clock.now()

    # --- finding games -------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameInfo:
        async with self.store.read() as tx:
            return await _need_game(tx, game_id)

    async def game_in_channel(self, channel_id: int) -> GameInfo:
        """The lobby or running game of a channel."""
        async with self.store.read() as tx:
            game = await tx.open_game_in_channel(channel_id)
        if game is None:
            raise NoGameHere()
        return game

    # --- the lobby -----------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        channel_id: int,
        host_id: int,
        host_name: str,
        guild_id: int | None = None,
        options: Options | dict[str, Any] | None = None,
        max_players: int = MAX_PLAYERS,
        turn_deadline_s: int | None = None,
        reminder_after_s: int | None = None,
    ) -> GameInfo:
        """Open a lobby in a channel; the host takes the first place at the table."""
        name = clean_name(host_name)
        try:
            opts = (
                options if isinstance(options, Options) else Options.model_validate(options or {})
            )
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg']}" for e in exc.errors()
            )
            raise InvalidRequest(f"Those game options are not valid ({problems}).") from None
        if not isinstance(max_players, int) or not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
            raise InvalidRequest(
                f"A game of Alhambra has {MIN_PLAYERS} to {MAX_PLAYERS} players; "
                f"{max_players} is not possible."
            )
        for label, value in (("turn deadline", turn_deadline_s), ("reminder", reminder_after_s)):
            if value is not None and (not isinstance(value, int) or value <= 0):
                raise InvalidRequest(f"The {label} must be a positive number of seconds.")
        now = self._now()
        try:
            async with self.store.write() as tx:
                existing = await tx.open_game_in_channel(channel_id)
                if existing is not None:
                    raise _already_running(existing)
                game_id = await tx.insert_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=host_id,
                    options=opts.model_dump(mode="json"),
                    max_players=max_players,
                    turn_deadline_s=turn_deadline_s,
                    reminder_after_s=reminder_after_s,
                    now=now,
                )
                await tx.insert_seat(
                    game_id, kind="human", user_id=host_id, level=None, name=name, now=now
                )
                return await _need_game(tx, game_id)
        except sqlite3.IntegrityError:
            # The one-open-game-per-channel index caught a race with another process.
            raise GameAlreadyRunning() from None

    async def join(self, game_id: int, user_id: int, name: str) -> GameInfo:
        name = clean_name(name)
        async with self.store.write() as tx:
            game = await _need_lobby(tx, game_id)
            if game.seat_of(user_id) is not None:
                raise AlreadyJoined()
            _need_room(game)
            await tx.insert_seat(
                game_id, kind="human", user_id=user_id, level=None, name=name, now=self._now()
            )
            return await _need_game(tx, game_id)

    async def add_computer(
        self, game_id: int, user_id: int, level: str = "easy", name: str | None = None
    ) -> GameInfo:
        """The host adds a computer player to the lobby."""
        _need_level(level)
        async with self.store.write() as tx:
            game = await _need_lobby(tx, game_id)
            _need_host(game, user_id)
            _need_room(game)
            if name is not None:
                label = clean_name(name)
            else:  # "Bot Ali (hard)": a fresh name, the same one if the request is replayed
                taken = frozenset(s.name for s in game.seats)
                label = display_name(level, random.Random(game_id * 7 + len(game.seats)), taken)
            await tx.insert_seat(
                game_id, kind="computer", user_id=None, level=level, name=label, now=self._now()
            )
            return await _need_game(tx, game_id)

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        """Leave a lobby. A leaving host hands over to the next human; the last human closes it."""
        now = self._now()
        async with self.store.write() as tx:
            game = await _need_lobby(tx, game_id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotAPlayer("You are not in this game's lobby.")
            await tx.delete_seat(game_id, seat.join_order, now)
            others = [s for s in game.seats if s.user_id not in (None, user_id)]
            if not others:
                await tx.end_game(game_id, "abandoned", now)
            elif game.host_id == user_id:
                host = others[0].user_id
                assert host is not None
                await tx.set_host(game_id, host, now)
            return await _need_game(tx, game_id)

    async def start(self, game_id: int, user_id: int) -> StartResult:
        """The host starts the game: random seats and a seed from `secrets`."""
        now = self._now()
        async with self.store.write() as tx:
            game = await _need_lobby(tx, game_id)
            _need_host(game, user_id)
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
            info = await _need_game(tx, game_id)
        return StartResult(info, state.setup_events(), state)

    # --- playing -------------------------------------------------------------------------------

    async def act(
        self, game_id: int, user_id: int, action: Action | dict[str, Any], expected_version: int
    ) -> ActResult:
        """A player's move, accepted only if it is their turn, the rules allow it and the game
        is still at `expected_version`."""
        move = parse_action(action)
        if isinstance(move, Skip):
            raise IllegalMove("Skipping a turn is not a move you can choose.")
        return await self._act(game_id, move, expected_version, user_id=user_id, seat=None)

    async def act_for_computer(
        self, game_id: int, seat: int, action: Action | dict[str, Any], expected_version: int
    ) -> ActResult:
        """A computer player's move (the AI driver calls this for a computer seat)."""
        move = parse_action(action)
        if isinstance(move, Skip):
            raise IllegalMove("Skipping a turn is not a move you can choose.")
        return await self._act(game_id, move, expected_version, user_id=None, seat=seat)

    async def undo(self, game_id: int, user_id: int, expected_version: int) -> ActResult:
        return await self.act(game_id, user_id, Undo(), expected_version)

    async def end_turn(self, game_id: int, user_id: int, expected_version: int) -> ActResult:
        return await self.act(game_id, user_id, EndTurn(), expected_version)

    async def _act(
        self,
        game_id: int,
        move: Action,
        expected_version: int,
        *,
        user_id: int | None,
        seat: int | None,
    ) -> ActResult:
        async with self.store.read() as tx:
            game = await _need_game(tx, game_id)
            snapshot = await tx.snapshot(game_id)
        if game.status == "lobby":
            raise GameNotStarted()
        if user_id is not None:
            player = game.seat_of(user_id)
            if player is None:
                raise NotAPlayer()
        else:
            assert seat is not None
            player = game.at_seat(seat)
            if player is None or not player.is_computer:
                raise NotAPlayer(f"Seat {seat} is not played by the computer.")
        if game.status != "active":
            raise GameOver(_over_message(game))
        if expected_version != game.version:
            raise Outdated()
        if game.current_seat != player.seat:
            current = game.current_player
            raise NotYourTurn(
                f"It is {current.name}'s turn, not yours." if current else NotYourTurn.default
            )
        assert snapshot is not None and player.seat is not None
        state = Game.from_json(snapshot)
        steps_before = state.turn_events
        try:
            events = state.apply(move)
        except IllegalAction as exc:
            raise IllegalMove(str(exc)) from None
        now = self._now()
        async with self.store.write() as tx:
            saved = await tx.save_action(
                game_id,
                expected_version=expected_version,
                seat=player.seat,
                user_id=user_id,
                action=action_to_json(move),
                snapshot=state.to_json(),
                current_seat=state.current_seat,
                finished=state.is_over,
                turn_started=any(isinstance(e, TurnStarted) for e in events),
                now=now,
            )
            if not saved:
                raise Outdated()
        # What save_action wrote, without reading it back (one round trip less per move).
        stamp = from_ms(to_ms(now))
        info = replace(
            game,
            version=expected_version + 1,
            status="finished" if state.is_over else "active",
            current_seat=None if state.is_over else state.current_seat,
            updated_at=stamp,
            ended_at=stamp if state.is_over else None,
            turn_started_at=stamp
            if any(isinstance(e, TurnStarted) for e in events)
            else game.turn_started_at,
        )
        ended = any(isinstance(e, TurnEnded) for e in events)
        steps = steps_before if ended else state.turn_events
        return ActResult(info, player, move, events, info.version, state, steps)

    # --- running games -------------------------------------------------------------------------

    async def abandon(self, game_id: int, user_id: int, *, is_manager: bool = False) -> GameInfo:
        """End a lobby or a running game without a result: its host or a server manager."""
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            if not game.is_open:
                raise GameOver(_over_message(game))
            if user_id != game.host_id and not is_manager:
                raise NotHost("Only the host or a server manager can abandon this game.")
            await tx.end_game(game_id, "abandoned", self._now())
            return await _need_game(tx, game_id)

    async def replace_by_computer(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        level: str = "easy",
        *,
        is_manager: bool = False,
    ) -> GameInfo:
        """A computer player takes over a human's seat in a running game: the player themself,
        the host or a server manager may ask for it."""
        _need_level(level)
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            if game.status == "lobby":
                raise GameNotStarted("Seats are replaced only in a running game.")
            if game.status != "active":
                raise GameOver(_over_message(game))
            target = game.at_seat(seat) if isinstance(seat, int) else None
            if target is None:
                raise InvalidRequest(f"This game has no seat {seat}.")
            if target.is_computer:
                raise InvalidRequest(f"{target.name} is already a computer player.")
            if user_id not in (game.host_id, target.user_id) and not is_manager:
                raise NotHost("Only that player, the host or a server manager can do that.")
            await tx.replace_by_computer(game_id, target.join_order, level, self._now())
            return await _need_game(tx, game_id)

    async def my_games(self, user_id: int) -> list[MyGame]:
        """The lobbies and running games a user sits in, the ones waiting on them first."""
        async with self.store.read() as tx:
            ids = await tx.open_games_of(user_id)
            waiting = await tx.games_waiting_on(user_id)
            games = [await _need_game(tx, i) for i in ids]
        out = []
        for game in games:
            seat = game.seat_of(user_id)
            assert seat is not None
            out.append(MyGame(game, seat, game.id in waiting))
        order = {game_id: i for i, game_id in enumerate(waiting)}
        out.sort(key=lambda g: (not g.waiting, order.get(g.game.id, 0), g.game.id))
        return out

    async def games_waiting_on(self, user_id: int) -> list[MyGame]:
        """Running games whose current decision is this user's, longest waiting first."""
        return [g for g in await self.my_games(user_id) if g.waiting]

    async def games_waiting_on_computers(self) -> list[int]:
        """Running games whose computer player is to move (to resume them after a restart)."""
        async with self.store.read() as tx:
            return await tx.games_waiting_on_computers()

    async def view(self, game_id: int, user_id: int | None) -> ViewResult:
        """What a user may see: their seat's view if they play, a spectator's otherwise."""
        async with self.store.read() as tx:
            game = await _need_game(tx, game_id)
            snapshot = await tx.snapshot(game_id)
        if snapshot is None:
            raise GameNotStarted()
        mine = game.seat_of(user_id) if user_id is not None else None
        seat = mine.seat if mine is not None else None
        return ViewResult(game, seat, Game.from_json(snapshot).view(seat))

    async def seat_view(self, game_id: int, seat: int) -> ViewResult:
        """The view of one seat, for the computer player sitting there (never shown to users)."""
        async with self.store.read() as tx:
            game = await _need_game(tx, game_id)
            snapshot = await tx.snapshot(game_id)
        if snapshot is None:
            raise GameNotStarted()
        if game.at_seat(seat) is None:
            raise InvalidRequest(f"This game has no seat {seat}.")
        return ViewResult(game, seat, Game.from_json(snapshot).view(seat))

    async def log(self, game_id: int) -> GameLog:
        """Every action with the events it produced, rebuilt by replaying from the seed."""
        async with self.store.read() as tx:
            game = await _need_game(tx, game_id)
            rows = await tx.actions(game_id)
        if game.seed is None:
            raise GameNotStarted()
        seed = game.seed
        players = len(game.seats)
        options = Options.model_validate(game.options)

        def rebuild() -> tuple[list, list[LogEntry]]:
            state = new_game(players, seed, options)
            entries = []
            for row in rows:
                action = action_from_dict(row.action)
                events = state.apply(action)
                entries.append(
                    LogEntry(row.seq, row.seat, row.user_id, action, events, row.created_at)
                )
            return state.setup_events(), entries

        setup, entries = await asyncio.to_thread(rebuild)
        return GameLog(game, setup, entries)

    # --- timers and settings ---------------------------------------------------------------------

    async def add_timer(
        self,
        game_id: int,
        kind: TimerKind,
        due_at: datetime,
        *,
        seat: int | None = None,
        version: int | None = None,
    ) -> int:
        if kind not in ("reminder", "deadline"):
            raise InvalidRequest(f"Unknown timer kind {kind!r}.")
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            if game.status != "active":
                raise GameOver(_over_message(game)) if not game.is_open else GameNotStarted()
            return await tx.insert_timer(
                game_id, kind=kind, due_at=due_at, seat=seat, version=version, now=self._now()
            )

    async def due_timers(self, limit: int = 100) -> list[TimerRow]:
        """Timers of running games whose time has come, soonest first."""
        async with self.store.read() as tx:
            return await tx.due_timers(self._now(), limit)

    async def next_timer_due(self) -> datetime | None:
        async with self.store.read() as tx:
            return await tx.next_timer_due()

    async def delete_timer(self, timer_id: int) -> bool:
        async with self.store.write() as tx:
            return await tx.delete_timer(timer_id)

    async def settings(self, user_id: int) -> UserSettings:
        async with self.store.read() as tx:
            return await tx.settings(user_id)

    async def update_settings(
        self,
        user_id: int,
        *,
        locale: str | None = _UNSET,
        dm_on_turn: bool | None = None,
        dm_reminders: bool | None = None,
        auto_end_turn: bool | None = None,
    ) -> UserSettings:
        """Change some of a user's preferences; `locale=None` goes back to Discord's language."""
        if locale is not _UNSET and locale is not None and not _LOCALE.match(locale):
            raise InvalidRequest(f"{locale!r} is not a language code such as 'en' or 'pt-BR'.")
        async with self.store.write() as tx:
            current = await tx.settings(user_id)
            changed = replace(
                current,
                locale=current.locale if locale is _UNSET else locale,
                dm_on_turn=current.dm_on_turn if dm_on_turn is None else bool(dm_on_turn),
                dm_reminders=current.dm_reminders if dm_reminders is None else bool(dm_reminders),
                auto_end_turn=(
                    current.auto_end_turn if auto_end_turn is None else bool(auto_end_turn)
                ),
            )
            await tx.save_settings(changed, self._now())
            return changed

    # --- the bot's bookkeeping -----------------------------------------------------------------

    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        """Record which message shows a game's `kind` (lobby, turn...), replacing the last one."""
        async with self.store.write() as tx:
            await _need_game(tx, game_id)
            await tx.set_message(game_id, kind, channel_id, message_id, self._now())

    async def message_ref(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """(channel id, message id) of the message last remembered for `kind`, if any."""
        async with self.store.read() as tx:
            return await tx.message(game_id, kind)

    async def forget_message(self, game_id: int, kind: str) -> None:
        async with self.store.write() as tx:
            await tx.delete_message(game_id, kind)

    async def meta(self, key: str) -> str | None:
        async with self.store.read() as tx:
            return await tx.meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        async with self.store.write() as tx:
            await tx.set_meta(key, value, self._now())


# --- checks shared by the use cases ------------------------------------------------------------


async def _need_game(tx: Tx, game_id: int) -> GameInfo:
    game = await tx.game(game_id)
    if game is None:
        raise NoGameHere("There is no such game.")
    return game


async def _need_lobby(tx: Tx, game_id: int) -> GameInfo:
    game = await _need_game(tx, game_id)
    if game.status == "active":
        raise GameAlreadyStarted()
    if game.status != "lobby":
        raise GameOver(_over_message(game))
    return game


def _need_host(game: GameInfo, user_id: int) -> None:
    if user_id != game.host_id:
        raise NotHost()


def _need_room(game: GameInfo) -> None:
    if len(game.seats) >= game.max_players:
        raise LobbyFull(f"The game is full ({game.max_players} players).")


def _need_level(level: str) -> None:
    if level not in COMPUTER_LEVELS:
        raise InvalidRequest(
            f"Unknown computer level {level!r}: choose one of {', '.join(COMPUTER_LEVELS)}."
        )


def _already_running(game: GameInfo) -> GameAlreadyRunning:
    if game.status == "lobby":
        return GameAlreadyRunning(
            "A game is already gathering players in this channel: join it or abandon it first."
        )
    return GameAlreadyRunning(
        "A game is already running in this channel: finish or abandon it first."
    )


def _over_message(game: GameInfo) -> str:
    return "This game was abandoned." if game.status == "abandoned" else "This game is over."


def host_seat(game: GameInfo) -> SeatInfo | None:
    """The host's place at the table (None if they left it to a computer player)."""
    return game.seat_of(game.host_id)
