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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine import (
    CARDS,
    TILES,
    Action,
    Building,
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


#: the price limit a type rule may name: at least a building's price, at most what one hand
#: could sensibly pay (a normal client offers these; anything else is refused)
MIN_LIMIT, MAX_LIMIT = 1, 40


@dataclass(frozen=True)
class PlanRule:
    """One building (`tile`, paid with `cards`), or any building of type `kind` costing at
    most `limit` (then `tile` is 0 and `cards` empty: the payment is chosen at the turn)."""

    tile: int
    cards: tuple[int, ...]
    place: Placement = None
    kind: int | None = None
    limit: int = 0

    @classmethod
    def of_type(cls, kind: int, limit: int, place: Placement = None) -> PlanRule:
        return cls(0, (), place, kind, limit)

    @property
    def by_type(self) -> bool:
        return self.kind is not None


@dataclass(frozen=True)
class Plan:
    rules: tuple[PlanRule, ...] = ()
    otherwise: Otherwise = "wait"
    #: kept for every turn until cancelled (else taken by the next turn)
    standing: bool = False

    @property
    def empty(self) -> bool:
        return not self.rules and self.otherwise == "wait"

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "rules": [_rule_json(r) for r in self.rules],
            "otherwise": list(self.otherwise)
            if isinstance(self.otherwise, tuple)
            else self.otherwise,
        }
        if self.standing:
            data["standing"] = True
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Plan:
        """A stored plan; plans stored before type rules and standing plans load unchanged."""
        data = json.loads(text)
        rules = tuple(
            PlanRule(
                int(r["tile"]),
                tuple(int(c) for c in r["cards"]),
                _place_of(r["place"]),
                int(r["kind"]) if r.get("kind") is not None else None,
                int(r.get("limit", 0)),
            )
            for r in data["rules"]
        )
        standing = data.get("standing") is True
        otherwise = data["otherwise"]
        if isinstance(otherwise, list):
            return cls(rules, tuple(int(c) for c in otherwise), standing)
        return cls(rules, "most" if otherwise == "most" else "wait", standing)


def _rule_json(rule: PlanRule) -> dict[str, Any]:
    out: dict[str, Any] = {
        "tile": rule.tile,
        "cards": list(rule.cards),
        "place": _place_json(rule.place),
    }
    if rule.kind is not None:
        out["kind"], out["limit"] = rule.kind, rule.limit
    return out


#: a change a player makes to their plan: the plan as stored and their own view in, the new
#: plan out (or a refusal raised). Pure, so the service can apply it inside the transaction
#: that reads and writes the plan (`Play.change_plan`): two changes at once both count.
PlanChange = Callable[[Plan, SeatView], Plan]


def _place_json(place: Placement) -> Any:
    return list(place) if isinstance(place, tuple) else place


def _place_of(data: Any) -> Placement:
    if isinstance(data, list):
        return (int(data[0]), int(data[1]))
    return "reserve" if data == "reserve" else None


#: why a rule did not play: its building is not in the market; the payment is in another
#: currency than the slot it is in; it no longer covers the price (never, as a hand does not
#: change between one's turns, but a plan is checked, not trusted); the cell does not take it;
#: for a type rule, no building of its type up to its limit is in the market (`none`), or
#: the hand cannot pay any of them within the limit (`unpaid`)
Skipped = Literal["gone", "currency", "short", "cards", "cell", "none", "unpaid"]


@dataclass(frozen=True)
class PlanStep:
    """One move a plan makes, the rule it belongs to (None: the fallback), and for a
    purchase the building it bought."""

    move: Action
    rule: int | None
    tile: int | None = None


def rule_problem(rule: PlanRule, view: SeatView) -> Skipped | None:
    """Why `rule` cannot be played in `view` (the player's own, at the start of their turn),
    or None if it can: its building in the market, its cards in hand paying at least the price
    in that slot's currency, and its cell one the building may go to now. A type rule: a
    building of its type up to its limit in the market (that fits its cell), and a legal
    payment of one of them within the limit."""
    if rule.kind is not None:
        matching = _matching(rule, view)
        if not matching:
            return "none"
        if isinstance(rule.place, tuple):
            assert view.seat is not None
            alhambra = view.alhambra(view.seat)
            if not any(alhambra.can_place(t, rule.place) for t in matching):
                return "cell"
        return None if _type_buy(rule, view) is not None else "unpaid"
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


def skipped_rules(plan: Plan, view: SeatView) -> tuple[tuple[int, Skipped], ...]:
    """Why each rule before the first that holds does not hold, at the start of the turn."""
    out: list[tuple[int, Skipped]] = []
    for index, rule in enumerate(plan.rules):
        problem = rule_problem(rule, view)
        if problem is None and _legal_buy(rule, view) is not None:
            break
        # "cards": the engine says no to the payment ("unpaid" for a type rule)
        out.append((index, problem or ("unpaid" if rule.kind is not None else "cards")))
    return tuple(out)


