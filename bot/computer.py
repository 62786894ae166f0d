"""Computer players at the table: decide (off the event loop) and act through the service.

Discord-agnostic: the bot calls `play_computer_step` while a computer seat is to play and
announces the turns it ends, exactly as for a human's moves.
"""

from __future__ import annotations

import zlib

from engine import Event
from engine.ai import make_player

from .ai_runner import choose_in_thread
from .results import ActResult
from .service import GameService


def public_history(setup: list[Event], entries) -> list[Event]:
    history = list(setup)
    for entry in entries:
        history.extend(entry.events)
    return history


def player_seed(game_seed: int | None, seat: int) -> int:
    """Each computer seat's own decisions, fixed by the game: a restart repeats its choices."""
    return zlib.crc32(f"{game_seed}:{seat}".encode())


async def play_computer_step(service: GameService, game_id: int) -> ActResult | None:
    """One decision of the computer player whose turn it is; None if a human is to play."""
    game = await service.game(game_id)
    if game.status != "active" or game.current_seat is None:
        return None
    seat = game.at_seat(game.current_seat)
    if seat is None or not seat.is_computer:
        return None
    viewed = await service.seat_view(game_id, game.current_seat)
    log = await service.log(game_id)
    player = make_player(seat.level or "easy", player_seed(game.seed, game.current_seat))
    action = await choose_in_thread(player, viewed.view, public_history(log.setup, log.entries))
    return await service.act_for_computer(game_id, game.current_seat, action, viewed.game.version)
