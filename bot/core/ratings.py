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


def rated_result(
    people: Mapping[int, int], ranks: Sequence[int] | None, forfeited: Mapping[int, int]
) -> tuple[list[int], list[int]] | None:
    """Who a rated game ranks, and where: `people` (engine seat -> user id) are the persons
    seated at its end, ranked by the engine's `ranks` (per seat) if the game finished, tied
    first if it was abandoned (by its host, a moderator, or the vote of every player: never by
    a majority, `services.votes_needed`); `forfeited` (user id -> seat) lost their seat to the
    deadlines or a vote, or ended the running game themselves (then still seated), and are
    tied last.
    None when the game says nothing about anyone's skill (everyone tied: an abandoned game
    nobody forfeited, or every person gone). Players are in seat order, so the result is the
    same whenever it is computed."""
    kept = sorted((seat, user) for seat, user in people.items() if user not in forfeited)
    placed = [(user, ranks[seat] if ranks is not None else 1) for seat, user in kept]
    last = max((rank for _, rank in placed), default=0) + 1
    placed += [(user, last) for user, _ in sorted(forfeited.items(), key=lambda f: f[1])]
    if len({rank for _, rank in placed}) < 2:
        return None
    return [user for user, _ in placed], [rank for _, rank in placed]
