"""Telling a task's own cancellation from a `CancelledError` it merely met.

asyncio raises `CancelledError` in a task both when the task is being cancelled (a shutdown,
a timeout around it) and when something it awaited was cancelled by someone else (a worker
pool that was replaced cancels the jobs it had queued). The first must pass through every
handler; the second is a failure like any other, and a loop that lets it through (the timer
dispatcher, a computer player's driver) would stop for good.
"""

from __future__ import annotations

import asyncio


def being_cancelled() -> bool:
    """Whether the current task is being cancelled (a `CancelledError` now is its own)."""
    task = asyncio.current_task()
    return task is None or task.cancelling() > 0
