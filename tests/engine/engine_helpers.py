"""Helpers shared by the engine tests: rigging positions and checking where every piece is.

Example tests need positions a random deal rarely gives (a hand of exactly these cards, a market
of exactly these buildings). The rig helpers take a copy of the table (`Game.state`), move pieces
from wherever they are to where the test wants them, so the box stays complete (every card and
building in exactly one place), and set it up with `Game.rig`. That only works before the turn's
first step, and makes the rigged position the turn's start, so `Undo` returns to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from hypothesis import settings

from engine import (
    CARDS,
    SCORING_CARDS,
    Alhambra,
    Currency,
    Game,
    Options,
    TableState,
    card_id,
    money_cards,
    new_game,
)
from engine.alhambra import Cell, HoleRule


def scaled_examples(fraction: float, minimum: int = 5) -> int:
    """An example count for a costly property test, a share of the loaded Hypothesis profile's
    (the `long` profile lengthens these tests too)."""
    return max(minimum, int(settings.default.max_examples * fraction))


def game(players: int = 3, seed: int = 0, holes: HoleRule = "classic") -> Game:
    return new_game(players, seed, Options(holes=holes))


def crown(value: int, copy: int = 0) -> int:
    return card_id(Currency.CROWN, value, copy)


def dirham(value: int, copy: int = 0) -> int:
    return card_id(Currency.DIRHAM, value, copy)


def dinar(value: int, copy: int = 0) -> int:
    return card_id(Currency.DINAR, value, copy)


def ducat(value: int, copy: int = 0) -> int:
    return card_id(Currency.DUCAT, value, copy)


# --- rigging ------------------------------------------------------------------------------------


def _pull_card(s: TableState, c: int) -> None:
    for place in (s.deck, s.discard, s.pool, *s.hands):
        if c in place:
            place.remove(c)
            return
    raise AssertionError(f"card {c} is nowhere in the game")


def _pull_building(s: TableState, tile: int) -> None:
    places: list[list[int]] = [s.supply, s.pending, *s.reserves]
    if s.dirk is not None:
        places.append(s.dirk)
    for place in places:
        if tile in place:
            place.remove(tile)
            return
    if tile in s.market:
        s.market[s.market.index(tile)] = None
        return
    for alhambra in s.alhambras:
        for cell, t in alhambra.tiles.items():
            if t == tile:
                alhambra.remove(cell)
                return
    raise AssertionError(f"building {tile} is nowhere in the game")


def set_hand(g: Game, seat: int, cards: Iterable[int]) -> None:
    """Seat `seat` holds exactly `cards`; its old cards go to the discard pile."""
    s = g.state
    cards = list(cards)
    for c in cards:
        _pull_card(s, c)
    s.discard.extend(s.hands[seat])
    s.hands[seat] = cards
    g.rig(s)


def set_pool(g: Game, cards: Iterable[int]) -> None:
    """The money pool holds exactly `cards`; its old cards go to the discard pile."""
    s = g.state
    cards = list(cards)
    for c in cards:
        _pull_card(s, c)
    s.discard.extend(s.pool)
    s.pool = cards
    g.rig(s)


def set_market(g: Game, tiles: Iterable[int | None]) -> None:
    """The market holds exactly `tiles` (slot 1 first); its old buildings go back to the supply
    bottom (drawn last)."""
    s = g.state
    tiles = list(tiles)
    assert len(tiles) == 4
    old = [t for t in s.market if t is not None and t not in tiles]
    for t in tiles:
        if t is not None:
            _pull_building(s, t)
    for t in old:
        if t in s.market:
            s.market[s.market.index(t)] = None
    s.supply[:0] = old
    s.market = tiles
    g.rig(s)


def _replace(s: TableState, current: Iterable[int], wanted: Iterable[int]) -> None:
    """Pull the wanted buildings not already in place; put the unwanted ones back in the supply
    bottom (drawn last)."""
    current, wanted = list(current), list(wanted)
    for t in wanted:
        if t not in current:
            _pull_building(s, t)
    s.supply[:0] = [t for t in current if t not in wanted]


def set_alhambra(g: Game, seat: int, tiles: Mapping[Cell, int]) -> None:
    """Seat `seat`'s Alhambra holds exactly `tiles` (plus the fountain)."""
    s = g.state
    current = list(s.alhambras[seat].tiles.values())
    s.alhambras[seat] = Alhambra(g.options.holes)
    _replace(s, current, tiles.values())
    s.alhambras[seat] = Alhambra.from_tiles(tiles, g.options.holes)
    assert s.alhambras[seat].problems() == [], "a rigged Alhambra must be legal"
    g.rig(s)


def set_reserve(g: Game, seat: int, tiles: Iterable[int]) -> None:
    s = g.state
    tiles = list(tiles)
    current, s.reserves[seat] = s.reserves[seat], []
    _replace(s, current, tiles)
    s.reserves[seat] = tiles
    g.rig(s)


def set_dirk(g: Game, tiles: Iterable[int]) -> None:
    s = g.state
    assert s.dirk is not None
    tiles = list(tiles)
    current, s.dirk = s.dirk, []
    _replace(s, current, tiles)
    s.dirk = tiles
    g.rig(s)


def set_supply(g: Game, tiles: Iterable[int]) -> None:
    """The supply holds exactly `tiles` (the last is drawn first); the rest of the supply is set
    aside as if it had never been in the box (only for end-of-game tests)."""
    s = g.state
    tiles = list(tiles)
    for t in tiles:
        if t not in s.supply:
            _pull_building(s, t)
    s.supply = tiles
    g.rig(s)


def put_on_deck(g: Game, cards: Iterable[int]) -> None:
    """Put `cards` on top of the money deck, the first drawn first (scoring cards allowed)."""
    s = g.state
    cards = list(cards)
    for c in cards:
        if c in SCORING_CARDS:
            if c in s.deck:
                s.deck.remove(c)
            elif c in s.scoring_aside:
                s.scoring_aside.remove(c)
        else:
            _pull_card(s, c)
    s.deck.extend(reversed(cards))
    g.rig(s)


def set_scores(g: Game, scores: Iterable[int]) -> None:
    s = g.state
    s.scores = list(scores)
    g.rig(s)


def unclaimed(g: Game) -> tuple[int, ...]:
    """Market buildings nobody received at the end of the game."""
    return tuple(g.state.unclaimed)


# --- where every piece is -----------------------------------------------------------------------


def card_places(g: Game) -> Counter[int]:
    """How often each money or scoring card appears across all the places a card can be."""
    s = g.state
    found: Counter[int] = Counter()
    for place in (s.deck, s.discard, s.pool, s.scoring_aside, *s.hands):
        found.update(place)
    return found


def expected_cards(players: int) -> Counter[int]:
    return Counter([*money_cards(players), *SCORING_CARDS])


def building_places(g: Game) -> Counter[int]:
    """How often each building appears across supply, market, Alhambras, reserves, pending,
    buildings waiting for a final placement, Dirk and the unclaimed ones."""
    s = g.state
    found: Counter[int] = Counter()
    found.update(s.supply)
    found.update(t for t in s.market if t is not None)
    for a in s.alhambras:
        found.update(a.tiles.values())
    for r in s.reserves:
        found.update(r)
    found.update(s.pending)
    for _seat, tiles in s.final_queue:
        found.update(tiles)
    if s.dirk is not None:
        found.update(s.dirk)
    found.update(s.unclaimed)
    return found


def total(cards: Iterable[int]) -> int:
    return sum(CARDS[c].value for c in cards)
