"""Taking money and buying buildings (RULES.md section 3, actions A and B)."""

from __future__ import annotations

import itertools

import pytest
from engine_helpers import (
    crown,
    dinar,
    dirham,
    ducat,
    game,
    set_alhambra,
    set_hand,
    set_market,
    set_pool,
    set_reserve,
)
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    CARDS,
    TILES,
    BuildingBought,
    BuildingPlaced,
    BuildingReserved,
    Buy,
    EndTurn,
    IllegalAction,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    Swap,
    TakeMoney,
    Undo,
    minimal_payments,
)

# Buildings without walls, so they fit anywhere next to the fountain: tile (cost).
PAVILION_8, SERAGLIO_9, ARCADES_9, ARCADES_10 = 7, 14, 22, 23


def rigged(hand=(), pool=None, market=(PAVILION_8, SERAGLIO_9, ARCADES_9, ARCADES_10)):
    g = game(3, seed=5)
    seat = g.current_seat
    set_market(g, market)
    set_hand(g, seat, hand)
    if pool is not None:
        set_pool(g, pool)
    return g, seat


def refused(g, action) -> str:
    """Apply an action that must be refused; check nothing changed and return the message."""
    before = g.to_json()
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    assert g.to_json() == before
    return str(info.value)


# --- taking money ---------------------------------------------------------------------------


def test_a_take_of_3_plus_3_is_refused():
    g, _seat = rigged(pool=[crown(3), dirham(3), dinar(1), ducat(2)])
    message = refused(g, TakeMoney((crown(3), dirham(3))))
    assert "5" in message and "3 + 3 = 6" in message
    assert TakeMoney((crown(3), dirham(3))) not in g.legal_actions()


def test_a_take_of_1_1_1_2_is_accepted():
    pool = [crown(1), dirham(1), dinar(1), ducat(2)]
    g, seat = rigged(pool=pool)
    assert TakeMoney(tuple(pool)) in g.legal_actions()
    g.apply(TakeMoney(tuple(pool)))
    assert sorted(g.hand(seat)) == sorted(pool)
    assert g.pool == ()
    assert g.phase == "confirm"


def test_taking_nothing_is_refused():
    g, _seat = rigged(pool=[crown(1), dirham(1), dinar(1), ducat(2)])
    assert "nothing" in refused(g, TakeMoney(()))


def test_a_single_9_is_accepted():
    g, seat = rigged(pool=[crown(9), dirham(8), dinar(1), ducat(2)])
    g.apply(TakeMoney((crown(9),)))
    assert g.hand(seat) == (crown(9),)
    assert sorted(g.pool) == sorted([dirham(8), dinar(1), ducat(2)])


def test_taking_a_card_that_is_not_in_the_pool_is_refused():
    g, _seat = rigged(pool=[crown(1), dirham(1), dinar(1), ducat(2)])
    assert "pool" in refused(g, TakeMoney((crown(2),)))
    assert "pool" in refused(g, TakeMoney((crown(1), crown(1))))


def test_take_choices_list_each_combination_once():
    # Two cards of the same currency and value are the same choice.
    g, _seat = rigged(pool=[crown(1), crown(1, 1), dinar(4), ducat(2)])
    takes = [a for a in g.legal_actions() if isinstance(a, TakeMoney)]
    kinds = [tuple(sorted((CARDS[c].currency, CARDS[c].value) for c in a.cards)) for a in takes]
    assert len(kinds) == len(set(kinds))
    values = sorted(tuple(sorted(CARDS[c].value for c in a.cards)) for a in takes)
    # Singles 1, 4, 2; pairs 1+1, 1+4, 1+2; triples 1+1+2 (1+4+... and 4+2 exceed 5).
    assert values == sorted([(1,), (4,), (2,), (1, 1), (1, 4), (1, 2), (1, 1, 2)])


# --- buying ---------------------------------------------------------------------------------


def test_a_payment_mixing_currencies_is_refused():
    g, _seat = rigged(hand=[crown(5), dirham(3), crown(1)])
    message = refused(g, Buy(0, (crown(5), dirham(3))))
    assert "crowns" in message and "dirham 3" in message


