"""How good a position is for one seat: the heuristic every level above `random` builds on.

A position is worth, to a seat, its banked score plus what it can expect from here on:
- majority standing: the points the current building counts would earn in each scoring round
  still to come, weighted down the further away the round is (counts will change), plus a little
  per building for the chance to turn it into a majority later;
- wall: the longest wall scores again in every remaining round;
- money: cards are future buildings, worth more early than late, and more when they can pay
  exactly for a building on the market (an exact payment is a free extra action);
- a pending extra action (after an exact payment) and buildings in the reserve.
`position_value` compares the seat with its opponents, because only the ranking counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..alhambra import Alhambra
from ..catalogue import CARD_CURRENCY, CARD_VALUE, SCORING_TABLE, TILE_COST, TILES
from ..game import Game
from ..payments import has_exact_payment

#: Tiles with one wall side each (and one without), to measure how many cells stay usable.
PROBE_TILES = (22, 20, 21, 30, 29)


@dataclass(frozen=True, slots=True)
class Weights:
    """Tunable constants of the heuristic (points per unit)."""

    per_building: float = 1.2
    reserve_building: float = 0.8
    next_round: float = 1.0
    later_round: float = 1.0
    wall_per_round: float = 0.85
    money_early: float = 0.8
    money_late: float = 0.15
    exact_bonus: float = 0.35
    exact_flat: float = 1.0
    afford_bonus: float = 0.12
    extra_action: float = 4.5
    openness: float = 0.15
    opponent_max: float = 0.5
    spread: float = 0.8
    money_cap: float = 20.0
    hoard_rate: float = 0.3


WEIGHTS = Weights()


def remaining_rounds(game: Game) -> list[int]:
    held = {r.round_no for r in game.scoring_rounds}
    return [r for r in (1, 2, 3) if r not in held]


def progress(game: Game) -> float:
    """0 at the start of the game, 1 when the building supply is empty."""
    return 1.0 - len(game.supply) / 42.0 if len(game.supply) < 42 else 0.0


@dataclass(frozen=True, slots=True)
class RoundOutlook:
    """A scoring round still to come: its weight, and how many more buildings of each type a
    player will typically add before it (which decides how firm today's majorities are)."""

    round_no: int
    weight: float
    growth: float
    spread: float


def round_weights(game: Game, w: Weights = WEIGHTS) -> list[RoundOutlook]:
    rounds = remaining_rounds(game)
    to_buy = len(game.supply) + sum(1 for t in game.market if t is not None)
    entries = game.players + (1 if game.dirk is not None else 0)
    out = []
    for k, r in enumerate(rounds):
        share = (k + 1) / len(rounds)
        growth = to_buy * share / (entries * 6)
        weight = w.next_round if k == 0 else w.later_round
        out.append(RoundOutlook(r, weight, growth, max(0.35, math.sqrt(2 * growth) * w.spread)))
    return out


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


def soft_points(paid: Sequence[int], column: Sequence[int], outlook: RoundOutlook) -> list[float]:
    """Expected points per entry for one type in a future round.

    Today's counts will move before the round: each pair of entries is compared with a logistic
    whose width grows with the buildings still to come, and an entry's expected rank is the
    number of entries likely ahead of it. An entry without a building scores only if it gets one.
    """
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


def majority_values(counts: Sequence[Sequence[int]], rounds: list[RoundOutlook]) -> list[float]:
    """Expected majority points per entry (Dirk included) from the rounds still to come."""
    out = [0.0] * len(counts)
    for b in range(6):
        column = [c[b] for c in counts]
        for o in rounds:
            for i, p in enumerate(soft_points(PAID[o.round_no][b], column, o)):
                out[i] += o.weight * p
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


def money_value(
    hand: Sequence[int],
    market: Sequence[int | None],
    gains: Sequence[float],
    late: float,
    w: Weights = WEIGHTS,
) -> float:
    """Cards are worth their value (less late in the game) plus the buildings they can pay for."""
    rate = w.money_early * (1 - late) + w.money_late * late
    total = sum(CARD_VALUE[c] for c in hand)
    # Money only scores once spent, one building per action: a large hand is partly dead weight.
    value = rate * (min(total, w.money_cap) + w.hoard_rate * max(0, total - w.money_cap))
    for slot, tile in enumerate(market):
        if tile is None:
            continue
        gain = max(gains[slot], 0.0)
        cost = TILE_COST[tile]
        if has_exact_payment(hand, slot, cost):
            value += w.exact_bonus * gain + w.exact_flat
        elif sum(CARD_VALUE[c] for c in hand if CARD_CURRENCY[c] == slot) >= cost:
            value += w.afford_bonus * gain
    return value


def seat_values(game: Game, w: Weights = WEIGHTS) -> list[float]:
    """Each seat's expected final points from this position (absolute, not relative)."""
    rounds = round_weights(game, w)
    late = progress(game)
    counts = all_counts(game)
    majority = majority_values(counts, rounds)
    n_rounds = len(rounds)
    out = []
    for seat in range(game.players):
        alhambra = game.alhambra(seat)
        v = game.scores[seat] + majority[seat]
        v += w.per_building * sum(counts[seat]) * (1 - 0.5 * late)
        v += w.reserve_building * len(game.reserve(seat)) * (1 - late)
        v += w.wall_per_round * alhambra.longest_wall() * n_rounds
        v += w.openness * min(openness(alhambra), 12) * (1 - late)
        gains = []
        for tile in game.market:
            if tile is None:
                gains.append(0.0)
                continue
            b = TILES[tile].building
            assert b is not None
            gains.append(building_gain(counts, seat, int(b), rounds, w))
        v += money_value(game.hand(seat), game.market, gains, late, w)
        out.append(v)
    current = game.current_seat
    if current is not None and game.phase == "action" and game.actions_this_turn:
        out[current] += w.extra_action
    return out


def relative(values: Sequence[float], seat: int, w: Weights = WEIGHTS) -> float:
    """A seat's value against the field: only beating the others wins."""
    others = [v for s, v in enumerate(values) if s != seat]
    if not others:
        return values[seat]
    mean = sum(others) / len(others)
    return values[seat] - w.opponent_max * max(others) - (1 - w.opponent_max) * mean


def position_value(game: Game, seat: int, w: Weights = WEIGHTS) -> float:
    return relative(seat_values(game, w), seat, w)
