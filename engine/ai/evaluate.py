"""Building blocks for valuing a position: expected majority points and room to build.

Majorities decide most of an Alhambra game, but they are only paid at the scoring rounds, and
counts move before then. `soft_points` turns today's counts into expected points for a future
round (the further away it is, the softer the comparison); `building_gain` is what one more
building of a type adds. `easy` uses these directly; `normal` (and through it `hard`) builds its
valuation of every action on them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..alhambra import Alhambra
from ..catalogue import SCORING_TABLE, TILES
from ..game import Game

#: Tiles with one wall side each (and one without), to measure how many cells stay usable.
PROBE_TILES = (22, 20, 21, 30, 29)


@dataclass(frozen=True, slots=True)
class Weights:
    """`easy`'s constants (points per unit)."""

    per_building: float = 1.2
    later_round: float = 1.0
    spread: float = 0.8


WEIGHTS = Weights()


@dataclass(frozen=True, slots=True)
class RoundOutlook:
    """A scoring round still to come: its weight, and how many more buildings of each type a
    player will typically add before it (which decides how firm today's majorities are)."""

    round_no: int
    weight: float
    growth: float
    spread: float


def all_counts(game: Game, with_pending: bool = True) -> list[list[int]]:
    """Buildings per type in every Alhambra (Dirk last); pending buildings count as placed."""
    counts = [list(game.alhambra(s).counts()) for s in range(game.players)]
    if with_pending and game.current_seat is not None:
        for t in game.pending:
            b = TILES[t].building
            assert b is not None
            counts[game.current_seat][int(b)] += 1
    if game.dirk is not None:
        dirk = [0] * 6
        for t in game.dirk:
            b = TILES[t].building
            assert b is not None
            dirk[int(b)] += 1
        counts.append(dirk)
    return counts


#: PAID[round][type] = points for ranks 1, 2, 3, as a plain tuple (no enum lookups).
PAID = {r: tuple(tuple(SCORING_TABLE[r][b]) for b in sorted(SCORING_TABLE[r])) for r in (1, 2, 3)}


def type_points(paid: Sequence[int], column: Sequence[int]) -> list[int]:
    """Points per entry for one building type (RULES.md section 5, ties share their ranks).

    The same rule as `engine.scoring.majority_points`, for one column: it runs thousands of
    times per decision, so it avoids building the whole table.
    """
    out = [0] * len(column)
    rank = 0
    for value in sorted({c for c in column if c > 0}, reverse=True):
        if rank >= len(paid):
            break
        tied = [i for i, c in enumerate(column) if c == value]
        share = sum(paid[rank : rank + len(tied)]) // len(tied)
        for i in tied:
            out[i] = share
        rank += len(tied)
    return out


_SOFT: dict[tuple[Sequence[int], tuple[int, ...], RoundOutlook], tuple[float, ...]] = {}


def soft_points(
    paid: Sequence[int], column: Sequence[int], outlook: RoundOutlook
) -> tuple[float, ...]:
    """Expected points per entry for one type in a future round.

    Today's counts will move before the round: each pair of entries is compared with a logistic
    whose width grows with the buildings still to come, and an entry's expected rank is the
    number of entries likely ahead of it. An entry without a building scores only if it gets one.

    Look-ahead asks this of the same few columns thousands of times per decision, so answers are
    remembered (a pure function of its arguments; the memo is emptied when it grows large).
    """
    key = (paid, tuple(column), outlook)
    found = _SOFT.get(key)
    if found is None:
        if len(_SOFT) >= 200_000:
            _SOFT.clear()
        found = _SOFT[key] = tuple(_soft_points(paid, column, outlook))
    return found


def _soft_points(paid: Sequence[int], column: Sequence[int], outlook: RoundOutlook) -> list[float]:
    n = len(column)
    spread = outlook.spread
    out = [0.0] * n
    for i, ci in enumerate(column):
        ahead = 0.0
        for j, cj in enumerate(column):
            if j != i:
                ahead += 1.0 / (1.0 + math.exp((ci - cj) / spread))
        k = int(ahead)
        frac = ahead - k
        here = paid[k] if k < len(paid) else 0
        nxt = paid[k + 1] if k + 1 < len(paid) else 0
        value = here + (nxt - here) * frac
        if ci == 0:
            value *= 1.0 - math.exp(-outlook.growth)
        out[i] = value
    return out


def building_gain(
    counts: Sequence[Sequence[int]],
    seat: int,
    building: int,
    rounds: list[RoundOutlook],
    w: Weights = WEIGHTS,
) -> float:
    """What one more building of a type adds to `seat`'s expected majority points."""
    column = [c[building] for c in counts]
    more = list(column)
    more[seat] += 1
    gain = w.per_building
    for o in rounds:
        paid = PAID[o.round_no][building]
        gain += o.weight * (soft_points(paid, more, o)[seat] - soft_points(paid, column, o)[seat])
    return gain


def openness(alhambra: Alhambra) -> int:
    """Empty cells where some building could still go: fewer means a cramped Alhambra."""
    cells: set[tuple[int, int]] = set()
    for t in PROBE_TILES:
        cells.update(alhambra.legal_positions(t))
    return len(cells)
