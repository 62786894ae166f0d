"""Level `normal`: scores every legal action on one scale (points) and keeps the best.

Every option is valued as what it adds to the seat's expected final score, in points:
- a building is worth its expected majority points in the scoring rounds still to come (its
  count against everyone else's, softened by how many buildings will still be bought before each
  round) plus the wall it adds wherever it fits best, scored once per remaining round;
- money is worth a rate per coin that falls as the supply runs out (money scores nothing at the
  end), with diminishing returns for a hoard, plus the buildings on the market that the hand can
  pay for, exactly (an exact payment is a free extra action) or at all;
- an exact payment earns an extra action; redesigns put reserve buildings to work;
- optionally (`contested`), a market building an opponent can pay exactly before the seat's next
  turn is a weaker option (every hand is known from the public log, `knowledge.deduce`), so
  waiting for it is worth less and buying it now more.
So buying compares the building with the money it costs and the options the rest of the hand
keeps, and taking money compares coins and new exact payments. The constants were tuned by a
seeded search against `easy` on several seeds (see `bench/ai_tune.py`); they live in
`NormalWeights`. The lesson of that tuning: room to build matters more than wall. Valuing wall at
its face value walled the Alhambra in, so bought buildings fitted nowhere and sat in the reserve,
where they count for nothing; a lower wall weight, more weight on open cells and a building that
fits nowhere counted as a loss won about seven more games in a hundred against `easy`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ..actions import (
    Action,
    Buy,
    GiveToDirk,
    Pass,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    TakeMoney,
)
from ..alhambra import Alhambra
from ..catalogue import CARD_CURRENCY, CARD_VALUE, TILE_COST, TILE_MASK, TILE_TYPE
from ..events import Event
from ..view import SeatView
from .easy import view_counts
from .evaluate import PAID, RoundOutlook, openness, soft_points
from .knowledge import deduce
from .player import Player


@dataclass(frozen=True, slots=True)
class NormalWeights:
    """The constants of `normal`'s valuation, in points (tuned, see the module docstring)."""

    #: points per building just for owning it (later majorities, denying others)
    per_building: float = 0.497
    #: share of the opponents' average loss of majority points a building is also worth
    rivalry: float = 0.5
    #: weight of the second and third round against the next one
    later_round: float = 0.973
    #: how fast today's majorities blur with the buildings still to come
    spread: float = 1.306
    #: points per wall segment per remaining scoring round (a segment scores 1 a round, but
    #: walls close cells: at 0.6 the Alhambra walled itself in)
    wall: float = 0.3
    #: value of a coin at the start and at the end of the building supply
    coin_early: float = 0.777
    coin_late: float = 0.2
    #: coins beyond this total are worth `hoard` of a coin
    money_cap: float = 40.483
    hoard: float = 0.268
    #: share of a market building's surplus a hand keeps as an option: exactly / at all
    exact_option: float = 0.4
    afford_option: float = 0.15
    exact_flat: float = 0.233
    #: points lost per coin paid above the cost, on top of the coin's value
    overpay: float = 0.5
    #: an exact payment's extra action: a flat bonus plus a share of the best money it can take
    extra_action: float = 0.915
    extra_take: float = 0.9
    #: a bought building that fits nowhere in the Alhambra: a penalty, and the share of its
    #: majority value it keeps (it counts only once a later redesign finds it a cell, which
    #: seldom happens: at 1.0 `normal` ended its games with twice easy's reserve)
    no_place: float = 3.0
    unplaced: float = 0.3
    #: placement: openness per usable cell and compactness per step from the fountain
    openness: float = 0.12
    compact: float = 0.05
    #: share of a market option lost when an opponent, who moves first, can pay for that
    #: building exactly / at all (every hand is known from the public log). Off: 0.3 changed
    #: nothing measurable against `easy` (1,200 games) and cost `hard` three against `normal`.
    contested: float = 0.0
    contested_afford: float = 0.0


NORMAL_WEIGHTS = NormalWeights()


@dataclass(slots=True)
class Situation:
    """What every option of one decision is valued against (computed once per decision)."""

    seat: int
    players: int
    counts: list[list[int]]
    rounds: list[RoundOutlook]
    late: float
    coin: float
    alhambra: Alhambra
    wall: int
    #: points a market slot's building is worth to the seat (None: empty slot)
    worth: list[float | None]
    #: share of that worth the seat can count on keeping as an option until its next turn
    keep: list[float]


def outlook(view: SeatView, w: NormalWeights) -> list[RoundOutlook]:
    """The scoring rounds still to come and how far away each is, in buildings per type."""
    held = {r.round_no for r in view.scoring_rounds}
    to_buy = view.supply_size + sum(1 for t in view.market if t is not None)
    entries = view.players + (1 if view.dirk is not None else 0)
    return round_outlook(held, to_buy, entries, w)


