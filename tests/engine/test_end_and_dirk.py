"""The end of the game (RULES.md section 6) and Dirk, the neutral third in two-player games
(section 7)."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_helpers import (
    building_places,
    crown,
    dirham,
    ducat,
    game,
    put_on_deck,
    set_hand,
    set_market,
    set_scores,
    set_supply,
    unclaimed,
)

from engine import (
    SCORING_CARD_1,
    SCORING_CARD_2,
    Buy,
    DirkDrew,
    EndTurn,
    GameEnded,
    GivenToDirk,
    GiveToDirk,
    IllegalAction,
    MarketDistributed,
    Place,
    PlaceInReserve,
    RemoveToReserve,
    ScoringHeld,
    Skip,
    TakeMoney,
    TurnStarted,
    new_game,
)

# Market of wall-less buildings: slot 1 pavilion (8), 2 seraglio (9), 3 arcades (9), 4 arcades (10).
MARKET = [7, 14, 22, 23]


def refused(g, action) -> str:
    before = g.to_json()
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    assert g.to_json() == before
    return str(info.value)


def near_the_end(players: int = 3, seed: int = 6, hands=None, supply=()):
    """The supply is empty (or holds `supply`) and the market full; `hands` maps offsets from the
    current seat (0 = current) to the cards they hold."""
    g = game(players, seed)
    seat = g.current_seat
    set_market(g, MARKET)
    set_supply(g, supply)
    for offset, cards in (hands or {}).items():
        set_hand(g, (seat + offset) % players, cards)
    return g, seat


def test_an_empty_supply_with_four_full_slots_does_not_end_the_game():
    g, seat = near_the_end()
    g.apply(TakeMoney((g.pool[0],)))
    events = g.apply(EndTurn())
    assert not g.is_over and not g.is_final_placement
    assert not any(isinstance(e, MarketDistributed) for e in events)
    assert g.current_seat == (seat + 1) % 3


def test_the_game_ends_when_a_slot_cannot_be_refilled():
    hands = {
        0: [ducat(9), ducat(2), crown(9)],
        1: [crown(3), dirham(4)],
        2: [dirham(4, 1)],
    }
    g, seat = near_the_end(hands=hands)
    a, b = (seat + 1) % 3, (seat + 2) % 3
    g.apply(Buy(3, (ducat(9), ducat(2))))
    g.apply(Place(23, 1, 0))
    events = g.apply(EndTurn())
    distributed = [e for e in events if isinstance(e, MarketDistributed)]
    assert distributed == [
        MarketDistributed(0, 7, seat),  # crowns: 9 against 3 and 0
        MarketDistributed(1, 14, None),  # dirhams: 4 and 4, a tie: nobody
        MarketDistributed(2, 22, None),  # dinars: nobody holds any
    ]
    assert events[-1] == TurnStarted(seat, final=True)
    assert g.market == (None, None, None, None)
    assert unclaimed(g) == (14, 22)
    assert g.is_final_placement and g.phase == "place" and g.current_seat == seat
    assert g.pending == (7,)
    # Final placement: a legal cell or the reserve, no redesign.
    legal = g.legal_actions()
    assert {type(x) for x in legal} == {Place, PlaceInReserve}
    assert "game has ended" in refused(g, RemoveToReserve(1, 0))
    assert "game has ended" in refused(g, TakeMoney((g.pool[0],)))
    g.apply(Place(7, 2, 0))
    assert g.phase == "confirm"
    events = g.apply(EndTurn())
    held = [e for e in events if isinstance(e, ScoringHeld)]
    assert [h.round_no for h in held] == [3]
    # One pavilion (7) and one arcades (23) for the seat: first place in both, 16 + 18.
    assert held[0].counts[seat] == (1, 0, 1, 0, 0, 0)
    assert held[0].counts[a] == held[0].counts[b] == (0,) * 6
    assert g.is_over and g.current_seat is None and g.legal_actions() == []
    assert g.scores[seat] == 16 + 18
    assert isinstance(events[-1], GameEnded)
    assert events[-1].winners == (seat,) and g.winners == (seat,)
    assert "over" in refused(g, EndTurn())


def test_final_placements_follow_turn_order_from_the_next_seat():
    hands = {0: [ducat(9), ducat(1)], 1: [dirham(9)], 2: [crown(9)]}
    g, seat = near_the_end(hands=hands)
    g.apply(Buy(3, (ducat(9), ducat(1))))  # exact: another action is allowed
    g.apply(PlaceInReserve(23))
    events = g.apply(EndTurn())
    assert [(e.slot, e.seat) for e in events if isinstance(e, MarketDistributed)] == [
        (0, (seat + 2) % 3),
        (1, (seat + 1) % 3),
        (2, None),
    ]
    assert events[-1] == TurnStarted((seat + 1) % 3, final=True)
    assert g.pending == (14,)
    g.apply(PlaceInReserve(14))
    events = g.apply(EndTurn())
    assert events[-1] == TurnStarted((seat + 2) % 3, final=True)
    assert g.pending == (7,)
    # A skipped final placement puts the building in the reserve.
    g.apply(Skip())
    assert g.reserve((seat + 2) % 3) == (7,)
    assert g.is_over


def test_a_scoring_card_from_the_last_refill_is_held_before_the_end():
    g, _seat = near_the_end(hands={0: [ducat(9), ducat(1)]})
    put_on_deck(g, [SCORING_CARD_1])
    g.apply(Buy(3, (ducat(9), ducat(1))))  # exact, so money can be taken too
    g.apply(TakeMoney((g.pool[0],)))
    g.apply(PlaceInReserve(23))
    events = g.apply(EndTurn())
    kinds = [type(e) for e in events]
    assert kinds.index(ScoringHeld) < kinds.index(MarketDistributed)
    assert g.scoring_rounds[0].round_no == 1


def test_equal_totals_share_the_win():
    g, _seat = near_the_end(hands={0: [ducat(9), ducat(2)], 1: [], 2: []})
    set_scores(g, [10, 10, 4])
    g.apply(Buy(3, (ducat(9), ducat(2))))
    g.apply(PlaceInReserve(23))  # the reserve scores nothing
    events = g.apply(EndTurn())
    assert [e.seat for e in events if isinstance(e, MarketDistributed)] == [None, None, None]
    assert g.is_over
    assert g.scores == (10, 10, 4)
    assert g.ranks == (1, 1, 3)
    assert g.winners == (0, 1)
    assert events[-1] == GameEnded((10, 10, 4), (1, 1, 3), (0, 1))
    assert g.ranking() == [(1, 0, 10), (1, 1, 10), (3, 2, 4)]


# --- Dirk -----------------------------------------------------------------------------------


def test_dirk_takes_6_buildings_at_setup():
    for seed in range(5):
        g = new_game(2, seed)
        assert g.dirk is not None and len(g.dirk) == len(set(g.dirk)) == 6
        assert len(g.supply) == 54 - 4 - 6
        assert g.setup_events()[0].dirk == g.dirk
        assert building_places(g) == Counter(range(1, 55))
    assert new_game(3, 0).dirk is None


def _score_now(g, card):
    put_on_deck(g, [card])
    g.apply(TakeMoney((g.pool[0],)))
    return g.apply(EndTurn())


def test_dirk_takes_6_after_the_first_scoring_and_a_third_after_the_second():
    g = game(2, seed=3)
    supply = g.supply
    events = _score_now(g, SCORING_CARD_1)
    drew = [e for e in events if isinstance(e, DirkDrew)]
    assert drew == [DirkDrew(tuple(reversed(supply[-6:])))]
    assert events.index(drew[0]) > events.index(
        next(e for e in events if isinstance(e, ScoringHeld))
    )
    assert len(g.dirk) == 12 and len(g.supply) == 44 - 6
    # Shrink the supply to 20 so that a third is rounded down: 6.
    set_supply(g, g.supply[-20:])
    events = _score_now(g, SCORING_CARD_2)
    drew = [e for e in events if isinstance(e, DirkDrew)]
    assert len(drew) == 1 and len(drew[0].tiles) == 6
    assert len(g.dirk) == 18 and len(g.supply) == 14


def test_dirk_draws_nothing_at_the_final_scoring():
    g, _seat = near_the_end(players=2, hands={0: [ducat(9), ducat(2)], 1: []})
    dirk = g.dirk
    g.apply(Buy(3, (ducat(9), ducat(2))))
    g.apply(PlaceInReserve(23))
    events = g.apply(EndTurn())
    assert g.is_over
    assert g.dirk == dirk
    assert not any(isinstance(e, DirkDrew) for e in events)


def test_give_to_dirk_only_with_two_players():
    # One building left in the supply keeps the game going after the purchase.
    g, seat = near_the_end(players=2, hands={0: [ducat(9), ducat(2)]}, supply=[41])
    g.apply(Buy(3, (ducat(9), ducat(2))))
    assert GiveToDirk(23) in g.legal_actions()
    assert g.apply(GiveToDirk(23)) == [GivenToDirk(seat, 23)]
    assert g.dirk[-1] == 23

    g3, _seat3 = near_the_end(players=3, hands={0: [ducat(9), ducat(2)]})
    g3.apply(Buy(3, (ducat(9), ducat(2))))
    assert not any(isinstance(x, GiveToDirk) for x in g3.legal_actions())
    assert "two-player" in refused(g3, GiveToDirk(23))


def test_no_giving_to_dirk_in_the_final_placement():
    g, seat = near_the_end(players=2, hands={0: [ducat(9), ducat(2), crown(9)], 1: []})
    g.apply(Buy(3, (ducat(9), ducat(2))))
    g.apply(PlaceInReserve(23))
    g.apply(EndTurn())
    assert g.is_final_placement and g.current_seat == seat and g.pending == (7,)
    assert not any(isinstance(x, GiveToDirk) for x in g.legal_actions())
    assert "Dirk" in refused(g, GiveToDirk(7))


def test_dirk_points_are_never_recorded_in_a_whole_game():
    g = new_game(2, seed=21)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert len(g.scores) == 2 and len(g.ranks) == 2
    assert len(g.scoring_rounds) == 3
    for held in g.scoring_rounds:
        assert [r.seat for r in held.rows] == [0, 1]
        assert len(held.counts) == 3  # the two seats, then Dirk
