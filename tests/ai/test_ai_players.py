"""Computer players: only legal actions, decisions from the view and public log alone, and the
same seed giving the same game."""

from __future__ import annotations

import json
import random

import pytest

from engine import (
    EndTurn,
    Event,
    Game,
    Undo,
    new_game,
)
from engine.ai import (
    LEVELS,
    ExpertPlayer,
    HardPlayer,
    NotYourTurn,
    Player,
    display_name,
    make_player,
)

LEVEL_NAMES = list(LEVELS)


def fast_player(level: str, seed: int) -> Player:
    """Players as shipped, but `hard` and `expert` with a small search so that whole games stay
    quick."""
    if level == "hard":
        return HardPlayer(seed, worlds=1, top_k=2)
    if level == "expert":
        return ExpertPlayer(seed, simulations=4, top_k=2)
    return make_player(level, seed)


def play_out(game: Game, players: list[Player], history: list[Event]) -> list:
    """Play to the end, checking every choice against the legal actions; returns the actions."""
    chosen = []
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view, history)
        assert action in game.legal_actions(), f"{players[seat].level} chose {action!r}"
        assert not isinstance(action, Undo)
        chosen.append(action)
        history.extend(game.apply(action))
    return chosen


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_mixed_levels_play_whole_games_with_legal_actions_only(players: int) -> None:
    for k in range(2):
        seed = 1000 * players + k
        rng = random.Random(seed)
        levels = [rng.choice(LEVEL_NAMES) for _ in range(players)]
        levels[k % players] = "hard" if k == 0 else "normal"
        game = new_game(players, seed)
        actions = play_out(
            game, [fast_player(lv, seed + i) for i, lv in enumerate(levels)], game.setup_events()
        )
        assert game.is_over and game.winners
        assert len(actions) > 20


def test_same_seed_same_choices() -> None:
    def run() -> list:
        game = new_game(3, 42)
        players = [fast_player(lv, 7 + i) for i, lv in enumerate(["easy", "normal", "hard"])]
        return play_out(game, players, game.setup_events())

    assert run() == run()


def test_decision_depends_on_seed_for_random_level() -> None:
    game = new_game(4, 3)
    view = game.view(game.current_seat)
    picks = {make_player("random", s).choose(view, game.setup_events()) for s in range(30)}
    assert len(picks) > 1


def test_confirm_phase_always_ends_the_turn_and_never_undoes() -> None:
    game = new_game(3, 11)
    history = game.setup_events()
    for level in LEVEL_NAMES:
        g = game.copy()
        h = list(history)
        seat = g.current_seat
        while g.phase != "confirm":
            h.extend(g.apply(fast_player(level, 1).choose(g.view(seat), h)))
        view = g.view(seat)
        assert set(map(type, view.legal)) == {EndTurn, Undo}
        assert fast_player(level, 1).choose(view, h) == EndTurn()


def test_choosing_out_of_turn_is_refused() -> None:
    game = new_game(3, 5)
    other = (game.current_seat + 1) % 3
    with pytest.raises(NotYourTurn):
        make_player("easy", 0).choose(game.view(other), game.setup_events())
    with pytest.raises(NotYourTurn):
        make_player("easy", 0).choose(game.view(None), game.setup_events())


def test_unknown_level_is_a_friendly_error() -> None:
    with pytest.raises(ValueError, match="random, easy, normal, hard, expert"):
        make_player("impossible", 1)
    with pytest.raises(ValueError, match="no computer level"):
        display_name("master", random.Random(1))


def test_display_names_show_the_level_and_avoid_taken_names() -> None:
    rng = random.Random(5)
    taken: set[str] = set()
    for _ in range(12):
        name = display_name("hard", rng, taken)
        assert name.startswith("Bot ") and name.endswith("(hard)")
        assert name not in taken
        taken.add(name)


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_decision_ignores_hidden_information(level: str) -> None:
    """Two games that differ only in what nobody can see (other hands' order is public, but the
    deck and supply order are not) must get the same decision: the player reads only its view
    and the public log."""
    game = new_game(3, 21)
    history = game.setup_events()
    drivers = [make_player("easy", s) for s in range(3)]
    for _ in range(40):  # into the game, past a few purchases
        seat = game.current_seat
        history.extend(game.apply(drivers[seat].choose(game.view(seat), history)))
    while game.phase != "action" or game.actions_this_turn:
        seat = game.current_seat
        history.extend(game.apply(drivers[seat].choose(game.view(seat), history)))
    snapshot = json.loads(game.to_json())  # a deep copy: to_dict shares the live lists
    rng = random.Random(99)
    for part in ("state", "turn_start"):
        rng.shuffle(snapshot[part]["deck"])
        rng.shuffle(snapshot[part]["supply"])
    other = Game.from_dict(snapshot)
    assert other.deck != game.deck
    seat = game.current_seat
    assert other.view(seat) == game.view(seat)
    player = fast_player(level, 3)
    assert player.choose(game.view(seat), history) == player.choose(other.view(seat), history)