def round_outlook(
    held: set[int], to_buy: int, entries: int, w: NormalWeights
) -> list[RoundOutlook]:
    rounds = [r for r in (1, 2, 3) if r not in held]
    out = []
    for k, r in enumerate(rounds):
        growth = to_buy * (k + 1) / len(rounds) / (entries * 6)
        spread = max(0.35, math.sqrt(2 * growth) * w.spread)
        out.append(RoundOutlook(r, 1.0 if k == 0 else w.later_round, growth, spread))
    return out


def majority_gain(s: Situation, building: int, w: NormalWeights) -> float:
    """Expected majority points one more building of a type adds for the seat, plus a share of
    what it takes away from the opponents (only beating them wins)."""
    column = [c[building] for c in s.counts]
    more = list(column)
    more[s.seat] += 1
    rivals = [j for j in range(s.players) if j != s.seat]
    gain = w.per_building
    for o in s.rounds:
        paid = PAID[o.round_no][building]
        now = soft_points(paid, column, o)
        then = soft_points(paid, more, o)
        gain += o.weight * (then[s.seat] - now[s.seat])
        if rivals:
            lost = sum(now[j] - then[j] for j in rivals) / len(rivals)
            gain += o.weight * w.rivalry * lost
    return gain


def wall_gain(s: Situation, tile: int, w: NormalWeights) -> float | None:
    """The wall the building adds where it fits best, or None if it fits nowhere."""
    alhambra = s.alhambra
    # Only the tile's walls matter, and look-ahead asks again of the same grids: the answer is
    # kept with the grid.
    longest = alhambra.derived(("best wall", TILE_MASK[tile]), partial(_best_wall, alhambra, tile))
    if longest is None:
        return None
    return w.wall * (longest - s.wall) * len(s.rounds)


def _best_wall(alhambra: Alhambra, tile: int) -> int | None:
    """The longest wall `tile` can leave the grid with, None if it fits nowhere."""
    best = None
    for cell in alhambra.legal_cells(tile):
        wall = alhambra.preview(tile, cell).longest_wall()
        best = wall if best is None or wall > best else best
    return best


def contest(
    s: Situation,
    hands: Sequence[Sequence[int]],
    market: Sequence[int | None],
    w: NormalWeights,
) -> None:
    """Lower the option value of market buildings an opponent can buy before the seat's next
    turn: a hand that waits for a building the next player can pay exactly is waiting in vain."""
    for slot, tile in enumerate(market):
        if tile is None:
            continue
        cost = TILE_COST[tile]
        threat = 0.0
        for seat, hand in enumerate(hands):
            if seat == s.seat:
                continue
            reach = 1
            total = 0
            for c in hand:
                if CARD_CURRENCY[c] == slot:
                    reach |= reach << CARD_VALUE[c]
                    total += CARD_VALUE[c]
            if reach >> cost & 1:
                threat = max(threat, w.contested)
            elif total >= cost:
                threat = max(threat, w.contested_afford)
        s.keep[slot] = 1.0 - threat


def situation(
    view: SeatView,
    w: NormalWeights,
    hands: Sequence[Sequence[int]] | None = None,
    alhambra: Alhambra | None = None,
) -> Situation:
    assert view.seat is not None
    s = build_situation(
        view.seat,
        view.players,
        view_counts(view),
        outlook(view, w),
        view.supply_size,
        view.alhambra(view.seat) if alhambra is None else alhambra,
        view.market,
        w,
    )
    if hands is not None and (w.contested or w.contested_afford):
        contest(s, hands, view.market, w)
    return s


def build_situation(
    seat: int,
    players: int,
    counts: list[list[int]],
    rounds: list[RoundOutlook],
    supply_size: int,
    alhambra: Alhambra,
    market: Sequence[int | None],
    w: NormalWeights,
    walls: bool = True,
) -> Situation:
    """`walls=False` skips trying each market building in the Alhambra (the costly part), for
    look-ahead that values many positions."""
    late = 1.0 - min(1.0, supply_size / 42.0)
    s = Situation(
        seat=seat,
        players=players,
        counts=counts,
        rounds=rounds,
        late=late,
        coin=w.coin_early * (1 - late) + w.coin_late * late,
        alhambra=alhambra,
        wall=alhambra.longest_wall(),
        worth=[None] * 4,
        keep=[1.0] * 4,
    )
    for slot, tile in enumerate(market):
        if tile is not None:
            majority = majority_gain(s, TILE_TYPE[tile], w)
            wall = wall_gain(s, tile, w) if walls else 0.0
            s.worth[slot] = (
                majority + wall if wall is not None else w.unplaced * majority - w.no_place
            )
    return s


def hand_value(
    s: Situation, hand: Sequence[int], market: Sequence[int | None], w: NormalWeights
) -> float:
    """Coins (with diminishing returns) plus the market buildings the hand can pay for."""
    total = sum(CARD_VALUE[c] for c in hand)
    value = s.coin * (min(total, w.money_cap) + w.hoard * max(0.0, total - w.money_cap))
    per_currency = [0] * 4
    reach = [1] * 4  # bit i set: some cards of that currency add up to exactly i
    for c in hand:
        cur = CARD_CURRENCY[c]
        per_currency[cur] += CARD_VALUE[c]
        reach[cur] |= reach[cur] << CARD_VALUE[c]
    for slot, tile in enumerate(market):
        worth = s.worth[slot]
        if tile is None or worth is None:
            continue
        cost = TILE_COST[tile]
        surplus = max(0.0, worth - s.coin * cost) * s.keep[slot]
        if reach[slot] >> cost & 1:
            value += w.exact_option * surplus + w.exact_flat * s.keep[slot]
        elif per_currency[slot] >= cost:
            value += w.afford_option * surplus
    return value


