"""The review's points at stake are measured, not claimed: an independent check, played to
the end of the game in other sampled worlds with other seeds, finds about as many points on
the turns it lists; and it never calls the move that its own level's hint gives a mistake.

The default run checks two short games; `ALHAMBRA_LONG_CHECKS=1` checks six, of two to four
players (a few minutes)."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

import pytest

from engine import Action, Event, Options, SeatView, TurnEnded
from engine.ai import make_player
from engine.ai.player import seat_seed
from engine.ai.review import measure, review_game
from engine.dealing import new_game

LONG = os.environ.get("ALHAMBRA_LONG_CHECKS") == "1"

#: (players, seed, each seat's level, the seat reviewed)
GAMES = [
    (2, 11, ["random", "normal"], 0),
    (2, 13, ["easy", "normal"], 0),
]
if LONG:
    GAMES += [
        (3, 12, ["normal", "easy", "hard"], 1),
        (4, 14, ["normal", "normal", "easy", "normal"], 2),
        (2, 21, ["normal", "easy"], 1),
        (3, 22, ["easy", "normal", "normal"], 0),
    ]


def _play(players: int, seed: int, levels: Sequence[str]) -> list[Action]:
    game = new_game(players, seed)
    history = list(game.setup_events())
    actions: list[Action] = []
    while game.current_seat is not None:
        seat = game.current_seat
        action = make_player(levels[seat], seed * 10 + seat).choose(game.view(seat), history)
        actions.append(action)
        history += game.apply(action)
    return actions


def _decisions(
    players: int, seed: int, actions: Sequence[Action], seat: int
) -> list[tuple[SeatView, list[Event], Action]]:
    """Every decision of `seat`: its view, the history it knew, what it played."""
    game = new_game(players, seed)
    history: list[Event] = list(game.setup_events())
    out = []
    for action in actions:
        if game.current_seat == seat:
            out.append((game.view(seat), list(history), action))
        history += game.apply(action)
    return out


def test_the_stakes_agree_with_an_independent_check_played_to_the_end() -> None:
    claimed = measured = 0.0
    listed = 0
    for players, seed, levels, seat in GAMES:
        actions = _play(players, seed, levels)
        review = review_game(players, seed, Options(), actions, seat)
        decisions = _decisions(players, seed, actions, seat)
        for d in review.top:
            view, history, _ = next(x for x in decisions if x[0] == d.view and x[2] == d.played)
            check = measure(
                view, history, d.played, d.suggested, random.Random(f"check/{seed}/{d.turn}"), 40
            )
            claimed += d.stake
            measured += check.mean
            listed += 1
            # every listed turn is a loss the independent check sees too
            assert check.mean > 0, (seed, d.turn, d.stake, check)
    assert listed >= 2
    assert measured / 1.5 <= claimed <= measured * 1.5, (claimed, measured)


def _hint_or_not(players: int, seed: int, seat: int) -> tuple[list[Action], set[int]]:
    """A game where `seat` plays the `hard` hint (the same seed as the bot's hint) at every
    other decision and `easy`'s move at the rest: the indices of the hinted moves."""
    game = new_game(players, seed)
    history = list(game.setup_events())
    hint = make_player("hard", seat_seed(seed, seat))
    actions: list[Action] = []
    hinted: set[int] = set()
    k = 0
    while game.current_seat is not None:
        current = game.current_seat
        view = game.view(current)
        if current == seat:
            k += 1
            if k % 2:
                action = hint.choose(view, history)
                hinted.add(len(actions))
            else:
                action = make_player("easy", 7).choose(view, history)
        else:
            action = make_player("normal", current).choose(view, history)
        actions.append(action)
        history += game.apply(action)
    return actions, hinted


@pytest.mark.parametrize("seed", [5] + ([6, 7] if LONG else []))
def test_the_move_the_hint_of_the_same_level_gives_is_never_a_mistake(seed: int) -> None:
    players, seat = 2, 0
    actions, _hinted = _hint_or_not(players, seed, seat)
    review = review_game(players, seed, Options(), actions, seat)
    hint = make_player(review.level, seat_seed(seed, seat))
    decisions = _decisions(players, seed, actions, seat)
    for d in review.top:
        view, history, _ = next(x for x in decisions if x[0] == d.view and x[2] == d.played)
        assert hint.choose(view, history) != d.played, d.turn
        assert hint.choose(view, history) == d.suggested, d.turn


def test_a_player_who_followed_every_hint_is_told_of_no_mistake() -> None:
    players, seed, seat = 2, 4, 0
    game = new_game(players, seed)
    history = list(game.setup_events())
    hint = make_player("hard", seat_seed(seed, seat))
    actions: list[Action] = []
    while game.current_seat is not None:
        current = game.current_seat
        view = game.view(current)
        player = hint if current == seat else make_player("random", 1)
        action = player.choose(view, history)
        actions.append(action)
        history += game.apply(action)
    review = review_game(players, seed, Options(), actions, seat)
    assert review.top == ()
    assert review.per_turn == ()
    assert [e for e in history if isinstance(e, TurnEnded)]
