"""Games written by the engine before it was made faster must replay to the very same bytes.

`data/engine_v1_games.json` was written once by the engine at commit 092585f, before the speed
work, and must never be regenerated. For ten games (two to six players, both hole rules; random
play with redesigns, undos and skipped turns) it holds the action log, the SHA-256 of the
snapshot at several points and at the end, and digests of every `legal_actions()` list and of
every event along the way: a faster engine must offer the same actions in the same order (the
computer players and their seeds depend on that order) and tell the same story. `ai_games`
holds the digest of whole games between computer players of several levels, which the seeds
must still reproduce move for move.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Options, action_from_dict, action_to_json, event_to_dict, new_game
from engine.ai import make_player

STORED = json.loads((Path(__file__).parent / "data" / "engine_v1_games.json").read_text())
GAMES: list[dict[str, Any]] = STORED["games"]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _id(stored: dict[str, Any]) -> str:
    return f"{stored['players']}p-{stored['options']['holes']}"


@pytest.mark.parametrize("stored", GAMES, ids=_id)
def test_an_old_log_replays_to_the_same_bytes_legal_lists_and_events(stored):
    game = new_game(stored["players"], stored["seed"], Options.model_validate(stored["options"]))
    legal = hashlib.sha256()
    events = hashlib.sha256()
    for e in game.setup_events():
        events.update(json.dumps(event_to_dict(e)).encode())
    snapshots = {s["after"]: s["sha256"] for s in stored["snapshots"]}
    for step, data in enumerate(stored["actions"], start=1):
        legal.update("|".join(action_to_json(a) for a in game.legal_actions()).encode() + b"\n")
        for e in game.apply(action_from_dict(data)):
            events.update(json.dumps(event_to_dict(e)).encode())
        if step in snapshots:
            assert _sha(game.to_json()) == snapshots[step], f"snapshot after step {step}"
            restored = Game.from_json(game.to_json())
            assert restored.legal_actions() == game.legal_actions()
    assert game.is_over
    assert list(game.scores) == stored["final_scores"]
    assert _sha(game.to_json()) == stored["final_sha256"]
    if stored["final_json"] is not None:
        assert game.to_json() == stored["final_json"]
    assert legal.hexdigest() == stored["legal_sha256"]
    assert events.hexdigest() == stored["events_sha256"]


@pytest.mark.parametrize("key", sorted(STORED["ai_games"]))
def test_computer_players_still_play_the_same_games(key):
    players_text, levels_text, seed_text = key.split(":")
    players, seed, levels = int(players_text), int(seed_text), levels_text.split(",")
    expected = STORED["ai_games"][key]
    game = new_game(players, seed)
    bots = [make_player(levels[s], seed * 10 + s) for s in range(players)]
    history = game.setup_events()
    digest = hashlib.sha256()
    moves = 0
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        action = bots[seat].choose(game.view(seat), history)
        digest.update(action_to_json(action).encode() + b"\n")
        history.extend(game.apply(action))
        moves += 1
    assert (moves, list(game.scores)) == (expected["actions"], expected["scores"])
    assert digest.hexdigest() == expected["sha256"]
