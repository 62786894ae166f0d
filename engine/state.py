"""Everything on the table that changes during a game, as one typed record.

`Game` owns one `TableState` and changes it only through actions; it keeps a copy of the start of
every turn so that `Undo` can go back (`turn_copy`, which copies only what a turn's steps change),
and computer players copy it for every playout, which is why `copy` is written out field by field
rather than left to `copy.deepcopy`.

`to_dict` and `from_dict` are the `state` and `turn_start` parts of a game snapshot. Stored games
depend on them: keep the keys, their order and their JSON forms exactly as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .alhambra import Alhambra, HoleRule
from .events import ScoringHeld, event_from_dict, event_to_dict

#: `action` (take, buy or redesign), `place` (bought buildings wait), `confirm` (only end of turn
#: or undo left), `over`.
Phase = Literal["action", "place", "confirm", "over"]


@dataclass(slots=True)
class TableState:
    """The whole table, hidden parts included (deck and supply order, every hand).

    Piles drawn from are drawn from the end: `deck[-1]` and `supply[-1]` come next.
    """

    #: each seat's money cards
    hands: list[list[int]]
    alhambras: list[Alhambra]
    reserves: list[list[int]]
    scores: list[int]
    deck: list[int]
    discard: list[int]
    pool: list[int]
    #: one building (or None) per market slot, in currency order
    market: list[int | None]
    supply: list[int]
    #: Dirk's buildings in a two-player game, None otherwise
    dirk: list[int] | None
    #: the seat whose turn it is (the last one to play once the game is over)
    current: int
    phase: Phase
    #: take, buy and redesign actions done this turn
    actions_done: int
    #: buildings bought this turn (or handed out at the end) that wait for a place
    pending: list[int]
    #: True while the market buildings handed out at the end are placed
    final: bool
    #: (seat, buildings) still to be placed at the end, in turn order
    final_queue: list[tuple[int, list[int]]]
    #: scoring cards drawn so far
    scoring_aside: list[int]
    rounds: list[ScoringHeld]
    #: how often the spent money was reshuffled (each reshuffle seeds its own generator)
    reshuffles: int
    #: rank per seat once the game is over
    ranks: list[int] | None
    turn_no: int
    #: market buildings nobody received at the end
    unclaimed: list[int]

    def copy(self) -> TableState:
        """An independent copy (Alhambras copied, events shared: they are immutable)."""
        return TableState(
            [list(h) for h in self.hands],
            [a.copy() for a in self.alhambras],
            [list(r) for r in self.reserves],
            list(self.scores),
            list(self.deck),
            list(self.discard),
            list(self.pool),
            list(self.market),
            list(self.supply),
            None if self.dirk is None else list(self.dirk),
            self.current,
            self.phase,
            self.actions_done,
            list(self.pending),
            self.final,
            [(s, list(t)) for s, t in self.final_queue],
            list(self.scoring_aside),
            list(self.rounds),
            self.reshuffles,
            None if self.ranks is None else list(self.ranks),
            self.turn_no,
            list(self.unclaimed),
        )

    def turn_copy(self) -> TableState:
        """A copy for the start of the current seat's turn: independent in everything the turn's
        steps change (the seat's hand, Alhambra and reserve, the pool, the spent money, the
        market, the buildings waiting and Dirk's), sharing the rest, which only the end of the
        turn changes. `Game` drops this copy when the turn ends, before changing any of that."""
        seat = self.current
        hands = list(self.hands)
        hands[seat] = list(hands[seat])
        alhambras = list(self.alhambras)
        alhambras[seat] = alhambras[seat].copy()
        reserves = list(self.reserves)
        reserves[seat] = list(reserves[seat])
        return TableState(
            hands,
            alhambras,
            reserves,
            self.scores,
            self.deck,
            list(self.discard),
            list(self.pool),
            list(self.market),
            self.supply,
            None if self.dirk is None else list(self.dirk),
            seat,
            self.phase,
            self.actions_done,
            list(self.pending),
            self.final,
            self.final_queue,
            self.scoring_aside,
            self.rounds,
            self.reshuffles,
            self.ranks,
            self.turn_no,
            self.unclaimed,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data, sharing no list with the live state (callers may change it)."""
        return {
            "hands": [list(h) for h in self.hands],
            "alhambras": [
                sorted([x, y, t] for (x, y), t in a.tiles.items()) for a in self.alhambras
            ],
            "reserves": [list(r) for r in self.reserves],
            "scores": list(self.scores),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "pool": list(self.pool),
            "market": list(self.market),
            "supply": list(self.supply),
            "dirk": None if self.dirk is None else list(self.dirk),
            "current": self.current,
            "phase": self.phase,
            "actions_done": self.actions_done,
            "pending": list(self.pending),
            "final": self.final,
            "final_queue": [[s, list(t)] for s, t in self.final_queue],
            "scoring_aside": list(self.scoring_aside),
            "rounds": [event_to_dict(r) for r in self.rounds],
            "reshuffles": self.reshuffles,
            "ranks": None if self.ranks is None else list(self.ranks),
            "turn_no": self.turn_no,
            "unclaimed": list(self.unclaimed),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], holes: HoleRule) -> TableState:
        """The state `to_dict` wrote (JSON data, so every value is taken on trust as its field's
        type; the grids are rebuilt with the game's hole rule)."""
        rounds: list[ScoringHeld] = []
        for r in d["rounds"]:
            held = event_from_dict(r)
            assert isinstance(held, ScoringHeld)
            rounds.append(held)
        return cls(
            hands=[list(h) for h in d["hands"]],
            alhambras=[
                Alhambra.from_tiles({(x, y): t for x, y, t in cells}, holes)
                for cells in d["alhambras"]
            ],
            reserves=[list(r) for r in d["reserves"]],
            scores=list(d["scores"]),
            deck=list(d["deck"]),
            discard=list(d["discard"]),
            pool=list(d["pool"]),
            market=list(d["market"]),
            supply=list(d["supply"]),
            dirk=None if d["dirk"] is None else list(d["dirk"]),
            current=d["current"],
            phase=d["phase"],
            actions_done=d["actions_done"],
            pending=list(d["pending"]),
            final=d["final"],
            final_queue=[(q[0], list(q[1])) for q in d["final_queue"]],
            scoring_aside=list(d["scoring_aside"]),
            rounds=rounds,
            reshuffles=d["reshuffles"],
            ranks=None if d["ranks"] is None else list(d["ranks"]),
            turn_no=d["turn_no"],
            unclaimed=list(d["unclaimed"]),
        )
