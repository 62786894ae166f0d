"""Plans, pure: the first rule that holds buys, with its reason for every rule passed over; an
exact payment keeps its extra action for the next rule that holds or the fallback, and the
buildings go where their rules said once no action is left; a fallback takes money; nothing is
played when nothing holds and the plan waits; and what a plan does depends on the player's own
view only, so hidden information (the others' hands, the order of the money deck and of the
buildings still to come) never changes it."""

from __future__ import annotations

import json
import random

from bot.core.plans import (
    Plan,
    PlanRule,
    PlanStep,
    next_step,
    rule_problem,
    skipped_rules,
)
from engine import (
    CARDS,
    TILES,
    Buy,
    Game,
    Place,
    PlaceInReserve,
    TakeMoney,
    Undo,
    minimal_payments,
    new_game,
)


def _play(plan: Plan, game: Game, seat: int) -> list[PlanStep]:
    """What the plan does in the seat's turn, move after move, as the turn flow plays it
    (it stops where the turn would wait for its confirmation)."""
    steps: list[PlanStep] = []
    while len(steps) < 8 and (step := next_step(plan, game.view(seat), steps)) is not None:
        assert step.move in game.legal_actions()
        game.apply(step.move)
        steps.append(step)
        if game.current_seat != seat or game.phase == "confirm":
            break
    return steps


def _random_moves(game: Game, rng: random.Random, count: int) -> None:
    for _ in range(count):
        game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Undo)]))


def _until_turn_of(game: Game, seat: int, rng: random.Random) -> None:
    while game.current_seat != seat and not game.is_over:
        _random_moves(game, rng, 1)


def _a_plan(game: Game, seat: int, rng: random.Random) -> Plan:
    """Rules made from the seat's own view: buildings of the market it can pay for."""
    view = game.view(seat)
    rules = []
    for slot, tile in enumerate(view.market):
        if tile is None:
            continue
        for cards in minimal_payments(view.hand, slot, TILES[tile].cost)[:1]:
            place = rng.choice([None, "reserve", *view.alhambra(seat).legal_cells(tile)[:2]])
            rules.append(PlanRule(tile, tuple(sorted(cards)), place))
    rng.shuffle(rules)
    return Plan(tuple(rules[:3]), rng.choice(["wait", "most"]))


