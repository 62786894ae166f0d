"""What happened: the events `Game.apply` returns, for the log, the messages and the AI.

Events carry public information only (RULES.md section 8: cards taken from the pool and cards
paid are public; the cards a refill draws go face up into the pool). The only exception is
`GameStarted.hands`, the starting hands, which are public at that moment by the rules.
Like actions, they are frozen dataclasses tagged by a stable `kind`, serialised by pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from .actions import Action


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: int
    #: seating[seat] = index of the player (in join order) who sits there; seat 0 plays first
    #: in turn order, but `start_seat` opens the game.
    seating: tuple[int, ...]
    start_seat: int
    hands: tuple[tuple[int, ...], ...]
    pool: tuple[int, ...]
    market: tuple[int | None, ...]
    dirk: tuple[int, ...] = ()
    kind: Literal["game_started"] = "game_started"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: int
    #: True for the placement of market buildings handed out at the end of the game.
    final: bool = False
    kind: Literal["turn_started"] = "turn_started"


@dataclass(frozen=True, slots=True)
class MoneyTaken:
    seat: int
    cards: tuple[int, ...]
    kind: Literal["money_taken"] = "money_taken"


@dataclass(frozen=True, slots=True)
class BuildingBought:
    seat: int
    slot: int
    tile: int
    cards: tuple[int, ...]
    exact: bool
    kind: Literal["bought"] = "bought"


@dataclass(frozen=True, slots=True)
class BuildingPlaced:
    seat: int
    tile: int
    x: int
    y: int
    kind: Literal["placed"] = "placed"


@dataclass(frozen=True, slots=True)
class BuildingReserved:
    seat: int
    tile: int
    kind: Literal["reserved"] = "reserved"


@dataclass(frozen=True, slots=True)
class GivenToDirk:
    seat: int
    tile: int
    kind: Literal["given_to_dirk"] = "given_to_dirk"


@dataclass(frozen=True, slots=True)
class BuildingRemoved:
    """Redesign: a building went from the Alhambra to the reserve."""

    seat: int
    tile: int
    x: int
    y: int
    kind: Literal["removed"] = "removed"


@dataclass(frozen=True, slots=True)
class BuiltFromReserve:
    """Redesign: a reserve building went onto an empty cell."""

    seat: int
    tile: int
    x: int
    y: int
    kind: Literal["built_from_reserve"] = "built_from_reserve"


@dataclass(frozen=True, slots=True)
class BuildingsSwapped:
    """Redesign: `tile` came from the reserve to (x, y); `replaced` went to the reserve."""

    seat: int
    tile: int
    replaced: int
    x: int
    y: int
    kind: Literal["swapped"] = "swapped"


@dataclass(frozen=True, slots=True)
class Undone:
    seat: int
    action: Annotated[Action, Field(discriminator="kind")]
    kind: Literal["undone"] = "undone"


@dataclass(frozen=True, slots=True)
class TurnEnded:
    seat: int
    kind: Literal["turn_ended"] = "turn_ended"


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int
    kind: Literal["passed"] = "passed"


@dataclass(frozen=True, slots=True)
class Skipped:
    seat: int
    kind: Literal["skipped"] = "skipped"


@dataclass(frozen=True, slots=True)
class PoolRefilled:
    cards: tuple[int, ...]
    kind: Literal["pool_refilled"] = "pool_refilled"


@dataclass(frozen=True, slots=True)
class MarketRefilled:
    slot: int
    tile: int
    kind: Literal["market_refilled"] = "market_refilled"


@dataclass(frozen=True, slots=True)
class DeckReshuffled:
    cards: int
    kind: Literal["deck_reshuffled"] = "deck_reshuffled"


@dataclass(frozen=True, slots=True)
class ScoringCardDrawn:
    round_no: int
    kind: Literal["scoring_card_drawn"] = "scoring_card_drawn"


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One seat's points in one scoring round (seat -1 is Dirk, whose points are not kept)."""

    seat: int
    #: points per building type, in `Building` order
    buildings: tuple[int, ...]
    wall: int
    total: int
    #: the seat's score after the round
    score: int


@dataclass(frozen=True, slots=True)
class ScoringHeld:
    round_no: int
    rows: tuple[ScoreRow, ...]
    #: building counts per seat that were compared, in `Building` order (Dirk last if he plays)
    counts: tuple[tuple[int, ...], ...]
    kind: Literal["scoring"] = "scoring"


@dataclass(frozen=True, slots=True)
class DirkDrew:
    tiles: tuple[int, ...]
    kind: Literal["dirk_drew"] = "dirk_drew"


@dataclass(frozen=True, slots=True)
class MarketDistributed:
    """End of game: the building of `slot` goes to `seat` (None: tied, or nobody has the money)."""

    slot: int
    tile: int
    seat: int | None
    kind: Literal["distributed"] = "distributed"


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, ...]
    #: rank per seat (1 = first; equal scores share a rank)
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    kind: Literal["game_ended"] = "game_ended"


Event = (
    GameStarted
    | TurnStarted
    | MoneyTaken
    | BuildingBought
    | BuildingPlaced
    | BuildingReserved
    | GivenToDirk
    | BuildingRemoved
    | BuiltFromReserve
    | BuildingsSwapped
    | Undone
    | TurnEnded
    | Passed
    | Skipped
    | PoolRefilled
    | MarketRefilled
    | DeckReshuffled
    | ScoringCardDrawn
    | ScoringHeld
    | DirkDrew
    | MarketDistributed
    | GameEnded
)

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Annotated[Event, Field(discriminator="kind")])
EVENTS_ADAPTER: TypeAdapter[list[Event]] = TypeAdapter(
    list[Annotated[Event, Field(discriminator="kind")]]
)


def event_to_dict(event: Event) -> dict[str, Any]:
    # pydantic types dump_python as Any; in JSON mode a dataclass dumps to a dict of JSON data.
    data: dict[str, Any] = EVENT_ADAPTER.dump_python(event, mode="json")
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    return EVENT_ADAPTER.validate_python(data)
