"""Sending one direct message, and saying how it went: the one way the bot DMs anyone (turn
DMs, reminders, a server owner, a game's followers)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from ..turns.ports import Delivery

log = logging.getLogger("alhambra.notify")


async def send_dm(client: discord.Client, user_id: int, **message: Any) -> Delivery:
    """DM `user_id` (mentions never ping); REFUSED when their privacy settings refuse DMs
    from the bot, FAILED on any other trouble (logged)."""
    try:
        channel = await client.create_dm(discord.Object(user_id))
        await channel.send(allowed_mentions=discord.AllowedMentions.none(), **message)
    except discord.Forbidden as exc:
        if exc.code == 50007:
            return Delivery.REFUSED
        log.warning("DM to user %s refused: %s", user_id, exc)
        return Delivery.FAILED
    except discord.HTTPException as exc:
        log.warning("DM to user %s failed: %s", user_id, exc)
        return Delivery.FAILED
    return Delivery.SENT
