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
import time
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pydantic

from engine import (
    CARDS,
    Action,
    EndTurn,
    Event,
    Game,
    IllegalAction,
    Options,
    Skip,
    TurnEnded,
    TurnStarted,
    action_from_dict,
    action_to_json,
    new_game,
)
from engine.ai import LEVELS, display_name

from ..config import MAX_UNDO_WINDOW_S
from ..ops import metrics
from .clock import Clock, SystemClock, at_ms, to_ms
from .db import Conflict
from .errors import (
    AlreadyJoined,
    AlreadyVoted,
    ArchiveEnd,
    FollowRefused,
    GameAlreadyRunning,
    GameAlreadyStarted,
    GameNotOver,
    GameNotStarted,
    GameOver,
    HintsOff,
    IllegalMove,
    InvalidRequest,
    LobbyFull,
    NoGameHere,
    NotAPlayer,
    NotEnoughPlayers,
    NotHost,
    NotSilent,
    NotYourTurn,
    Outdated,
    PlanRefused,
    RatedNeedsPeople,
    ServiceError,
)
from .plans import MAX_RULES, Plan, PlanChange, check_new_rule
from .ratings import Rating, rate, rated_result
from .records import (
    STAND_IN_LEVELS,
    TURN_NOTICES,
    DeadlineRules,
    GameInfo,
    NotifySettings,
    SeatInfo,
    Sight,
    TimerKind,
    TimerRow,
    TurnNotice,
    UserSettings,
)
from .results import (
    ActResult,
    ArchivedGame,
    ArchivePage,
    GameLog,
    Growth,
    LogEntry,
    MyGame,
    ReplayStep,
    StartResult,
    ViewResult,
    VoteOutcome,
)
from .stats import HeadToHead, PlayerStats, head_to_head, player_stats
from .store import Store, Tx

MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: Computer player strengths (engine.ai); the service records them, the bot drives them.
COMPUTER_LEVELS: tuple[str, ...] = tuple(LEVELS)
#: The levels a player may ask a hint of (`/alhambra hint level:`).
HINT_LEVELS: tuple[str, ...] = ("normal", "hard", "expert")
NAME_LIMIT = 32  # Discord's own limit for nicknames
#: How many users' Discord languages a process keeps in mind (`note_discord_locale`).
SEEN_LOCALES = 50_000
_LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Z]{2})?$")
_UNSET: Any = object()


def clean_name(name: str) -> str:
    """A display name fit for the table: control characters removed, trimmed, not empty."""
    text = "".join(ch for ch in str(name) if unicodedata.category(ch)[0] != "C").strip()
    if not text:
        raise InvalidRequest(variant="empty_name")
    return text[:NAME_LIMIT]


def parse_action(action: Action | dict[str, Any]) -> Action:
    if isinstance(action, dict):
        try:
            return action_from_dict(action)
        except (pydantic.ValidationError, ValueError, TypeError):
            raise IllegalMove("That is not a move this game understands.") from None
    return action


