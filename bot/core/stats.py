"""A player's record, read off the logs of their finished games.

Everything is counted from the engine's own events, replayed from each game's seed and log
(`GameLog.turns()`: the steps that stood, an undone one dropped), so the record never disagrees
with the game: a purchase counts as exact if the engine said so, a round's points are its
scoring rows (and a building type's points what those rows gave it), the longest wall is what
the last scoring counted. Two players' games together (`head_to_head`) are read off the same
logs: who finished ahead is the engine's final ranking. Pure: no I/O, no clock.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine import (
    Building,
    BuildingBought,
    BuildingRemoved,
    BuildingsSwapped,
    BuiltFromReserve,
    GameEnded,
    MoneyTaken,
    ScoringHeld,
)

from .results import GameLog


@dataclass
class PlayerStats:
    user_id: int
    games: int = 0
    wins: int = 0
    #: number of players -> (games, wins)
    by_players: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: final score in each game, in the order the games were given (latest first)
    points: list[int] = field(default_factory=list)
    #: whether each of those games was won (first place, shared or not)
    won: list[bool] = field(default_factory=list)
    #: scoring round (1-3) -> that round's points in each game that held it
    round_points: dict[int, list[int]] = field(default_factory=dict)
    #: points each building type brought over all the games' scoring rounds, in `Building` order
    building_points: list[int] = field(default_factory=lambda: [0] * len(Building))
    longest_wall: int = 0
    exact_purchases: int = 0
    purchases: int = 0
    money_taken: int = 0
    redesigns: int = 0
    #: seconds from the turn before ending to this player's turn ending, each turn
    turn_seconds: list[float] = field(default_factory=list)
    #: hints (`/alhambra hint`) asked in these games (counted by the service from its table)
    hints: int = 0

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_points(self) -> float:
        return statistics.fmean(self.points) if self.points else 0.0

    def average_round(self, round_no: int) -> float | None:
        points = self.round_points.get(round_no)
        return statistics.fmean(points) if points else None

    def average_building(self, building: Building) -> float:
        """Points the type brought per game, on average (its scoring rows summed)."""
        return self.building_points[building] / self.games if self.games else 0.0

    @property
    def median_turn_seconds(self) -> float | None:
        return statistics.median(self.turn_seconds) if self.turn_seconds else None

    @property
    def average_turn_seconds(self) -> float | None:
        return statistics.fmean(self.turn_seconds) if self.turn_seconds else None


@dataclass
class HeadToHead:
    """Two players over the finished games both sat in: who finished ahead of whom (by the
    engine's final ranks: a shared rank is a tie) and their points in those games."""

    user_id: int
    other_id: int
    games: int = 0
    ahead: int = 0
    behind: int = 0
    ties: int = 0
    points: list[int] = field(default_factory=list)
    other_points: list[int] = field(default_factory=list)

    @property
    def average_points(self) -> float:
        return statistics.fmean(self.points) if self.points else 0.0

    @property
    def other_average_points(self) -> float:
        return statistics.fmean(self.other_points) if self.other_points else 0.0


def player_stats(user_id: int, logs: Iterable[GameLog]) -> PlayerStats:
    """`user_id`'s record over these finished games (games they did not sit in are skipped)."""
    stats = PlayerStats(user_id)
    for game_log in logs:
        _add_game(stats, game_log)
    return stats


def head_to_head(user_id: int, other_id: int, logs: Iterable[GameLog]) -> HeadToHead:
    """`user_id` against `other_id` over these finished games (those without both skipped)."""
    record = HeadToHead(user_id, other_id)
    for game_log in logs:
        game = game_log.game
        mine, theirs = game.seat_of(user_id), game.seat_of(other_id)
        if mine is None or theirs is None or mine.seat is None or theirs.seat is None:
            continue
        ended = _ended(game_log)
        if game.status != "finished" or ended is None or mine.seat == theirs.seat:
            continue
        rank, other_rank = ended.ranks[mine.seat], ended.ranks[theirs.seat]
        record.games += 1
        record.ahead += rank < other_rank
        record.behind += rank > other_rank
        record.ties += rank == other_rank
        record.points.append(ended.scores[mine.seat])
        record.other_points.append(ended.scores[theirs.seat])
    return record


def _ended(game_log: GameLog) -> GameEnded | None:
    return next(
        (e for entry in game_log.entries for e in entry.events if isinstance(e, GameEnded)), None
    )


def _add_game(stats: PlayerStats, game_log: GameLog) -> None:
    game = game_log.game
    mine = game.seat_of(stats.user_id)
    if mine is None or mine.seat is None or game.status != "finished":
        return
    seat, players = mine.seat, len(game.seats)
    turns = game_log.turns()
    ended = _ended(game_log)
    if ended is None:
        return
    won = ended.ranks[seat] == 1
    stats.games += 1
    stats.wins += won
    played, wins = stats.by_players.get(players, (0, 0))
    stats.by_players[players] = (played + 1, wins + won)
    stats.points.append(ended.scores[seat])
    stats.won.append(won)
    created = {entry.seq: entry.at for entry in game_log.entries}
    last_wall = 0
    for entry in game_log.entries:
        for event in entry.events:
            if isinstance(event, ScoringHeld):
                for row in event.rows:
                    if row.seat == seat:
                        stats.round_points.setdefault(event.round_no, []).append(row.total)
                        last_wall = row.wall
                        for building, points in zip(Building, row.buildings, strict=False):
                            stats.building_points[building] += points
    stats.longest_wall = max(stats.longest_wall, last_wall)
    previous_end = game.started_at
    for turn in turns:
        if turn.seat == seat:
            for event in turn.steps:
                if isinstance(event, BuildingBought):
                    stats.purchases += 1
                    stats.exact_purchases += event.exact
                elif isinstance(event, MoneyTaken):
                    stats.money_taken += 1
                elif isinstance(event, BuildingRemoved | BuiltFromReserve | BuildingsSwapped):
                    stats.redesigns += 1
            if previous_end is not None and turn.seq in created:
                stats.turn_seconds.append((created[turn.seq] - previous_end).total_seconds())
        previous_end = created.get(turn.seq, previous_end)
