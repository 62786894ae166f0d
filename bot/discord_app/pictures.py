"""Pictures as Discord attachments: each drawn by `render` in a worker thread, so the event loop
keeps answering other interactions, with its words in the reader's language."""

from __future__ import annotations

import asyncio
import io

import discord

import render
from engine import SeatView

from ..text import i18n
from ..text.menus import PanelSpec, panel_picture

TABLE_FILE = "table.png"
SCORES_FILE = "scores.png"
ALHAMBRA_FILE = "alhambra.png"
HAND_FILE = "hand.png"


def _file(png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name)


async def table_file(view: SeatView, names: list[str], locale: str) -> discord.File:
    """The table picture with its words in `locale` (the reader's, or the game's in public)."""
    labels = i18n.image_labels(locale)
    return _file(
        await asyncio.to_thread(render.render_table, view, names, labels=labels), TABLE_FILE
    )


async def scores_file(view: SeatView, names: list[str], locale: str) -> discord.File:
    labels = i18n.image_labels(locale)
    png = await asyncio.to_thread(render.render_scores, view, names, labels=labels)
    return _file(png, SCORES_FILE)


async def alhambra_file(view: SeatView, seat: int, name: str, locale: str) -> discord.File:
    labels = i18n.image_labels(locale)
    png = await asyncio.to_thread(render.render_alhambra, view, seat, name=name, labels=labels)
    return _file(png, ALHAMBRA_FILE)


async def hand_file(view: SeatView, name: str, locale: str) -> discord.File:
    labels = i18n.image_labels(locale)
    return _file(
        await asyncio.to_thread(render.render_hand, view, name=name, labels=labels), HAND_FILE
    )


async def panel_file(
    view: SeatView, spec: PanelSpec, name: str, locale: str
) -> discord.File | None:
    """The panel's picture of the Alhambra with the legal cells labelled, if it has one."""
    if spec.picture is None:  # most panels: no worker thread needed
        return None
    png = await asyncio.to_thread(panel_picture, view, spec, name, locale)
    return None if png is None else _file(png, ALHAMBRA_FILE)
