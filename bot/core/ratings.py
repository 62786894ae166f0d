"""Ratings for multiplayer results: openskill's Plackett-Luce model, made for free-for-all
games of 3 to 6 (Elo is for two). Pure: ratings in, ratings out, in a fixed order, so the
ratings rebuilt from the stored results equal those updated game by game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The figure a leaderboard sorts by: skill less three uncertainties (a new player
        starts at 0 and climbs as their results make the estimate sure)."""
        return self.mu - 3 * self.sigma


def new_rating() -> Rating:
    fresh = _MODEL.rating()
    return Rating(fresh.mu, fresh.sigma)


def rate(
    players: Sequence[int], ranks: Sequence[int], current: Mapping[int, Rating]
) -> dict[int, Rating]:
    """New ratings of `players` (user ids) after a game they finished at `ranks` (1 = first,
    equal ranks tie), from `current` (a player missing there starts fresh)."""
    if len(players) != len(ranks) or len(set(players)) != len(players):
        raise ValueError("one rank per distinct player")
    before = [current.get(p) or new_rating() for p in players]
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return {
        p: Rating(team[0].mu, team[0].sigma, old.games + 1)
        for p, team, old in zip(players, after, before, strict=True)
    }
