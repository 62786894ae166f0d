"""Scoring rounds (RULES.md section 5): majorities with ties, walls, and the rounds in a game."""

from __future__ import annotations

import pytest
from engine_helpers import game, put_on_deck, set_alhambra, set_dirk, set_reserve

from engine import (
    SCORING_CARD_1,
    SCORING_CARD_2,
    SCORING_TABLE,
    Building,
    EndTurn,
    Game,
    ScoringHeld,
    TakeMoney,
    majority_points,
    new_game,
    next_scoring_round,
    score_majorities,
    scoring_now,
)
from engine.ai import make_player

P, S, A, C, G, T = (
    Building.PAVILION,
    Building.SERAGLIO,
    Building.ARCADES,
    Building.CHAMBERS,
    Building.GARDEN,
    Building.TOWER,
)


def test_the_rules_tie_example_round_3_towers():
    # Two players tie for first, one is third: (21 + 13) / 2 = 17 each, the third gets 6.
    assert score_majorities(3, [{T: 4}, {T: 4}, {T: 2}]) == [17, 17, 6]


def test_a_player_without_a_building_of_a_type_scores_nothing_for_it():
    assert score_majorities(1, [{}, {P: 1}]) == [0, 1]
    assert score_majorities(3, [{G: 0}, {G: 2}, {}]) == [0, 20, 0]
    assert score_majorities(2, [{}, {}, {}]) == [0, 0, 0]


@pytest.mark.parametrize("round_no", [1, 2, 3])
def test_each_round_pays_its_ranks(round_no):
    # Four players with 4 / 3 / 2 / 1 buildings of every type: ranks 1..4.
    counts = [{b: n for b in Building} for n in (4, 3, 2, 1)]
    points = majority_points(round_no, [[n] * 6 for n in (4, 3, 2, 1)])
    for building in Building:
        paid = SCORING_TABLE[round_no][building]
        expected = [*paid, 0, 0, 0][:4]
        assert [points[p][int(building)] for p in range(4)] == expected
    totals = score_majorities(round_no, counts)
    assert totals == [sum(p) for p in points]


def test_round_tables_by_example():
    assert score_majorities(1, [{P: 2, T: 1}, {P: 1, T: 3}]) == [1, 6]
    assert score_majorities(2, [{P: 2, T: 1}, {P: 1, T: 3}]) == [8 + 6, 1 + 13]
    assert score_majorities(3, [{A: 1}, {A: 2}, {A: 3}]) == [3, 10, 18]


def test_ties_for_second_place_share_second_and_third():
    # Round 2 pays no third: (13 + 0) would be for first; second and third share (6 + 0) / 2.
    assert score_majorities(2, [{T: 3}, {T: 2}, {T: 2}]) == [13, 3, 3]
    # Round 3: (13 + 6) / 2 = 9 (rounded down).
    assert score_majorities(3, [{T: 3}, {T: 2}, {T: 2}]) == [21, 9, 9]
    # Three-way tie for second in round 3 (seraglio): (9 + 2 + 0) / 3 = 3.
    assert score_majorities(3, [{S: 5}, {S: 1}, {S: 1}, {S: 1}]) == [17, 3, 3, 3]


def test_ties_for_first_place():
    # Round 1 pays only first: (1 + 0) / 2 = 0 for pavilions, (6 + 0) / 2 = 3 for towers.
    assert score_majorities(1, [{P: 2, T: 2}, {P: 2, T: 2}]) == [3, 3]
    # Three tie for first in round 3: (21 + 13 + 6) / 3 = 13.
    assert score_majorities(3, [{T: 1}, {T: 1}, {T: 1}, {T: 0}]) == [13, 13, 13, 0]
    # Below a tie for first, the next count takes the rank after the tied ones.
    assert score_majorities(3, [{C: 2}, {C: 2}, {C: 1}, {C: 1}]) == [15, 15, 2, 2]


def test_there_are_only_three_rounds():
    with pytest.raises(ValueError):
        score_majorities(4, [{}])


# --- scoring rounds in a game ---------------------------------------------------------------


def _hold_round(g, scoring_card) -> ScoringHeld:
    """The current player takes a card and ends the turn; the refill draws the scoring card."""
    put_on_deck(g, [scoring_card])
    g.apply(TakeMoney((g.pool[0],)))
    events = g.apply(EndTurn())
    return next(e for e in events if isinstance(e, ScoringHeld))


