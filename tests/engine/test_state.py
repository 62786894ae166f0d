"""The table state as a record: `Game.state` for inspection, `Game.rig` to set up a position,
and the copy and JSON forms that undo, computer players and snapshots rely on."""

from __future__ import annotations

import json

import pytest
from engine_helpers import game

from engine import Game, TableState, TakeMoney, Undo


def test_state_is_a_copy_that_changes_nothing():
    g = game(3, seed=4)
    before = g.to_json()
    s = g.state
    s.hands[0].clear()
    s.deck.clear()
    s.alhambras[0].place(1, (1, 0))
    s.scores[1] = 99
    assert g.to_json() == before
    assert g.state == TableState.from_dict(json.loads(before)["state"], g.options.holes)


def test_copy_shares_no_mutable_part():
    s = game(2, seed=1).state
    other = s.copy()
    assert other == s
    other.hands[0].append(0)
    other.reserves[1].append(5)
    other.market[0] = None
    assert other.dirk is not None
    other.dirk.append(7)
    other.final_queue.append((0, [3]))
    other.final_queue[0][1].append(4)
    other.alhambras[0].place(1, (1, 0))
    assert s == game(2, seed=1).state


def test_to_dict_and_from_dict_round_trip():
    g = game(4, seed=9, holes="strict")
    s = g.state
    again = TableState.from_dict(json.loads(json.dumps(s.to_dict())), "strict")
    assert again == s
    assert again.to_dict() == s.to_dict()
    assert list(s.to_dict()) == list(json.loads(g.to_json())["state"])


def test_rig_sets_the_position_and_the_start_of_the_turn():
    g = game(3, seed=4)
    s = g.state
    s.scores = [5, 6, 7]
    s.pool.reverse()
    g.rig(s)
    rigged = g.state
    s.scores[0] = 100  # the game keeps its own copy
    assert g.scores == (5, 6, 7)
    g.apply(TakeMoney((g.pool[0],)))
    g.apply(Undo())
    assert g.state == rigged


def test_rig_refuses_a_started_turn_and_a_table_of_another_size():
    g = game(3, seed=4)
    with pytest.raises(ValueError, match="players"):
        g.rig(game(4, seed=4).state)
    g.apply(TakeMoney((g.pool[0],)))
    with pytest.raises(ValueError, match="first step"):
        g.rig(g.state)


def test_start_deals_nothing_and_picks_the_start_player_from_the_hands():
    dealt = game(3, seed=4)
    table = dealt.state
    table.current = 0
    table.turn_no = 0
    started = Game.start(3, 4, dealt.options, dealt.seating, table)
    assert started.setup_events() == dealt.setup_events()
    assert started.to_json() == dealt.to_json()
