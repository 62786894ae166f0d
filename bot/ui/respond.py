"""The one place where interactions are answered when something goes wrong, and logged.

Every command and component callback runs its body inside `handling(...)`: a `ServiceError`
(the user's mistake) becomes a short ephemeral reply in the user's language; anything else is
logged with the game id and interaction id and answered with an apology. Either way the game is
untouched, because the service writes nothing for a refused or failed request. One log line per
interaction records the command, game, latency and outcome (never the token or message text).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from .. import i18n
from ..errors import IllegalMove, ServiceError

log = logging.getLogger("alhambra.interactions")


def user_locale(interaction: discord.Interaction) -> str:
    """The language for replies to this user: their Discord client's, else English."""
    override = interaction.extras.get("locale")
    return override or i18n.normalise(interaction.locale)


def channel_locale(interaction: discord.Interaction) -> str:
    """The language for public messages: the server's preferred locale."""
    return i18n.normalise(interaction.guild_locale or interaction.locale)


def error_text(error: ServiceError, locale: str) -> str:
    """English keeps the service's precise message; other languages get the catalogue's text
    (the engine's reason for an illegal move is kept, as it names the rule)."""
    if isinstance(error, IllegalMove):
        return i18n.t(locale, "error.illegal_move", reason=error.message)
    if locale == i18n.DEFAULT:
        return error.message
    key = f"error.{error.code}"
    return i18n.t(locale, key) if i18n.has(key) else error.message


async def reply(
    interaction: discord.Interaction, content: str | None = None, **kwargs: object
) -> None:
    """Answer ephemerally, whether or not the interaction was already acknowledged."""
    kwargs.setdefault("ephemeral", True)
    if interaction.response.is_done():
        await interaction.followup.send(content, **kwargs)  # type: ignore[arg-type]
    else:
        await interaction.response.send_message(content, **kwargs)  # type: ignore[arg-type]


async def report(interaction: discord.Interaction, error: BaseException) -> str:
    """Tell the user what went wrong; returns the outcome word for the log line."""
    locale = user_locale(interaction)
    if isinstance(error, ServiceError):
        text, outcome = error_text(error, locale), f"refused:{error.code}"
    else:
        log.error(
            "interaction failed: game=%s interaction=%s",
            interaction.extras.get("game_id"),
            interaction.id,
            exc_info=error,
        )
        text, outcome = i18n.t(locale, "error.unexpected"), "error"
    try:
        await reply(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell the user about a failed interaction %s", interaction.id)
    return outcome


@asynccontextmanager
async def handling(interaction: discord.Interaction, command: str) -> AsyncIterator[None]:
    started = time.perf_counter()
    outcome = "ok"
    track = getattr(interaction.client, "handling", None)
    busy = track() if track is not None else contextlib.nullcontext()
    try:
        with busy:
            yield
    except Exception as exc:
        outcome = await report(interaction, exc)
    finally:
        log.info(
            "interaction command=%s game=%s user=%s latency_ms=%.1f outcome=%s",
            command,
            interaction.extras.get("game_id", "-"),
            interaction.user.id if interaction.user else "-",
            (time.perf_counter() - started) * 1000,
            outcome,
        )