def next_step(plan: Plan, view: SeatView, done: Sequence[PlanStep] = ()) -> PlanStep | None:
    """The plan's next move in the turn, from the player's own view now (`done`: its moves so
    far this turn), or None when it has nothing more to do and the rest is the player's.

    While the player may still act, the first rule not yet played whose building is there and
    whose payment is legal buys (an exact payment leaves another action, for the next rule
    that holds); when none holds, the fallback takes money, once. Once no action is left, each
    building a rule bought goes where that rule said; a building it leaves to the player, or a
    plan that waits, ends what the plan does. So a rule that pays exactly keeps its extra
    action for the next rule or the fallback, and placing (which ends one's actions) comes
    last, as at the table."""
    played = {step.rule for step in done if isinstance(step.move, Buy)}
    if any(isinstance(a, Buy | TakeMoney) for a in view.legal):
        for index, rule in enumerate(plan.rules):
            if index in played or rule_problem(rule, view) is not None:
                continue
            if (buy := _legal_buy(rule, view)) is not None:
                return PlanStep(buy, index, view.market[buy.slot])
        took = any(step.rule is None for step in done)
        if not took and (take := _fallback(plan.otherwise, view)) is not None:
            return PlanStep(take, None)
        if view.phase == "action" and not took:
            return None  # an action is left and the plan says nothing of it: the player's
    for step in done:
        if not isinstance(step.move, Buy) or step.rule is None:
            continue
        rule, tile = plan.rules[step.rule], step.tile
        if tile is None or tile not in view.pending:
            continue  # placed already
        place: Action | None = None
        if isinstance(rule.place, tuple):
            place = Place(tile, *rule.place)
        elif rule.place == "reserve":
            place = PlaceInReserve(tile)
        if place is None or place not in view.legal:
            return None  # the player places it (or the cell was taken by another building)
        return PlanStep(place, step.rule)
    return None


def _legal_buy(rule: PlanRule, view: SeatView) -> Buy | None:
    if rule.kind is not None:
        return _type_buy(rule, view)
    want = sorted(rule.cards)
    return next(
        (
            a
            for a in view.legal
            if isinstance(a, Buy) and view.market[a.slot] == rule.tile and sorted(a.cards) == want
        ),
        None,
    )


def _matching(rule: PlanRule, view: SeatView) -> list[int]:
    """The market's buildings of a type rule's type, costing at most its limit."""
    return [
        t
        for t in view.market
        if t is not None and TILES[t].building == rule.kind and TILES[t].cost <= rule.limit
    ]


def _type_buy(rule: PlanRule, view: SeatView) -> Buy | None:
    """The purchase a type rule makes: of the legal purchases of a building of its type whose
    payment is at most its limit (and which fits its cell), an exact payment first, then the
    cheapest building, the least paid, the fewest cards, the first slot, the lowest cards."""
    alhambra = None
    if isinstance(rule.place, tuple):
        assert view.seat is not None
        alhambra = view.alhambra(view.seat)
    best: tuple[tuple[int, ...], Buy] | None = None
    for a in view.legal:
        if not isinstance(a, Buy):
            continue
        tile = view.market[a.slot]
        if tile is None or TILES[tile].building != rule.kind:
            continue
        paid, cost = sum(CARDS[c].value for c in a.cards), TILES[tile].cost
        if paid > rule.limit or cost > rule.limit:
            continue
        if (
            alhambra is not None
            and isinstance(rule.place, tuple)
            and not alhambra.can_place(tile, rule.place)
        ):
            continue
        key = (int(paid != cost), cost, paid, len(a.cards), a.slot, *sorted(a.cards))
        if best is None or key < best[0]:
            best = (key, a)
    return None if best is None else best[1]


def cheapest_of(kind: int) -> int:
    """The price of the cheapest building of a type (a type rule's lowest sensible limit)."""
    return min(t.cost for t in TILES[1:] if t.building == kind)


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
    their own hand (one currency, covering the price), a cell code anywhere; or a type of the
    box and a price limit from its cheapest building's price to `MAX_LIMIT`."""
    if rule.kind is not None:
        if not 0 <= rule.kind < len(Building):
            return "bad_type"
        if rule.tile or rule.cards:
            return "bad_cards"
        if not max(MIN_LIMIT, cheapest_of(rule.kind)) <= rule.limit <= MAX_LIMIT:
            return "bad_limit"
        return None
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
    """What a plan did in its turn, for the player's DM: the plan, why the rules before the
    first that held did not hold, the moves it made (fewer if the player moved first), and
    whether the turn is still theirs (an action or a placement left to them, a turn waiting
    for its End turn or in its undo window)."""

    plan: Plan
    skipped: tuple[tuple[int, Skipped], ...]
    steps: tuple[PlanStep, ...]
    turn_left: bool

    @property
    def exact(self) -> bool:
        """Its last move was a purchase paid exactly: an action is left, if the turn is not over."""
        last = self.steps[-1] if self.steps else None
        if last is None or not isinstance(last.move, Buy) or last.rule is None:
            return False
        tile = last.tile if last.tile is not None else self.plan.rules[last.rule].tile
        cost = TILES[tile].cost
        return sum(CARDS[c].value for c in last.move.cards) == cost
