"""Computer players at the table: the one way a computer decides a move for a seat.

Used for computer seats and for the stand-in that plays a silent human's turn after a deadline.
The engine's players are pure and synchronous (`engine.ai`) and a `hard` or `expert` decision can
take a second of CPU, so it runs in a worker thread while the event loop keeps answering others. The
view and the history are immutable (or copied here), so the stored game can move on meanwhile.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from engine import Action, Event, SeatView
from engine.ai import Player, make_player

from ..core.service import GameService


def player_seed(game_seed: int | None, seat: int) -> int:
    """Each computer seat's own decisions, fixed by the game: a restart repeats its choices."""
    return zlib.crc32(f"{game_seed}:{seat}".encode())


async def choose_in_thread(player: Player, view: SeatView, history: Sequence[Event]) -> Action:
    """The player's action for this view, computed in a worker thread."""
    return await asyncio.to_thread(player.choose, view, list(history))


@dataclass(frozen=True)
class Decision:
    action: Action
    #: the game version the decision was made at: the move is refused if the game moved on
    version: int


async def decide(service: GameService, game_id: int, seat: int, level: str) -> Decision | None:
    """What a computer player of `level` plays at `seat` now, from that seat's view and the
    public history only; None when it is not that seat's decision."""
    viewed = await service.seat_view(game_id, seat)
    game = viewed.game
    if game.status != "active" or game.current_seat != seat:
        return None
    game_log = await service.log(game_id)
    player = make_player(level, player_seed(game.seed, seat))
    action = await choose_in_thread(player, viewed.view, game_log.public_history)
    return Decision(action, game.version)
