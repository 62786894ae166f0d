"""Why a computer player would make a move: the main motive behind an action, from the valuation.

`normal` (and through it `hard`) values an action as a sum of parts, in points: the majority
points a building is expected to bring, the wall it adds, the extra action an exact payment
earns, the options money opens on the market, the room a placement leaves. `reason_for` takes
the action a player chose, recomputes those parts with the same functions and weights, and names
the largest as a `Reason`: a stable code and its parameters (a building type, a tile, a number).
The words live with the bot; this module only says *which* motive it is.

`advise` is the whole hint: a computer player's choice for the seat's view and public history
(never a hidden card: the same inputs a computer player gets) with its reason.

Pure and deterministic: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import (
    Action,
    Buy,
    EndTurn,
    GiveToDirk,
    Pass,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    TakeMoney,
)
from ..catalogue import CARD_CURRENCY, CARD_VALUE, TILE_COST, TILE_TYPE
from ..events import Event
from ..view import SeatView
from .easy import view_counts
from .evaluate import openness
from .hard import HARD_WEIGHTS
from .normal import NormalWeights, hand_value, majority_gain, situation, wall_gain
from .player import Player, candidate_actions

#: Every reason code `reason_for` returns (the bot has words for each: a test checks).
REASON_CODES = (
    "only_choice",  # nothing else is possible
    "end_turn",  # the turn is complete: confirm it
    "majority_take",  # the building makes the seat the sole leader of its type
    "majority_tie",  # it draws level with the leader of its type
    "majority_keep",  # the seat already leads that type: the lead grows
    "majority_close",  # behind, it closes in on the leader (amount: buildings still behind)
    "exact_extra",  # an exact payment: a free extra action this turn
    "wall",  # the longest wall grows (amount: segments)
    "money_exact",  # the money makes an exact payment for a market building (tile) possible
    "money_afford",  # the money makes a market building (tile) affordable at all
    "money_most",  # the most money on offer (amount: total value)
    "money_later",  # money for the purchases ahead, not the most on offer (amount: total)
    "place_wall",  # a placement that lengthens the longest wall (amount)
    "place_open",  # a placement that keeps the Alhambra open (amount: cells still usable)
    "reserve",  # a building kept in the reserve: no cell suits it now
    "dirk",  # a building given to Dirk, out of the opponents' reach
    "best_value",  # none of the above stands out
)


@dataclass(frozen=True, slots=True)
class Reason:
    """The main motive of an action: `code` (one of `REASON_CODES`) and its parameters."""

    code: str
    #: a building type (`Building` value), for majority and wall reasons
    building: int | None = None
    #: a tile, for the money reasons (the market building the money is for)
    tile: int | None = None
    #: a count: wall segments, buildings behind, coins, open cells
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Advice:
    """What a level would do now, and why."""

    action: Action
    reason: Reason
    level: str


def advise(player: Player, view: SeatView, history: Sequence[Event]) -> Advice:
    """`player`'s choice for this seat now (its view and the public history only), and why.
    Raises `NotYourTurn` when the decision is not the view's seat's."""
    action = player.choose(view, history)
    return Advice(action, reason_for(view, action), player.level)


def _standing(counts: Sequence[Sequence[int]], seat: int, building: int) -> tuple[int, int]:
    """(the seat's count of a type, the best count of anyone else, Dirk included)."""
    mine = counts[seat][building]
    others = [c[building] for i, c in enumerate(counts) if i != seat]
    return mine, max(others, default=0)


def _majority(counts: Sequence[Sequence[int]], seat: int, building: int, added: int) -> Reason:
    """What `added` more buildings of a type do to the seat's standing in it."""
    mine, best = _standing(counts, seat, building)
    after = mine + added
    if mine > best:
        return Reason("majority_keep", building=building)
    if after > best:
        return Reason("majority_take", building=building)
    if after == best:
        return Reason("majority_tie", building=building)
    return Reason("majority_close", building=building, amount=best - after)


def _reach(cards: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per currency: the sums the cards can pay exactly (bit i: i), and the total."""
    reach, total = [1] * 4, [0] * 4
    for c in cards:
        cur = CARD_CURRENCY[c]
        reach[cur] |= reach[cur] << CARD_VALUE[c]
        total[cur] += CARD_VALUE[c]
    return reach, total


def reason_for(view: SeatView, action: Action, w: NormalWeights = HARD_WEIGHTS) -> Reason:
    """The main motive behind `action` for the view's seat, as the valuation sees it."""
    assert view.seat is not None
    seat = view.seat
    if isinstance(action, EndTurn):
        return Reason("end_turn")
    options = candidate_actions(view)
    if len(options) == 1:
        return Reason("only_choice")
    if isinstance(action, Pass):
        return Reason("only_choice")
    counts = view_counts(view)
    if isinstance(action, Buy):
        tile = view.market[action.slot]
        assert tile is not None
        return _buy_reason(view, action, tile, counts, w)
    if isinstance(action, TakeMoney):
        return _money_reason(view, action, w)
    if isinstance(action, Place):
        alhambra = view.alhambra(seat)
        after = alhambra.preview(action.tile, (action.x, action.y))
        grown = after.longest_wall() - alhambra.longest_wall()
        if grown > 0:
            return Reason("place_wall", building=TILE_TYPE[action.tile], amount=grown)
        return Reason("place_open", building=TILE_TYPE[action.tile], amount=openness(after))
    if isinstance(action, PlaceFromReserve):
        s = situation(view, w)
        building = TILE_TYPE[action.tile]
        majority = majority_gain(s, building, w) - w.per_building
        grid = s.alhambra.preview(action.tile, (action.x, action.y))
        grown = grid.longest_wall() - s.wall
        if grown > 0 and w.wall * grown * len(s.rounds) > majority:
            return Reason("wall", building=building, amount=grown)
        return _majority(counts, seat, building, 1)
    if isinstance(action, PlaceInReserve):
        return Reason("reserve", building=TILE_TYPE[action.tile])
    if isinstance(action, GiveToDirk):
        return Reason("dirk", building=TILE_TYPE[action.tile])
    return Reason("best_value")


def _buy_reason(
    view: SeatView, action: Buy, tile: int, counts: list[list[int]], w: NormalWeights
) -> Reason:
    """A purchase: the largest of its parts (majority, wall, the exact payment's extra action)."""
    assert view.seat is not None
    s = situation(view, w)
    building = TILE_TYPE[tile]
    majority = majority_gain(s, building, w)
    wall = wall_gain(s, tile, w)
    paid = sum(CARD_VALUE[c] for c in action.cards)
    exact = paid == TILE_COST[tile]
    extra = 0.0
    if exact:
        rest = [c for c in view.hand if c not in action.cards]
        market = list(view.market)
        market[action.slot] = None
        after = hand_value(s, rest, market, w)
        takes = [a for a in view.legal if isinstance(a, TakeMoney)]
        extra = w.extra_action + w.extra_take * max(
            (hand_value(s, rest + list(t.cards), market, w) - after for t in takes), default=0.0
        )
    parts = {"majority": majority, "wall": wall or 0.0, "exact": extra}
    motive = max(parts, key=lambda k: (parts[k], k == "majority"))
    if motive == "wall" and wall is not None and wall > 0:
        grid = s.alhambra
        best = max(grid.preview(tile, cell).longest_wall() for cell in grid.legal_cells(tile))
        return Reason("wall", building=building, amount=best - s.wall)
    if motive == "exact" and exact:
        return Reason("exact_extra", building=building)
    return _majority(counts, view.seat, building, 1)


def _money_reason(view: SeatView, action: TakeMoney, w: NormalWeights) -> Reason:
    """Money: the best market building it lets the hand pay exactly, or at all."""
    s = situation(view, w)
    before_reach, before_total = _reach(view.hand)
    after_reach, after_total = _reach([*view.hand, *action.cards])
    exact: list[tuple[float, int]] = []
    afford: list[tuple[float, int]] = []
    for slot, tile in enumerate(view.market):
        worth = s.worth[slot]
        if tile is None or worth is None or worth <= 0:
            continue
        cost = TILE_COST[tile]
        if after_reach[slot] >> cost & 1 and not before_reach[slot] >> cost & 1:
            exact.append((worth, tile))
        elif after_total[slot] >= cost > before_total[slot]:
            afford.append((worth, tile))
    if exact:
        return Reason("money_exact", tile=max(exact)[1])
    if afford:
        return Reason("money_afford", tile=max(afford)[1])
    total = sum(CARD_VALUE[c] for c in action.cards)
    most = max(
        (sum(CARD_VALUE[c] for c in a.cards) for a in view.legal if isinstance(a, TakeMoney)),
        default=total,
    )
    return Reason("money_most" if total >= most else "money_later", amount=total)