def _other_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game for `seat`'s eyes, with everything it cannot see changed: cards swapped
    between the other hands and the money deck, the deck and the buildings to come shuffled."""
    data = json.loads(game.to_json())
    for part in ("state", "turn_start"):
        state = data[part]
        for other, hand in enumerate(state["hands"]):
            if other == seat:
                continue
            for i in range(len(hand)):
                if state["deck"]:
                    j = rng.randrange(len(state["deck"]))
                    hand[i], state["deck"][j] = state["deck"][j], hand[i]
        rng.shuffle(state["deck"])
        rng.shuffle(state["supply"])
    return Game.from_json(json.dumps(data))


def test_what_a_plan_does_depends_on_the_players_own_view_only() -> None:
    played = waited = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = new_game(3, seed)
        _random_moves(game, rng, rng.randrange(0, 40))
        assert game.current_seat is not None
        seat = (game.current_seat + 1) % 3
        plan = _a_plan(game, seat, rng)
        _until_turn_of(game, seat, rng)
        if game.is_over:
            continue
        twin = _other_hidden(game, seat, rng)
        assert twin.view(seat) == game.view(seat)
        assert twin.to_json() != game.to_json()  # something hidden did change
        assert skipped_rules(plan, twin.view(seat)) == skipped_rules(plan, game.view(seat))
        steps = _play(plan, game, seat)
        assert _play(plan, twin, seat) == steps
        played += bool(steps)
        waited += not steps
    assert played and waited  # both kinds of outcome were met


def _purchase(seeds: range, exact: bool | None = None):
    """(game, seat, tile, payment) for a seat to move that can pay for the building of a slot
    (exactly, if `exact`)."""
    for seed in seeds:
        game = new_game(2, seed)
        rng = random.Random(seed)
        for _ in range(30):
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            if view.phase == "action" and not view.actions_this_turn:
                for slot, tile in enumerate(view.market):
                    if tile is None:
                        continue
                    for pay in minimal_payments(view.hand, slot, TILES[tile].cost):
                        paid = sum(CARDS[c].value for c in pay) == TILES[tile].cost
                        if exact is None or paid == exact:
                            return game, seat, tile, tuple(sorted(pay))
            _random_moves(game, rng, 1)
    raise AssertionError("no such purchase found")


def test_the_first_rule_that_holds_buys_and_the_ones_before_say_why_not() -> None:
    game, seat, tile, pay = _purchase(range(100), exact=False)
    view = game.view(seat)
    absent = next(t for t in range(1, len(TILES)) if t not in view.market)
    slot = view.market.index(tile)
    plan = Plan((PlanRule(absent, pay), PlanRule(tile, pay, "reserve")))
    assert skipped_rules(plan, view) == ((0, "gone"),)
    steps = _play(plan, game, seat)
    assert isinstance(steps[0].move, Buy) and steps[0].rule == 1
    assert view.market[steps[0].move.slot] == tile
    assert steps[1] == PlanStep(PlaceInReserve(tile), 1) and len(steps) == 2
    other = next((c for c in view.hand if CARDS[c].currency != slot), None)
    if other is not None:  # paid in another currency than the slot's
        assert rule_problem(PlanRule(tile, (other,)), view) == "currency"
    cheap = next((c for c in view.hand if CARDS[c].currency == slot), None)
    if cheap is not None and CARDS[cheap].value < TILES[tile].cost:
        assert rule_problem(PlanRule(tile, (cheap,)), view) == "short"
    assert rule_problem(PlanRule(tile, pay, (0, 0)), view) == "cell"  # the fountain's cell
    cell = view.alhambra(seat).legal_cells(tile)[0]
    again, _, _, _ = _purchase(range(100), exact=False)
    placed = _play(Plan((PlanRule(tile, pay, cell),)), again, seat)
    assert placed[-1] == PlanStep(Place(tile, *cell), 0)


def test_an_exact_payment_keeps_its_extra_action_for_the_plan() -> None:
    game, seat, tile, pay = _purchase(range(200), exact=True)
    waits = Plan((PlanRule(tile, pay, "reserve"),))  # nothing for the extra action: it is theirs
    steps = _play(waits, Game.from_json(game.to_json()), seat)
    assert [type(s.move) for s in steps] == [Buy]
    takes = Plan((PlanRule(tile, pay, "reserve"),), "most")  # the extra action takes money
    steps = _play(takes, game, seat)
    assert [type(s.move) for s in steps] == [Buy, TakeMoney, PlaceInReserve]
    assert steps[1].rule is None and steps[2] == PlanStep(PlaceInReserve(tile), 0)


def test_without_a_rule_that_holds_it_waits_or_takes_money() -> None:
    game, seat, _, pay = _purchase(range(100))
    view = game.view(seat)
    absent = next(t for t in range(1, len(TILES)) if t not in view.market)
    rules = (PlanRule(absent, pay),)
    assert next_step(Plan(rules), view) is None
    most = next_step(Plan(rules, "most"), view)
    takes = [a for a in view.legal if isinstance(a, TakeMoney)]
    best = max(sum(CARDS[c].value for c in a.cards) for a in takes)
    assert most is not None and isinstance(most.move, TakeMoney) and most.rule is None
    assert sum(CARDS[c].value for c in most.move.cards) == best
    # named money matches by what the cards are, whichever copy the pool holds
    card = view.pool[0]
    face = (CARDS[card].currency, CARDS[card].value)
    twin = next(
        c for c in range(len(CARDS)) if c != card and (CARDS[c].currency, CARDS[c].value) == face
    )
    named = next_step(Plan(rules, (twin,)), view)
    assert named is not None and isinstance(named.move, TakeMoney)
    assert [(CARDS[c].currency, CARDS[c].value) for c in named.move.cards] == [face]
    assert Plan.from_json(Plan(rules, (twin,)).to_json()) == Plan(rules, (twin,))
