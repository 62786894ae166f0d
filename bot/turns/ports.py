"""What the life of a turn needs from the outside world, and nothing more.

The turn flow, reminders and deadlines decide *when* something is told and to whom; an adapter
decides *how* (a Discord channel message with a picture, a DM, a line in the terminal). These
protocols are the whole of that conversation, so the turn logic never imports an adapter and
each adapter (and each test) brings its own implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import datetime
from enum import Enum
from typing import Any, Protocol

from ..core.plans import PlanReport
from ..core.records import GameInfo, SeatInfo
from ..core.results import ActResult

#: Runs background work the owner waits for at shutdown (None: the caller drives everything).
Spawn = Callable[[Coroutine[Any, Any, None]], object]


class Delivery(Enum):
    """How a direct message went: out, refused by the user's privacy settings, or lost to
    trouble on the way (tried again at the next occasion)."""

    SENT = "sent"
    REFUSED = "refused"
    FAILED = "failed"


class Announcer(Protocol):
    """Tells the table what happened to a game."""

    async def turn_over(self, result: ActResult, locale: str) -> None:
        """A turn (or the game) ended: its summary, scoring rounds, results or the next turn.
        May raise when the world refuses: the turn flow then tries again later."""
        ...

    async def notice(
        self, game: GameInfo, locale: str, key: str, *, mention: int | None = None, **params: object
    ) -> None:
        """A short public line from the catalogue (`key`), mentioning a user if given."""
        ...


class Messenger(Protocol):
    """Reaches one player away from the table."""

    async def turn_dm(
        self, game: GameInfo, player: SeatInfo, locale: str, deadline: datetime | None
    ) -> Delivery:
        """It is their turn: where, the deadline, what happened since their last turn."""
        ...

    async def reminder(self, user_id: int, games: list[GameInfo]) -> Delivery:
        """One message listing every game waiting on them."""
        ...

    async def nudge(self, game: GameInfo, user_id: int) -> bool:
        """A mention in the game's channel, for a player who refuses DMs."""
        ...

    async def plan_report(
        self, game: GameInfo, player: SeatInfo, report: PlanReport, locale: str
    ) -> Delivery:
        """Their plan met the start of their turn: what it played and why, or why not."""
        ...


#: Looks at the timers again now (one was added or moved sooner).
Wake = Callable[[], None]
