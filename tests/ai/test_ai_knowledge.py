"""What a computer player deduces from the public log, and the worlds it builds from that."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given
from hypothesis import strategies as st

from engine import Game, Undo, majority_points, new_game
from engine.ai.evaluate import PAID, type_points
from engine.ai.knowledge import deduce
from engine.ai.world import sample_world


def random_steps(game: Game, history: list, rng: random.Random, steps: int) -> None:
    """Random play that also undoes now and then, to exercise the log's Undone events."""
    for _ in range(steps):
        if game.is_over:
            return
        legal = game.legal_actions()
        undo = [a for a in legal if isinstance(a, Undo)]
        if undo and rng.random() < 0.25:
            history.extend(game.apply(undo[0]))
            continue
        history.extend(game.apply(rng.choice([a for a in legal if not isinstance(a, Undo)])))


def test_perfect_memory_knows_every_hand_through_undos() -> None:
    for players in (2, 4, 6):
        rng = random.Random(players)
        game = new_game(players, 30 + players)
        history = game.setup_events()
        for _ in range(25):
            random_steps(game, history, rng, 20)
            if game.is_over:
                break
            seat = game.current_seat
            know = deduce(game.view(seat), history)
            assert know.hands_known
            assert [sorted(h) for h in game.hands] == know.hands
            assert sorted(game.discard) == know.discard
            assert sorted(know.unseen_money) == sorted(c for c in game.deck if c < 108)
            assert know.unseen_tiles == sorted(game.supply)


def test_without_the_log_other_hands_are_unknown_but_sizes_hold() -> None:
    game = new_game(3, 8)
    history = game.setup_events()
    random_steps(game, history, random.Random(1), 60)
    seat = game.current_seat
    know = deduce(game.view(seat), [])
    assert not know.hands_known
    world = sample_world(game.view(seat), know, random.Random(2))
    assert world.hand(seat) == tuple(sorted(game.hand(seat)))
    assert [len(h) for h in world.hands] == [len(h) for h in game.hands]


def test_sampled_world_looks_the_same_from_the_seat() -> None:
    rng = random.Random(4)
    for seed in range(4):
        game = new_game(2 + seed, seed)
        history = game.setup_events()
        random_steps(game, history, rng, 80 + 40 * seed)
        if game.is_over:
            continue
        seat = game.current_seat
        view = game.view(seat)
        world = sample_world(view, deduce(view, history), random.Random(seed))
        # the same view, except that the world has no turn history to undo
        no_undo = tuple(a for a in view.legal if not isinstance(a, Undo))
        assert world.view(seat) == dataclasses.replace(view, legal=no_undo)
        assert sorted(world.deck) == sorted(game.deck)
        assert sorted(world.supply) == sorted(game.supply)
        assert world.hands == tuple(tuple(sorted(h)) for h in game.hands)
        # the world plays on to the end like a real game
        while not world.is_over:
            world.apply(rng.choice([a for a in world.legal_actions() if not isinstance(a, Undo)]))


@given(st.lists(st.lists(st.integers(0, 6), min_size=6, max_size=6), min_size=2, max_size=7))
def test_fast_majority_matches_the_engine(counts: list[list[int]]) -> None:
    for round_no in (1, 2, 3):
        engine_points = majority_points(round_no, counts)
        for b in range(6):
            column = [c[b] for c in counts]
            assert type_points(PAID[round_no][b], column) == [row[b] for row in engine_points]
