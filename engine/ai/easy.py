"""Level `easy`: sensible greedy play from the view alone, no look-ahead.

Rules of thumb a casual player follows: buy with an exact payment whenever it gets a useful
building (and use the extra action), buy with a small overpayment only for a building that
matters, otherwise take as much money as possible, preferring cards that make an exact payment
possible. Bought buildings go where they lengthen the wall and keep the Alhambra open.
It is also the fast policy `hard` uses in its playouts, so it must stay cheap.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..actions import (
    Action,
    Buy,
    GiveToDirk,
    Pass,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    Swap,
    TakeMoney,
)
from ..alhambra import Alhambra
from ..catalogue import CARD_CURRENCY, CARD_VALUE, TILE_COST, TILE_TYPE
from ..events import Event
from ..payments import has_exact_payment
from ..view import SeatView
from .evaluate import WEIGHTS, RoundOutlook, building_gain, openness
from .player import Player


def view_counts(view: SeatView) -> list[list[int]]:
    """Building counts per seat (Dirk last), the current seat's pending buildings included."""
    counts = [list(p.counts) for p in view.table]
    if view.current_seat is not None:
        for t in view.pending:
            counts[view.current_seat][TILE_TYPE[t]] += 1
    if view.dirk is not None:
        dirk = [0] * 6
        for t in view.dirk:
            dirk[TILE_TYPE[t]] += 1
        counts.append(dirk)
    return counts


def view_rounds(view: SeatView) -> list[RoundOutlook]:
    held = {r.round_no for r in view.scoring_rounds}
    rounds = [r for r in (1, 2, 3) if r not in held]
    to_buy = view.supply_size + sum(1 for t in view.market if t is not None)
    entries = view.players + (1 if view.dirk is not None else 0)
    out = []
    for k, r in enumerate(rounds):
        growth = to_buy * (k + 1) / len(rounds) / (entries * 6)
        spread = max(0.35, math.sqrt(2 * growth) * WEIGHTS.spread)
        out.append(RoundOutlook(r, 1.0 if k == 0 else WEIGHTS.later_round, growth, spread))
    return out


def placement_score(alhambra: Alhambra, tile: int, cell: tuple[int, int]) -> float:
    """Wall length first, then room left to build, then staying compact."""
    after = alhambra.preview(tile, cell)
    x, y = cell
    return 1.0 * after.longest_wall() + 0.2 * min(openness(after), 12) - 0.05 * (abs(x) + abs(y))


def best_placement(view: SeatView, options: Sequence[Action]) -> Action:
    """The best cell for a pending building, the reserve only when no cell is legal."""
    assert view.seat is not None
    alhambra = view.alhambra(view.seat)
    places = [a for a in options if isinstance(a, Place)]
    if places:
        return max(places, key=lambda a: (placement_score(alhambra, a.tile, (a.x, a.y)), -a.tile))
    reserve = [a for a in options if isinstance(a, PlaceInReserve)]
    if reserve:
        return reserve[0]
    dirk = [a for a in options if isinstance(a, GiveToDirk)]
    return dirk[0] if dirk else options[0]


def take_score(view: SeatView, take: TakeMoney, gains: dict[int, float]) -> float:
    """Money taken, plus a bonus for each market building it lets us pay exactly."""
    hand = list(view.hand)
    after = hand + list(take.cards)
    score = float(sum(CARD_VALUE[c] for c in take.cards))
    for slot, tile in enumerate(view.market):
        if tile is None or gains.get(slot, 0.0) <= 1.0:
            continue
        cost = TILE_COST[tile]
        if has_exact_payment(after, slot, cost) and not has_exact_payment(hand, slot, cost):
            score += 1.5 + 0.3 * gains[slot]
        elif (
            sum(CARD_VALUE[c] for c in after if CARD_CURRENCY[c] == slot)
            >= cost
            > sum(CARD_VALUE[c] for c in hand if CARD_CURRENCY[c] == slot)
        ):
            score += 0.5
    return score


class EasyPlayer(Player):
    level = "easy"

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        return easy_choice(view, options)


def easy_choice(view: SeatView, options: list[Action]) -> Action:
    """The greedy policy, as a function so playouts can call it without a player object."""
    assert view.seat is not None
    me = view.seat
    if view.phase == "place" or view.final_placement:
        return best_placement(view, options)
    counts = view_counts(view)
    rounds = view_rounds(view)
    gains: dict[int, float] = {}
    for slot, tile in enumerate(view.market):
        if tile is not None:
            gains[slot] = building_gain(counts, me, TILE_TYPE[tile], rounds)

    buys = [a for a in options if isinstance(a, Buy)]

    def overpay(b: Buy) -> int:
        tile = view.market[b.slot]
        assert tile is not None  # a legal buy names a filled slot
        return sum(CARD_VALUE[c] for c in b.cards) - TILE_COST[tile]

    exact = [b for b in buys if overpay(b) == 0 and gains[b.slot] > 0.5]
    if exact:
        return max(exact, key=lambda b: (gains[b.slot], -len(b.cards), -b.slot))
    close = [b for b in buys if overpay(b) <= 1 and gains[b.slot] >= 3.0]
    if close:
        return max(close, key=lambda b: (gains[b.slot] - overpay(b), -b.slot))
    takes = [a for a in options if isinstance(a, TakeMoney)]
    if takes:
        return max(takes, key=lambda t: (take_score(view, t, gains), len(t.cards), t.cards))
    if buys:
        return max(buys, key=lambda b: (gains[b.slot] - 0.5 * overpay(b), -b.slot))
    builds = [a for a in options if isinstance(a, PlaceFromReserve)]
    if builds:
        alhambra = view.alhambra(me)
        return max(builds, key=lambda a: placement_score(alhambra, a.tile, (a.x, a.y)))
    if view.actions_this_turn:  # after an exact payment with nothing worth doing: place
        placements = [a for a in options if isinstance(a, Place | PlaceInReserve | GiveToDirk)]
        if placements:
            return best_placement(view, placements)
    for kind in (Pass, Swap, RemoveToReserve):
        found = [a for a in options if isinstance(a, kind)]
        if found:
            return found[0]
    return options[0]
