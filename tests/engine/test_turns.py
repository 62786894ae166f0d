"""Setup and the turn machinery (RULES.md sections 2 and 3): undo, end of turn, pass, skip,
refills, the scoring cards in the deck, starting money and the start player."""

from __future__ import annotations

import pytest
from engine_helpers import (
    card_places,
    crown,
    dinar,
    dirham,
    ducat,
    expected_cards,
    game,
    put_on_deck,
    set_alhambra,
    set_hand,
    set_market,
    set_pool,
    set_reserve,
    total,
)

from engine import (
    CARDS,
    SCORING_CARD_1,
    SCORING_CARD_2,
    Buy,
    DeckReshuffled,
    EndTurn,
    GameStarted,
    GiveToDirk,
    IllegalAction,
    MarketRefilled,
    Pass,
    Passed,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    PoolRefilled,
    RemoveToReserve,
    ScoringCardDrawn,
    ScoringHeld,
    Skip,
    Skipped,
    Swap,
    TakeMoney,
    TurnEnded,
    TurnStarted,
    Undo,
    Undone,
    new_game,
)

POOL = [crown(1), dirham(2), dinar(3), ducat(4)]


def rigged(players: int = 3, seed: int = 2):
    """A turn where every kind of step is possible: money to take, exact and over payments,
    a removable building, a reserve building to build or swap in."""
    g = game(players, seed)
    seat = g.current_seat
    set_market(g, [7, 14, 22, 23])  # no walls; costs 8, 9, 9, 10
    set_pool(g, POOL)
    set_hand(g, seat, [crown(8), dirham(5), dirham(5, 1), dinar(9)])
    set_alhambra(g, seat, {(1, 0): 31, (0, 1): 32})
    set_reserve(g, seat, [41])
    return g, seat


def refused(g, action) -> str:
    before = g.to_json()
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    assert g.to_json() == before
    return str(info.value)


# --- undo -----------------------------------------------------------------------------------

FIRST_STEPS = [
    TakeMoney((crown(1), dirham(2))),
    Buy(0, (crown(8),)),  # exact
    Buy(1, (dirham(5), dirham(5, 1))),  # over
    RemoveToReserve(1, 0),
    PlaceFromReserve(41, -1, 0),
    Swap(41, 1, 0),
]


@pytest.mark.parametrize("step", FIRST_STEPS, ids=lambda a: a.kind)
def test_undo_of_a_first_step_restores_the_exact_previous_state(step):
    g, seat = rigged()
    before = g.to_json()
    g.apply(step)
    assert g.to_json() != before
    assert Undo() in g.legal_actions()
    events = g.apply(Undo())
    assert events == [Undone(seat, step)]
    assert g.to_json() == before


@pytest.mark.parametrize(
    "steps",
    [
        [Buy(0, (crown(8),)), Place(7, 2, 0)],  # placing during the extra action
        [Buy(0, (crown(8),)), PlaceInReserve(7)],
        [Buy(0, (crown(8),)), Buy(2, (dinar(9),)), Place(22, -1, 0)],
        [Buy(0, (crown(8),)), Buy(2, (dinar(9),)), TakeMoney((ducat(4),))],
        [Buy(0, (crown(8),)), RemoveToReserve(0, 1)],
        [Buy(0, (crown(8),)), PlaceFromReserve(41, -1, 0)],
        [Buy(0, (crown(8),)), Swap(41, 0, 1)],
        [Buy(1, (dirham(5), dirham(5, 1))), Place(14, 2, 0)],
    ],
    ids=lambda steps: "+".join(a.kind for a in steps),
)
def test_undo_of_a_later_step_restores_the_state_after_the_one_before(steps):
    g, _seat = rigged()
    states = [g.to_json()]
    for step in steps:
        g.apply(step)
        states.append(g.to_json())
    for expected in reversed(states[:-1]):
        g.apply(Undo())
        assert g.to_json() == expected
    assert Undo() not in g.legal_actions()
    assert "nothing to undo" in refused(g, Undo())


