"""A player's record, read off the logs of their finished games.

Everything is counted from the engine's own events, replayed from each game's seed and log
(`GameLog.turns()`: the steps that stood, an undone one dropped), so the record never disagrees
with the game: a purchase counts as exact if the engine said so, a round's points are its
scoring rows, the longest wall is what the last scoring counted. Pure: no I/O, no clock.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine import (
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
    points: list[int] = field(default_factory=list)
    #: scoring round (1-3) -> that round's points in each game that held it
    round_points: dict[int, list[int]] = field(default_factory=dict)
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

    @property
    def median_turn_seconds(self) -> float | None:
        return statistics.median(self.turn_seconds) if self.turn_seconds else None


def player_stats(user_id: int, logs: Iterable[GameLog]) -> PlayerStats:
    """`user_id`'s record over these finished games (games they did not sit in are skipped)."""
    stats = PlayerStats(user_id)
    for game_log in logs:
        _add_game(stats, game_log)
    return stats


def _add_game(stats: PlayerStats, game_log: GameLog) -> None:
    game = game_log.game
    mine = game.seat_of(stats.user_id)
    if mine is None or mine.seat is None or game.status != "finished":
        return
    seat, players = mine.seat, len(game.seats)
    turns = game_log.turns()
    ended = next(
        (e for entry in game_log.entries for e in entry.events if isinstance(e, GameEnded)), None
    )
    if ended is None:
        return
    won = ended.ranks[seat] == 1
    stats.games += 1
    stats.wins += won
    played, wins = stats.by_players.get(players, (0, 0))
    stats.by_players[players] = (played + 1, wins + won)
    stats.points.append(ended.scores[seat])
    created = {entry.seq: entry.at for entry in game_log.entries}
    last_wall = 0
    for entry in game_log.entries:
        for event in entry.events:
            if isinstance(event, ScoringHeld):
                for row in event.rows:
                    if row.seat == seat:
                        stats.round_points.setdefault(event.round_no, []).append(row.total)
                        last_wall = row.wall
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
