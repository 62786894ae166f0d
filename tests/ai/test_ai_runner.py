"""The bot-side helper runs a decision in a worker thread and returns the player's choice."""

from __future__ import annotations

import threading

from bot.turns.computers import choose_in_thread
from engine import new_game
from engine.ai import Player, make_player


class ThreadRecorder(Player):
    """A real `normal` player that notes the thread it decided in."""

    level = "normal"

    def __init__(self) -> None:
        super().__init__(3)
        self.inner = make_player("normal", 3)
        self.thread: int | None = None

    def choose(self, view, history=()):
        self.thread = threading.get_ident()
        return self.inner.choose(view, history)


async def test_choice_is_made_off_the_event_loop_thread() -> None:
    game = new_game(3, 17)
    seat = game.current_seat
    view = game.view(seat)
    player = ThreadRecorder()
    action = await choose_in_thread(player, view, game.setup_events())
    assert action == make_player("normal", 3).choose(view, game.setup_events())
    assert action in game.legal_actions()
    assert player.thread is not None and player.thread != threading.get_ident()