def test_undo_of_giving_to_dirk_restores_the_state():
    g, _seat = rigged(players=2)
    g.apply(Buy(1, (dirham(5), dirham(5, 1))))
    before = g.to_json()
    g.apply(GiveToDirk(14))
    assert g.dirk[-1] == 14
    g.apply(Undo())
    assert g.to_json() == before


def test_nothing_of_a_finished_turn_can_be_undone():
    g, seat = rigged()
    g.apply(TakeMoney((crown(1),)))
    g.apply(EndTurn())
    assert g.current_seat != seat
    assert Undo() not in g.legal_actions()
    assert "nothing to undo" in refused(g, Undo())


def test_redesign_steps_follow_the_building_rules_in_a_game():
    g, seat = rigged()
    set_reserve(g, seat, [12])  # a west wall: it cannot face the fountain's open side
    assert "wall" in refused(g, Swap(12, 1, 0))
    assert "wall" in refused(g, PlaceFromReserve(12, 2, 0))  # west wall against (1, 0)
    assert "corner" in refused(g, PlaceFromReserve(12, 2, 1))
    assert "fountain" in refused(g, RemoveToReserve(0, 0))
    assert "fountain" in refused(g, PlaceFromReserve(12, 0, 0))
    assert "not in your reserve" in refused(g, Swap(41, 1, 0))
    # Below the fountain its west wall faces an empty cell: that swap fits.
    assert [a for a in g.legal_actions() if isinstance(a, Swap)] == [Swap(12, 0, 1)]
    events = g.apply(RemoveToReserve(0, 1))
    assert g.reserve(seat) == (12, 32) and events[0].tile == 32
    assert g.phase == "confirm"


# --- end of turn, pass, skip ----------------------------------------------------------------


def test_end_turn_only_when_the_turn_is_complete():
    g, seat = rigged()
    assert EndTurn() not in g.legal_actions()
    assert "Take an action first" in refused(g, EndTurn())
    g.apply(Buy(0, (crown(8),)))  # exact: still in the action phase, a building waiting
    assert EndTurn() not in g.legal_actions()
    assert "Place the buildings" in refused(g, EndTurn())
    g.apply(Place(7, 2, 0))
    assert g.phase == "confirm"
    assert g.legal_actions() == [EndTurn(), Undo()]
    events = g.apply(EndTurn())
    assert events[0] == TurnEnded(seat)
    assert events[-1] == TurnStarted((seat + 1) % 3)
    assert g.current_seat == (seat + 1) % 3 and g.phase == "action"


def test_actions_after_the_action_phase_are_refused():
    g, _seat = rigged()
    g.apply(TakeMoney((crown(1),)))
    assert "end your turn" in refused(g, TakeMoney((dirham(2),)))
    assert "end your turn" in refused(g, RemoveToReserve(1, 0))


def test_pass_only_when_nothing_is_legal():
    g, seat = rigged()
    assert Pass() not in g.legal_actions()
    assert "only pass when" in refused(g, Pass())

    g = game(3, seed=2)
    seat = g.current_seat
    set_pool(g, [])
    set_hand(g, seat, [])
    assert g.alhambra(seat).tiles == {} and g.reserve(seat) == ()
    assert g.legal_actions() == [Pass()]
    events = g.apply(Pass())
    assert events[:2] == [Passed(seat), TurnEnded(seat)]
    assert len(g.pool) == 4  # the refill still happens
    assert g.current_seat == (seat + 1) % 3


def test_a_player_who_can_only_redesign_cannot_pass():
    g = game(3, seed=2)
    seat = g.current_seat
    set_pool(g, [])
    set_hand(g, seat, [])
    set_alhambra(g, seat, {(1, 0): 31})
    assert g.legal_actions() == [RemoveToReserve(1, 0)]
    assert "only pass" in refused(g, Pass())


def test_skip_discards_the_turn_and_moves_on():
    g, seat = rigged()
    hand = g.hand(seat)
    g.apply(Buy(0, (crown(8),)))
    assert Skip() not in g.legal_actions()
    events = g.apply(Skip())
    assert events[:2] == [Skipped(seat), TurnEnded(seat)]
    assert g.current_seat == (seat + 1) % 3
    assert g.hand(seat) == hand, "the skipped turn's purchase is taken back"
    assert 7 in g.market
    assert g.alhambra(seat).tiles == {(1, 0): 31, (0, 1): 32}


