"""Pictures as Discord attachments: each drawn by `render` in a worker process (`core.workers`),
so the event loop keeps answering other interactions, with its words in the reader's language,
and described in words too (`text.alt`: the attachment's alt text). Every file the bot posts is
made here."""

from __future__ import annotations

import io
from collections.abc import Callable

import discord

import render
from engine import Building, SeatView
from engine.ai.review import Review

from ..core import workers
from ..core.results import Growth
from ..core.stats import PlayerStats
from ..ops import metrics
from ..text import i18n
from ..text.alt import alhambra_alt, hand_alt, points_alt, scores_alt, stats_alt, table_alt
from ..text.menus import PanelSpec, panel_picture

TABLE_FILE = "table.png"
SCORES_FILE = "scores.png"
ALHAMBRA_FILE = "alhambra.png"
HAND_FILE = "hand.png"
POINTS_FILE = "points.png"
GROWTH_FILE = "growth.webp"
STATS_FILE = "stats.png"
REVIEW_FILE = "review.png"


def _timed(kind: str) -> Callable[[float], None]:
    return metrics.RENDER_SECONDS.labels(kind).observe


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
    png = await workers.current().run(
        _timed("table"), render.render_table, view, names, labels=labels
    )
    return _file(png, TABLE_FILE, table_alt(locale, names, view))


async def scores_file(
    view: SeatView, names: list[str], locale: str, detail: int | None = None
) -> discord.File:
    """The score sheet; `detail` is the scoring round to show in detail (by default what the
    next round would pay now, or the last round once the game is over)."""
    labels = i18n.image_labels(locale)
    png = await workers.current().run(
        _timed("scores"), render.render_scores, view, names, labels=labels, detail=detail
    )
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
    png = await workers.current().run(_timed("points"), render.render_points, labels=labels)
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
    png = await workers.current().run(
        _timed("alhambra"), render.render_alhambra, view, seat, name=name, labels=labels
    )
    return _file(png, ALHAMBRA_FILE, alhambra_alt(locale, name, view, seat))


async def hand_file(view: SeatView, name: str, locale: str) -> discord.File:
    labels = i18n.image_labels(locale)
    png = await workers.current().run(
        _timed("hand"), render.render_hand, view, name=name, labels=labels
    )
    return _file(png, HAND_FILE, hand_alt(locale, name, view))


async def panel_file(
    view: SeatView, spec: PanelSpec, name: str, locale: str
) -> discord.File | None:
    """The panel's picture of the Alhambra with the legal cells labelled, if it has one."""
    if spec.picture is None:  # most panels: no worker needed
        return None
    png = await workers.current().run(_timed("alhambra"), panel_picture, view, spec, name, locale)
    if png is None or view.seat is None:
        return None
    description = alhambra_alt(locale, name, view, view.seat, spec.picture)
    return _file(png, ALHAMBRA_FILE, description)
