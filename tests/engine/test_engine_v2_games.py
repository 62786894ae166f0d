"""Games written by the engine before its second round of speed work must replay step for step.

`data/engine_v2_games.json.gz` was written once by `data/make_engine_v2.py` with the engine as
it stood before that work, and must never be regenerated. For thirty games (two to six players,
both hole rules; random play with redesigns, undos, skipped turns, and the game restored from
its snapshot or copied now and then) it holds the action log and, after every step, a hash of
`to_json()` and a hash of what the step told (its events), the legal actions that followed and
the views of the current seat and of a spectator. A faster engine must reproduce every one.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import (
    VIEW_ADAPTER,
    Event,
    Game,
    Options,
    action_from_dict,
    action_to_json,
    event_to_dict,
    new_game,
)

with gzip.open(Path(__file__).parent / "data" / "engine_v2_games.json.gz", "rt") as _f:
    STORED = json.load(_f)
GAMES: list[dict[str, Any]] = STORED["games"]


def _h(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:8]


def _step_digest(game: Game, events: list[Event]) -> str:
    parts = [json.dumps([event_to_dict(e) for e in events])]
    parts.append("|".join(action_to_json(a) for a in game.legal_actions()))
    parts.append(VIEW_ADAPTER.dump_json(game.view(game.current_seat)).decode())
    parts.append(VIEW_ADAPTER.dump_json(game.view()).decode())
    return _h("\n".join(parts))


def _id(stored: dict[str, Any]) -> str:
    return f"{stored['players']}p-{stored['options']['holes']}-{stored['seed']}"


@pytest.mark.parametrize("stored", GAMES, ids=_id)
def test_every_step_of_an_old_game_gives_the_same_snapshot_actions_and_views(stored):
    game = new_game(stored["players"], stored["seed"], Options.model_validate(stored["options"]))
    assert _step_digest(game, game.setup_events()) == stored["setup"]
    # Restore or copy the game at other points than the writer did: that must not matter.
    rng = random.Random(stored["seed"])
    for step, data in enumerate(stored["actions"]):
        events = game.apply(action_from_dict(data))
        text = game.to_json()
        assert _h(text) == stored["snapshots"][step], f"snapshot after step {step + 1}"
        assert _step_digest(game, events) == stored["steps"][step], f"step {step + 1}"
        roll = rng.random()
        if roll < 0.04:
            game = Game.from_json(text)
            assert game.to_json() == text
        elif roll < 0.08:
            game = game.copy()
    assert game.is_over
    assert list(game.scores) == stored["final_scores"]
    assert game.to_json() == stored["final_json"]
