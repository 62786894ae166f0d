"""Plans: the moves a waiting player queues for their next turn, and how one is chosen then.

In asynchronous play the market changes between a player's turns, so the building they saved
for may be gone when they come back. A plan is what correspondence chess calls conditional
moves: an ordered list of rules "if building B is in the market at my turn, buy it with these
cards of my hand (and place it at this cell / in my reserve)", and what to do when none holds
(wait for me, take the most money, or take these cards). It is for one turn: taken when that
turn begins, played or not.

Pure, and it never sees hidden information: a plan is checked against the player's own
`SeatView` at the start of their turn (the public table and their own hand), so what it plays
depends on nothing the player could not have seen then. Buildings are named by their catalogue
id (type, price and walls are public), money by card id from the player's own hand (made from
their view) or from the pool (public).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from engine import (
    CARDS,
    TILES,
    Action,
    Buy,
    Place,
    PlaceInReserve,
    SeatView,
    TakeMoney,
)

#: rules one plan may hold: enough for "this, else that, else that", few enough to read
MAX_RULES = 5
#: where a bought building goes: a cell (x, y), the reserve, or None (leave it to the player)
Placement = tuple[int, int] | Literal["reserve"] | None
#: what happens when no rule holds: wait for the player, take the most money, or these cards
Otherwise = Literal["wait", "most"] | tuple[int, ...]


@dataclass(frozen=True)
class PlanRule:
    tile: int
    cards: tuple[int, ...]
    place: Placement = None


@dataclass(frozen=True)
class Plan:
    rules: tuple[PlanRule, ...] = ()
    otherwise: Otherwise = "wait"

    def to_json(self) -> str:
        return json.dumps(
            {
                "rules": [
                    {"tile": r.tile, "cards": list(r.cards), "place": _place_json(r.place)}
                    for r in self.rules
                ],
                "otherwise": list(self.otherwise)
                if isinstance(self.otherwise, tuple)
                else self.otherwise,
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Plan:
        data = json.loads(text)
        rules = tuple(
            PlanRule(int(r["tile"]), tuple(int(c) for c in r["cards"]), _place_of(r["place"]))
            for r in data["rules"]
        )
        otherwise = data["otherwise"]
        if isinstance(otherwise, list):
            return cls(rules, tuple(int(c) for c in otherwise))
        return cls(rules, "most" if otherwise == "most" else "wait")


def _place_json(place: Placement) -> Any:
    return list(place) if isinstance(place, tuple) else place


def _place_of(data: Any) -> Placement:
    if isinstance(data, list):
        return (int(data[0]), int(data[1]))
    return "reserve" if data == "reserve" else None


#: why a rule did not play: its building is not in the market; the payment is in another
#: currency than the slot it is in; it no longer covers the price (never, as a hand does not
#: change between one's turns, but a plan is checked, not trusted); the cell does not take it
Skipped = Literal["gone", "currency", "short", "cards", "cell"]


@dataclass(frozen=True)
class PlanChoice:
    """What a plan plays at the start of the turn: `rule` (its index) or the fallback (None),
    the moves in order (none: it waits for the player), and why each rule before it was
    passed over."""

    rule: int | None
    moves: tuple[Action, ...]
    skipped: tuple[tuple[int, Skipped], ...] = field(default=())
    #: the purchase pays exactly: the player has another action, which the plan leaves to them
    exact: bool = False


def rule_problem(rule: PlanRule, view: SeatView) -> Skipped | None:
    """Why `rule` cannot be played in `view` (the player's own, at the start of their turn),
    or None if it can: its building in the market, its cards in hand paying at least the price
    in that slot's currency, and its cell one the building may go to now."""
    if rule.tile not in view.market:
        return "gone"
    slot = view.market.index(rule.tile)
    if not set(rule.cards) <= set(view.hand) or len(set(rule.cards)) != len(rule.cards):
        return "cards"
    if any(CARDS[c].currency != slot for c in rule.cards):
        return "currency"
    if sum(CARDS[c].value for c in rule.cards) < TILES[rule.tile].cost:
        return "short"
    if isinstance(rule.place, tuple):
        assert view.seat is not None
        if not view.alhambra(view.seat).can_place(rule.tile, rule.place):
            return "cell"
    return None


def choose(plan: Plan, view: SeatView) -> PlanChoice:
    """The plan's moves for this turn, from the player's own view at its start; no moves when
    no rule holds and the plan waits (or the money it names is not in the pool)."""
    skipped: list[tuple[int, Skipped]] = []
    for index, rule in enumerate(plan.rules):
        problem = rule_problem(rule, view)
        buy = _legal_buy(rule, view) if problem is None else None
        if problem is None and buy is None:
            problem = "cards"  # the engine says no (a case the checks above do not know)
        if problem is not None or buy is None:
            skipped.append((index, problem or "cards"))
            continue
        moves: list[Action] = [buy]
        if isinstance(rule.place, tuple):
            moves.append(Place(rule.tile, *rule.place))
        elif rule.place == "reserve":
            moves.append(PlaceInReserve(rule.tile))
        exact = sum(CARDS[c].value for c in buy.cards) == TILES[rule.tile].cost
        return PlanChoice(index, tuple(moves), tuple(skipped), exact)
    take = _fallback(plan.otherwise, view)
    return PlanChoice(None, () if take is None else (take,), tuple(skipped))


def _legal_buy(rule: PlanRule, view: SeatView) -> Buy | None:
    want = sorted(rule.cards)
    return next(
        (
            a
            for a in view.legal
            if isinstance(a, Buy) and view.market[a.slot] == rule.tile and sorted(a.cards) == want
        ),
        None,
    )


def _fallback(otherwise: Otherwise, view: SeatView) -> TakeMoney | None:
    takes = [a for a in view.legal if isinstance(a, TakeMoney)]
    if otherwise == "wait" or not takes:
        return None
    if otherwise == "most":  # the most money; of equal sums the fewest cards, then the first
        return max(takes, key=lambda a: (sum(CARDS[c].value for c in a.cards), -len(a.cards)))
    want = _faces(otherwise)  # a pool's copies of a card are alike: compare what they are
    return next((a for a in takes if _faces(a.cards) == want), None)


def _faces(cards: tuple[int, ...]) -> list[tuple[int, int]]:
    return sorted((CARDS[c].currency, CARDS[c].value) for c in cards)


def check_new_rule(rule: PlanRule, view: SeatView) -> str | None:
    """Why a rule cannot be part of a plan made from `view` (the player's own, while they
    wait), as the variant of `PlanRefused`, or None: a building of the catalogue, cards of
    their own hand (one currency, covering the price), a cell code anywhere."""
    if not 1 <= rule.tile < len(TILES):
        return "bad_building"
    if not rule.cards or len(set(rule.cards)) != len(rule.cards):
        return "bad_cards"
    if not set(rule.cards) <= set(view.hand):
        return "not_in_hand"
    if len({CARDS[c].currency for c in rule.cards}) != 1:
        return "one_currency"
    if sum(CARDS[c].value for c in rule.cards) < TILES[rule.tile].cost:
        return "too_little"
    return None


@dataclass(frozen=True)
class PlanReport:
    """What a plan did at the start of its turn, for the player's DM: the plan, what it chose,
    the moves that were made (fewer if the player moved first), and whether the turn is
    still theirs (an extra action after an exact payment, a placement left to them, a turn
    waiting for its End turn or in its undo window)."""

    plan: Plan
    choice: PlanChoice
    played: tuple[Action, ...]
    turn_left: bool
