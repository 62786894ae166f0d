"""Concrete games built from what a seat knows, for computer players to try actions on.

`sample_world` is a determinization: the known part of the state (every public thing, the hands
deduced from the log) plus one random guess at the unknown part (the order of the money deck and
of the building supply, and where in the deck the undrawn scoring cards lie). Nothing random
happens inside a turn, so any such world answers "what does this step do" exactly; what happens
after the turn ends is one plausible future among many.

The world is written in the engine's snapshot format (`Game.from_dict`), so the engine needs no
special entry point and the AI never touches a real game's internals.
"""

from __future__ import annotations

import random
from typing import Any

from ..events import event_to_dict
from ..game import JSON_FORMAT, Game
from ..view import SeatView
from .knowledge import Knowledge, undrawn_scoring_cards

PILES = 5


def _scoring_positions(
    view: SeatView, know: Knowledge, undrawn: list[int], rng: random.Random
) -> dict[int, int]:
    """Where (counted from the top of the remaining deck) each undrawn scoring card lies.

    Setup splits the initial deck into five piles and shuffles scoring card 1 into pile 2 and
    card 2 into pile 4. Given how many cards were drawn since, each card is uniformly placed among
    the positions of its pile that are not drawn yet.
    """
    deck = view.deck_size
    if not undrawn or deck == 0:
        return {}
    if know.initial_deck is None or know.reshuffles:
        return {card: rng.randrange(deck) for card in undrawn}
    base, extra = divmod(know.initial_deck, PILES)
    sizes = [base + (1 if k < extra else 0) for k in range(PILES)]
    starts = [sum(sizes[:k]) for k in range(PILES)]
    drawn = know.initial_deck + 2 - deck  # items drawn from the deck, scoring cards included
    out: dict[int, int] = {}
    for card, pile, shift in ((108, 1, 0), (109, 3, 1)):
        if card not in undrawn:
            continue
        first = starts[pile] + shift
        options = [p - drawn for p in range(first, first + sizes[pile] + 1) if p >= drawn]
        options = [p for p in options if p < deck and p not in out.values()]
        out[card] = rng.choice(options) if options else rng.randrange(deck)
    if len(out) == 2 and out[108] == out[109]:
        out[109] = min(deck - 1, out[108] + 1) if out[108] + 1 < deck else out[108] - 1
    return out


def sample_world(view: SeatView, know: Knowledge, rng: random.Random) -> Game:
    """A complete game consistent with `view` and `know`, hidden parts drawn from `rng`."""
    assert view.seat is not None
    players = view.players
    money = list(know.unseen_money)
    rng.shuffle(money)
    hands = [list(h) for h in know.hands]
    discard = list(know.discard)
    if not know.hands_known:
        for seat in range(players):
            if seat != view.seat:
                size = view.table[seat].hand_size
                hands[seat], money = money[:size], money[size:]
        discard, money = money[: view.discard_size], money[view.discard_size :]
    undrawn = undrawn_scoring_cards(view)
    if view.deck_size == 0:
        undrawn = []
    positions = _scoring_positions(view, know, undrawn, rng)
    top_down: list[int | None] = [None] * view.deck_size
    for card, pos in positions.items():
        top_down[pos] = card
    it = iter(money)
    deck_top_down = [c if c is not None else next(it, None) for c in top_down]
    deck = [c for c in deck_top_down if c is not None][::-1]  # the engine draws from the end
    supply = list(know.unseen_tiles)
    rng.shuffle(supply)
    supply = supply[: view.supply_size]
    held = [r.round_no for r in view.scoring_rounds if r.round_no in (1, 2)]
    state: dict[str, Any] = {
        "hands": hands,
        "alhambras": [[list(c) for c in p.alhambra] for p in view.table],
        "reserves": [list(p.reserve) for p in view.table],
        "scores": [p.score for p in view.table],
        "deck": deck,
        "discard": discard,
        "pool": list(view.pool),
        "market": list(view.market),
        "supply": supply,
        "dirk": None if view.dirk is None else list(view.dirk),
        "current": view.current_seat if view.current_seat is not None else view.seat,
        "phase": view.phase,
        "actions_done": view.actions_this_turn,
        "pending": list(view.pending),
        "final": view.final_placement,
        "final_queue": [],
        "scoring_aside": [107 + n for n in held],
        "rounds": [event_to_dict(r) for r in view.scoring_rounds],
        "reshuffles": know.reshuffles,
        "ranks": None if view.ranks is None else list(view.ranks),
        "turn_no": view.turn_number,
        "unclaimed": [],
    }
    snapshot = {
        "format": JSON_FORMAT,
        "players": players,
        "seed": rng.randrange(2**31),
        "options": {"holes": view.holes},
        "seating": list(view.seating),
        "state": state,
        "turn_start": state,
        "turn_actions": [],
        "setup_events": [],
    }
    return Game.from_dict(snapshot)