#: finished games a player's statistics are counted over (the latest)
STATS_GAMES = 200
#: how a watcher may follow a game: by DM, or in its thread
FOLLOW_WAYS = ("dm", "thread")
#: the largest id a database column holds (Discord's ids are far below it)
MAX_ID = 2**63 - 1
#: how far back the archive pages (a million games, beyond any server's)
MAX_ARCHIVE_OFFSET = 999_999
#: the `bot_meta` key saying a user hides their statistics from others
_STATS_HIDDEN = "stats-hidden:{}"


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
        #: the Discord language of each user as this process last saw (and stored) it
        self._seen_locales: dict[int, str] = {}

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
        deadline_rules: DeadlineRules | None = None,
        rated: bool = False,
        view_channel_id: int | None = None,
    ) -> GameInfo:
        """Open a lobby in a channel; the host takes the first place at the table. The deadline
        rules, if any, are stored in the same transaction. `view_channel_id`: the channel whose
        View Channel decides who may look back at the game from elsewhere (the game's own, or
        its public thread's parent: `GameInfo.view_channel_id`)."""
        name = clean_name(host_name)
        opts = check_new_game(options, max_players, deadline_rules)
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
                    now=now,
                    view_channel_id=view_channel_id,
                )
                await tx.insert_seat(
                    game_id, kind="human", user_id=host_id, level=None, name=name, now=now
                )
                if deadline_rules is not None:
                    await tx.set_deadline_rules(game_id, deadline_rules, now)
                if rated:
                    await tx.set_rated(game_id, True, now)
                return await _need_game(tx, game_id)
        except Conflict:
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
            if game.rated:
                raise RatedNeedsPeople()
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
                raise NotAPlayer(variant="lobby")
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
        self,
        game_id: int,
        user_id: int,
        action: Action | dict[str, Any],
        expected_version: int,
        *,
        hold: timedelta | None = None,
    ) -> ActResult:
        """A player's move, accepted only if it is their turn, the rules allow it and the game
        is still at `expected_version`.

        With `hold`, a move that leaves the turn waiting only for its confirmation arms an
        `end_turn` timer that long from now, in the move's own transaction: the turn then ends
        by itself even if the bot stops in between, and can be undone until it does
        (`ActResult.ends_at`)."""
        move = _chosen(parse_action(action))
        return await self._act(game_id, move, expected_version, user_id=user_id, hold=hold)

    async def act_for_computer(
        self, game_id: int, seat: int, action: Action | dict[str, Any], expected_version: int
    ) -> ActResult:
        """A computer player's move (the turn flow calls this for a computer seat)."""
        move = _chosen(parse_action(action))
        return await self._act(game_id, move, expected_version, seat=seat)

    async def act_for_timeout(
        self, game_id: int, seat: int, action: Action | dict[str, Any], expected_version: int
    ) -> ActResult:
        """A move made for a human seat whose turn deadline passed: a computer player's
        decision, or `Skip`. Logged without a user, so it never counts as the player's own."""
        move = parse_action(action)
        return await self._act(game_id, move, expected_version, seat=seat, stand_in=True)

    async def end_turn(self, game_id: int, user_id: int, expected_version: int) -> ActResult:
        return await self.act(game_id, user_id, EndTurn(), expected_version)

    async def _act(
        self,
        game_id: int,
        move: Action,
        expected_version: int,
        *,
        user_id: int | None = None,
        seat: int | None = None,
        stand_in: bool = False,
        hold: timedelta | None = None,
    ) -> ActResult:
        """The one pipeline of every move: who acts is a user (`user_id`), the computer player
        of a computer `seat`, or a stand-in for the human at `seat` (`stand_in`). Counted by
        result for the operator (`ops.metrics`)."""
        started = time.perf_counter()
        try:
            result = await self._apply(
                game_id,
                move,
                expected_version,
                user_id=user_id,
                seat=seat,
                stand_in=stand_in,
                hold=hold,
            )
        except ServiceError as exc:
            metrics.action(exc.code, started)
            raise
        metrics.action("applied", started)
        return result

    async def _apply(
        self,
        game_id: int,
        move: Action,
        expected_version: int,
        *,
        user_id: int | None,
        seat: int | None,
        stand_in: bool,
        hold: timedelta | None,
    ) -> ActResult:
        # Seats never change while a game runs, and the version check on writing catches any
        # move that landed since: a plain read (no transaction) is enough, and quicker.
        async with self.store.peek() as tx:
            found = await tx.game_and_snapshot(game_id)
        if found is None:
            raise NoGameHere(variant="unknown")
        game, snapshot = found
        if game.status == "lobby":
            raise GameNotStarted()
        player = _actor(game, user_id, seat, stand_in)
        if game.status != "active":
            raise _over(game)
        if expected_version != game.version:
            raise Outdated()
        if game.current_seat != player.seat:
            current = game.current_player
            raise NotYourTurn(variant="named", name=current) if current else NotYourTurn()
        assert snapshot is not None and player.seat is not None
        state = Game.from_json(snapshot)
        steps_before = state.turn_events
        try:
            events = state.apply(move)
        except IllegalAction as exc:
            raise IllegalMove(str(exc)) from None
        now = self._now()
        started = any(isinstance(e, TurnStarted) for e in events)
        ended = any(isinstance(e, TurnEnded) for e in events)
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
                turn_started=started,
                now=now,
                announce_at=now + ANNOUNCE_GRACE if ended else None,
            )
            if not saved:
                raise Outdated()
            if state.is_over and game.rated and state.ranks is not None:
                await _rate(tx, game, state.ranks, now)
            # any move ends a wait for the confirmation (an undo, the confirmation itself)
            await tx.delete_timers_of(game_id, ("end_turn",))
            held = hold is not None and not ended and state.phase == "confirm"
            ends_at = at_ms(to_ms(now + hold)) if held and hold is not None else None
            if ends_at is not None:
                await tx.insert_timer(
                    game_id,
                    kind="end_turn",
                    due_at=ends_at,
                    seat=player.seat,
                    version=expected_version + 1,
                    now=now,
                )
        # What save_action wrote, without reading it back (one round trip less per move).
        stamp = at_ms(to_ms(now))
        info = replace(
            game,
            version=expected_version + 1,
            status="finished" if state.is_over else "active",
            current_seat=None if state.is_over else state.current_seat,
            updated_at=stamp,
            ended_at=stamp if state.is_over else None,
            turn_started_at=stamp if started else game.turn_started_at,
        )
        steps = steps_before if ended else state.turn_events
        return ActResult(info, player, move, events, info.version, state, steps, ends_at)

    # --- telling the channel ------------------------------------------------------------------

    async def announced(self, game_id: int, version: int) -> None:
        """The channel has been told about the game up to `version`."""
        async with self.store.write() as tx:
            await tx.announced(game_id, version)

    async def announce_later(self, game_id: int, version: int, due: datetime) -> None:
        """Telling the channel about the turn that ended at `version` failed: try again then."""
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            if game.status in ("active", "finished"):
                await tx.replace_announcement(game_id, version, due, self._now())

    async def last_turn(self, game_id: int) -> ActResult | None:
        """The game's last finished turn as its move reported it (what the channel is told),
        rebuilt from the log; None before any turn ended."""
        game_log = await self.log(game_id)
        turns = game_log.turns()
        if not turns:
            return None
        last = turns[-1]
        entry = next(e for e in game_log.entries if e.seq == last.seq)
        async with self.store.read() as tx:
            game = await _need_game(tx, game_id)
            snapshot = await tx.snapshot(game_id)
        player = game.at_seat(entry.seat)
        assert snapshot is not None and player is not None
        state = Game.from_json(snapshot)
        return ActResult(
            game, player, entry.action, last.end, game.version, state, tuple(last.steps)
        )

    # --- running games -------------------------------------------------------------------------

    async def abandon(self, game_id: int, user_id: int, *, is_manager: bool = False) -> GameInfo:
        """End a lobby or a running game without a result: its host or a server manager. A
        player who ends a running game loses their seat in it (`forfeits`), which a rated game
        counts as last place, the others sharing first."""
        now = self._now()
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            if not game.is_open:
                raise _over(game)
            if user_id != game.host_id and not is_manager:
                raise NotHost(variant="abandon")
            mine = game.seat_of(user_id)
            if game.status == "active" and mine is not None and mine.seat is not None:
                await tx.forfeit(game_id, mine.seat, user_id, "abandoned", now)
            await tx.end_game(game_id, "abandoned", now)
            if game.status == "active" and game.rated:
                await _rate(tx, game, None, now)
            return await _need_game(tx, game_id)

    # --- plans: moves queued for one's next turn ---------------------------------------------

    async def plan(
        self, game_id: int, user_id: int, *, to_change: bool = False
    ) -> tuple[ViewResult, Plan]:
        """A seated player's own view of the game and their plan for their next turn (empty
        when they have none); `to_change`: refused, as `set_plan` is, during their turn."""
        async with self.store.read() as tx:
            game = await _need_game(tx, game_id)
            me = _planner(game, user_id, waiting=to_change)
            snapshot = await tx.snapshot(game_id)
            stored = await tx.plan(game_id, me)
        assert snapshot is not None
        view = ViewResult(game, me, Game.from_json(snapshot).view(me))
        return view, Plan.from_json(stored) if stored else Plan()

    async def change_plan(
        self, game_id: int, user_id: int, change: PlanChange
    ) -> tuple[ViewResult, Plan]:
        """Change the player's plan for their next turn by `change` (pure: the plan as stored
        and their own view in, the new plan out; it may refuse by raising) and keep the result,
        read and written in one transaction, so two changes at once both count. Refused during
        their own turn; each rule is checked against their own view now
        (`plans.check_new_rule`); an empty plan is dropped. Returns their view and the plan
        kept."""
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            me = _planner(game, user_id, waiting=True)
            snapshot = await tx.snapshot(game_id)
            stored = await tx.plan(game_id, me)
            assert snapshot is not None
            view = Game.from_json(snapshot).view(me)
            plan = change(Plan.from_json(stored) if stored else Plan(), view)
            if len(plan.rules) > MAX_RULES:
                raise PlanRefused(variant="full", count=MAX_RULES)
            for rule in plan.rules:
                if (problem := check_new_rule(rule, view)) is not None:
                    raise PlanRefused(variant=problem)
            if isinstance(plan.otherwise, tuple) and not all(
                0 <= c < len(CARDS) for c in plan.otherwise
            ):
                raise PlanRefused(variant="bad_cards")
            if not plan.rules and plan.otherwise == "wait":
                await tx.take_plan(game_id, me)
            else:
                await tx.save_plan(game_id, me, user_id, plan.to_json(), game.version, self._now())
        return ViewResult(game, me, view), plan

    async def set_plan(self, game_id: int, user_id: int, plan: Plan) -> Plan:
        """Replace the player's plan by `plan`, checked as `change_plan` checks a change."""
        return (await self.change_plan(game_id, user_id, lambda _old, _view: plan))[1]

    async def has_plan(self, game_id: int, seat: int) -> bool:
        async with self.store.read() as tx:
            return await tx.plan(game_id, seat) is not None

    async def take_plan(self, game_id: int, seat: int) -> Plan | None:
        """The plan of the seat whose turn begins, taken for good: a plan is for one turn."""
        async with self.store.write() as tx:
            stored = await tx.take_plan(game_id, seat)
        return Plan.from_json(stored) if stored else None

    # --- following a game ----------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int, how: str) -> GameInfo:
        """Someone without a seat follows a lobby or running game: its public turn summaries by
        DM (`dm`), or in its thread (`thread`), which the adapter adds them to."""
        if how not in FOLLOW_WAYS:
            raise InvalidRequest(f"Follow by {' or '.join(FOLLOW_WAYS)}, not {how!r}.")
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            _need_watcher(game, user_id)
            await tx.follow(game_id, user_id, how, self._now())
            return game

    async def following(self, game_id: int, user_id: int) -> tuple[GameInfo, str | None]:
        """The game and how `user_id` follows it (None: not yet), if they may follow it:
        refused as `follow` would."""
        async with self.store.read() as tx:
            game = await _need_game(tx, game_id)
            ways = dict(await tx.followers(game_id))
        _need_watcher(game, user_id)
        return game, ways.get(user_id)

    async def unfollow(self, game_id: int, user_id: int) -> str:
        """Stop following a game (finished ones too); returns how they followed."""
        async with self.store.write() as tx:
            how = await tx.unfollow(game_id, user_id)
        if how is None:
            raise FollowRefused(variant="not_following")
        return how

    async def followers(self, game_id: int) -> list[tuple[int, str]]:
        """(user id, how) of the game's followers."""
        async with self.store.read() as tx:
            return await tx.followers(game_id)

    async def forfeits(self, game_id: int) -> dict[int, int]:
        """Who lost their seat in a game (to deadlines, a vote, or by ending it): user -> seat."""
        async with self.store.read() as tx:
            return await tx.forfeits(game_id)

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

    async def count_open_games(self) -> int:
        """Games in a lobby or being played: a gauge for operators, and proof that the
        database answers (the health check)."""
        async with self.store.peek() as tx:
            return await tx.count_open_games()

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

    async def hint_view(self, game_id: int, user_id: int, level: str = "hard") -> ViewResult:
        """The user's view if they may ask `level` for a hint now: their decision, in a running
        game that is not rated (refused otherwise, and nothing is recorded)."""
        if level not in HINT_LEVELS:
            raise InvalidRequest(variant="hint_level")
        result = await self.view(game_id, user_id)
        if result.game.rated:
            raise HintsOff()
        if result.game.status != "active":
            raise _over(result.game)
        result.own_decision()
        return result

    async def record_hint(self, game_id: int, version: int, user_id: int) -> int:
        """A hint was given to `user_id` at that version of the game; returns how many they
        have asked in this game. Refused (nothing written) if they no longer sit there."""
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            mine = game.seat_of(user_id)
            if mine is None or mine.seat is None:
                raise NotAPlayer()
            if game.rated:
                raise HintsOff()
            await tx.record_hint(game_id, version, mine.seat, user_id, self._now())
            return (await tx.hints_of_game(game_id)).get(mine.seat, 0)

    async def finished_log(self, game_id: int) -> GameLog:
        """A finished game's log, for a review; a game still running (or never finished) is
        refused: a review must not coach a player during their game."""
        game = await self.game(game_id)
        if game.status == "abandoned":
            raise GameOver(variant="abandoned")
        if game.status != "finished":
            raise GameNotOver()
        return await self.log(game_id)

    async def hints_of_game(self, game_id: int) -> dict[int, int]:
        """The hints asked in a game: engine seat -> how many."""
        async with self.store.read() as tx:
            return await tx.hints_of_game(game_id)

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

        def rebuild() -> tuple[list[Event], list[LogEntry]]:
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

    async def replay(
        self, game_id: int, step: int | None = None, *, user_id: int | None = None
    ) -> ReplayStep:
        """The game after its `step`-th finished turn (the last one if None; clamped to the
        game), rebuilt from the seed and the log: what anyone may see of it then, and, if
        `user_id` has a seat in the game, what that seat alone saw (its own hand)."""
        game_log = await self.log(game_id)
        turns = game_log.turns()
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

    async def growth(self, game_id: int) -> Growth:
        """Every player's Alhambra after each finished turn (and as dealt), rebuilt from the
        log, keeping only the turns that changed one (and the last): the frames of the
        results' animation."""
        game_log = await self.log(game_id)
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

    async def set_rated(self, game_id: int, user_id: int, rated: bool) -> GameInfo:
        """The host makes their lobby rated (or not): its result will move the server's
        ratings if every seat is a person when it ends."""
        async with self.store.write() as tx:
            game = await _need_lobby(tx, game_id)
            if game.host_id != user_id:
                raise NotHost()
            await tx.set_rated(game_id, rated, self._now())
            return await _need_game(tx, game_id)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[int, Rating]]:
        """The server's rated players, best first (by skill less three uncertainties)."""
        async with self.store.read() as tx:
            return await tx.leaderboard(guild_id, limit)

    async def rebuild_ratings(self) -> int:
        """Every server's ratings recomputed from the results of its rated games, in the
        order they ended; returns how many games were counted."""
        now = self._now()
        async with self.store.write() as tx:
            await tx.clear_ratings()
            counted = 0
            for game, snapshot in await tx.rated_results():
                ranks = Game.from_json(snapshot).ranks if game.status == "finished" else None
                if await _rate(tx, game, ranks, now):
                    counted += 1
            return counted

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
        stats = player_stats(user_id, [await self.log(game_id) for game_id in ids])
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
        return head_to_head(user_id, other_id, [await self.log(game_id) for game_id in ids])

    async def stats_hidden(self, user_id: int) -> bool:
        return await self.meta(_STATS_HIDDEN.format(user_id)) == "1"

    async def set_stats_hidden(self, user_id: int, hidden: bool) -> None:
        """Whether others may see this user's statistics (they always see their own)."""
        await self.set_meta(_STATS_HIDDEN.format(user_id), "1" if hidden else "0")

    # --- timers and settings ---------------------------------------------------------------------

    async def due_timers(self, limit: int = 100) -> list[TimerRow]:
        """Timers of running games whose time has come, soonest first."""
        async with self.store.read() as tx:
            return await tx.due_timers(self._now(), limit)

    async def next_timer_due(self) -> datetime | None:
        async with self.store.read() as tx:
            return await tx.next_timer_due()

    async def claim_timers(
        self, owner: str, *, lease: timedelta, limit: int = 50
    ) -> list[TimerRow]:
        """Due timers, claimed for `owner` for `lease` (see `Tx.claim_timers`)."""
        now = self._now()
        async with self.store.write() as tx:
            return await tx.claim_timers(now, owner, now + lease, limit)

    async def holds_timer(self, timer_id: int, owner: str) -> bool:
        async with self.store.read() as tx:
            return await tx.holds_timer(timer_id, owner)

    async def finish_timer(self, timer_id: int, owner: str) -> bool:
        async with self.store.write() as tx:
            return await tx.finish_timer(timer_id, owner)

    async def retry_timer(self, timer_id: int, owner: str, due: datetime, attempts: int) -> bool:
        """A claimed timer's handler failed: due again at `due`, with `attempts` failures."""
        async with self.store.write() as tx:
            return await tx.retry_timer(timer_id, owner, due, attempts)

    async def computers_later(self, game_id: int, due: datetime, attempts: int) -> None:
        """A computer player's decision or move failed (a worker down, a full disk, a database
        blip): its game's one `computer` timer tries again at `due`, durably, so the game goes
        on without a restart; `attempts` counts the failures so far."""
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            await tx.delete_timers_of(game_id, ("computer",))
            if game.status == "active":
                await tx.insert_timer(
                    game_id,
                    kind="computer",
                    due_at=due,
                    seat=game.current_seat,
                    version=game.version,
                    now=self._now(),
                    attempts=attempts,
                )

    async def release_timers(self, owner: str) -> int:
        async with self.store.write() as tx:
            return await tx.release_timers(owner)

    async def delete_timer(self, timer_id: int) -> bool:
        async with self.store.write() as tx:
            return await tx.delete_timer(timer_id)

    async def settings(self, user_id: int) -> UserSettings:
        async with self.store.read() as tx:
            settings = await tx.settings(user_id)
            seen = await tx.discord_locale(user_id)
        return replace(settings, discord_locale=seen)

    async def note_discord_locale(self, user_id: int, locale: str) -> bool:
        """Remember the language of a user's Discord client, for their DMs and reminders.

        Called on every interaction, so it costs nothing when nothing changed: written only if
        it differs from the stored one, and not even read again by a process that saw it last
        (a process that missed a change made through another one catches up on the user's next
        change). Returns whether it was written."""
        if not isinstance(locale, str) or not _LOCALE.match(locale):
            raise InvalidRequest(f"{locale!r} is not a language code such as 'en' or 'pt-BR'.")
        if self._seen_locales.get(user_id) == locale:
            return False
        async with self.store.read() as tx:
            stored = await tx.discord_locale(user_id)
        if stored != locale:
            async with self.store.write() as tx:
                await tx.set_discord_locale(user_id, locale, self._now())
        if len(self._seen_locales) >= SEEN_LOCALES:
            self._seen_locales.clear()  # a bound on memory: the next click of each reads once
        self._seen_locales[user_id] = locale
        return stored != locale

    async def update_settings(
        self,
        user_id: int,
        *,
        locale: str | None = _UNSET,
        dm_on_turn: bool | None = None,
        dm_reminders: bool | None = None,
        auto_end_turn: bool | None = None,
        undo_window_s: int | None = None,
        turn_notice: str | None = None,
    ) -> UserSettings:
        """Change some of a user's preferences; `locale=None` goes back to Discord's language."""
        if locale is not _UNSET and locale is not None and not _LOCALE.match(locale):
            raise InvalidRequest(f"{locale!r} is not a language code such as 'en' or 'pt-BR'.")
        if undo_window_s is not None and (
            type(undo_window_s) is not int or not 0 <= undo_window_s <= MAX_UNDO_WINDOW_S
        ):
            raise InvalidRequest(f"The undo window is 0 to {MAX_UNDO_WINDOW_S} seconds.")
        if turn_notice is not None and turn_notice not in TURN_NOTICES:
            raise InvalidRequest(f"{turn_notice!r} is not one of {', '.join(TURN_NOTICES)}.")
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
                undo_window_s=current.undo_window_s if undo_window_s is None else undo_window_s,
                turn_notice=current.turn_notice if turn_notice is None else _notice(turn_notice),
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

    async def game_locale(self, game_id: int) -> str:
        """The language code of a game's public messages, as its server had it when the game
        was created ("en" if it was never recorded)."""
        return await self.meta(f"locale:{game_id}") or "en"

    async def set_game_locale(self, game_id: int, locale: str) -> None:
        await self.set_meta(f"locale:{game_id}", locale)

    async def meta(self, key: str) -> str | None:
        async with self.store.read() as tx:
            return await tx.meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        async with self.store.write() as tx:
            await tx.set_meta(key, value, self._now())

    # --- games that span days: deadline rules, reminders, missed deadlines, votes ---------------

    async def deadline_rules(self, game_id: int) -> DeadlineRules:
        async with self.store.read() as tx:
            rules = await tx.deadline_rules(game_id)
        if rules is None:
            raise NoGameHere(variant="unknown")
        return rules

    async def notify_settings(self, user_id: int) -> NotifySettings:
        async with self.store.read() as tx:
            return await tx.notify_settings(user_id)

    async def update_notify_settings(
        self,
        user_id: int,
        *,
        first_reminder_s: int | None = _UNSET,
        repeat_reminder_s: int | None = _UNSET,
        quiet_hours: tuple[int, int] | None = _UNSET,
        time_zone: str | None = _UNSET,
        vacation_until: datetime | None = _UNSET,
    ) -> NotifySettings:
        """Change some reminder preferences (None: back to the default). A user who changes
        their settings is around: a DM that failed before is tried again."""
        for label, value in (("first reminder", first_reminder_s), ("repeat", repeat_reminder_s)):
            if (value is not _UNSET and value is not None) and (
                not isinstance(value, int) or not 3600 <= value <= 14 * 86400
            ):
                raise InvalidRequest(f"The {label} must be between 1 hour and 14 days.")
        if quiet_hours is not _UNSET and quiet_hours is not None:
            start, end = quiet_hours
            if not (0 <= start < 1440 and 0 <= end < 1440) or start == end:
                raise InvalidRequest("Quiet hours need a start and a different end in one day.")
        if time_zone is not _UNSET and time_zone is not None:
            _need_time_zone(time_zone)
        if vacation_until not in (_UNSET, None) and vacation_until.tzinfo is None:
            raise InvalidRequest("A vacation end needs a time zone.")
        async with self.store.write() as tx:
            now = self._now()
            current = await tx.notify_settings(user_id)
            quiet = (
                (current.quiet_start, current.quiet_end)
                if quiet_hours is _UNSET
                else (quiet_hours or (None, None))
            )

            def pick(new: Any, old: Any) -> Any:
                return old if new is _UNSET else new

            changed = replace(
                current,
                first_reminder_s=pick(first_reminder_s, current.first_reminder_s),
                repeat_reminder_s=pick(repeat_reminder_s, current.repeat_reminder_s),
                quiet_start=quiet[0],
                quiet_end=quiet[1],
                time_zone=pick(time_zone, current.time_zone),
                vacation_until=pick(vacation_until, current.vacation_until),
                dm_blocked_at=None,
            )
            await tx.save_notify_settings(changed, now)
            return changed

    async def note_dm_blocked(self, user_id: int, blocked: bool = True) -> None:
        """Remember that the user refuses DMs (or that a DM went through again)."""
        async with self.store.write() as tx:
            current = await tx.notify_settings(user_id)
            when = self._now() if blocked else None
            if current.dm_blocked_at != when:
                await tx.save_notify_settings(replace(current, dm_blocked_at=when), self._now())

    async def claim_reminder(self, user_id: int, gap: timedelta) -> NotifySettings | None:
        """Take the right to send `user_id` a reminder now: None if one was sent (or is being
        sent, by this process or another) within `gap`; else the settings as they were, to
        put back with `unclaim_reminder` if the DM then fails on the way."""
        now = self._now()
        async with self.store.write() as tx:
            before = await tx.notify_settings(user_id)
            return before if await tx.claim_reminder(user_id, now, now - gap) else None

    async def unclaim_reminder(self, before: NotifySettings) -> None:
        async with self.store.write() as tx:
            current = await tx.notify_settings(before.user_id)
            await tx.save_notify_settings(
                replace(current, last_reminder_at=before.last_reminder_at), self._now()
            )

    async def note_reminded(self, user_id: int) -> None:
        async with self.store.write() as tx:
            current = await tx.notify_settings(user_id)
            now = self._now()
            await tx.save_notify_settings(
                replace(current, last_reminder_at=now, dm_blocked_at=None), now
            )

    async def set_turn_timers(
        self,
        game_id: int,
        timers: list[tuple[TimerKind, datetime, int | None]],
        kinds: tuple[TimerKind, ...] = ("reminder", "deadline"),
    ) -> list[int]:
        """Replace a running game's timers of `kinds` by `timers` (kind, due, seat) in one
        transaction; a game that is over keeps none."""
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            await tx.delete_timers_of(game_id, kinds)
            if game.status != "active":
                return []
            now = self._now()
            return [
                await tx.insert_timer(
                    game_id, kind=kind, due_at=due, seat=seat, version=game.version, now=now
                )
                for kind, due, seat in timers
                if kind in kinds
            ]

    async def held_until(self, game_id: int) -> datetime | None:
        """When the current turn, waiting for its confirmation, ends by itself (None: it is
        not held: it waits for the player, or is not waiting for a confirmation at all)."""
        held = [t for t in await self.timers_of(game_id) if t.kind == "end_turn"]
        return held[0].due_at if held else None

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        async with self.store.read() as tx:
            return await tx.timers_of(game_id)

    async def games_waiting_on_humans(self, *, untimed: bool = False) -> list[int]:
        async with self.store.read() as tx:
            return await tx.active_games_waiting_on_humans(untimed=untimed)

    async def take_lease(self, name: str, owner: str, seconds: float) -> bool:
        """Hold the lease `name` for `seconds` (renewing it if `owner` holds it already): True
        if `owner` holds it now. Work that one process of several may do at a time (syncing
        commands, a gateway IDENTIFY slot) goes through a lease in the shared database."""
        now = self._now()
        async with self.store.write() as tx:
            return await tx.take_lease(name, owner, now + timedelta(seconds=seconds), now)

    async def drop_lease(self, name: str, owner: str) -> bool:
        """Give a lease back before it expires; False if `owner` did not hold it."""
        async with self.store.write() as tx:
            return await tx.drop_lease(name, owner)

    async def lease_holder(self, name: str) -> str | None:
        async with self.store.read() as tx:
            return await tx.lease_holder(name, self._now())

    async def nudge_once(self, game_id: int, seat: int, turn_key: int) -> bool:
        """True the first time it is asked for this turn of this seat, False afterwards."""
        async with self.store.write() as tx:
            return await tx.add_nudge(game_id, seat, turn_key, self._now())

    async def last_action_at(self, game_id: int, user_id: int) -> datetime | None:
        async with self.store.read() as tx:
            last = await tx.last_action_by(game_id, user_id)
        return None if last is None else last[1]

    async def record_missed_deadline(self, game_id: int, seat: int) -> int:
        """Count a missed turn deadline; returns how many in a row that seat has missed (a
        move the player made themself since the last miss starts the count again)."""
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            player = game.at_seat(seat)
            if player is None or player.user_id is None:
                raise InvalidRequest(f"Seat {seat} is not a human player's.")
            previous = await tx.missed_streak(game_id, seat)
            if previous is not None and previous[1] == game.version:
                return previous[0]  # this deadline was counted already (its timer fired again)
            streak = 1
            if previous is not None:
                last = await tx.last_action_by(game_id, player.user_id)
                streak = 1 if last is not None and last[0] > previous[1] else previous[0] + 1
            await tx.set_missed_streak(game_id, seat, streak, game.version, self._now())
            return streak

    async def hand_over(self, game_id: int, seat: int, level: str = "normal") -> GameInfo:
        """A computer player takes a silent human's seat for the rest of the game (missed
        deadlines): no permission check, the bot itself decides."""
        _need_level(level)
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            if game.status != "active":
                raise _over(game) if not game.is_open else GameNotStarted()
            target = game.at_seat(seat)
            if target is None or target.is_computer:
                raise InvalidRequest(f"Seat {seat} is not a human player's.")
            assert target.user_id is not None
            await tx.forfeit(game_id, seat, target.user_id, "deadlines", self._now())
            await tx.replace_by_computer(game_id, target.join_order, level, self._now())
            await tx.clear_votes(game_id, seat)
            await tx.delete_timers_of(game_id, ("reminder", "deadline"))
            return await _need_game(tx, game_id)

    async def vote(
        self, game_id: int, user_id: int, motion: str, target_seat: int | None = None
    ) -> VoteOutcome:
        """A player's vote to abandon the game or to hand a silent player's seat to a computer
        player. A majority of the human players (for a hand-over: of the others) decides, and
        the winning vote takes effect in the same transaction. Abandoning a rated game needs
        every human player (`votes_needed`): an abandoned game rates nobody who played on, so
        a majority of trailing players could otherwise erase the leader's result."""
        if motion not in ("abandon", "hand_over"):
            raise InvalidRequest(f"Unknown vote {motion!r}: abandon or hand_over.")
        async with self.store.write() as tx:
            game = await _need_game(tx, game_id)
            if game.status == "lobby":
                raise GameNotStarted(variant="vote")
            if game.status != "active":
                raise _over(game)
            voter = game.seat_of(user_id)
            if voter is None:
                raise NotAPlayer()
            humans = [s for s in game.seats if not s.is_computer]
            target: SeatInfo | None = None
            if motion == "hand_over":
                target = game.at_seat(target_seat) if isinstance(target_seat, int) else None
                if target is None or target.is_computer:
                    raise InvalidRequest(variant="not_human")
                if target.user_id == user_id:
                    raise InvalidRequest(variant="own_seat")
                if not await _silent(tx, game, target, self._now()):
                    hours = int(SILENT_AFTER.total_seconds()) // 3600
                    raise NotSilent(variant="named", name=target, hours=hours)
                humans = [s for s in humans if s is not target]
            key = -1 if target is None or target.seat is None else target.seat
            electorate = {s.user_id for s in humans}
            needed = votes_needed(game, motion, len(electorate))
            if not await tx.add_vote(game_id, motion, key, user_id, self._now()):
                raise AlreadyVoted()
            votes = [v for v in await tx.voters(game_id, motion, key) if v in electorate]
            passed = len(votes) >= needed
            if passed and target is None:
                await tx.end_game(game_id, "abandoned", self._now())
                await tx.clear_votes(game_id)
                if game.rated:  # agreed on by everyone: only the seats lost before count
                    await _rate(tx, game, None, self._now())
            elif passed and target is not None:
                assert target.seat is not None and target.user_id is not None
                await tx.forfeit(game_id, target.seat, target.user_id, "vote", self._now())
                # the game's stand-in, as when the deadlines take a seat
                rules = await tx.deadline_rules(game_id)
                level = "normal" if rules is None else rules.stand_in
                await tx.replace_by_computer(game_id, target.join_order, level, self._now())
                await tx.clear_votes(game_id, key)
                await tx.delete_timers_of(game_id, ("reminder", "deadline"))
            return VoteOutcome(
                await _need_game(tx, game_id), motion, target, len(votes), needed, passed
            )


