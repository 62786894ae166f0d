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
from ..core.records import GameInfo
from ..core.results import ActResult
from .telling import Telling, TurnDm

#: Runs background work the owner waits for at shutdown (None: the caller drives everything).
Spawn = Callable[[Coroutine[Any, Any, None]], object]


class Delivery(Enum):
    """How a direct message went: out, refused by the user's privacy settings, or lost to
    trouble on the way (tried again at the next occasion)."""

    SENT = "sent"
    REFUSED = "refused"
    FAILED = "failed"


#: A message the bot posted: (channel id, message id).
MessageRef = tuple[int, int]


class ChannelRefused(Exception):
    """The game's channel refused the bot (a moderator took a permission away): the turn flow
    tells the server's owner, once per channel, and tries the post again later."""

    def __init__(self, owner_id: int | None, server: str, channel: str) -> None:
        super().__init__(f"the bot may not post in {channel} ({server})")
        self.owner_id, self.server, self.channel = owner_id, server, channel


class Announcer(Protocol):
    """Tells the table what happened to a game."""

    async def turn_over(
        self, result: ActResult, telling: Telling, locale: str
    ) -> MessageRef | None:
        """A turn (or the game) ended: post what `telling` says of it (its turns' summary,
        a scoring round, the results, the next person's turn message), retire the turn
        message on show, tell the followers. Returns the turn message now on show (None:
        none). Reads nothing: all it needs is in `result` and `telling`. May raise when the
        world refuses (`ChannelRefused` for a permission taken away): the turn flow then
        tries again later."""
        ...

    async def notice(
        self, game: GameInfo, locale: str, key: str, *, mention: int | None = None, **params: object
    ) -> None:
        """A short public line from the catalogue (`key`), mentioning a user if given."""
        ...


class Messenger(Protocol):
    """Reaches one player away from the table. It is handed all it says: it reads nothing."""

    async def turn_dm(self, dm: TurnDm, turn_message: MessageRef | None) -> Delivery:
        """It is their turn: where, the deadline, their money and hand, what happened since
        their last turn."""
        ...

    async def reminder(
        self, user_id: int, locale: str, games: list[tuple[GameInfo, MessageRef | None]]
    ) -> Delivery:
        """One message listing every game waiting on them, each with its turn message."""
        ...

    async def nudge(
        self, game: GameInfo, user_id: int, locale: str, turn_message: MessageRef | None
    ) -> bool:
        """A mention in the game's channel, for a player who refuses DMs."""
        ...

    async def plan_report(
        self,
        game: GameInfo,
        user_id: int,
        report: PlanReport,
        locale: str,
        turn_message: MessageRef | None,
    ) -> Delivery:
        """Their plan met the start of their turn: what it played and why, or why not."""
        ...

    async def owner_notice(self, owner_id: int, locale: str, server: str, channel: str) -> Delivery:
        """The server's owner learns that the bot may not post in one of its channels."""
        ...


class Wake(Protocol):
    """Looks at the timers again: now, or, given the soonest of the timers just armed, only if
    that is sooner than the dispatcher's next look anyway (no round trip for a later one)."""

    def __call__(self, due: datetime | None = None) -> None: ...
