"""The bot-side decision is a plain function of picklable arguments, so it can run in a worker
process, and it is the engine player's own choice."""

from __future__ import annotations

import pickle

from bot.turns.computers import choose
from engine import new_game
from engine.ai import make_player


def test_the_decision_is_the_players_own_and_can_travel_to_a_worker() -> None:
    game = new_game(3, 17)
    seat = game.current_seat
    view = game.view(seat)
    history = tuple(game.setup_events())
    action = choose("normal", 3, view, history)
    assert action == make_player("normal", 3).choose(view, list(history))
    assert action in game.legal_actions()
    # what a worker receives and sends back survives pickling unchanged
    assert pickle.loads(pickle.dumps(choose)) is choose
    assert pickle.loads(pickle.dumps((view, history))) == (view, history)
    assert pickle.loads(pickle.dumps(action)) == action