def votes_needed(game: GameInfo, motion: str, electorate: int) -> int:
    """How many of `electorate` voters a motion needs. A majority, except to abandon a rated
    game: that needs them all. An abandoned game ranks everyone who played on as tied
    (`ratings.rated_result`), so a majority vote would let the players behind erase a result
    they were losing, and ranking by the standing at the vote would let the players ahead lock
    in a lead before the game is decided. With every vote needed, nobody's result goes without
    their consent; a player who will not play on can still lose their seat (deadlines, a
    hand-over vote, the host's abandon), and then counts as last, as every lost seat does."""
    if motion == "abandon" and game.rated:
        return electorate
    return electorate // 2 + 1


# --- checks shared by the use cases ------------------------------------------------------------


async def _rate(tx: Tx, game: GameInfo, ranks: tuple[int, ...] | None, now: datetime) -> bool:
    """Move the server's ratings by a rated game's result (`ranks` per engine seat; None: it
    was abandoned) and the seats lost in it (`core.ratings.rated_result`); returns whether it
    did. Every seat must be a person's or a lost person's: a computer that sat down any other
    way (none can, in a rated lobby) leaves the game unrated."""
    forfeited = await tx.forfeits(game.id)
    lost = set(forfeited.values())
    people = {s.seat: s.user_id for s in game.seats if s.seat is not None and s.user_id is not None}
    if game.guild_id is None or any(
        s.seat is None or (s.user_id is None and s.seat not in lost) for s in game.seats
    ):
        return False
    result = rated_result(people, ranks, forfeited)
    if result is None:
        return False
    players, places = result
    current = await tx.ratings(game.guild_id, players)
    await tx.save_ratings(game.guild_id, rate(players, places, current), now)
    return True


