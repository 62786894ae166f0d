"""The box (RULES.md section 1): tiles, money cards and the scoring table."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_helpers import card_places, expected_cards

from engine import (
    CARDS,
    SCORING_CARDS,
    SCORING_TABLE,
    TILES,
    Building,
    Currency,
    Side,
    card_id,
    money_cards,
    new_game,
)

# RULES.md section 1, the tile table, copied cell by cell: id, type, cost, walls.
RULES_TILES = """
1 pavilion 2 N E W | 19 arcades 7 E S | 37 garden 8 N W
2 pavilion 3 S W | 20 arcades 8 N | 38 garden 9 E
3 pavilion 4 E S | 21 arcades 8 E | 39 garden 10 N
4 pavilion 5 N W | 22 arcades 9 - | 40 garden 10 W
5 pavilion 6 N | 23 arcades 10 - | 41 garden 10 -
6 pavilion 7 E | 24 chambers 5 N S W | 42 garden 11 -
7 pavilion 8 - | 25 chambers 6 E S | 43 garden 12 S
8 seraglio 3 E S W | 26 chambers 7 S W | 44 tower 7 N E W
9 seraglio 4 N E | 27 chambers 7 N E | 45 tower 8 N E S
10 seraglio 5 S W | 28 chambers 8 N W | 46 tower 9 E S
11 seraglio 6 E S | 29 chambers 9 W | 47 tower 9 N E
12 seraglio 7 W | 30 chambers 9 S | 48 tower 9 N W
13 seraglio 8 S | 31 chambers 10 - | 49 tower 10 W
14 seraglio 9 - | 32 chambers 11 - | 50 tower 11 N
15 arcades 4 N E S | 33 garden 6 E S W | 51 tower 11 S
16 arcades 5 N W | 34 garden 7 N S W | 52 tower 11 -
17 arcades 6 S W | 35 garden 8 S W | 53 tower 12 -
18 arcades 6 N E | 36 garden 8 N E | 54 tower 13 E
"""


def _rules_tiles() -> dict[int, tuple[Building, int, frozenset[Side]]]:
    out = {}
    for line in RULES_TILES.strip().splitlines():
        for cell in line.split("|"):
            tid, kind, cost, *walls = cell.split()
            sides = frozenset() if walls == ["-"] else frozenset(Side[w] for w in walls)
            out[int(tid)] = (Building[kind.upper()], int(cost), sides)
    return out


def test_all_54_tiles_match_the_rules_table():
    expected = _rules_tiles()
    assert sorted(expected) == list(range(1, 55))
    assert len(TILES) == 55
    for tid, (building, cost, walls) in expected.items():
        tile = TILES[tid]
        assert (tile.id, tile.building, tile.cost, tile.walls) == (tid, building, cost, walls)


def test_the_fountain_is_tile_0_without_type_cost_or_walls():
    fountain = TILES[0]
    assert (fountain.id, fountain.building, fountain.cost, fountain.walls) == (0, None, 0, set())


@pytest.mark.parametrize(
    ("building", "count", "low", "high"),
    [
        (Building.PAVILION, 7, 2, 8),
        (Building.SERAGLIO, 7, 3, 9),
        (Building.ARCADES, 9, 4, 10),
        (Building.CHAMBERS, 9, 5, 11),
        (Building.GARDEN, 11, 6, 12),
        (Building.TOWER, 11, 7, 13),
    ],
)
def test_tiles_per_type_and_cost_range(building, count, low, high):
    costs = [t.cost for t in TILES[1:] if t.building is building]
    assert len(costs) == count
    assert (min(costs), max(costs)) == (low, high)


def test_money_cards_three_copies_of_each_value_and_currency():
    assert len(CARDS) == 108
    per_kind = Counter((c.currency, c.value) for c in CARDS)
    assert set(per_kind) == {(cur, v) for cur in Currency for v in range(1, 10)}
    assert set(per_kind.values()) == {3}
    for c in CARDS:
        assert CARDS[card_id(c.currency, c.value, c.id % 3)] == c


@pytest.mark.parametrize(("players", "size", "copies"), [(2, 72, 2), (3, 108, 3), (6, 108, 3)])
def test_money_deck_size_by_player_count(players, size, copies):
    deck = money_cards(players)
    assert len(deck) == len(set(deck)) == size
    assert set(Counter((CARDS[c].currency, CARDS[c].value) for c in deck).values()) == {copies}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_new_game_holds_every_card_once_and_both_scoring_cards(players):
    g = new_game(players, seed=11)
    assert card_places(g) == expected_cards(players)
    assert len(SCORING_CARDS) == 2
    assert set(SCORING_CARDS).isdisjoint(range(108))


def test_no_card_id_outside_the_box():
    with pytest.raises(ValueError):
        card_id(Currency.CROWN, 10)
    with pytest.raises(ValueError):
        card_id(Currency.DUCAT, 1, copy=3)


def test_scoring_table_values():
    # RULES.md section 5, row by row: round 1 / round 2 / round 3.
    expected = {
        Building.PAVILION: ((1,), (8, 1), (16, 8, 1)),
        Building.SERAGLIO: ((2,), (9, 2), (17, 9, 2)),
        Building.ARCADES: ((3,), (10, 3), (18, 10, 3)),
        Building.CHAMBERS: ((4,), (11, 4), (19, 11, 4)),
        Building.GARDEN: ((5,), (12, 5), (20, 12, 5)),
        Building.TOWER: ((6,), (13, 6), (21, 13, 6)),
    }
    assert set(SCORING_TABLE) == {1, 2, 3}
    for building, rows in expected.items():
        for round_no, row in enumerate(rows, start=1):
            assert tuple(SCORING_TABLE[round_no][building]) == row
