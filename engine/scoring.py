"""Scoring rounds: building majorities (RULES.md section 5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .catalogue import SCORING_TABLE, TILES, Building
from .events import ScoreRow, ScoringHeld
from .view import SeatView


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


def next_scoring_round(view: SeatView) -> int:
    """The scoring round to be held next (1, 2 or 3); 3 once the game is over."""
    return min(len(view.scoring_rounds) + 1, max(SCORING_TABLE))


def scoring_now(view: SeatView, round_no: int | None = None) -> ScoringHeld:
    """What scoring round `round_no` (by default the next one) would pay if it were held now,
    as the game holds it: majorities in each Alhambra (Dirk's buildings compete in a two-player
    game, his points are not kept) plus each player's longest outer wall. Nothing changes: the
    rows' `score` is the seat's score now plus what the round would add. Public information
    only, so any seat's view (or a spectator's) gives the same answer."""
    round_no = next_scoring_round(view) if round_no is None else round_no
    counts = [p.counts for p in view.table]
    if view.dirk is not None:
        dirk = [0] * len(Building)
        for tile in view.dirk:
            building = TILES[tile].building
            if building is not None:
                dirk[int(building)] += 1
        counts.append(tuple(dirk))
    points = majority_points(round_no, counts)
    rows = []
    for seat, player in enumerate(view.table):
        wall = view.alhambra(seat).longest_wall()
        total = sum(points[seat]) + wall
        rows.append(ScoreRow(seat, tuple(points[seat]), wall, total, player.score + total))
    return ScoringHeld(round_no, tuple(rows), tuple(counts))
