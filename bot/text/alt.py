"""What each picture shows, in words: the description Discord attaches to a file ("alt text"),
read by screen readers and shown when a picture does not load.

Pure functions of the same view the picture is drawn from, in the reader's language, each at
most `ALT_LIMIT` characters (Discord refuses a longer description). Names are given as typed,
like the pictures' (a description is plain text: no markup, no mentions).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import CARDS, Building, Currency, SeatView, scoring_now
from render import marked_cells
from render.alhambra import Mode

from ..core.stats import PlayerStats
from . import i18n
from .present import (
    building_name,
    card_name,
    cards_text,
    cell_text,
    currency_name,
    points_table,
)

#: Discord's limit on an attachment's description.
ALT_LIMIT = 1_024

#: Full-width stops: a Japanese sentence ends with one, and the next follows without a space.
FULL_STOPS = ("\u3002", "\uff01", "\uff1f")
#: Where a panel's picture marks cells: a building to place or swap in, or None to remove one.
Marks = tuple[int | None, Mode]


def table_alt(locale: str, names: Sequence[str], view: SeatView) -> str:
    """The table: whose turn, the market (each slot's currency, building and price), the money
    pool, and each player's score, buildings and longest outer wall."""
    t, seat = i18n.t, view.current_seat
    if view.is_over or seat is None:
        head = t(locale, "alt.table.over")
    elif view.final_placement:
        head = t(locale, "alt.table.final", name=_name(names, seat))
    else:
        head = t(locale, "alt.table.to_play", name=_name(names, seat))
    slots = [
        t(
            locale,
            "alt.slot",
            currency=currency_name(locale, slot),
            building=building_name(locale, tile),
        )
        if tile is not None
        else t(locale, "alt.slot_empty", currency=currency_name(locale, slot))
        for slot, tile in enumerate(view.market)
    ]
    market = t(locale, "alt.market", slots=_joined(locale, slots))
    pool = (
        t(
            locale,
            "alt.pool",
            cards=i18n.join(locale, [card_name(locale, c) for c in _sorted(view.pool)]),
        )
        if view.pool
        else t(locale, "alt.pool_empty")
    )
    players = [
        t(
            locale,
            "alt.player",
            name=_name(names, s),
            score=t(locale, "alt.points", count=p.score),
            buildings=t(locale, "alt.buildings", count=len(p.alhambra)),
            wall=p.wall,
        )
        for s, p in enumerate(view.table)
    ]
    parts = [head, market, pool, t(locale, "alt.players", players=_joined(locale, players))]
    if view.dirk is not None:
        dirk = t(locale, "alt.buildings", count=len(view.dirk))
        parts.append(t(locale, "alt.dirk", buildings=dirk))
    if not view.is_over:  # how far the game is: it ends when the supply runs out
        parts.append(t(locale, "alt.supply", count=view.supply_size))
    return _sentences(parts)


def boards_alt(locale: str, names: Sequence[str], view: SeatView) -> str:
    """Everyone's Alhambra at a glance: per player their points, buildings, longest outer wall
    and reserve (each Alhambra's shape is in its own picture, a menu away)."""
    players = [
        i18n.t(
            locale,
            "alt.boards_player",
            name=_name(names, seat),
            score=player.score,
            count=len(player.alhambra),
            wall=player.wall,
            reserve=len(player.reserve),
        )
        for seat, player in enumerate(view.table)
    ]
    return i18n.t(locale, "alt.boards", players=_joined(locale, players))


def alhambra_alt(
    locale: str, name: str, view: SeatView, seat: int, marks: Marks | None = None
) -> str:
    """A player's Alhambra: whose it is, its buildings per type, its longest outer wall and the
    reserve; with `marks`, also the cells the picture labels (those a menu offers)."""
    t, player = i18n.t, view.table[seat]
    reserve = len(player.reserve)
    if not player.alhambra:
        parts = [t(locale, "alt.alhambra_empty", name=name, reserve=reserve)]
    else:
        types = [
            t(locale, "alt.count", building=i18n.t(locale, f"building.{b.label}"), count=n)
            for b, n in zip(Building, player.counts, strict=False)
            if n
        ]
        parts = [
            t(
                locale,
                "alt.alhambra",
                name=name,
                buildings=t(locale, "alt.buildings", count=len(player.alhambra)),
                types=i18n.join(locale, types),
                wall=player.wall,
                reserve=reserve,
            )
        ]
    if marks is not None:
        parts.append(_marks_text(locale, view, seat, marks))
    return _sentences(parts)


def _marks_text(locale: str, view: SeatView, seat: int, marks: Marks) -> str:
    tile, mode = marks
    cells = marked_cells(view.alhambra(seat), tile, mode)
    if not cells:
        return i18n.t(locale, "alt.cells_none")
    codes = i18n.join(locale, [cell_text(x, y) for x, y in cells])
    if mode == "remove" or tile is None:
        return i18n.t(locale, "alt.cells_remove", cells=codes)
    key = "alt.cells_place" if mode == "place" else "alt.cells_swap"
    return i18n.t(locale, key, building=building_name(locale, tile), cells=codes)


def hand_alt(locale: str, name: str, view: SeatView) -> str:
    """A player's hand: the cards, and the total of each currency."""
    if not view.hand:
        return _clip(i18n.t(locale, "alt.hand_empty", name=name))
    held = [(CARDS[k].currency, CARDS[k].value) for k in view.hand]
    totals = [
        f"{currency_name(locale, c)} {sum(v for kind, v in held if kind == c)}" for c in Currency
    ]
    text = i18n.t(
        locale,
        "alt.hand",
        name=name,
        cards=cards_text(locale, view.hand),
        totals=i18n.join(locale, totals),
    )
    return _clip(text)


def scores_alt(locale: str, names: Sequence[str], view: SeatView) -> str:
    """The score sheet: the standings, what each scoring round gave each player, and while the
    game runs what the next round would give now."""
    t = i18n.t
    rounds = view.scoring_rounds
    head = (
        t(locale, "alt.scores.final")
        if view.is_over
        else t(locale, "alt.scores.sheet", n=len(rounds))
    )
    scores = view.scores
    ranks = view.ranks or tuple(1 + sum(o > mine for o in scores) for mine in scores)
    order = sorted(range(len(scores)), key=lambda s: (ranks[s], s))
    standings = [
        t(locale, "alt.scores.rank", rank=ranks[s], name=_name(names, s), score=scores[s])
        for s in order
    ]
    parts = [head, t(locale, "alt.scores.standings", rows=_joined(locale, standings))]
    held = [(r, "alt.scores.round") for r in rounds]
    if not view.is_over:
        held.append((scoring_now(view), "alt.scores.now"))
    for scoring, key in held:
        rows = [
            t(locale, "alt.scores.points", name=_name(names, r.seat), points=r.total)
            for r in scoring.rows
            if r.seat >= 0
        ]
        parts.append(t(locale, key, round=scoring.round_no, rows=i18n.join(locale, rows)))
    return _sentences(parts)


def stats_alt(locale: str, name: str, stats: PlayerStats) -> str:
    """A player's record picture: how many games, the range and average of their final
    scores and how many they won, then the average points per scoring round and per building
    type (each game's points by type)."""
    t = i18n.t
    if not stats.games:
        return _clip(t(locale, "stats.none"))
    if stats.games == 1:
        key = "alt.stats_single_won" if stats.wins else "alt.stats_single"
        parts = [t(locale, key, name=name, score=stats.points[0])]
    else:
        parts = [
            t(
                locale,
                "alt.stats",
                name=name,
                games=stats.games,
                low=min(stats.points),
                high=max(stats.points),
                average=round(stats.average_points, 1),
                wins=stats.wins,
            )
        ]
    rounds = [
        t(locale, "stats.round", round=r, points=round(average, 1))
        for r in (1, 2, 3)
        if (average := stats.average_round(r)) is not None
    ]
    if rounds:
        parts.append(t(locale, "alt.stats_rounds", rounds=i18n.join(locale, rounds)))
    types = [
        t(
            locale,
            "stats.type",
            building=t(locale, f"building.{b.label}"),
            points=round(stats.average_building(b), 1),
        )
        for b in Building
    ]
    parts.append(t(locale, "alt.stats_types", types=i18n.join(locale, types)))
    return _sentences(parts)


def points_alt(locale: str) -> str:
    """The scoring table of the rules: the same words as the rules command gives, without
    their Markdown (a screen reader would read the asterisks out)."""
    return _clip(" ".join(points_table(locale)).replace("**", ""))


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _sorted(cards: Sequence[int]) -> list[int]:
    return sorted(cards, key=lambda c: (CARDS[c].currency, CARDS[c].value))


def _joined(locale: str, items: Sequence[str]) -> str:
    return i18n.t(locale, "alt.separator").join(items)


def _sentences(parts: Sequence[str]) -> str:
    """Sentences in a row: a space between them, none after a full-width stop (Japanese)."""
    text = ""
    for part in parts:
        if text and not text.endswith(FULL_STOPS):
            text += " "
        text += part
    return _clip(text)


def _clip(text: str) -> str:
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"
