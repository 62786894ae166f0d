"""Ratings for multiplayer results: openskill's Plackett-Luce model, made for free-for-all
games of 3 to 6 (Elo is for two). Pure: ratings in, ratings out, in a fixed order, so the
ratings rebuilt from the stored results equal those updated game by game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()

#: The familiar scale a rating is shown on: `BASE + PER_POINT * (mu - 3 sigma)`. A newcomer
#: (mu 25, sigma 25/3: mu - 3 sigma = 0) starts at 1,500, as on chess's Elo and Glicko scales.
BASE = 1500
#: One point of the model in rating points: 200 / beta, beta (25/6) being the spread of one
#: game's performance, as 200 points are on Elo's scale; so a gap of 200 points between two
#: players means about the odds it means in chess.
PER_POINT = 48


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

    @property
    def points(self) -> int:
        """The rating as players read it (`BASE` and `PER_POINT`): the conservative figure
        `ordinal` on an Elo-like scale, a whole number. The leaderboard, the results and a
        player's record all show this one figure."""
        return round(BASE + PER_POINT * self.ordinal)


@dataclass(frozen=True)
class RatingChange:
    """How one player's rating moved with one rated game (`before` is a newcomer's fresh
    rating when they had none in the season)."""

    user_id: int
    before: Rating
    after: Rating
    #: the season of the server's ratings the game counted in
    season: int = 1

    @property
    def delta(self) -> int:
        """The change in rating points, as shown (the difference of the two figures shown)."""
        return self.after.points - self.before.points


@dataclass(frozen=True)
class Standing:
    """One player's place on a season's leaderboard: their rank (1 = best) among `of`."""

    user_id: int
    rank: int
    of: int
    rating: Rating


@dataclass(frozen=True)
class Leaderboard:
    """A season of one server: its best players in order, and the asker's own standing (even
    outside them; None if they have no rating in it)."""

    season: int
    #: the server's season now (a closed season is one below it)
    current: int
    top: list[Standing]
    mine: Standing | None
    players: int


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
