"""A bot database written before the engine's second round of speed work must replay to the same
bytes.

`data/engine_v2_games.sqlite3` was written once by `data/make_engine_v2.py` through the game
service, and must never be regenerated: six games (four finished, two stopped mid-game; two to
six seats, people and computers, both hole rules, random moves with undos). Each stored snapshot
is the engine's `to_json()` after the game's whole action log; replaying the log from the seed
with today's engine must give exactly those bytes, and so must each stored snapshot restored.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from engine import Game, Options, action_from_dict, new_game

DATABASE = Path(__file__).parent / "data" / "engine_v2_games.sqlite3"


def _games() -> list[tuple[int, int, str, str, str, list[tuple[int, str]]]]:
    conn = sqlite3.connect(DATABASE.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        out = []
        for gid, status, options, seed, snapshot in conn.execute(
            "SELECT id, status, options, seed, snapshot FROM games ORDER BY id"
        ):
            seats = conn.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (gid,))
            log = conn.execute(
                "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)
            ).fetchall()
            out.append((seats.fetchone()[0], seed, status, options, snapshot, log))
        return out
    finally:
        conn.close()


def test_every_stored_game_replays_to_its_stored_snapshot_byte_for_byte() -> None:
    games = _games()
    assert [g[2] for g in games] == ["finished"] * 3 + ["active"] * 2 + ["finished"]
    assert sorted(g[0] for g in games) == [2, 3, 3, 4, 5, 6]
    for players, seed, status, options, snapshot, log in games:
        game = new_game(players, seed, Options.model_validate(json.loads(options)))
        for seat, action in log:
            assert game.current_seat == seat
            game.apply(action_from_dict(json.loads(action)))
        assert game.to_json() == snapshot
        assert game.is_over == (status == "finished")
        restored = Game.from_json(snapshot)
        assert restored.to_json() == snapshot
        assert restored.legal_actions() == game.legal_actions()
        if not restored.is_over:
            # a restored game plays on like the replayed one
            for _ in range(50):
                if game.is_over:
                    break
                action = game.legal_actions()[0]
                assert game.apply(action) == restored.apply(action)
            assert restored.to_json() == game.to_json()
