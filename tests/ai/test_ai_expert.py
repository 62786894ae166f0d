"""Level `expert`: legal actions only, decisions from the view and public log alone, the same
decision for the same seed on any machine, and a search that keeps to its budget of playouts."""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import pytest

from engine import Action, Buy, Event, Game, SeatView, Undo, new_game
from engine.ai import ExpertPlayer, Knowledge, Player, advise, lookahead, make_player
from engine.ai import expert as expert_module
from engine.ai.expert import EXPERT_WEIGHTS, distinct
from engine.ai.hard import HARD_WEIGHTS
from engine.ai.normal import score_actions


def driven(seed: int, steps: int) -> tuple[Game, list[Event]]:
    """A 3-player game driven `steps` steps by easy players, then to the start of a turn."""
    game = new_game(3, seed)
    history = game.setup_events()
    drivers = [make_player("easy", s) for s in range(3)]
    for _ in range(steps):
        seat = game.current_seat
        history.extend(game.apply(drivers[seat].choose(game.view(seat), history)))
    while game.phase != "action" or game.actions_this_turn:
        seat = game.current_seat
        history.extend(game.apply(drivers[seat].choose(game.view(seat), history)))
    return game, history


def searched_position(monkeypatch: pytest.MonkeyPatch) -> tuple[Game, list[Event], list[int]]:
    """A position where the expert does search (its one-step values are close), and a counter
    of the playouts it runs."""
    calls = [0]
    real = lookahead.playout

    def counting(*args: object, **kwargs: object) -> None:
        calls[0] += 1
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lookahead, "playout", counting)
    for steps in range(30, 200, 7):
        game, history = driven(21, steps)
        seat = game.current_seat
        assert seat is not None
        calls[0] = 0
        ExpertPlayer(5, simulations=6).choose(game.view(seat), history)
        if calls[0]:
            return game, history, calls
    raise AssertionError("no close decision found")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_expert_plays_whole_games_with_legal_actions_only(players: int) -> None:
    seed = 300 + players
    rng = random.Random(seed)
    game = new_game(players, seed)
    seats: list[Player] = [
        make_player(rng.choice(["random", "easy", "normal"]), seed + s) for s in range(players)
    ]
    seats[seed % players] = ExpertPlayer(seed, simulations=6, top_k=3)
    history = game.setup_events()
    moves = 0
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        action = seats[seat].choose(game.view(seat), history)
        assert action in game.legal_actions() and not isinstance(action, Undo)
        history.extend(game.apply(action))
        moves += 1
    assert game.winners and moves > 20


def test_expert_decides_the_same_from_the_same_seed_and_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, history, _calls = searched_position(monkeypatch)
    seat = game.current_seat
    assert seat is not None
    view = game.view(seat)
    first = ExpertPlayer(5, simulations=6).choose(view, history)
    again = ExpertPlayer(5, simulations=6)
    assert again.choose(view, history) == first
    assert again.choose(game.copy().view(seat), list(history)) == first