# --- refills --------------------------------------------------------------------------------


def _empty_the_deck(g) -> None:
    """Move the whole money deck to the discard pile (scoring cards set aside as if drawn)."""
    s = g.state
    s.discard.extend(c for c in s.deck if c < 108)
    s.scoring_aside.extend(c for c in s.deck if c >= 108)
    s.deck = []
    g.rig(s)


def test_the_spent_money_is_reshuffled_when_the_deck_runs_out():
    g, _seat = rigged()
    _empty_the_deck(g)
    spent = sorted(g.discard)
    g.apply(TakeMoney((crown(1), dirham(2))))
    events = g.apply(EndTurn())
    reshuffled = [e for e in events if isinstance(e, DeckReshuffled)]
    assert reshuffled == [DeckReshuffled(len(spent))]
    refill = next(e for e in events if isinstance(e, PoolRefilled))
    assert len(refill.cards) == 2 and set(refill.cards) <= set(spent)
    assert len(g.pool) == 4
    assert g.discard == ()
    assert sorted(g.deck + refill.cards) == spent
    assert card_places(g) == expected_cards(3)


def test_with_no_money_left_at_all_the_pool_stays_short():
    g, seat = rigged()
    s = g.state
    s.scoring_aside.extend(c for c in s.deck if c >= 108)
    s.hands[(seat + 1) % 3].extend(c for c in s.deck + s.discard if c < 108)
    s.deck, s.discard = [], []
    g.rig(s)
    g.apply(TakeMoney((crown(1), dirham(2))))
    events = g.apply(EndTurn())
    assert not any(isinstance(e, PoolRefilled | DeckReshuffled) for e in events)
    assert len(g.pool) == 2
    assert g.current_seat == (seat + 1) % 3


def test_a_scoring_card_drawn_in_a_refill_is_held_after_the_refill():
    g, seat = rigged()
    put_on_deck(g, [dinar(1), SCORING_CARD_1, dinar(2)])
    g.apply(TakeMoney((crown(1), dirham(2))))
    events = g.apply(EndTurn())
    kinds = [type(e) for e in events]
    assert kinds.index(ScoringCardDrawn) < kinds.index(PoolRefilled)
    assert kinds.index(PoolRefilled) < kinds.index(ScoringHeld)
    assert kinds.index(ScoringHeld) < kinds.index(TurnStarted)
    assert kinds[-1] is TurnStarted
    refill = events[kinds.index(PoolRefilled)]
    assert refill.cards == (dinar(1), dinar(2)), "the scoring card is set aside, drawing goes on"
    assert sorted(g.pool) == sorted([dinar(3), ducat(4), dinar(1), dinar(2)])
    assert g.scoring_cards_aside == (SCORING_CARD_1,)
    assert [r.round_no for r in g.scoring_rounds] == [1]
    assert g.current_seat == (seat + 1) % 3


def test_market_slots_are_refilled_slot_1_first():
    g, _seat = rigged()
    g.apply(Buy(0, (crown(8),)))
    g.apply(Buy(2, (dinar(9),)))
    g.apply(TakeMoney((ducat(4),)))
    g.apply(PlaceInReserve(7))
    g.apply(PlaceInReserve(22))
    top = g.supply[-2:]
    events = g.apply(EndTurn())
    refills = [e for e in events if isinstance(e, MarketRefilled)]
    assert refills == [MarketRefilled(0, top[1]), MarketRefilled(2, top[0])]
    assert events.index(refills[0]) > events.index(
        next(e for e in events if isinstance(e, PoolRefilled))
    )


# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_scoring_cards_lie_in_the_second_and_fourth_of_five_piles(players):
    for seed in range(12):
        g = new_game(players, seed)
        draw = list(reversed(g.deck))  # the deck is drawn from its end
        money = len(draw) - 2
        base, extra = divmod(money, 5)
        sizes = [base + (1 if k < extra else 0) for k in range(5)]
        first, second = draw.index(SCORING_CARD_1), draw.index(SCORING_CARD_2)
        # Pile 2 spans draws sizes[0] .. sizes[0] + sizes[1] (one more with the card in it).
        start_2 = sizes[0]
        assert start_2 <= first <= start_2 + sizes[1]
        start_4 = sizes[0] + sizes[1] + 1 + sizes[2]
        assert start_4 <= second <= start_4 + sizes[3]
        assert len(draw) == sum(sizes) + 2


