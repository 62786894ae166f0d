"""Why a level makes a move: `engine.ai.reason_for` names the main motive of an action from the
valuation's own parts, on positions built to have one, and stays consistent over whole games."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Buy, EndTurn, Place, TakeMoney, Undo
from engine.ai import REASON_CODES, Reason, advise, make_player, reason_for
from engine.ai.easy import view_counts
from engine.catalogue import CARD_CURRENCY, CARD_VALUE, TILE_COST, TILE_TYPE, Building
from engine.dealing import new_game
from engine.view import SeatView

TOWER = int(Building.TOWER)


def _opening() -> SeatView:
    """Three players, seed 7: seat 1 to move, holding CR3, CR5, DH7 and DN7; the market is a
    Garden (11, crowns), a Garden (8, dirhams), a Tower (7, dinars: payable exactly with the DN7)
    and Chambers (9, ducats); the pool holds CR3, DH2, DU3 and DN6."""
    view = new_game(3, 7).view(1)
    assert view.market == (42, 37, 44, 29) and view.hand == (7, 12, 46, 74)
    return view


def _with_towers(view: SeatView, mine: int, theirs: int) -> SeatView:
    table = []
    for p in view.table:
        counts = list(p.counts)
        counts[TOWER] = mine if p.seat == view.seat else theirs
        table.append(dataclasses.replace(p, counts=tuple(counts)))
    return dataclasses.replace(view, table=tuple(table))


BUY_TOWER = Buy(slot=2, cards=(74,))


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        (0, 0, Reason("majority_take", building=TOWER)),
        (1, 1, Reason("majority_take", building=TOWER)),
        (2, 1, Reason("majority_keep", building=TOWER)),
        (0, 1, Reason("majority_tie", building=TOWER)),
        # a safe lead, or a lead out of reach: the Tower's points matter less than the extra
        # action its exact payment (the DN7) earns, and the reason says so
        (2, 0, Reason("exact_extra", building=TOWER)),
        (0, 3, Reason("exact_extra", building=TOWER)),
    ],
)
def test_a_purchase_names_what_it_does_to_the_majority(
    mine: int, theirs: int, expected: Reason
) -> None:
    view = _with_towers(_opening(), mine, theirs)
    assert BUY_TOWER in view.legal
    assert reason_for(view, BUY_TOWER) == expected


def test_money_names_the_building_it_opens() -> None:
    view = _opening()
    # CR3 + CR5 + CR3 = 11: the crowns Garden exactly
    assert reason_for(view, TakeMoney((8,))) == Reason("money_exact", tile=42)
    # DH7 + DH2 = 9: the dirhams Garden (8) becomes affordable, not exactly
    assert reason_for(view, TakeMoney((30,))) == Reason("money_afford", tile=37)
    # DN6 opens nothing new (the DN7 already pays the Tower exactly): just money
    assert reason_for(view, TakeMoney((70,))) == Reason("money_most", amount=6)


def test_forced_and_closing_moves() -> None:
    view = _opening()
    assert reason_for(view, EndTurn()).code == "end_turn"
    only = dataclasses.replace(view, legal=(BUY_TOWER,))
    assert reason_for(only, BUY_TOWER) == Reason("only_choice")


def _played_game(players: int, seed: int):
    """Every decision of a game the `normal` level plays, with the hard level's advice."""
    game = new_game(players, seed)
    history = list(game.setup_events())
    hard = make_player("hard", seed)
    normal = make_player("normal", seed)
    while game.current_seat is not None:
        view = game.view(game.current_seat)
        yield view, advise(hard, view, history)
        history += game.apply(normal.choose(view, history))


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2)])
def test_every_reason_agrees_with_the_position(players: int, seed: int) -> None:
    seen: set[str] = set()
    for view, advice in _played_game(players, seed):
        action, reason = advice.action, advice.reason
        assert action in view.legal and not isinstance(action, Undo)
        assert reason.code in REASON_CODES
        seen.add(reason.code)
        assert view.seat is not None
        counts = view_counts(view)
        if reason.code.startswith("majority_"):
            assert reason.building is not None
            mine = counts[view.seat][reason.building]
            best = max(c[reason.building] for i, c in enumerate(counts) if i != view.seat)
            after = mine + 1
            expected = {
                "majority_keep": mine > best,
                "majority_take": mine <= best < after,
                "majority_tie": after == best,
                "majority_close": after < best and reason.amount == best - after,
            }
            assert expected[reason.code], (reason, mine, best)
        if reason.code == "exact_extra":
            assert isinstance(action, Buy)
            tile = view.market[action.slot]
            assert tile is not None
            assert sum(CARD_VALUE[c] for c in action.cards) == TILE_COST[tile]
        if reason.code == "money_exact":
            assert isinstance(action, TakeMoney) and reason.tile is not None
            slot = view.market.index(reason.tile)
            cost = TILE_COST[reason.tile]
            assert _pays(view.hand + action.cards, slot, cost)
            assert not _pays(view.hand, slot, cost)
        if reason.code == "place_wall":
            assert isinstance(action, Place)
            grid = view.alhambra(view.seat)
            grown = grid.preview(action.tile, (action.x, action.y)).longest_wall()
            assert grown - grid.longest_wall() == reason.amount > 0
            assert reason.building == TILE_TYPE[action.tile]
    assert {"end_turn", "money_exact", "place_open"} <= seen
    assert seen & {"majority_take", "majority_tie", "majority_keep", "majority_close"}


def _pays(cards: tuple[int, ...], currency: int, cost: int) -> bool:
    reach = 1
    for c in cards:
        if CARD_CURRENCY[c] == currency:
            reach |= reach << CARD_VALUE[c]
    return bool(reach >> cost & 1)


def test_advice_is_the_level_s_own_choice() -> None:
    view = _opening()
    given = advise(make_player("hard", 5), view, new_game(3, 7).setup_events())
    assert given.action == make_player("hard", 5).choose(view, new_game(3, 7).setup_events())
    assert given.level == "hard" and given.reason == reason_for(view, given.action)
