"""A finished game's review: deterministic for a seed, about the asked seat's own decisions,
largest loss first, and never counting an undone step."""

from __future__ import annotations

from engine import EndTurn, Options, TakeMoney, TurnEnded, Undo
from engine.ai import make_player
from engine.ai.review import _stood, review_game
from engine.dealing import new_game


def _game(players: int, seed: int, levels: list[str]):
    game = new_game(players, seed)
    history = list(game.setup_events())
    actions = []
    turn_of: dict[int, int] = {}
    turn = 1
    while game.current_seat is not None:
        seat = game.current_seat
        turn_of[turn] = seat
        action = make_player(levels[seat], seat).choose(game.view(seat), history)
        actions.append(action)
        events = game.apply(action)
        history += events
        turn += sum(1 for e in events if isinstance(e, TurnEnded))
    return actions, turn_of


def test_the_review_is_deterministic_and_about_the_seat_only() -> None:
    actions, turn_of = _game(2, 3, ["random", "normal"])
    first = review_game(2, 3, Options(), actions, 0)
    assert review_game(2, 3, Options(), actions, 0) == first
    assert first.top and len(first.top) <= 5
    assert all(turn_of[d.turn] == 0 for d in first.top)
    assert all(turn_of[t] == 0 for t, _ in first.per_turn)
    stakes = [d.stake for d in first.top]
    assert stakes == sorted(stakes, reverse=True) and stakes[-1] >= 0.5
    for d in first.top:
        assert d.played in d.view.legal and d.suggested in d.view.legal
        assert d.played != d.suggested
    # a random player gives away more than a normal one
    other = review_game(2, 3, Options(), actions, 1)
    assert sum(p for _, p in first.per_turn) > sum(p for _, p in other.per_turn)


def test_an_undone_step_is_not_judged() -> None:
    take, undo, end = TakeMoney((1,)), Undo(), EndTurn()
    assert _stood([take, undo, take, end]) == [False, False, True, True]
    assert _stood([take, take, undo, undo, end]) == [False, False, False, False, True]
