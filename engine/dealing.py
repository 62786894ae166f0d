"""Setting up a game from its seed (RULES.md 2), and rebuilding one from its seed and actions.

The seed alone decides the deal: one generator shuffles the seats, the money and the buildings,
then places the two scoring cards, always in this order. Stored games are replayed from their
seed, so changing anything here (even the order of the draws) changes every stored game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .actions import Action
from .alhambra import Alhambra
from .catalogue import CARD_VALUE, SCORING_CARD_1, SCORING_CARD_2, money_cards
from .game import MARKET_SLOTS, POOL_SIZE, Game
from .options import Options
from .state import TableState

MIN_PLAYERS, MAX_PLAYERS = 2, 6
STARTING_MONEY = 20
DIRK_SETUP = 6
PILES = 5


def new_game(players: int, seed: int, options: Options | None = None) -> Game:
    """Set up a game (RULES.md section 2). Seats are in turn order; `Game.seating` maps them to
    players in join order."""
    _check_setup(players, seed)
    options = options or Options()
    seating, table = _deal(players, random.Random(seed), options)
    return Game.start(players, seed, options, seating, table)


def _check_setup(players: object, seed: object) -> None:
    # Callers that are not type-checked (commands, stored settings) may pass anything.
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Alhambra is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not isinstance(seed, int):
        raise TypeError("the seed must be an int")


def _deal(players: int, rng: random.Random, options: Options) -> tuple[list[int], TableState]:
    """The seating (seat -> player in join order) and the table before the first turn."""
    seating = list(range(players))
    rng.shuffle(seating)
    money = money_cards(players)
    rng.shuffle(money)  # drawn from the end
    supply = list(range(1, 55))
    rng.shuffle(supply)  # drawn from the end

    hands = []
    for _ in range(players):
        hand: list[int] = []
        while sum(CARD_VALUE[c] for c in hand) < STARTING_MONEY:
            hand.append(money.pop())
        hands.append(hand)
    pool = [money.pop() for _ in range(POOL_SIZE)]
    market: list[int | None] = [supply.pop() for _ in range(MARKET_SLOTS)]

    # Five piles as equal as possible, the first drawn first; scoring cards in piles 2 and 4.
    draw_order = money[::-1]
    base, extra = divmod(len(draw_order), PILES)
    piles = []
    at = 0
    for k in range(PILES):
        size = base + (1 if k < extra else 0)
        piles.append(draw_order[at : at + size])
        at += size
    piles[1].insert(rng.randint(0, len(piles[1])), SCORING_CARD_1)
    piles[3].insert(rng.randint(0, len(piles[3])), SCORING_CARD_2)
    deck = [c for pile in piles for c in pile][::-1]

    dirk = [supply.pop() for _ in range(DIRK_SETUP)] if players == 2 else None
    table = TableState(
        hands=hands,
        alhambras=[Alhambra(options.holes) for _ in range(players)],
        reserves=[[] for _ in range(players)],
        scores=[0] * players,
        deck=deck,
        discard=[],
        pool=pool,
        market=market,
        supply=supply,
        dirk=dirk,
        current=0,
        phase="action",
        actions_done=0,
        pending=[],
        final=False,
        final_queue=[],
        scoring_aside=[],
        rounds=[],
        reshuffles=0,
        ranks=None,
        turn_no=0,
        unclaimed=[],
    )
    return seating, table


def replay(
    players: int, seed: int, options: Options | None, actions: Iterable[Action | dict[str, Any]]
) -> Game:
    """Rebuild a game from its seed and action log; raises IllegalAction if the log is not legal."""
    game = new_game(players, seed, options)
    for action in actions:
        game.apply(action)
    return game