def test_a_scoring_round_scores_majorities_and_walls_per_player():
    g = game(3, seed=4)
    set_alhambra(g, 0, {(1, 0): 52, (2, 0): 53, (0, 1): 54})  # towers; 54 has an east wall
    set_alhambra(g, 1, {(1, 0): 50, (0, 1): 7})  # a tower with a north wall; a pavilion
    set_alhambra(g, 2, {})
    held = _hold_round(g, SCORING_CARD_2)
    assert held.round_no == 2
    assert held.counts == ((0, 0, 0, 0, 0, 3), (1, 0, 0, 0, 0, 1), (0,) * 6)
    rows = {r.seat: r for r in held.rows}
    assert set(rows) == {0, 1, 2}
    assert rows[0].buildings == (0, 0, 0, 0, 0, 13) and rows[0].wall == 1
    assert rows[1].buildings == (8, 0, 0, 0, 0, 6) and rows[1].wall == 1
    assert rows[2].buildings == (0,) * 6 and rows[2].wall == 0
    assert [rows[s].total for s in range(3)] == [14, 15, 0]
    assert g.scores == (14, 15, 0)
    assert [rows[s].score for s in range(3)] == [14, 15, 0]


def test_the_reserve_does_not_count_in_majorities():
    g = game(3, seed=4)
    set_alhambra(g, 0, {(1, 0): 52})
    set_reserve(g, 1, [53, 41])
    held = _hold_round(g, SCORING_CARD_1)
    assert held.counts[1] == (0,) * 6
    assert held.rows[0].buildings[int(T)] == 6


def test_dirk_pushes_a_player_down_a_rank():
    g = game(2, seed=4)
    set_alhambra(g, 0, {(1, 0): 52, (2, 0): 53})  # 2 towers, no walls
    set_alhambra(g, 1, {(1, 0): 7})  # no tower
    set_dirk(g, [44, 45, 46])  # 3 towers
    held = _hold_round(g, SCORING_CARD_2)
    assert held.counts[-1] == (0, 0, 0, 0, 0, 3), "Dirk's buildings are compared, last"
    rows = {r.seat: r for r in held.rows}
    assert set(rows) == {0, 1}, "Dirk's points are never recorded"
    # Without Dirk seat 0 would be first (13); behind him it is second.
    assert rows[0].buildings[int(T)] == 6
    assert rows[1].buildings[int(P)] == 8
    assert len(g.scores) == 2 and g.scores == (6, 8)


def test_dirk_can_push_a_player_out_of_the_only_paid_rank():
    g = game(2, seed=8)
    set_alhambra(g, 0, {(1, 0): 31})  # one chambers
    set_alhambra(g, 1, {})
    set_dirk(g, [24, 25])  # two chambers
    held = _hold_round(g, SCORING_CARD_1)
    assert held.rows[0].buildings == (0,) * 6
    assert g.scores == (0, 0)


# --- what a round would pay now ---------------------------------------------------------------


def test_scoring_now_pays_what_the_round_then_pays():
    g = game(3, seed=4)
    set_alhambra(g, 0, {(1, 0): 52, (2, 0): 53, (0, 1): 54})
    set_alhambra(g, 1, {(1, 0): 50, (0, 1): 7})
    set_alhambra(g, 2, {})
    before = g.view(None)
    predicted = scoring_now(before, 2)
    assert next_scoring_round(before) == 1
    assert scoring_now(before).round_no == 1
    held = _hold_round(g, SCORING_CARD_2)
    assert predicted == held
    assert before.scores == (0, 0, 0), "predicting changes nothing"


def test_scoring_now_counts_dirk_and_drops_his_points():
    g = game(2, seed=4)
    set_alhambra(g, 0, {(1, 0): 52, (2, 0): 53})
    set_alhambra(g, 1, {(1, 0): 7})
    set_dirk(g, [44, 45, 46])
    predicted = scoring_now(g.view(0), 2)
    assert predicted.counts[-1] == (0, 0, 0, 0, 0, 3)
    assert [r.seat for r in predicted.rows] == [0, 1]
    assert predicted == _hold_round(g, SCORING_CARD_2)


def test_scoring_now_agrees_with_the_game_all_through_random_games():
    """At many moments of complete games, and for every round, the prediction is exactly what
    the game's own scoring would hold at that moment (on a copy of the game)."""
    for players, seed in ((2, 3), (3, 5), (5, 11)):
        g = new_game(players, seed)
        player = make_player("random", seed)
        steps = 0
        while not g.is_over:
            if steps % 17 == 0:
                view = g.view(None)
                assert next_scoring_round(view) == len(g.scoring_rounds) + 1
                for round_no in (1, 2, 3):
                    copy = Game.from_json(g.to_json())
                    assert scoring_now(view, round_no) == copy._hold_scoring(round_no)
            seat = g.current_seat
            g.apply(player.choose(g.view(seat), []))
            steps += 1
        assert next_scoring_round(g.view(None)) == 3