async def _need_game(tx: Tx, game_id: int) -> GameInfo:
    game = await tx.game(game_id)
    if game is None:
        raise NoGameHere(variant="unknown")
    return game


async def _need_lobby(tx: Tx, game_id: int) -> GameInfo:
    game = await _need_game(tx, game_id)
    if game.status == "active":
        raise GameAlreadyStarted()
    if game.status != "lobby":
        raise _over(game)
    return game


def _need_host(game: GameInfo, user_id: int) -> None:
    if user_id != game.host_id:
        raise NotHost()


def _planner(game: GameInfo, user_id: int, *, waiting: bool = False) -> int:
    """The seat of a player who may plan: a person seated in a running game (`waiting`: and
    not to move now, as a plan is for the turns one is away)."""
    if game.status == "lobby":
        raise GameNotStarted()
    if game.status != "active":
        raise _over(game)
    mine = game.seat_of(user_id)
    if mine is None or mine.seat is None:
        raise NotAPlayer()
    if waiting and game.current_seat == mine.seat:
        raise PlanRefused(variant="your_turn")
    return mine.seat


def _need_watcher(game: GameInfo, user_id: int) -> None:
    """A game can be followed while it is to come or running, by someone without a seat."""
    if not game.is_open:
        raise _over(game)
    if game.seat_of(user_id) is not None:
        raise FollowRefused()


