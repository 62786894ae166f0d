"""Snowflake ids of the current time.

discord.py derives an interaction's expiry from its id (POC pitfall 7), so every id the fake hands
out must be a real snowflake for "now", never a small counter.
"""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1420070400000
_increment = itertools.count(1)


def snowflake() -> int:
    """A fresh, unique snowflake whose timestamp is the current time."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_increment) & 0x3FFFFF)


def snowflake_on_shard(shard: int, shard_count: int) -> int:
    """A fresh snowflake of (a few milliseconds before) now whose events go to that shard:
    Discord's ``(id >> 22) % shard_count``, the time part, decides it."""
    value = snowflake()
    ms = value >> 22
    return ((ms - (ms - shard) % shard_count) << 22) | (value & 0x3FFFFF)


def snowflake_time(value: int) -> datetime:
    """When a snowflake was made; used to check the fake's own ids in tests."""
    return datetime.fromtimestamp(((value >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()
