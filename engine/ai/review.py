"""A finished game looked back on: where the `hard` level would have played otherwise, and how
many points that was worth, measured by playing the game to its end.

`review_game` replays the stored actions from the seed. At each of the seat's decisions it asks
what the seat could see then (`Game.view(seat)`: its own hand, which the public log shows to
everyone in Alhambra anyway, and the public table) and the public history, so it judges with
exactly what a computer player in that seat would have had.

Three steps keep it honest and affordable:
1. **Screen.** Every decision is valued with `hard`'s one-step judgement (`score_actions` with
   `HARD_WEIGHTS`, milliseconds each): the gap between its best action and the one played. This
   only chooses which decisions to look at; it is not a number of points.
2. **Suggest.** At the `deep` largest gaps, the suggested move is what `hard` itself plays there,
   decided exactly as a hint of that level is (the same seed, `player.seat_seed`, the same view
   and history). When the player played that move, the decision is not a mistake, whatever the
   screen said: the review never contradicts the hint of its own level.
3. **Measure.** The played and the suggested move are each played to the end of the game in the
   same `worlds` sampled worlds (`world.sample_world`, from the seat's knowledge only: common
   random numbers, the same hidden cards and the same later shuffles for both moves), everyone
   with a one-step judgement (the seat `hard`'s, the others `normal`'s, as in `lookahead`). In
   each world the seat's final margin over the best opponent is taken, and the paired
   differences (suggested minus played) are averaged. A turn is listed only when that mean is
   more than `sigmas` standard errors of the paired differences above zero (and at least
   `min_stake`): a margin the playouts support, not sampling noise. The points shown are then
   measured again in `worlds` fresh worlds, since the worlds that picked a turn out would
   overstate it (the winner's curse); a turn whose fresh estimate falls below `min_stake` is
   dropped.

So "points at stake" means: how many more points, against the best opponent at the end of the
game, the suggested move made than the played one in the same sampled futures. A measured
estimate under one playout policy, not a certainty.

Deterministic: the worlds are drawn from a generator seeded by the game's seed, the seat and the
decision's place in the log, and the search's size is fixed (no clock).
"""

from __future__ import annotations

import math
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
from .hard import HARD_WEIGHTS, HardPlayer
from .knowledge import deduce
from .lookahead import playout, position_value
from .normal import score_actions
from .player import candidate_actions, seat_seed
from .world import sample_world

#: The level whose judgement a review gives (its suggested moves are that level's own).
REVIEW_LEVEL = "hard"

#: Enough `playout` rounds to reach the end of any game from any position.
TO_THE_END = 10**6


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
    #: the points the played action gave away: the mean paired difference of final margins
    stake: float
    #: the standard error of that mean (the paired differences' spread over the worlds)
    error: float = 0.0


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    #: the seat's decisions looked at (those with more than one choice)
    decisions: int
    #: the measured points at stake in each of the seat's turns, where the playouts support a
    #: loss: (turn, points), in turn order
    per_turn: tuple[tuple[int, float], ...]
    #: the largest supported disagreements, largest first
    top: tuple[Disagreement, ...]
    level: str = REVIEW_LEVEL


@dataclass(slots=True)
class _Decision:
    index: int
    turn: int
    view: SeatView
    history: int  # events known then: a prefix of the history
    played: Action
    gap: float


