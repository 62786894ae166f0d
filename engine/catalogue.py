"""The fixed components of Alhambra: currencies, building types, sides, tiles, money cards.

Everything here is immutable and computed once at import, so the hot paths of the engine read
plain tuples instead of recomputing facts about the box. The tile list is RULES.md section 1,
copied verbatim; `tests/engine/test_catalogue.py` checks it against the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum


class Currency(IntEnum):
    """The four currencies; the value is the index of the market slot the currency pays for."""

    CROWN = 0
    DIRHAM = 1
    DINAR = 2
    DUCAT = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class Building(IntEnum):
    """The six building types, in the order of the scoring table."""

    PAVILION = 0
    SERAGLIO = 1
    ARCADES = 2
    CHAMBERS = 3
    GARDEN = 4
    TOWER = 5

    @property
    def label(self) -> str:
        return self.name.lower()


class Side(Enum):
    """A side of a square tile. Each side is one bit of a tile's wall mask."""

    N = (1, 0, -1)
    E = (2, 1, 0)
    S = (4, 0, 1)
    W = (8, -1, 0)

    @property
    def bit(self) -> int:
        return self.value[0]

    @property
    def dx(self) -> int:
        return self.value[1]

    @property
    def dy(self) -> int:
        return self.value[2]

    @property
    def opposite(self) -> Side:
        return _OPPOSITE[self]


_OPPOSITE = {Side.N: Side.S, Side.S: Side.N, Side.E: Side.W, Side.W: Side.E}

#: (bit, dx, dy, opposite bit) for the four sides, the form the inner loops use.
SIDE_STEPS: tuple[tuple[int, int, int, int], ...] = tuple(
    (s.bit, s.dx, s.dy, s.opposite.bit) for s in Side
)


def walls_mask(walls: frozenset[Side] | tuple[Side, ...]) -> int:
    mask = 0
    for side in walls:
        mask |= side.bit
    return mask


@dataclass(frozen=True, slots=True)
class Tile:
    """One building tile. The fountain is tile 0: no type, no cost, no walls."""

    id: int
    building: Building | None
    cost: int
    walls: frozenset[Side]

    @property
    def mask(self) -> int:
        return walls_mask(self.walls)


def _tile(tid: int, building: Building, cost: int, walls: str) -> Tile:
    sides = frozenset(Side[ch] for ch in walls.split()) if walls != "-" else frozenset()
    return Tile(tid, building, cost, sides)


_P, _S, _A, _C, _G, _T = (
    Building.PAVILION,
    Building.SERAGLIO,
    Building.ARCADES,
    Building.CHAMBERS,
    Building.GARDEN,
    Building.TOWER,
)

FOUNTAIN = Tile(0, None, 0, frozenset())

