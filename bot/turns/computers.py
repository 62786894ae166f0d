"""Computer players at the table: the one way a computer decides a move for a seat.

Used for computer seats, for the stand-in that plays a silent human's turn after a deadline
(at the level the host chose for the game), for a player's hint (`hint`: what a level, `hard`
unless they ask another, would do in their place, and why), and for the review of a finished
game (`review`: where that judgement disagreed with a player).
The engine's players are pure and synchronous (`engine.ai`) and a `hard` or `expert` decision
can take a second of CPU, so it runs in a worker process (`core.workers`) while the event loop
keeps answering others. The view and the history are immutable and copied to the worker, so the
stored game can move on meanwhile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Action, Event, Options, SeatView
from engine.ai import Advice, Player, advise, make_player
from engine.ai.player import seat_seed
from engine.ai.review import Review, review_game

from ..core import workers
from ..core.services import Services
from ..ops import metrics


def player_seed(game_seed: int | None, seat: int) -> int:
    """Each computer seat's own decisions, fixed by the game: a restart repeats its choices
    (`engine.ai.player.seat_seed`, which the review uses too, so it never calls the hint's move
    a mistake)."""
    return seat_seed(game_seed, seat)


def choose(level: str, seed: int, view: SeatView, history: Sequence[Event]) -> Action:
    """A computer player's action for this view: run in a worker, so a module-level function
    of picklable arguments. A player is made for each decision from its seed: the same
    position always gets the same move, whichever worker takes it."""
    player: Player = make_player(level, seed)
    return player.choose(view, list(history))


@dataclass(frozen=True)
class Decision:
    action: Action
    #: the game version the decision was made at: the move is refused if the game moved on
    version: int


async def decide(services: Services, game_id: int, seat: int, level: str) -> Decision | None:
    """What a computer player of `level` plays at `seat` now, from that seat's view and the
    public history only; None when it is not that seat's decision."""
    viewed = await services.play.seat_view(game_id, seat)
    game = viewed.game
    if game.status != "active" or game.current_seat != seat:
        return None
    game_log = await services.play.log(game_id)
    action = await workers.current().run(
        metrics.AI_SECONDS.labels(level).observe,
        choose,
        level,
        player_seed(game.seed, seat),
        viewed.view,
        tuple(game_log.public_history),
    )
    return Decision(action, game.version)


#: The level whose judgement a hint gives unless the player asks another
#: (`core.services.HINT_LEVELS`).
HINT_LEVEL = "hard"


def advice(level: str, seed: int, view: SeatView, history: Sequence[Event]) -> Advice:
    """A hint for this view, in a worker: the level's move and its main motive."""
    return advise(make_player(level, seed), view, list(history))


@dataclass(frozen=True)
class Hint:
    advice: Advice
    #: the view the hint was given for (its actions are labelled against it)
    view: SeatView
    #: hints this player has asked in the game, this one included
    used: int


async def hint(services: Services, game_id: int, user_id: int, level: str = HINT_LEVEL) -> Hint:
    """What `level` (`hard` unless asked; one of `HINT_LEVELS`) would do for `user_id` now,
    decided exactly as a computer player sitting there would decide (that seat's view and the
    public history only), and recorded. Refused (nothing recorded) unless it is their decision
    in a running unrated game, or if `level` is not a hint's."""
    viewed = await services.play.hint_view(game_id, user_id, level)
    game = viewed.game
    assert viewed.seat is not None
    game_log = await services.play.log(game_id)
    given = await workers.current().run(
        metrics.AI_SECONDS.labels("hint").observe,
        advice,
        level,
        player_seed(game.seed, viewed.seat),
        viewed.view,
        tuple(game_log.public_history),
    )
    used = await services.play.record_hint(game_id, game.version, user_id)
    return Hint(given, viewed.view, used)


async def review(services: Services, game_id: int, seat: int) -> tuple[Review, int]:
    """The review of `seat`'s play in a finished game (`engine.ai.review`), in a worker, and
    the number of turns the game had. Refused unless the game is finished."""
    game_log = await services.play.finished_log(game_id)
    game = game_log.game
    assert game.seed is not None
    done = await workers.current().run(
        metrics.AI_SECONDS.labels("review").observe,
        review_game,
        len(game.seats),
        game.seed,
        Options.model_validate(game.options),
        tuple(entry.action for entry in game_log.entries),
        seat,
    )
    return done, len(game_log.turns())
