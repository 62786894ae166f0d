"""Computer players for Alhambra, weakest first: `random`, `easy`, `normal`, `hard`, `expert`.

    >>> from engine.ai import make_player
    >>> bot = make_player("normal", seed=1)
    >>> action = bot.choose(game.view(seat), history)   # doctest: +SKIP

`history` is the public event log of the game (`game.setup_events()` followed by every list of
events `apply` returned, `Undone` included): it is how a player remembers the hands others
revealed. A player never sees a `Game`. The code is pure (no clock, no I/O: the same view and
history give the same move on any machine): run it off the bot's event loop, e.g. with
`asyncio.to_thread`.
"""

from __future__ import annotations

import random

from .advice import REASON_CODES, Advice, Reason, advise, reason_for
from .easy import EasyPlayer
from .expert import ExpertPlayer
from .hard import HardPlayer
from .knowledge import Knowledge, deduce
from .normal import NormalPlayer
from .player import NotYourTurn, Player
from .random_player import RandomPlayer

#: The levels from weakest to strongest, by the name players and commands use.
LEVELS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": HardPlayer,
    "expert": ExpertPlayer,
}

BOT_NAMES = (
    "Ali",
    "Boabdil",
    "Fatima",
    "Ibn Battuta",
    "Layla",
    "Nasrid",
    "Yusuf",
    "Zaida",
    "Zoraya",
    "Aixa",
)


def make_player(level: str, seed: int = 0) -> Player:
    """A computer player of that level; raises ValueError naming the levels for a bad one."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"There is no computer level {level!r}; choose one of {', '.join(LEVELS)}."
        ) from None
    return cls(seed)


def display_name(
    level: str, rng: random.Random, taken: set[str] | frozenset[str] = frozenset()
) -> str:
    """A name such as "Bot Ali (hard)", avoiding the names in `taken`."""
    if level not in LEVELS:
        raise ValueError(
            f"There is no computer level {level!r}; choose one of {', '.join(LEVELS)}."
        )
    names = [f"Bot {n} ({level})" for n in BOT_NAMES]
    free = [n for n in names if n not in taken]
    if free:
        return rng.choice(free)
    k = 2
    while f"Bot {BOT_NAMES[0]} {k} ({level})" in taken:
        k += 1
    return f"Bot {BOT_NAMES[0]} {k} ({level})"


__all__ = [
    "LEVELS",
    "REASON_CODES",
    "Advice",
    "EasyPlayer",
    "ExpertPlayer",
    "HardPlayer",
    "Knowledge",
    "NormalPlayer",
    "NotYourTurn",
    "Player",
    "RandomPlayer",
    "Reason",
    "advise",
    "deduce",
    "display_name",
    "make_player",
    "reason_for",
]