def test_an_underpayment_is_refused():
    g, _seat = rigged(hand=[crown(5), crown(2)])
    message = refused(g, Buy(0, (crown(5), crown(2))))
    assert "7" in message and "8" in message
    assert not [a for a in g.legal_actions() if isinstance(a, Buy)]


def test_paying_with_cards_not_in_hand_is_refused():
    g, _seat = rigged(hand=[crown(5)])
    assert "hand" in refused(g, Buy(0, (crown(5), crown(3))))
    assert "hand" in refused(g, Buy(0, (crown(5), crown(5))))


def test_buying_from_an_empty_or_missing_slot_is_refused():
    g, _seat = rigged(hand=[crown(9)], market=(None, SERAGLIO_9, ARCADES_9, ARCADES_10))
    assert "empty" in refused(g, Buy(0, (crown(9),)))
    assert "four slots" in refused(g, Buy(4, (crown(9),)))


def test_an_exact_payment_gives_another_action():
    g, seat = rigged(hand=[crown(8), dirham(2)], pool=[crown(1), dirham(1), dinar(1), ducat(2)])
    events = g.apply(Buy(0, (crown(8),)))
    assert events == [BuildingBought(seat, 0, PAVILION_8, (crown(8),), exact=True)]
    assert g.phase == "action" and g.current_seat == seat
    assert g.pending == (PAVILION_8,)
    legal = g.legal_actions()
    assert any(isinstance(a, TakeMoney) for a in legal)
    assert any(isinstance(a, Place) for a in legal)  # or stop and place now
    assert EndTurn() not in legal
    g.apply(TakeMoney((crown(1),)))
    assert g.phase == "place"


def test_three_chained_purchases_are_placed_at_the_end_in_a_chosen_order():
    hand = [crown(8), dirham(9), dinar(5), dinar(5, 1)]
    g, seat = rigged(hand=hand)
    bought = [
        g.apply(Buy(0, (crown(8),)))[0],
        g.apply(Buy(1, (dirham(9),)))[0],
        g.apply(Buy(2, (dinar(5), dinar(5, 1))))[0],
    ]
    assert [(e.tile, e.exact) for e in bought] == [
        (PAVILION_8, True),
        (SERAGLIO_9, True),
        (ARCADES_9, False),  # 10 for a cost of 9: the action phase is over
    ]
    assert g.phase == "place"
    assert g.pending == (PAVILION_8, SERAGLIO_9, ARCADES_9)
    assert g.alhambra(seat).tiles == {}
    # Chosen order: the last bought first, then one on a cell it opened, then the reserve.
    assert (2, 0) not in g.alhambra(seat).legal_positions(PAVILION_8)
    events = g.apply(Place(ARCADES_9, 1, 0))
    events += g.apply(Place(PAVILION_8, 2, 0))
    assert g.phase == "place"
    events += g.apply(PlaceInReserve(SERAGLIO_9))
    assert events == [
        BuildingPlaced(seat, ARCADES_9, 1, 0),
        BuildingPlaced(seat, PAVILION_8, 2, 0),
        BuildingReserved(seat, SERAGLIO_9),
    ]
    assert g.phase == "confirm"
    assert g.alhambra(seat).tiles == {(1, 0): ARCADES_9, (2, 0): PAVILION_8}
    assert g.reserve(seat) == (SERAGLIO_9,)
    assert g.hand(seat) == ()
    g.apply(EndTurn())
    assert g.current_seat == (seat + 1) % 3


def test_a_non_exact_payment_ends_the_action_phase():
    g, _seat = rigged(hand=[crown(9), crown(1)], pool=[crown(1), dirham(1), dinar(1), ducat(2)])
    g.apply(Buy(0, (crown(9),)))
    assert g.phase == "place"
    assert {type(a) for a in g.legal_actions()} == {Place, PlaceInReserve, Undo}
    assert "place the buildings you bought" in refused(g, TakeMoney((crown(1),)))
    assert "place the buildings you bought" in refused(g, Buy(1, (crown(1),)))
    assert "Place the buildings" in refused(g, EndTurn())


