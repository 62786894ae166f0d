"""What `normal` and `hard` prefer in constructed positions, and that the tuned weights load."""

from __future__ import annotations

import dataclasses
import json
import math

from engine import Buy, Game, TakeMoney, new_game
from engine.ai import HardPlayer, NormalPlayer, make_player
from engine.ai.hard import HARD_WEIGHTS
from engine.ai.lookahead import playout, position_value
from engine.ai.normal import (
    NORMAL_WEIGHTS,
    NormalWeights,
    hand_value,
    score_actions,
    situation,
)
from engine.catalogue import CARD_CURRENCY, CARD_VALUE, TILE_COST, card_id
from engine.events import Event


def with_hand(game: Game, seat: int, cards: list[int]) -> Game:
    """The same game with `seat` holding `cards` (taken out of the deck, the rest returned)."""
    snap = json.loads(game.to_json())
    for part in ("state", "turn_start"):
        state = snap[part]
        old = state["hands"][seat]
        state["deck"] = [c for c in state["deck"] if c not in cards] + old
        state["hands"][seat] = list(cards)
    return Game.from_dict(snap)


def crown_game(cards: list[tuple[int, int]]) -> tuple[Game, int]:
    """Game 5 of 3 players (slot 1 sells chambers for 8 crowns) with the first seat's hand set."""
    game = new_game(3, 5)
    assert TILE_COST[game.market[0]] == 8 and game.phase == "action"
    seat = game.current_seat
    hand = [card_id(0, value, copy) for value, copy in cards]
    return with_hand(game, seat, hand), seat


def easy_game(seed: int, steps: int) -> tuple[Game, list[Event]]:
    """A 3-player game driven `steps` steps by easy players, with its public log."""
    game = new_game(3, seed)
    history = game.setup_events()
    drivers = [make_player("easy", s) for s in range(3)]
    for _ in range(steps):
        seat = game.current_seat
        history.extend(game.apply(drivers[seat].choose(game.view(seat), history)))
    return game, history


def test_tuned_weights_load_and_are_sane() -> None:
    assert NormalPlayer(3).weights == NORMAL_WEIGHTS
    assert make_player("normal", 3).weights == NORMAL_WEIGHTS
    values = dataclasses.asdict(NORMAL_WEIGHTS)
    assert all(math.isfinite(v) and v >= 0 for v in values.values())
    assert NormalWeights(**values) == NORMAL_WEIGHTS
    # money must lose value as the supply runs out, or the player hoards to the end
    assert NORMAL_WEIGHTS.coin_early > NORMAL_WEIGHTS.coin_late


def test_normal_buys_with_an_exact_payment() -> None:
    game, seat = crown_game([(5, 0), (3, 0), (1, 0)])
    view = game.view(seat)
    best = make_player("normal", 1).choose(view, game.setup_events())
    assert isinstance(best, Buy) and best.slot == 0
    assert sum(CARD_VALUE[c] for c in best.cards) == 8


def test_normal_does_not_overpay_heavily_early() -> None:
    game, seat = crown_game([(7, 0), (7, 1)])
    view = game.view(seat)
    assert any(isinstance(a, Buy) and a.slot == 0 for a in view.legal)
    assert isinstance(make_player("normal", 1).choose(view, game.setup_events()), TakeMoney)


def test_normal_uses_the_extra_action_of_an_exact_payment() -> None:
    game, seat = crown_game([(5, 0), (3, 0)])
    history = game.setup_events()
    buy = next(a for a in game.legal_actions() if isinstance(a, Buy) and a.slot == 0)
    history.extend(game.apply(buy))
    assert game.phase == "action" and game.pending
    assert isinstance(make_player("normal", 1).choose(game.view(seat), history), TakeMoney)


def test_scores_are_sorted_best_first_and_cover_every_option() -> None:
    game, seat = crown_game([(5, 0), (3, 0), (1, 0)])
    view = game.view(seat)
    scored = score_actions(view, list(view.legal))
    assert len(scored) == len(view.legal)
    values = [v for v, _a in scored]
    assert values == sorted(values, reverse=True)


def test_position_value_rewards_money_and_is_relative() -> None:
    poor, seat = crown_game([(1, 0)])
    rich, _ = crown_game([(9, 0), (8, 0), (7, 0)])
    assert position_value(rich, seat) > position_value(poor, seat)
    other = (seat + 1) % 3
    assert position_value(rich, other) < position_value(poor, other)