def _need_room(game: GameInfo) -> None:
    if len(game.seats) >= game.max_players:
        raise LobbyFull(variant="size", count=game.max_players)


def _need_level(level: str) -> None:
    if level not in COMPUTER_LEVELS:
        raise InvalidRequest(
            f"Unknown computer level {level!r}: choose one of {', '.join(COMPUTER_LEVELS)}."
        )


def _already_running(game: GameInfo) -> GameAlreadyRunning:
    return GameAlreadyRunning(variant="lobby" if game.status == "lobby" else "active")


def _over(game: GameInfo) -> GameOver:
    return GameOver(variant="abandoned") if game.status == "abandoned" else GameOver()


def _chosen(move: Action) -> Action:
    """A move a player (or a computer player) may choose: anything but `Skip`, which only a
    passed deadline makes."""
    if isinstance(move, Skip):
        raise IllegalMove("Skipping a turn is not a move you can choose.")
    return move


def _actor(game: GameInfo, user_id: int | None, seat: int | None, stand_in: bool) -> SeatInfo:
    """The seat a move is made for, refusing anyone who may not make it."""
    if user_id is not None:
        player = game.seat_of(user_id)
        if player is None:
            raise NotAPlayer()
        return player
    assert seat is not None
    player = game.at_seat(seat)
    if stand_in:
        if player is None or player.is_computer:
            raise NotAPlayer(f"Seat {seat} is not a human player's.")
    elif player is None or not player.is_computer:
        raise NotAPlayer(f"Seat {seat} is not played by the computer.")
    return player