def test_minimal_payments_listing():
    hand = [crown(1), crown(2), crown(3), crown(3, 1), crown(4), crown(6), dirham(9)]
    g, _seat = rigged(hand=hand)  # slot 1 holds the pavilion costing 8
    listed = [a.cards for a in g.legal_actions() if isinstance(a, Buy) and a.slot == 0]
    values = [tuple(sorted(CARDS[c].value for c in p)) for p in listed]
    # No duplicates (same values from other copies), all crowns from the hand, all covering.
    assert len(set(values)) == len(values)
    for p in listed:
        assert set(p) <= set(hand)
        assert all(CARDS[c].currency == CARDS[crown(1)].currency for c in p)
        assert sum(CARDS[c].value for c in p) >= 8
        # Not dominated: no card can be dropped while still covering the cost.
        assert all(sum(CARDS[c].value for c in p) - CARDS[c].value < 8 for c in p)
    # Exact payments first.
    exact = [sum(v) == 8 for v in values]
    assert exact == sorted(exact, reverse=True)
    assert any(exact) and not all(exact)
    # Complete: every minimal payment (by values) is listed.
    crowns = [CARDS[c].value for c in hand if c != dirham(9)]
    minimal = {
        tuple(sorted(combo))
        for n in range(1, len(crowns) + 1)
        for combo in itertools.combinations(crowns, n)
        if sum(combo) >= 8 and sum(combo) - min(combo) < 8
    }
    assert set(values) == minimal


def test_a_legal_over_payment_is_accepted_even_if_not_listed():
    hand = [crown(6), crown(4), crown(3)]
    g, seat = rigged(hand=hand)
    buy = Buy(0, tuple(hand))  # 13 for a cost of 8: the 3 could be dropped
    assert buy not in g.legal_actions()
    events = g.apply(buy)
    assert events[0].exact is False
    assert g.hand(seat) == ()
    assert g.phase == "place"


@given(st.dictionaries(st.integers(1, 9), st.integers(1, 3), max_size=4), st.integers(1, 13))
def test_minimal_payments_matches_brute_force(copies, cost):
    values = [v for v, n in copies.items() for _ in range(n)]
    hand = [crown(v, copy) for v, n in copies.items() for copy in range(n)]
    hand += [dirham(5), ducat(9)]  # other currencies never take part
    found = minimal_payments(hand, 0, cost)
    as_values = [tuple(sorted(CARDS[c].value for c in p)) for p in found]
    assert len(set(as_values)) == len(as_values)
    brute = {
        tuple(sorted(combo))
        for n in range(1, len(values) + 1)
        for combo in itertools.combinations(values, n)
        if sum(combo) >= cost and sum(combo) - min(combo) < cost
    }
    assert set(as_values) == brute
    assert all(set(p) <= set(hand) for p in found)
    overs = [sum(v) - cost for v in as_values]
    assert overs == sorted(overs)


# --- bought buildings and redesigns ---------------------------------------------------------


def test_a_bought_building_is_never_usable_in_a_redesign():
    g, seat = rigged(hand=[crown(8), crown(1)])
    set_alhambra(g, seat, {(1, 0): 31})
    set_reserve(g, seat, [32])
    g.apply(Buy(0, (crown(8),)))  # exact: the action phase goes on
    assert g.phase == "action"
    legal = g.legal_actions()
    redesigns = [a for a in legal if isinstance(a, PlaceFromReserve | Swap)]
    assert redesigns, "the reserve building can still be used"
    assert all(a.tile != PAVILION_8 for a in redesigns)
    assert "bought this turn" in refused(g, PlaceFromReserve(PAVILION_8, 0, 1))
    assert "bought this turn" in refused(g, Swap(PAVILION_8, 1, 0))
    # The reserve building is fine.
    g.apply(Swap(32, 1, 0))
    assert g.alhambra(seat).tiles == {(1, 0): 32}
    assert sorted(g.reserve(seat)) == [31]


def test_placing_a_building_not_waiting_is_refused():
    g, _seat = rigged(hand=[crown(9)])
    assert "no bought building" in refused(g, Place(PAVILION_8, 1, 0))
    g.apply(Buy(0, (crown(9),)))
    message = refused(g, Place(SERAGLIO_9, 1, 0))
    assert "not waiting" in message and "pavilion (8)" in message
    assert TILES[PAVILION_8].cost == 8
