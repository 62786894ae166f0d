"""Simulated people's hands, shared by the benchmarks that drive the real bot through the fake
Discord (bench/load.py, bench/soak.py): how a person plays one decision with the turn message's
buttons and their private panel, read by the labels a person reads, and the small helpers
around it (finding an option, a percentile, counting what the bot logs).

What a click costs and what is done with its answer is each benchmark's own business: they
hand `play_decision` and `choose` their own way of sending one interaction (`Hands`), which
raises `Abort` when the bot refused, failed or did not answer.

Import it after putting the checkout's packages ahead of bench/ on sys.path (bench/render.py
and bench/engine.py would shadow the packages they measure), as the benchmarks do.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from fake_discord.errors import SimulationError
from fake_discord.models import Message, User

from bot.text.present import action_label, building_name, currency_name
from engine import (
    Action,
    Buy,
    EndTurn,
    GiveToDirk,
    Pass,
    Place,
    PlaceInReserve,
    RemoveToReserve,
    SeatView,
    Swap,
    TakeMoney,
    Undo,
)
from engine import PlaceFromReserve as Build

L = TypeVar("L")
L_contra = TypeVar("L_contra", contravariant=True)

#: what sends one interaction on a message, as `user`; raises `Abort` when it was not done
Send = Callable[[User, Message, dict[str, Any], str], Awaitable[object]]


class Abort(Exception):
    """The decision cannot go on (the bot refused, failed or did not answer): start again."""


class Hands(Protocol[L_contra]):
    """How a benchmark's person sends the clicks of one decision in the game `live`."""

    async def open_panel(self, live: L_contra, user: User, button: str) -> Message:
        """Click `button` on the game's turn message; the private panel it opened."""
        ...

    async def click(
        self, live: L_contra, user: User, message: Message, label: str, kind: str
    ) -> object:
        """Press the button with that label on `message`."""
        ...

    async def choose(self, live: L_contra, user: User, panel: Message, label: str) -> object:
        """Pick the option with that label in the panel (see `choose`)."""
        ...


def option(message: Message, label: str) -> tuple[dict[str, Any], str] | None:
    """The select holding an option with that label, and the option's value."""
    for select in message.selects():
        for found in select.get("options") or []:
            if found["label"] == label[:100]:
                return select, str(found["value"])
    return None


def is_turn_message(message: Message) -> bool:
    """Whether the message carries a turn message's buttons now."""
    return any(str(b.get("custom_id", "")).startswith("alh:t:") for b in message.buttons())


def button_for(panel: Message, label: str) -> str:
    """The panel's button for that decision: "End turn" reads "End turn now" while the turn
    waits for its undo window."""
    labels = panel.button_labels()
    return label if label in labels else next((b for b in labels if b.startswith(label)), label)


def shows(panel: Message, action: Action, label: str, locale: str) -> bool:
    """Whether a panel kept from the person's last move offers this decision."""
    if isinstance(action, EndTurn | Undo):
        return button_for(panel, label) in panel.button_labels()
    tile = getattr(action, "tile", None)
    return option(panel, label) is not None or (
        tile is not None and option(panel, building_name(locale, tile)) is not None
    )


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (nearest rank); None without values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


async def choose(send: Send, user: User, panel: Message, label: str) -> Message:
    """Pick the option with that label in the panel, paging through "More…" first. A menu
    answered with a panel that has no components left (the turn moved on) aborts."""
    for _ in range(20):
        found = option(panel, label)
        if found is None:
            found = next(
                (
                    (s, str(o["value"]))
                    for s in panel.selects()
                    for o in s.get("options") or []
                    if o["label"] == "More…"
                ),
                None,
            )
            if found is None:
                raise SimulationError(f"no option {label!r} in the panel")
            label_found = False
        else:
            label_found = True
        select, value = found
        data = {
            "custom_id": select["custom_id"],
            "component_type": select["type"],
            "values": [value],
        }
        acting = value.startswith("a")
        await send(user, panel, data, "act" if acting else "menu")
        if not acting and panel.ephemeral and not panel.components:
            raise Abort("refused")
        if label_found:
            return panel
    raise SimulationError("too many pages")


async def play_decision(
    hands: Hands[L],
    live: L,
    user: User,
    action: Action,
    view: SeatView,
    *,
    kept: Message | None,
    turn: Message | None,
    locale: str,
) -> Message:
    """Play `action` as a person does: a button of the turn message (`turn`) opens the private
    panel (or the panel `kept` from their last move is used, if it offers the decision), then
    its menus ("More…" pages, a slot, a building, a cell) and buttons such as "End turn now".
    Returns the panel, as the bot last drew it."""
    label = action_label(locale, action, view)
    if isinstance(action, TakeMoney | Buy | RemoveToReserve | Build | Swap | Pass):
        button = {"TakeMoney": "Take money", "Buy": "Buy"}.get(type(action).__name__)
        panel = await hands.open_panel(live, user, button or "Redesign")
        if isinstance(action, Pass):
            await hands.click(live, user, panel, label, "act")
            return panel
        if isinstance(action, Buy):
            bought = view.market[action.slot]
            assert bought is not None
            slot = f"{currency_name(locale, action.slot)}: {building_name(locale, bought)}"
            if option(panel, slot):
                await hands.choose(live, user, panel, slot)
        if isinstance(action, RemoveToReserve | Build | Swap):
            what = {
                "RemoveToReserve": "Move a building to the reserve",
                "PlaceFromReserve": "Build a reserve building",
                "Swap": "Swap a reserve building with one in the Alhambra",
            }[type(action).__name__]
            await hands.choose(live, user, panel, what)
            if not isinstance(action, RemoveToReserve) and option(
                panel, building_name(locale, action.tile)
            ):
                await hands.choose(live, user, panel, building_name(locale, action.tile))
        await hands.choose(live, user, panel, label)
        return panel
    if isinstance(action, Place | PlaceInReserve | GiveToDirk | EndTurn | Undo):
        if kept is not None and shows(kept, action, label, locale):
            panel = kept
        else:
            if turn is None:
                raise SimulationError("no turn message")
            labels = turn.button_labels()
            opener = "Place your buildings" if "Place your buildings" in labels else "Buy"
            panel = await hands.open_panel(live, user, opener)
        if isinstance(action, EndTurn | Undo):
            await hands.click(live, user, panel, button_for(panel, label), "act")
        else:
            building = building_name(locale, action.tile)
            if option(panel, building) and not option(panel, label):
                await hands.choose(live, user, panel, building)
            await hands.choose(live, user, panel, label)
        return panel
    raise SimulationError(f"cannot play {action!r} by buttons")


class LogCount(logging.Handler):
    """Counts what the bot and discord.py log at WARNING and above (instead of printing it)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.errors = self.warnings = 0
        self.first_error: str | None = None
        self.first_warning: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if "voice will NOT be supported" in record.getMessage():  # discord.py, at start
            return
        if record.levelno >= logging.ERROR:
            self.errors += 1
            if self.first_error is None:
                cause = record.exc_info[1] if record.exc_info else None
                self.first_error = f"{record.getMessage()}: {cause!r}" if cause else record.msg
        else:
            self.warnings += 1
            if self.first_warning is None:
                self.first_warning = f"{record.name}: {record.getMessage()}"