@dataclass(frozen=True, slots=True)
class Measured:
    """The paired comparison of two moves played to the end in the same worlds."""

    mean: float
    error: float
    worlds: int


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
    deep: int = 6,
    worlds: int = 12,
    min_stake: float = 0.5,
    sigmas: float = 2.0,
) -> Review:
    """The review of `seat`'s play in the game these actions made (see the module docstring):
    the `top` largest measured disagreements of at least `min_stake` points and `sigmas`
    standard errors."""
    game = new_game(players, seed, options)
    history: list[Event] = list(game.setup_events())
    stood = _stood(actions)
    found: list[_Decision] = []
    turn = 1
    for i, action in enumerate(actions):
        if stood[i] and game.current_seat == seat and not isinstance(action, EndTurn | Skip):
            decision = _screen(game, seat, i, turn, action, len(history))
            if decision is not None:
                found.append(decision)
        events = game.apply(action)
        history.extend(events)
        turn += sum(1 for e in events if isinstance(e, TurnEnded))
    hard = HardPlayer(seat_seed(seed, seat))
    screened = sorted((d for d in found if d.gap > 1e-6), key=lambda d: (-d.gap, d.index))
    listed: list[Disagreement] = []
    measured = 0
    for d in screened[: 2 * deep]:
        if measured >= deep:
            break
        known = history[: d.history]
        suggested = hard.choose(d.view, known)
        if suggested == d.played:
            continue  # the level's own move (its hint) is never a mistake
        measured += 1
        rng = random.Random(f"review/{seed}/{seat}/{d.index}")
        first = measure(d.view, known, d.played, suggested, rng, worlds, early=True)
        if not (first.mean >= min_stake and first.mean > sigmas * first.error):
            continue
        # the estimate comes from fresh worlds: the ones that chose the turn would overstate it
        m = measure(d.view, known, d.played, suggested, rng, worlds)
        if m.mean >= min_stake:
            reason = reason_for(d.view, suggested, HARD_WEIGHTS)
            listed.append(
                Disagreement(d.turn, d.view, d.played, suggested, reason, m.mean, m.error)
            )
    per: dict[int, float] = {}
    for x in listed:
        per[x.turn] = per.get(x.turn, 0.0) + x.stake
    ranked = sorted(listed, key=lambda x: (-x.stake, x.turn))[:top]
    return Review(seat, len(found), tuple(sorted(per.items())), tuple(ranked))


def _screen(
    game: Game, seat: int, index: int, turn: int, played: Action, known: int
) -> _Decision | None:
    """The one-step gap between `hard`'s favourite and the played action: where to look."""
    view = game.view(seat)
    options = candidate_actions(view)
    if len(options) < 2 or played not in options:
        return None
    ranked = score_actions(view, options, HARD_WEIGHTS)
    best_value, best = ranked[0]
    if view.phase != "action" or view.final_placement:
        # a placement's one-step scale ranks the reserve and Dirk below every cell by a
        # thousand points: compare both positions on the points scale instead
        gap = _after(game, best, seat) - _after(game, played, seat)
    else:
        gap = best_value - next(v for v, a in ranked if a == played)
    return _Decision(index, turn, view, known, played, gap)


def _after(game: Game, action: Action, seat: int) -> float:
    trial = game.copy()
    trial.apply(action)
    return position_value(trial, seat, HARD_WEIGHTS)


def final_margin(world: Game, action: Action, seat: int) -> float:
    """`action` played in a copy of `world`, then the game to its end (the seat with `hard`'s
    one-step judgement, the others with `normal`'s): the seat's final score minus the best
    opponent's."""
    trial = world.copy()
    trial.apply(action)
    playout(trial, seat, trial.turn_number, HARD_WEIGHTS, TO_THE_END)
    scores = trial.scores
    others = [s for k, s in enumerate(scores) if k != seat]
    return scores[seat] - (max(others) if others else 0)


def measure(
    view: SeatView,
    history: Sequence[Event],
    played: Action,
    suggested: Action,
    rng: random.Random,
    worlds: int,
    *,
    early: bool = False,
) -> Measured:
    """How many more points (final margin over the best opponent) `suggested` made than
    `played`, each played to the end in the same `worlds` sampled worlds: the mean of the
    paired differences and its standard error. `early`: stop after half the worlds if the
    suggested move was no better on average by then (a screen's saving, never an estimate's)."""
    assert view.seat is not None
    know = deduce(view, list(history))
    diffs: list[float] = []
    for k in range(worlds):
        if early and k == worlds // 2 and k > 1 and sum(diffs) <= 0:
            break  # no better on average in half the worlds: it cannot be shown a loss
        world = sample_world(view, know, rng)
        diffs.append(
            final_margin(world, suggested, view.seat) - final_margin(world, played, view.seat)
        )
    n = len(diffs)
    if n == 0:
        return Measured(0.0, 0.0, 0)
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1) if n > 1 else 0.0
    return Measured(mean, math.sqrt(var / n), n)
