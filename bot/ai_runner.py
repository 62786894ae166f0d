"""Runs computer players off the event loop, so Discord stays responsive while a bot thinks.

The engine's players are pure and synchronous (`engine.ai`); a `hard` decision can take a second
of CPU. `asyncio.to_thread` moves it to a worker thread. The view and the history are immutable
(or copied here), so the game state the bot keeps can move on safely meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from engine import Action, Event, SeatView
from engine.ai import Player


async def choose_in_thread(player: Player, view: SeatView, history: Sequence[Event]) -> Action:
    """The player's action for this view, computed in a worker thread."""
    return await asyncio.to_thread(player.choose, view, list(history))
