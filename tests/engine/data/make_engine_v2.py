"""How `engine_v2_games.json.gz` and `engine_v2_games.sqlite3` were written, once, by the engine
and bot as they stood before the second round of speed work. Kept to show what the fixtures
hold; never run it again to "update" them: they are the evidence that later engines replay old
games identically.

    python tests/engine/data/make_engine_v2.py OUTDIR
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

from engine import (
    VIEW_ADAPTER,
    Game,
    Options,
    Skip,
    Undo,
    action_to_dict,
    action_to_json,
    event_to_dict,
    new_game,
)


def _h(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:8]


def _step_digest(game: Game, events: list[Any]) -> str:
    """The events a step told, the legal actions and the current seat's view afterwards."""
    parts = [json.dumps([event_to_dict(e) for e in events])]
    parts.append("|".join(action_to_json(a) for a in game.legal_actions()))
    seat = game.current_seat
    parts.append(VIEW_ADAPTER.dump_json(game.view(seat)).decode())
    parts.append(VIEW_ADAPTER.dump_json(game.view()).decode())
    return _h("\n".join(parts))


def play(players: int, seed: int, holes: str) -> dict[str, Any]:
    """Random play with undos, skipped turns, restored snapshots and copies along the way."""
    options = Options.model_validate({"holes": holes})
    game = new_game(players, seed, options)
    rng = random.Random(f"v2/{players}/{seed}/{holes}")
    actions: list[dict[str, Any]] = []
    snaps: list[str] = []
    steps: list[str] = []
    first = _step_digest(game, game.setup_events())
    while not game.is_over:
        legal = game.legal_actions()
        roll = rng.random()
        if roll < 0.01:
            action: Any = Skip()
        elif roll < 0.08 and any(isinstance(a, Undo) for a in legal):
            action = Undo()
        else:
            choices = [a for a in legal if not isinstance(a, Undo)]
            action = choices[rng.randrange(len(choices))]
        events = game.apply(action)
        actions.append(action_to_dict(action))
        text = game.to_json()
        snaps.append(_h(text))
        steps.append(_step_digest(game, events))
        roll = rng.random()
        if roll < 0.05:
            game = Game.from_json(text)
        elif roll < 0.10:
            game = game.copy()
    return {
        "players": players,
        "seed": seed,
        "options": options.model_dump(mode="json"),
        "actions": actions,
        "setup": first,
        "snapshots": snaps,
        "steps": steps,
        "final_json": game.to_json(),
        "final_scores": list(game.scores),
    }


def write_json(out: Path) -> None:
    games = []
    for players in range(2, 7):
        for holes in ("classic", "strict"):
            for k in range(3):
                games.append(play(players, 5000 + 100 * players + 10 * k + len(holes), holes))
    data = {"written_by": "engine before the second round of speed work", "games": games}
    with gzip.open(out / "engine_v2_games.json.gz", "wt", compresslevel=9) as f:
        json.dump(data, f, separators=(",", ":"))


async def write_database(path: Path) -> None:
    from bot.core.clock import ManualClock
    from bot.core.services import Services
    from bot.core.store import Store

    store = await Store.open(str(path))
    seeds = iter(range(7100, 7200))
    services = Services.build(store, ManualClock(), seed_source=lambda: next(seeds))
    plans = [  # (people, computers, holes, moves or None to finish)
        (2, 0, "classic", None),
        (1, 2, "strict", None),
        (3, 1, "classic", None),
        (2, 3, "classic", 400),
        (6, 0, "strict", 300),
        (3, 0, "strict", None),
    ]
    try:
        for n, (people, computers, holes, moves) in enumerate(plans):
            rng = random.Random(f"db/{n}")
            game = await services.lobby.create_game(
                channel_id=10 + n,
                host_id=1000,
                host_name="P0",
                guild_id=7,
                options={"holes": holes},
            )
            for p in range(1, people):
                game = await services.lobby.join(game.id, 1000 + p, f"P{p}")
            for _ in range(computers):
                game = await services.lobby.add_computer(game.id, 1000)
            game = (await services.lobby.start(game.id, 1000)).game
            done = 0
            while game.status == "active" and (moves is None or done < moves):
                async with services.store.read() as tx:
                    snapshot = await tx.snapshot(game.id)
                assert snapshot is not None
                state = Game.from_json(snapshot)
                legal = state.legal_actions()
                if rng.random() > 0.1:
                    legal = [a for a in legal if not isinstance(a, Undo)]
                action = legal[rng.randrange(len(legal))]
                player = game.current_player
                assert player is not None and player.seat is not None
                if player.is_computer:
                    result = await services.play.act_for_computer(
                        game.id, player.seat, action, game.version
                    )
                else:
                    assert player.user_id is not None
                    result = await services.play.act(game.id, player.user_id, action, game.version)
                game = result.game
                done += 1
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("VACUUM")
    conn.close()


def main() -> None:
    out = Path(sys.argv[1])
    write_json(out)
    db = out / "engine_v2_games.sqlite3"
    db.unlink(missing_ok=True)
    asyncio.run(write_database(db))


if __name__ == "__main__":
    main()
