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
#: change between one's turns, but a plan is checked, not trusted); the cell does not take it
Skipped = Literal["gone", "currency", "short", "cards", "cell"]


@dataclass(frozen=True)
class PlanStep:
    """One move a plan makes, and the rule it belongs to (None: the fallback)."""

    move: Action
    rule: int | None


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


def skipped_rules(plan: Plan, view: SeatView) -> tuple[tuple[int, Skipped], ...]:
    """Why each rule before the first that holds does not hold, at the start of the turn."""
    out: list[tuple[int, Skipped]] = []
    for index, rule in enumerate(plan.rules):
        problem = rule_problem(rule, view)
        if problem is None and _legal_buy(rule, view) is not None:
            break
        out.append((index, problem or "cards"))  # "cards": the engine says no to the payment
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
                return PlanStep(buy, index)
        took = any(step.rule is None for step in done)
        if not took and (take := _fallback(plan.otherwise, view)) is not None:
            return PlanStep(take, None)
        if view.phase == "action" and not took:
            return None  # an action is left and the plan says nothing of it: the player's
    for step in done:
        if not isinstance(step.move, Buy) or step.rule is None:
            continue
        rule = plan.rules[step.rule]
        if rule.tile not in view.pending:
            continue  # placed already
        place: Action | None = None
        if isinstance(rule.place, tuple):
            place = Place(rule.tile, *rule.place)
        elif rule.place == "reserve":
            place = PlaceInReserve(rule.tile)
        if place is None or place not in view.legal:
            return None  # the player places it (or the cell was taken by another building)
        return PlanStep(place, step.rule)
    return None


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
        cost = TILES[self.plan.rules[last.rule].tile].cost
        return sum(CARDS[c].value for c in last.move.cards) == cost