#: How long a finished turn's announcement may take before the timer dispatcher tries again.
ANNOUNCE_GRACE = timedelta(minutes=1)
#: A player whose current turn has waited this long may be voted out of their seat.
SILENT_AFTER = timedelta(hours=48)


async def _silent(tx: Tx, game: GameInfo, target: SeatInfo, now: datetime) -> bool:
    """Whether a hand-over vote may be about `target`: they missed a turn deadline and have not
    moved since, or it is their turn and it has waited `SILENT_AFTER`. Votes alone are not
    enough: in a two-person game one vote would otherwise replace the other person at will."""
    assert target.seat is not None and target.user_id is not None
    missed = await tx.missed_streak(game.id, target.seat)
    if missed is not None:
        last = await tx.last_action_by(game.id, target.user_id)
        if last is None or last[0] <= missed[1]:
            return True
    started = game.turn_started_at
    return (
        game.current_seat == target.seat and started is not None and now - started >= SILENT_AFTER
    )


DEADLINE_POLICIES: tuple[str, ...] = ("computer", "skip", "wait")
VACATION_POLICIES: tuple[str, ...] = ("pause", "continue")


def check_new_game(
    options: Options | dict[str, Any] | None,
    max_players: int,
    deadline_rules: DeadlineRules | None = None,
) -> Options:
    """The options of a new game, refused as `create_game` would refuse them. Pure, so an
    adapter can check a request before it posts or creates anything for the game."""
    if deadline_rules is not None:
        check_deadline_rules(deadline_rules)
    try:
        opts = options if isinstance(options, Options) else Options.model_validate(options or {})
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
    return opts


def check_deadline_rules(rules: DeadlineRules) -> None:
    """Refuse deadline rules a game cannot run with, naming the problem."""
    if rules.turn_deadline_s is not None and (
        not isinstance(rules.turn_deadline_s, int) or rules.turn_deadline_s < 3600
    ):
        raise InvalidRequest("A turn deadline must be at least one hour.")
    if rules.policy not in DEADLINE_POLICIES:
        raise InvalidRequest(f"Unknown deadline policy {rules.policy!r}.")
    if rules.vacation_policy not in VACATION_POLICIES:
        raise InvalidRequest(f"Unknown vacation policy {rules.vacation_policy!r}.")
    if rules.stand_in not in STAND_IN_LEVELS:
        raise InvalidRequest(variant="stand_in")
    if rules.missed_limit is not None and (
        not isinstance(rules.missed_limit, int) or not 1 <= rules.missed_limit <= 20
    ):
        raise InvalidRequest("The number of missed deadlines must be between 1 and 20.")


def _need_time_zone(name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidRequest(
            f"{name!r} is not a time zone: use a name such as Europe/Lisbon or Asia/Tokyo."
        ) from None


def _notice(choice: str) -> TurnNotice:
    return next(n for n in TURN_NOTICES if n == choice)