#: The 54 building tiles of RULES.md, indexed by id (TILES[1] .. TILES[54]).
#: Index 0 holds the fountain so ids index the tuple directly.
TILES: tuple[Tile, ...] = (
    FOUNTAIN,
    _tile(1, _P, 2, "N E W"),
    _tile(2, _P, 3, "S W"),
    _tile(3, _P, 4, "E S"),
    _tile(4, _P, 5, "N W"),
    _tile(5, _P, 6, "N"),
    _tile(6, _P, 7, "E"),
    _tile(7, _P, 8, "-"),
    _tile(8, _S, 3, "E S W"),
    _tile(9, _S, 4, "N E"),
    _tile(10, _S, 5, "S W"),
    _tile(11, _S, 6, "E S"),
    _tile(12, _S, 7, "W"),
    _tile(13, _S, 8, "S"),
    _tile(14, _S, 9, "-"),
    _tile(15, _A, 4, "N E S"),
    _tile(16, _A, 5, "N W"),
    _tile(17, _A, 6, "S W"),
    _tile(18, _A, 6, "N E"),
    _tile(19, _A, 7, "E S"),
    _tile(20, _A, 8, "N"),
    _tile(21, _A, 8, "E"),
    _tile(22, _A, 9, "-"),
    _tile(23, _A, 10, "-"),
    _tile(24, _C, 5, "N S W"),
    _tile(25, _C, 6, "E S"),
    _tile(26, _C, 7, "S W"),
    _tile(27, _C, 7, "N E"),
    _tile(28, _C, 8, "N W"),
    _tile(29, _C, 9, "W"),
    _tile(30, _C, 9, "S"),
    _tile(31, _C, 10, "-"),
    _tile(32, _C, 11, "-"),
    _tile(33, _G, 6, "E S W"),
    _tile(34, _G, 7, "N S W"),
    _tile(35, _G, 8, "S W"),
    _tile(36, _G, 8, "N E"),
    _tile(37, _G, 8, "N W"),
    _tile(38, _G, 9, "E"),
    _tile(39, _G, 10, "N"),
    _tile(40, _G, 10, "W"),
    _tile(41, _G, 10, "-"),
    _tile(42, _G, 11, "-"),
    _tile(43, _G, 12, "S"),
    _tile(44, _T, 7, "N E W"),
    _tile(45, _T, 8, "N E S"),
    _tile(46, _T, 9, "E S"),
    _tile(47, _T, 9, "N E"),
    _tile(48, _T, 9, "N W"),
    _tile(49, _T, 10, "W"),
    _tile(50, _T, 11, "N"),
    _tile(51, _T, 11, "S"),
    _tile(52, _T, 11, "-"),
    _tile(53, _T, 12, "-"),
    _tile(54, _T, 13, "E"),
)

BUILDING_IDS: tuple[int, ...] = tuple(range(1, 55))

#: Wall mask per tile id (fountain included), for the inner loops.
TILE_MASK: tuple[int, ...] = tuple(t.mask for t in TILES)
#: Building type index per tile id (-1 for the fountain).
TILE_TYPE: tuple[int, ...] = tuple(-1 if t.building is None else int(t.building) for t in TILES)
TILE_COST: tuple[int, ...] = tuple(t.cost for t in TILES)

#: RULES.md section 5: points per building type, by scoring round, for ranks 1, 2, 3.
SCORING_TABLE: dict[int, dict[Building, tuple[int, ...]]] = {
    1: {b: (1 + i,) for i, b in enumerate(Building)},
    2: {b: (8 + i, 1 + i) for i, b in enumerate(Building)},
    3: {b: (16 + i, 8 + i, 1 + i) for i, b in enumerate(Building)},
}


# --- Money cards -------------------------------------------------------------------------------
#
# A money card is an int id: currency * 27 + (value - 1) * 3 + copy, copy in 0..2. A two-player
# game uses copies 0 and 1 only. The two scoring cards have their own ids after the money.

COPIES_PER_VALUE = 3
SCORING_CARD_1 = 108
SCORING_CARD_2 = 109
SCORING_CARDS = (SCORING_CARD_1, SCORING_CARD_2)


@dataclass(frozen=True, slots=True)
class Card:
    """A money card as players see it."""

    id: int
    currency: Currency
    value: int

    def __str__(self) -> str:
        return f"{self.currency.label} {self.value}"


def card_id(currency: Currency, value: int, copy: int = 0) -> int:
    if not 1 <= value <= 9 or not 0 <= copy < COPIES_PER_VALUE:
        raise ValueError(f"no such card: {currency!r} {value} copy {copy}")
    return int(currency) * 27 + (value - 1) * 3 + copy


#: Currency index and value per money card id (ids 0..107).
CARD_CURRENCY: tuple[int, ...] = tuple(i // 27 for i in range(108))
CARD_VALUE: tuple[int, ...] = tuple((i % 27) // 3 + 1 for i in range(108))
CARDS: tuple[Card, ...] = tuple(
    Card(i, Currency(CARD_CURRENCY[i]), CARD_VALUE[i]) for i in range(108)
)


def money_cards(players: int) -> list[int]:
    """The unshuffled money deck of a game this size: 3 copies of each card (2 with 2 players)."""
    copies = 2 if players == 2 else 3
    return [i for i in range(108) if i % 3 < copies]
