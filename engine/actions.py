"""The actions a game accepts, as small frozen dataclasses with a stable `kind` tag.

They are plain dataclasses (cheap to build: `legal_actions()` makes dozens per call) and pydantic
validates and serialises them through `ACTION_ADAPTER`, a discriminated union on `kind`. The
`kind` strings and field names are stored in every game's action log: never rename them.

Coordinates are (x, y) with x growing east and y growing south; the fountain is (0, 0).
Cards are money card ids (`engine.catalogue.card_id`), tiles are tile ids 1..54.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter


@dataclass(frozen=True, slots=True)
class TakeMoney:
    """Take one card of any value from the pool, or several adding up to at most 5."""

    cards: tuple[int, ...]
    kind: Literal["take"] = "take"


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy the building of market slot `slot` (0..3) paying exactly these cards."""

    slot: int
    cards: tuple[int, ...]
    kind: Literal["buy"] = "buy"


@dataclass(frozen=True, slots=True)
class Place:
    """Place a building bought this turn on a cell of one's Alhambra."""

    tile: int
    x: int
    y: int
    kind: Literal["place"] = "place"


@dataclass(frozen=True, slots=True)
class PlaceInReserve:
    """Put a building bought this turn into one's reserve."""

    tile: int
    kind: Literal["reserve"] = "reserve"


@dataclass(frozen=True, slots=True)
class GiveToDirk:
    """Two players only: give a building bought this turn to the neutral player Dirk."""

    tile: int
    kind: Literal["dirk"] = "dirk"


@dataclass(frozen=True, slots=True)
class RemoveToReserve:
    """Redesign: move the building at (x, y) from the Alhambra to the reserve."""

    x: int
    y: int
    kind: Literal["remove"] = "remove"


@dataclass(frozen=True, slots=True)
class PlaceFromReserve:
    """Redesign: move a reserve building onto the empty cell (x, y)."""

    tile: int
    x: int
    y: int
    kind: Literal["build"] = "build"


@dataclass(frozen=True, slots=True)
class Swap:
    """Redesign: put a reserve building on (x, y); the building there goes to the reserve."""

    tile: int
    x: int
    y: int
    kind: Literal["swap"] = "swap"


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last step of the current turn."""

    kind: Literal["undo"] = "undo"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Confirm the turn: nothing of it can be undone afterwards."""

    kind: Literal["end_turn"] = "end_turn"


@dataclass(frozen=True, slots=True)
class Pass:
    """The player can do nothing at all this turn (only legal then)."""

    kind: Literal["pass"] = "pass"


@dataclass(frozen=True, slots=True)
class Skip:
    """Administrative: the current seat's turn is skipped (a deadline passed). Never listed."""

    kind: Literal["skip"] = "skip"


Action = (
    TakeMoney
    | Buy
    | Place
    | PlaceInReserve
    | GiveToDirk
    | RemoveToReserve
    | PlaceFromReserve
    | Swap
    | Undo
    | EndTurn
    | Pass
    | Skip
)

ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Annotated[Action, Field(discriminator="kind")])


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON-ready form stored in the action log."""
    # pydantic types dump_python as Any; in JSON mode a dataclass dumps to a dict of JSON data.
    data: dict[str, Any] = ACTION_ADAPTER.dump_python(action, mode="json")
    return data


def action_from_dict(data: dict[str, Any]) -> Action:
    """Parse a stored or user-built action; raises pydantic.ValidationError on bad input."""
    return ACTION_ADAPTER.validate_python(data)


def action_to_json(action: Action) -> str:
    return ACTION_ADAPTER.dump_json(action).decode()


def action_from_json(text: str | bytes) -> Action:
    return ACTION_ADAPTER.validate_json(text)