def test_scoring_card_positions_vary_with_the_seed():
    positions = {list(reversed(new_game(4, seed).deck)).index(SCORING_CARD_1) for seed in range(20)}
    assert len(positions) > 5


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_starting_money_is_dealt_to_at_least_20_one_player_at_a_time(players):
    for seed in range(10):
        g = new_game(players, seed)
        started = g.setup_events()[0]
        assert isinstance(started, GameStarted)
        for seat, hand in enumerate(started.hands):
            assert total(hand) >= 20
            # Dealing stopped at the card that reached 20, in the order the cards were dealt.
            assert total(hand[:-1]) < 20
            assert started.hands[seat] == g.hand(seat)
        assert len(g.pool) == 4 and None not in g.market
        assert card_places(g) == expected_cards(players)


def _start_rule(hands) -> tuple[int, str]:
    fewest = min(len(h) for h in hands)
    by_cards = [s for s, h in enumerate(hands) if len(h) == fewest]
    if len(by_cards) == 1:
        return by_cards[0], "fewest cards"
    lowest = min(total(hands[s]) for s in by_cards)
    by_total = [s for s in by_cards if total(hands[s]) == lowest]
    if len(by_total) == 1:
        return by_total[0], "lowest total"
    return by_total[0], "earliest seat"


def test_start_player_tie_breaks():
    seen = set()
    for players in (2, 4, 6):
        for seed in range(120):
            g = new_game(players, seed)
            started = g.setup_events()[0]
            expected, why = _start_rule(started.hands)
            seen.add(why)
            assert started.start_seat == expected == g.current_seat
            assert g.setup_events()[1] == TurnStarted(expected)
    assert seen == {"fewest cards", "lowest total", "earliest seat"}, "every tie-break was tried"


def test_seats_follow_in_turn_order_from_the_start_player():
    g = new_game(4, seed=3)
    first = g.current_seat
    order = []
    for _ in range(5):
        order.append(g.current_seat)
        take = next(a for a in g.legal_actions() if isinstance(a, TakeMoney))
        g.apply(take)
        g.apply(EndTurn())
    assert order == [(first + k) % 4 for k in range(5)]


def test_the_same_seed_gives_the_same_game():
    assert new_game(5, 99).to_json() == new_game(5, 99).to_json()
    assert new_game(5, 99).to_json() != new_game(5, 100).to_json()
    g = new_game(5, 99)
    assert sorted(g.seating) == list(range(5))


def test_player_counts_outside_2_to_6_are_refused():
    for players in (1, 7):
        with pytest.raises(ValueError, match="2 to 6"):
            new_game(players, 0)


def test_starting_hands_cards_are_money():
    g = new_game(3, seed=1)
    for seat in range(3):
        assert all(c in range(108) and CARDS[c].value >= 1 for c in g.hand(seat))


def test_a_seat_view_shows_its_own_hand_and_only_sizes_of_the_rest():
    g = new_game(4, seed=8)
    seat = g.current_seat
    other = (seat + 1) % 4
    view = g.view(other)
    assert view.hand == tuple(sorted(g.hand(other)))
    assert [p.hand_size for p in view.table] == [len(g.hand(s)) for s in range(4)]
    assert view.deck_size == len(g.deck) and view.supply_size == len(g.supply)
    assert view.legal == (), "not this seat's decision"
    assert set(g.view(seat).legal) == set(g.legal_actions())
    assert g.view(None).hand == ()
    with pytest.raises(ValueError):
        g.view(4)


def test_a_snapshot_dict_shares_nothing_with_the_game() -> None:
    from engine import new_game

    game = new_game(3, 11)
    before = game.to_json()
    data = game.to_dict()
    data["state"]["hands"][0].append(999)
    data["state"]["pool"].clear()
    data["state"]["deck"].pop()
    assert game.to_json() == before
