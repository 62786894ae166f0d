"""Scoring rounds: building majorities (RULES.md section 5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .catalogue import SCORING_TABLE, Building


def majority_points(round_no: int, counts: Sequence[Sequence[int]]) -> list[list[int]]:
    """Points per entry and building type; `counts[i][type]` is entry i's buildings of that type.

    Entries with equal counts share the ranks they cover: the points of those ranks (unpaid ranks
    add 0) divided by the number of tied entries, rounded down. An entry without a building of
    a type never scores it.
    """
    if round_no not in SCORING_TABLE:
        raise ValueError(f"there is no scoring round {round_no}")
    table = SCORING_TABLE[round_no]
    points = [[0] * 6 for _ in counts]
    for building in Building:
        b = int(building)
        paid = table[building]
        ranked = sorted(
            (c[b], i) for i, c in enumerate(counts) if c[b] > 0
        )  # ascending; walk from the top
        ranked.reverse()
        rank = 0
        k = 0
        while k < len(ranked) and rank < len(paid):
            value = ranked[k][0]
            tied = [i for v, i in ranked[k:] if v == value]
            share = sum(paid[rank : rank + len(tied)]) // len(tied)
            for i in tied:
                points[i][b] = share
            rank += len(tied)
            k += len(tied)
    return points


def score_majorities(round_no: int, counts: Sequence[Mapping[Building, int]]) -> list[int]:
    """Total majority points per entry. `counts` is one `{Building: n}` per entry, Dirk included
    where he plays (his entry is scored like any other; the caller drops his points)."""
    rows = [[int(c.get(b, 0)) for b in Building] for c in counts]
    return [sum(p) for p in majority_points(round_no, rows)]