def test_hard_keeps_an_obvious_exact_purchase() -> None:
    game, seat = crown_game([(5, 0), (3, 0), (1, 0)])
    action = HardPlayer(2, worlds=2, top_k=3).choose(game.view(seat), game.setup_events())
    assert isinstance(action, Buy) and action.slot == 0


def test_hard_starts_from_its_own_tuned_weights() -> None:
    assert HardPlayer(1).weights == HARD_WEIGHTS
    assert HARD_WEIGHTS != NORMAL_WEIGHTS
    assert all(math.isfinite(v) and v >= 0 for v in dataclasses.asdict(HARD_WEIGHTS).values())


def test_hard_without_worlds_is_its_one_step_judgement() -> None:
    game, history = easy_game(9, 30)
    seat = game.current_seat
    view = game.view(seat)
    options = [a for a in view.legal if a.kind != "undo"]
    expected = score_actions(view, options, HARD_WEIGHTS)[0][1]
    assert HardPlayer(4, worlds=0).choose(view, history) == expected


def test_an_option_an_opponent_can_pay_exactly_counts_for_less() -> None:
    game, seat = crown_game([(5, 0), (3, 0)])  # pays the 8-crown chambers exactly
    view = game.view(seat)
    other = (seat + 1) % 3
    nobody: list[list[int]] = [[], [], []]
    rival: list[list[int]] = [[], [], []]
    rival[other] = [card_id(0, 8, 0)]  # the next player can take it first
    w = dataclasses.replace(NORMAL_WEIGHTS, contested=0.3)
    free = situation(view, w, nobody)
    threatened = situation(view, w, rival)
    assert free.keep[0] == 1.0
    assert threatened.keep[0] == 1.0 - w.contested < 1.0
    assert threatened.keep[1:] == free.keep[1:]
    hand = list(view.hand)
    assert hand_value(threatened, hand, view.market, w) < hand_value(free, hand, view.market, w)
    # buying now is what the threat makes more attractive than waiting
    buy = next(a for a in view.legal if isinstance(a, Buy) and a.slot == 0)
    value = {a: v for v, a in score_actions(view, list(view.legal), w, rival)}
    plain = {a: v for v, a in score_actions(view, list(view.legal), w, nobody)}
    assert value[buy] > plain[buy]


def test_a_building_that_fits_nowhere_is_not_worth_buying() -> None:
    # Game 1 after 55 steps: the building in slot 3 cannot be placed in the
    # current seat's Alhambra (it would go to the reserve, where it counts for nothing).
    game, history = easy_game(1, 55)
    seat = game.current_seat
    view = game.view(seat)
    alhambra = view.alhambra(seat)
    unplaceable = [
        slot
        for slot, tile in enumerate(view.market)
        if tile is not None and not alhambra.legal_positions(tile)
    ]
    assert unplaceable == [2]
    s = situation(view, NORMAL_WEIGHTS)
    assert s.worth[2] is not None and s.worth[2] < 0
    assert all(w is not None and w > 0 for k, w in enumerate(s.worth) if k != 2)
    # with a hand that pays it exactly, buying it still loses points: `normal` does not
    tile = view.market[2]
    assert tile is not None
    cost = TILE_COST[tile]
    reach: dict[int, list[int]] = {0: []}
    money = [c for c in game.deck if c < len(CARD_CURRENCY)]  # no scoring cards
    for card in sorted(c for c in money if CARD_CURRENCY[c] == 2):
        for total, cards in list(reach.items()):
            reach.setdefault(total + CARD_VALUE[card], [*cards, card])
    rich = with_hand(game, seat, reach[cost])
    view = rich.view(seat)
    options = [a for a in view.legal if a.kind != "undo"]
    buys = [a for a in options if isinstance(a, Buy) and a.slot == 2]
    assert buys
    value = {a: v for v, a in score_actions(view, options)}
    assert all(value[b] < 0 for b in buys)
    assert not isinstance(make_player("normal", 1).choose(view, history), Buy)


def test_hard_looks_through_its_next_turn() -> None:
    game = new_game(3, 5)
    seat = game.current_seat
    start = game.turn_number
    assert HardPlayer(1).turns == 2
    for turns in (1, 2):
        trial = game.copy()
        playout(trial, seat, start, HARD_WEIGHTS, turns)
        # every seat played `turns` turns and the searching seat is about to start another
        assert trial.turn_number == start + 3 * turns
        assert trial.current_seat == seat and trial.phase == "action"
        assert not trial.actions_this_turn
    assert game.turn_number == start  # the game itself is untouched
