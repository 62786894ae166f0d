"""Pictures as Discord attachments: each drawn by `render` in a worker process (`core.workers`),
so the event loop keeps answering other interactions, with its words in the reader's language,
and described in words too (`text.alt`: the attachment's alt text). Every file the bot posts is
made here."""

from __future__ import annotations

import hashlib
import io
import pickle
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

import render
from engine import Building, SeatView
from engine.ai.review import Review

from ..core import workers
from ..core.results import Growth
from ..core.stats import PlayerStats
from ..ops import metrics
from ..text import i18n
from ..text.alt import (
    alhambra_alt,
    boards_alt,
    hand_alt,
    points_alt,
    scores_alt,
    stats_alt,
    table_alt,
)
from ..text.menus import PanelSpec, panel_picture

TABLE_FILE = "table.png"
SCORES_FILE = "scores.png"
ALHAMBRA_FILE = "alhambra.png"
HAND_FILE = "hand.png"
BOARDS_FILE = "boards.png"
POINTS_FILE = "points.png"
GROWTH_FILE = "growth.webp"
STATS_FILE = "stats.png"
REVIEW_FILE = "review.png"


def _timed(kind: str) -> Callable[[float], None]:
    return metrics.RENDER_SECONDS.labels(kind).observe


#: Pictures drawn lately, by what they were drawn from: a panel redrawn for a menu, a hand
#: shown again, the same table asked by several players are not drawn again. Pictures are pure
#: functions of their arguments, so a picture found here is the one a worker would draw.
_DRAWN: OrderedDict[bytes, bytes] = OrderedDict()
#: How many pictures are kept (a few MB: most are 20-60 KB).
DRAWN_KEEP = 256


async def _draw(kind: str, fn: Callable[..., bytes | None], *args: Any, **kw: Any) -> bytes | None:
    """`fn(*args, **kw)` drawn in a worker, or found among the pictures drawn lately."""
    key = hashlib.blake2b(
        pickle.dumps((fn.__module__, fn.__qualname__, args, kw), protocol=5), digest_size=16
    ).digest()
    found = _DRAWN.get(key)
    if found is not None:
        _DRAWN.move_to_end(key)
        metrics.RENDER_REUSED.labels(kind).inc()
        return found
    drawn = await workers.current().run(_timed(kind), fn, *args, **kw)
    if drawn is not None:
        _DRAWN[key] = drawn
        while len(_DRAWN) > DRAWN_KEEP:
            _DRAWN.popitem(last=False)
    return drawn


async def _png(kind: str, fn: Callable[..., bytes], *args: Any, **kw: Any) -> bytes:
    drawn = await _draw(kind, fn, *args, **kw)
    assert drawn is not None
    return drawn


def _file(png: bytes, name: str, description: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name, description=description)


async def growth_file(growth: Growth, names: list[str], locale: str) -> discord.File:
    """Every Alhambra growing turn by turn (animated WebP), for the results message."""
    data = await workers.current().run(
        _timed("growth"),
        render.render_growth,
        growth.frames,
        names,
        turn_label=i18n.t(locale, "results.growth_turn"),
        turns=growth.turns,
        labels=i18n.image_labels(locale),
    )
    alt = i18n.t(
        locale, "results.growth_alt", names=i18n.join(locale, names), turns=growth.turns[-1]
    )
    return _file(data, GROWTH_FILE, alt)


async def table_file(view: SeatView, names: list[str], locale: str) -> discord.File:
    """The table picture with its words in `locale` (the reader's, or the game's in public)."""
    labels = i18n.image_labels(locale)
    png = await _png("table", render.render_table, view, names, labels=labels)
    return _file(png, TABLE_FILE, table_alt(locale, names, view))


async def scores_file(
    view: SeatView, names: list[str], locale: str, detail: int | None = None
) -> discord.File:
    """The score sheet; `detail` is the scoring round to show in detail (by default what the
    next round would pay now, or the last round once the game is over)."""
    labels = i18n.image_labels(locale)
    png = await _png("scores", render.render_scores, view, names, labels=labels, detail=detail)
    return _file(png, SCORES_FILE, scores_alt(locale, names, view))


async def review_file(review: Review, name: str, last_turn: int, locale: str) -> discord.File:
    """A game review's bars: the points at stake in each of the player's turns."""
    marked = [d.turn for d in review.top]
    png = await workers.current().run(
        _timed("review"),
        render.render_stakes,
        review.per_turn,
        marked,
        title=i18n.t(locale, "review.chart_title", name=name),
        axis=i18n.t(locale, "review.chart_turn"),
        last_turn=last_turn,
        labels=i18n.image_labels(locale),
    )
    turns = i18n.join(locale, [str(t) for t in sorted(marked)]) or "-"
    return _file(png, REVIEW_FILE, i18n.t(locale, "review.alt", name=name, turns=turns))


async def points_file(locale: str) -> discord.File:
    """The scoring table of the rules: what each type pays in each round, per place."""
    labels = i18n.image_labels(locale)
    png = await _png("points", render.render_points, labels=labels)
    return _file(png, POINTS_FILE, points_alt(locale))


async def stats_file(stats: PlayerStats, name: str, locale: str) -> discord.File:
    """A player's record: their final scores (wins marked), and their average points per
    scoring round and per building type; `name` as typed (drawn, not markup)."""
    labels = i18n.image_labels(locale)
    png = await workers.current().run(
        _timed("stats"),
        render.render_stats,
        list(stats.points),
        list(stats.won),
        [stats.average_round(r) for r in (1, 2, 3)],
        [stats.average_building(b) for b in Building],
        name=name,
        labels=labels,
    )
    return _file(png, STATS_FILE, stats_alt(locale, name, stats))


async def alhambra_file(view: SeatView, seat: int, name: str, locale: str) -> discord.File:
    labels = i18n.image_labels(locale)
    png = await _png("alhambra", render.render_alhambra, view, seat, name=name, labels=labels)
    return _file(png, ALHAMBRA_FILE, alhambra_alt(locale, name, view, seat))


async def boards_file(view: SeatView, names: list[str], locale: str) -> discord.File:
    """Everyone's Alhambra in one picture, as anyone sees them."""
    labels = i18n.image_labels(locale)
    png = await _png("boards", render.render_boards, view, names, labels=labels)
    return _file(png, BOARDS_FILE, boards_alt(locale, names, view))


async def hand_file(view: SeatView, name: str, locale: str) -> discord.File:
    labels = i18n.image_labels(locale)
    png = await _png("hand", render.render_hand, view, name=name, labels=labels)
    return _file(png, HAND_FILE, hand_alt(locale, name, view))


async def panel_file(
    view: SeatView, spec: PanelSpec, name: str, locale: str
) -> discord.File | None:
    """The panel's picture of the Alhambra with the legal cells labelled, if it has one."""
    if spec.picture is None:  # most panels: no worker needed
        return None
    png = await _draw("alhambra", panel_picture, view, spec, name, locale)
    if png is None or view.seat is None:
        return None
    description = alhambra_alt(locale, name, view, view.seat, spec.picture)
    return _file(png, ALHAMBRA_FILE, description)