def placement_value(
    alhambra: Alhambra, tile: int, cell: tuple[int, int], w: NormalWeights
) -> float:
    after = alhambra.preview(tile, cell)
    x, y = cell
    return (
        w.wall * after.longest_wall()
        + w.openness * min(openness(after), 12)
        - w.compact * (abs(x) + abs(y))
    )


def score_placements(
    view: SeatView, options: Sequence[Action], w: NormalWeights, alhambra: Alhambra | None = None
) -> list[tuple[float, Action]]:
    """Placing a bought building: on the best cell; the reserve or Dirk only as a last resort."""
    assert view.seat is not None
    if alhambra is None:
        alhambra = view.alhambra(view.seat)
    out: list[tuple[float, Action]] = []
    for a in options:
        if isinstance(a, Place):
            out.append((placement_value(alhambra, a.tile, (a.x, a.y), w), a))
        elif isinstance(a, PlaceInReserve):
            out.append((-1000.0, a))
        elif isinstance(a, GiveToDirk):
            out.append((-1001.0, a))
        else:
            out.append((-2000.0, a))
    return out


def score_actions(
    view: SeatView,
    options: Sequence[Action],
    w: NormalWeights = NORMAL_WEIGHTS,
    hands: Sequence[Sequence[int]] | None = None,
    alhambra: Alhambra | None = None,
) -> list[tuple[float, Action]]:
    """Every option with its value in points, best first (ties keep the legal order).

    `hands` (every seat's hand, as deduced from the public log) lets it see which market
    buildings the opponents are about to take; without it every option counts in full.
    `alhambra` is the seat's grid when the caller has it (look-ahead passes the game's own, whose
    copies share their analysis and previews) instead of one rebuilt from the view."""
    if view.phase == "place" or view.final_placement:
        scored = score_placements(view, options, w, alhambra)
    else:
        scored = score_turn_actions(view, options, w, hands, alhambra)
    order = sorted(range(len(scored)), key=lambda k: (-scored[k][0], k))
    return [scored[k] for k in order]


def score_turn_actions(
    view: SeatView,
    options: Sequence[Action],
    w: NormalWeights,
    hands: Sequence[Sequence[int]] | None = None,
    alhambra: Alhambra | None = None,
) -> list[tuple[float, Action]]:
    s = situation(view, w, hands, alhambra)
    hand = list(view.hand)
    before = hand_value(s, hand, view.market, w)
    takes = [a for a in options if isinstance(a, TakeMoney)]
    out: list[tuple[float, Action]] = []
    for a in options:
        if isinstance(a, TakeMoney):
            value = hand_value(s, hand + list(a.cards), view.market, w) - before
        elif isinstance(a, Buy):
            tile = view.market[a.slot]
            assert tile is not None
            worth = s.worth[a.slot] or 0.0
            rest = [c for c in hand if c not in a.cards]
            market = list(view.market)
            market[a.slot] = None
            paid = sum(CARD_VALUE[c] for c in a.cards)
            after = hand_value(s, rest, market, w)
            value = worth + after - before - w.overpay * (paid - TILE_COST[tile])
            if paid == TILE_COST[tile]:
                # the extra action can at least take the best money still in the pool
                value += w.extra_action + w.extra_take * max(
                    (hand_value(s, rest + list(t.cards), market, w) - after for t in takes),
                    default=0.0,
                )
        elif isinstance(a, PlaceFromReserve):
            grid = s.alhambra.preview(a.tile, (a.x, a.y))
            value = (
                majority_gain(s, TILE_TYPE[a.tile], w)
                - w.per_building
                + w.wall * (grid.longest_wall() - s.wall) * len(s.rounds)
            )
        elif isinstance(a, Place):  # declines the extra action: then the best cell
            value = 1e-4 * placement_value(s.alhambra, a.tile, (a.x, a.y), w)
        elif isinstance(a, PlaceInReserve | GiveToDirk | Pass):
            value = -0.5 if isinstance(a, GiveToDirk) else -0.4
        else:
            value = -5.0  # swaps and removals: only when nothing else is possible
        out.append((value, a))
    return out


class NormalPlayer(Player):
    level = "normal"

    def __init__(self, seed: int = 0, weights: NormalWeights = NORMAL_WEIGHTS) -> None:
        super().__init__(seed)
        self.weights = weights

    def decide(
        self, view: SeatView, history: list[Event], options: list[Action], rng: random.Random
    ) -> Action:
        hands = None
        if self.weights.contested or self.weights.contested_afford:
            know = deduce(view, history)
            hands = know.hands if know.hands_known else None
        return score_actions(view, options, self.weights, hands)[0][1]
