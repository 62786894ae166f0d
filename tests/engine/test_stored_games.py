"""Games stored by an earlier engine must load, serialise and replay exactly as they were.

`data/stored_games.json` was written once by the engine as it stood before its table state became
a typed dataclass, and must never be regenerated: it is the evidence that snapshots and action
logs stay byte-compatible. Each game holds its seed, options, complete action log (random play,
with some undos and skipped turns), snapshots taken mid-turn and during the final placements,
and a hash of the finished game's JSON.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Options, replay

STORED = json.loads((Path(__file__).parent / "data" / "stored_games.json").read_text())
GAMES: list[dict[str, Any]] = STORED["games"]


def _text(game: Game) -> str:
    return json.dumps(game.to_dict())


def _sha(game: Game) -> str:
    return hashlib.sha256(_text(game).encode()).hexdigest()


def _id(stored: dict[str, Any]) -> str:
    return f"{stored['players']}p-seed{stored['seed']}"


@pytest.mark.parametrize("stored", GAMES, ids=_id)
def test_a_stored_snapshot_loads_and_serialises_unchanged(stored):
    for snap in stored["snapshots"]:
        game = Game.from_dict(snap["game"])
        assert _text(game) == json.dumps(snap["game"])
        assert Game.from_json(game.to_json()).to_json() == game.to_json()


@pytest.mark.parametrize("stored", GAMES, ids=_id)
def test_a_stored_snapshot_plays_on_to_the_stored_end(stored):
    for snap in stored["snapshots"]:
        game = Game.from_dict(snap["game"])
        for action in stored["actions"][snap["after"] :]:
            game.apply(action)
        assert game.is_over
        assert list(game.scores) == stored["final_scores"]
        assert _sha(game) == stored["final_sha256"]


@pytest.mark.parametrize("stored", GAMES, ids=_id)
def test_a_stored_action_log_replays_identically(stored):
    options = Options.model_validate(stored["options"])
    args = (stored["players"], stored["seed"], options)
    for snap in stored["snapshots"]:
        partial = replay(*args, stored["actions"][: snap["after"]])
        assert _text(partial) == json.dumps(snap["game"])
    game = replay(*args, stored["actions"])
    assert list(game.scores) == stored["final_scores"]
    assert _sha(game) == stored["final_sha256"]
