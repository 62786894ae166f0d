"""Plans, pure: the first rule that holds is played, with its reason for every rule passed
over; a fallback takes money; nothing is played when nothing holds and the plan waits; and the
choice depends on the player's own view only, so hidden information (the others' hands, the
order of the money deck and of the buildings still to come) never changes what a plan does."""

from __future__ import annotations

import json
import random

from bot.core.plans import Plan, PlanRule, choose, rule_problem
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


def _waiting_position(seed: int) -> tuple[Game, int]:
    """A game some turns in, and a seat that is not to move."""
    game = new_game(3, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 40)):
        game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Undo)]))
    assert game.current_seat is not None
    return game, (game.current_seat + 1) % 3


def _until_turn_of(game: Game, seat: int, rng: random.Random) -> None:
    while game.current_seat != seat and not game.is_over:
        game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Undo)]))


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


def test_the_choice_depends_on_the_players_own_view_only() -> None:
    played = waited = 0
    for seed in range(40):
        rng = random.Random(seed)
        game, seat = _waiting_position(seed)
        plan = _a_plan(game, seat, rng)
        _until_turn_of(game, seat, rng)
        if game.is_over:
            continue
        twin = _other_hidden(game, seat, rng)
        assert twin.view(seat) == game.view(seat)
        assert twin.to_json() != game.to_json()  # something hidden did change
        choice = choose(plan, game.view(seat))
        assert choose(plan, twin.view(seat)) == choice
        played += bool(choice.moves)
        waited += not choice.moves
        for move in choice.moves:  # and what it chooses is legal, move after move
            assert move in game.legal_actions()
            game.apply(move)
    assert played and waited  # both kinds of outcome were met


def _position_with_a_purchase() -> tuple[Game, int, int, tuple[int, ...]]:
    """A seat to move that can buy the building of some slot: (game, seat, tile, payment)."""
    for seed in range(100):
        game = new_game(2, seed)
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        for slot, tile in enumerate(view.market):
            if tile is not None and (pays := minimal_payments(view.hand, slot, TILES[tile].cost)):
                return game, seat, tile, tuple(sorted(pays[0]))
    raise AssertionError("no purchase found")


def test_the_first_rule_that_holds_plays_and_the_ones_before_say_why_not() -> None:
    game, seat, tile, pay = _position_with_a_purchase()
    view = game.view(seat)
    absent = next(t for t in range(1, len(TILES)) if t not in view.market)
    slot = view.market.index(tile)
    other = (
        next(c for c in range(len(CARDS)) if CARDS[c].currency != slot and c in view.hand)
        if any(CARDS[c].currency != slot for c in view.hand)
        else None
    )
    rules = [PlanRule(absent, pay), PlanRule(tile, pay, "reserve")]
    choice = choose(Plan(tuple(rules)), view)
    assert choice.rule == 1 and choice.skipped == ((0, "gone"),)
    assert isinstance(choice.moves[0], Buy) and view.market[choice.moves[0].slot] == tile
    assert choice.moves[1] == PlaceInReserve(tile)
    if other is not None:  # paid in another currency than the slot's
        assert rule_problem(PlanRule(tile, (other,)), view) == "currency"
    cheap = next((c for c in view.hand if CARDS[c].currency == slot), None)
    if cheap is not None and CARDS[cheap].value < TILES[tile].cost:
        assert rule_problem(PlanRule(tile, (cheap,)), view) == "short"
    occupied = PlanRule(tile, pay, (0, 0))  # the fountain's cell
    assert rule_problem(occupied, view) == "cell"
    cell = view.alhambra(seat).legal_cells(tile)[0]
    placed = choose(Plan((PlanRule(tile, pay, cell),)), view)
    assert placed.moves[1] == Place(tile, *cell)


def test_without_a_rule_that_holds_it_waits_or_takes_money() -> None:
    game, seat, _, pay = _position_with_a_purchase()
    view = game.view(seat)
    absent = next(t for t in range(1, len(TILES)) if t not in view.market)
    rules = (PlanRule(absent, pay),)
    assert choose(Plan(rules), view).moves == ()
    most = choose(Plan(rules, "most"), view)
    takes = [a for a in view.legal if isinstance(a, TakeMoney)]
    best = max(sum(CARDS[c].value for c in a.cards) for a in takes)
    assert isinstance(most.moves[0], TakeMoney)
    assert sum(CARDS[c].value for c in most.moves[0].cards) == best
    # named money matches by what the cards are, whichever copy the pool holds
    card = view.pool[0]
    twin = next(
        c
        for c in range(len(CARDS))
        if c != card
        and (CARDS[c].currency, CARDS[c].value) == (CARDS[card].currency, CARDS[card].value)
    )
    named = choose(Plan(rules, (twin,)), view)
    assert named.moves == (TakeMoney((card,)),) or sorted(named.moves[0].cards) == [card]  # type: ignore[union-attr]
    assert Plan.from_json(Plan(rules, (twin,)).to_json()) == Plan(rules, (twin,))
