"""Plays games through the service on a database file forever, printing each committed action.

Run by test_kill.py, which SIGKILLs it at a random moment: every line `ACK game seq action` is
printed only after `act` returned, i.e. after the transaction committed.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.core.services import Services
from bot.core.store import Store
from engine import Undo, action_to_json


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    store = await Store.open(path)
    services = Services.build(store)
    users = [seed * 10 + i for i in range(1, 5)]
    channel = seed * 1000
    print("READY", flush=True)
    while True:
        channel += 1
        players = rng.randint(2, 4)
        game = await services.lobby.create_game(
            channel_id=channel, host_id=users[0], host_name="P0"
        )
        for i, user in enumerate(users[1:players], start=1):
            await services.lobby.join(game.id, user, f"P{i}")
        game = (await services.lobby.start(game.id, users[0])).game
        while game.status == "active":
            player = game.current_player
            assert player is not None and player.user_id is not None
            legal = (await services.play.view(game.id, player.user_id)).view.legal
            moves = [a for a in legal if not isinstance(a, Undo) or rng.random() < 0.1]
            move = rng.choice(moves or list(legal))
            result = await services.play.act(game.id, player.user_id, move, game.version)
            print(f"ACK {game.id} {result.version} {action_to_json(move)}", flush=True)
            game = result.game


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
