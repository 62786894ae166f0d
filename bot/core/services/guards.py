"""The checks and helpers the use cases share: who may do what to a game, a name or a move
made fit, a rated result counted, a game's log rebuilt; and `Service`, what each use case holds
(the store and the clock). A piece two services need lives here, so no service imports another."""

from __future__ import annotations

import asyncio
import unicodedata
from datetime import datetime, timedelta
from typing import Any

import pydantic

from engine import Action, Options, Skip, action_from_dict
from engine.ai import LEVELS

from ..clock import Clock
from ..errors import (
    FollowRefused,
    GameAlreadyRunning,
    GameAlreadyStarted,
    GameNotStarted,
    GameOver,
    IllegalMove,
    InvalidRequest,
    LobbyFull,
    NoGameHere,
    NotAPlayer,
    NotHost,
    PlanRefused,
)
from ..ratings import RatingChange, new_rating, rate, rated_result
from ..records import STAND_IN_LEVELS, DeadlineRules, GameInfo, SeatInfo
from ..results import GameLog
from ..store import Store, Tx

MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: Computer player strengths (engine.ai); the service records them, the bot drives them.
COMPUTER_LEVELS: tuple[str, ...] = tuple(LEVELS)
NAME_LIMIT = 32  # Discord's own limit for nicknames
#: A player whose current turn has waited this long may be voted out of their seat.
SILENT_AFTER = timedelta(hours=48)
DEADLINE_POLICIES: tuple[str, ...] = ("computer", "skip", "wait")
VACATION_POLICIES: tuple[str, ...] = ("pause", "continue")


class Service:
    """What every use case holds: the store, and the clock it reads the time from."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    def _now(self) -> datetime:
        return self.clock.now()


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


async def rate_game(
    tx: Tx,
    game: GameInfo,
    ranks: tuple[int, ...] | None,
    now: datetime,
    *,
    season: int | None = None,
) -> bool:
    """Move the server's ratings by a rated game's result (`ranks` per engine seat; None: it
    was abandoned) and the seats lost in it (`core.ratings.rated_result`), and keep how each
    player's rating moved (`rating_changes`, for the results); returns whether it did. The
    game counts in the server's current season (`season`: the one a rebuild says). Every seat
    must be a person's or a lost person's: a computer that sat down any other way (none can,
    in a rated lobby) leaves the game unrated."""
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
    after = rate(players, places, current)
    await tx.save_ratings(game.guild_id, after, now)
    if season is None:
        season = await tx.current_season(game.guild_id)
    changes = [RatingChange(p, current.get(p) or new_rating(), after[p], season) for p in players]
    await tx.save_rating_changes(game.id, changes)
    return True


async def need_game(tx: Tx, game_id: int) -> GameInfo:
    game = await tx.game(game_id)
    if game is None:
        raise NoGameHere(variant="unknown")
    return game


async def need_lobby(tx: Tx, game_id: int) -> GameInfo:
    game = await need_game(tx, game_id)
    if game.status == "active":
        raise GameAlreadyStarted()
    if game.status != "lobby":
        raise over(game)
    return game


def need_host(game: GameInfo, user_id: int) -> None:
    if user_id != game.host_id:
        raise NotHost()


def planner(game: GameInfo, user_id: int, *, waiting: bool = False) -> int:
    """The seat of a player who may plan: a person seated in a running game (`waiting`: and
    not to move now, as a plan is for the turns one is away)."""
    if game.status == "lobby":
        raise GameNotStarted()
    if game.status != "active":
        raise over(game)
    mine = game.seat_of(user_id)
    if mine is None or mine.seat is None:
        raise NotAPlayer()
    if waiting and game.current_seat == mine.seat:
        raise PlanRefused(variant="your_turn")
    return mine.seat


def need_watcher(game: GameInfo, user_id: int) -> None:
    """A game can be followed while it is to come or running, by someone without a seat."""
    if not game.is_open:
        raise over(game)
    if game.seat_of(user_id) is not None:
        raise FollowRefused()


def need_room(game: GameInfo) -> None:
    if len(game.seats) >= game.max_players:
        raise LobbyFull(variant="size", count=game.max_players)


def need_level(level: str) -> None:
    if level not in COMPUTER_LEVELS:
        raise InvalidRequest(
            f"Unknown computer level {level!r}: choose one of {', '.join(COMPUTER_LEVELS)}."
        )


def already_running(game: GameInfo) -> GameAlreadyRunning:
    return GameAlreadyRunning(variant="lobby" if game.status == "lobby" else "active")


def over(game: GameInfo) -> GameOver:
    return GameOver(variant="abandoned") if game.status == "abandoned" else GameOver()


def chosen(move: Action) -> Action:
    """A move a player (or a computer player) may choose: anything but `Skip`, which only a
    passed deadline makes."""
    if isinstance(move, Skip):
        raise IllegalMove("Skipping a turn is not a move you can choose.")
    return move


def actor(game: GameInfo, user_id: int | None, seat: int | None, stand_in: bool) -> SeatInfo:
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


async def silent(tx: Tx, game: GameInfo, target: SeatInfo, now: datetime) -> bool:
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


async def read_log(store: Store, game_id: int) -> GameLog:
    """Every action of a game with the events it produced, rebuilt by replaying from the seed
    (`Play.log`; the archive's replays and records read it too)."""
    async with store.read() as tx:
        game = await need_game(tx, game_id)
        rows = await tx.actions(game_id)
    return await asyncio.to_thread(GameLog.rebuild, game, rows)
