"""A finished game looked back on: where the strongest affordable judgement disagreed with a
player, and by how many points.

`review_game` replays the stored actions from the seed. At each of the seat's decisions it asks
what the seat could see then (`Game.view(seat)`: its own hand, which the public log shows to
everyone in Alhambra anyway, and the public table) and the public history, so it judges with
exactly what a computer player in that seat would have had.

Two passes keep it affordable:
1. every decision is valued with `hard`'s one-step judgement (`score_actions` with
   `HARD_WEIGHTS`, milliseconds each): the gap between its best action and the one played;
2. the `deep` largest gaps among action-phase choices are checked
   again the way `hard` decides: the played action and `hard`'s favourites are played forward in
   the same `worlds` sampled worlds (`world.sample_world`, from the seat's knowledge only), and
   the points at stake are the difference of one-step value plus mean position value.
A placement is judged in one step, as `hard` places: the position after the played cell (or the
reserve) against the position after the best one, on `position_value`'s points scale. So the
listed turns are those where the judgement, looking ahead where it matters, confirms a loss,
with its estimate in points.

Deterministic: the worlds are drawn from a generator seeded by the game's seed, the seat and the
decision's place in the log, and the search's size is fixed (no clock, as in every `lookahead`
search).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action, EndTurn, Skip, Undo
from ..dealing import new_game
from ..events import Event, TurnEnded
from ..game import Game
from ..options import Options
from ..view import SeatView
from .advice import Reason, reason_for
from .hard import HARD_WEIGHTS
from .knowledge import deduce
from .lookahead import compare, position_value
from .normal import score_actions
from .player import candidate_actions

#: The level whose judgement a review gives (its weights and its look-ahead).
REVIEW_LEVEL = "hard"


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One decision where the judgement would have played otherwise."""

    #: the turn, counted as the replay counts them (1 = the game's first turn)
    turn: int
    #: the seat's view at the decision (to word both actions against)
    view: SeatView
    played: Action
    suggested: Action
    reason: Reason
    #: the estimated points the played action gave away
    stake: float


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    #: the seat's decisions looked at (those with more than one choice)
    decisions: int
    #: the points at stake in each of the seat's turns: (turn, points), in turn order
    per_turn: tuple[tuple[int, float], ...]
    #: the largest disagreements, largest first
    top: tuple[Disagreement, ...]
    level: str = REVIEW_LEVEL


@dataclass(slots=True)
class _Decision:
    index: int
    turn: int
    view: SeatView
    history: int  # events known then: a prefix of the history
    played: Action
    best: Action
    gap: float
    stake: float = 0.0
    suggested: Action | None = None


def _stood(actions: Sequence[Action]) -> list[bool]:
    """Which steps stood: an `Undo` takes back the latest standing step of its turn."""
    stood = [True] * len(actions)
    turn: list[int] = []
    for i, action in enumerate(actions):
        if isinstance(action, Undo):
            stood[i] = False
            if turn:
                stood[turn.pop()] = False
        elif isinstance(action, EndTurn | Skip):
            turn = []
        else:
            turn.append(i)
    return stood


def review_game(
    players: int,
    seed: int,
    options: Options,
    actions: Sequence[Action],
    seat: int,
    *,
    top: int = 5,
    deep: int = 10,
    worlds: int = 5,
    candidates: int = 3,
    min_stake: float = 0.5,
) -> Review:
    """The review of `seat`'s play in the game these actions made (see the module docstring):
    the `top` largest disagreements of at least `min_stake` points."""
    game = new_game(players, seed, options)
    history: list[Event] = list(game.setup_events())
    stood = _stood(actions)
    found: list[_Decision] = []
    turn = 1
    for i, action in enumerate(actions):
        if stood[i] and game.current_seat == seat and not isinstance(action, EndTurn | Skip):
            decision = _one_step(game, seat, i, turn, action, len(history))
            if decision is not None:
                found.append(decision)
        events = game.apply(action)
        history.extend(events)
        turn += sum(1 for e in events if isinstance(e, TurnEnded))
    w = HARD_WEIGHTS
    for d in found:
        d.stake, d.suggested = d.gap, d.best
    searched = sorted(
        (
            d
            for d in found
            if d.gap > 1e-6 and d.view.phase == "action" and not d.view.final_placement
        ),
        key=lambda d: (-d.gap, d.index),
    )[:deep]
    for d in searched:
        rng = random.Random(f"review/{seed}/{seat}/{d.index}")
        d.stake, d.suggested = _look_ahead(d, history[: d.history], rng, worlds, candidates)
    per: dict[int, float] = {}
    for d in found:
        per[d.turn] = per.get(d.turn, 0.0) + max(0.0, d.stake)
    listed = sorted(
        (d for d in found if d.stake >= min_stake and d.suggested is not None),
        key=lambda d: (-d.stake, d.index),
    )[:top]
    out = []
    for d in listed:
        assert d.suggested is not None
        out.append(
            Disagreement(
                d.turn, d.view, d.played, d.suggested, reason_for(d.view, d.suggested, w), d.stake
            )
        )
    return Review(seat, len(found), tuple(sorted(per.items())), tuple(out))


def _one_step(
    game: Game, seat: int, index: int, turn: int, played: Action, known: int
) -> _Decision | None:
    view = game.view(seat)
    options = candidate_actions(view)
    if len(options) < 2 or played not in options:
        return None
    ranked = score_actions(view, options, HARD_WEIGHTS)
    best_value, best = ranked[0]
    if view.phase != "action" or view.final_placement:
        # a placement's one-step scale ranks the reserve and Dirk below every cell by a
        # thousand points: value both positions on the points scale instead (nothing hidden
        # happens before the turn ends, so this is exact as far as the valuation goes)
        gap = _after(game, best, seat) - _after(game, played, seat)
    else:
        gap = best_value - next(v for v, a in ranked if a == played)
    return _Decision(index, turn, view, known, played, best, gap)


def _after(game: Game, action: Action, seat: int) -> float:
    trial = game.copy()
    trial.apply(action)
    return position_value(trial, seat, HARD_WEIGHTS)


def _look_ahead(
    d: _Decision, history: list[Event], rng: random.Random, worlds: int, candidates: int
) -> tuple[float, Action]:
    """`hard`'s search over its favourites and the played action, in the same worlds: the
    points the played action gives away against the best of them, and that best."""
    view, w = d.view, HARD_WEIGHTS
    assert view.seat is not None
    ranked = score_actions(view, candidate_actions(view), w)
    tried = [a for _v, a in ranked[:candidates]]
    if d.played not in tried:
        tried.append(d.played)
    one_step = {a: v for v, a in ranked}
    means = compare(view, deduce(view, history), tried, rng, worlds, w)
    scores = [one_step[a] + m for a, m in zip(tried, means, strict=True)]
    best = max(range(len(tried)), key=lambda k: (scores[k], -k))
    played = tried.index(d.played)
    return scores[best] - scores[played], tried[best]