def test_expert_ignores_hidden_information(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deck and supply order differ, the view and log do not: the same decision, also when
    the expert really searches (it samples its own worlds, never the game's)."""
    game, history, calls = searched_position(monkeypatch)
    snapshot = json.loads(game.to_json())
    rng = random.Random(99)
    for part in ("state", "turn_start"):
        rng.shuffle(snapshot[part]["deck"])
        rng.shuffle(snapshot[part]["supply"])
    other = Game.from_dict(snapshot)
    assert other.deck != game.deck and other.supply != game.supply
    seat = game.current_seat
    assert seat is not None
    assert other.view(seat) == game.view(seat)
    calls[0] = 0
    player = ExpertPlayer(5, simulations=6)
    assert player.choose(game.view(seat), history) == player.choose(other.view(seat), history)
    assert calls[0] > 0


def test_expert_keeps_to_its_playout_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    game, history, calls = searched_position(monkeypatch)
    seat = game.current_seat
    assert seat is not None
    for budget in (2, 6, 13):
        calls[0] = 0
        action = ExpertPlayer(5, simulations=budget).choose(game.view(seat), history)
        assert action in game.legal_actions()
        assert 0 < calls[0] <= budget


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_decision_is_the_same_however_slow_the_machine(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint is a level's decision for the seat's view and the public log, and so is a computer
    player's move: with a clock that jumps an hour at every reading, as on a machine slowed to a
    crawl, the whole budget of playouts is still played, and the move and its reason are the
    same. (A search cut by a wall-clock deadline gave another hint under load.)"""
    game, history, calls = searched_position(monkeypatch)
    seat = game.current_seat
    assert seat is not None
    view = game.view(seat)
    calls[0] = 0
    calm = advise(make_player(level, 5), view, history)
    budget = calls[0]
    assert budget > 1

    ticks = itertools.count()

    def crawling() -> float:
        return 3600.0 * next(ticks)

    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, crawling)
    calls[0] = 0
    slowed = advise(make_player(level, 5), view, history)
    assert calls[0] == budget
    assert slowed == calm


def test_expert_searches_distinct_moves_one_payment_per_building(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the hand can pay a building in several ways, only the best payment is a candidate:
    the playouts go to different moves."""
    seen: list[list[Action]] = []
    real = lookahead.compare

    def recording(
        view: SeatView, know: Knowledge, candidates: list[Action], *a: Any, **k: Any
    ) -> list[float | None]:
        seen.append(list(candidates))
        return real(view, know, candidates, *a, **k)

    monkeypatch.setattr(expert_module, "compare", recording)
    for seed in range(40, 60):
        for steps in range(20, 120, 9):
            game, history = driven(seed, steps)
            seat = game.current_seat
            assert seat is not None
            legal = game.legal_actions()
            slots = [a.slot for a in legal if isinstance(a, Buy)]
            if len(slots) == len(set(slots)):
                continue
            view = game.view(seat)
            ranked = score_actions(view, legal, HARD_WEIGHTS)
            player = ExpertPlayer(5, simulations=10)
            top = [a for _v, a in ranked[: player.top_k]]
            top_slots = [a.slot for a in top if isinstance(a, Buy)]
            if len(top_slots) == len(set(top_slots)):
                continue  # the favourites already are distinct moves
            seen.clear()
            action = player.choose(view, history)
            assert action in legal
            assert len(seen) == 1
            candidates = seen[0]
            bought = [a.slot for a in candidates if isinstance(a, Buy)]
            assert len(bought) == len(set(bought))
            assert len(candidates) == min(player.top_k, len(distinct(ranked, 99)))
            # each building's payment is its best-ranked one
            for c in candidates:
                if isinstance(c, Buy):
                    assert c == next(
                        a for _v, a in ranked if isinstance(a, Buy) and a.slot == c.slot
                    )
            return
    raise AssertionError("no position with two payments for one building among the favourites")


def test_expert_plays_the_opponents_with_hards_judgement(monkeypatch: pytest.MonkeyPatch) -> None:
    """In its playouts the others move as `hard` judges, the level it is measured against."""
    weights: list[object] = []
    real = lookahead.playout

    def recording(*args: Any, **kwargs: Any) -> None:
        weights.append(args[5] if len(args) > 5 else kwargs["others"])
        real(*args, **kwargs)

    game, history, _calls = searched_position(monkeypatch)
    monkeypatch.setattr(lookahead, "playout", recording)
    seat = game.current_seat
    assert seat is not None
    ExpertPlayer(5, simulations=6).choose(game.view(seat), history)
    assert weights and all(w is HARD_WEIGHTS for w in weights)


def test_expert_plays_its_own_turns_with_its_sharper_judgement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its own moves in the playouts, and the positions they reach, are judged with
    `EXPERT_WEIGHTS` (today's majorities held more firmly than `hard` holds them), while the
    others keep `HARD_WEIGHTS`."""
    own: list[object] = []
    valued: list[object] = []
    real_playout, real_value = lookahead.playout, lookahead.position_value

    def recording(*args: Any, **kwargs: Any) -> None:
        own.append(args[3])
        real_playout(*args, **kwargs)

    def valuing(game: Game, seat: int, w: Any) -> float:
        valued.append(w)
        return real_value(game, seat, w)

    game, history, _calls = searched_position(monkeypatch)
    monkeypatch.setattr(lookahead, "playout", recording)
    monkeypatch.setattr(lookahead, "position_value", valuing)
    seat = game.current_seat
    assert seat is not None
    ExpertPlayer(5, simulations=6).choose(game.view(seat), history)
    assert EXPERT_WEIGHTS.spread < HARD_WEIGHTS.spread
    assert own and all(w is EXPERT_WEIGHTS for w in own)
    assert valued and all(w is EXPERT_WEIGHTS for w in valued)
