"""What a seat can know from its view and the public event log (RULES.md section 8).

Starting hands are dealt face up, and every card taken from the pool or paid for a building is
announced, so a player with perfect memory knows every hand exactly. `SeatView` deliberately
shows only the viewer's own hand; computer players rebuild the others from the public events
here instead of peeking at the game. The order of the money deck and of the building supply is
known to nobody: only their contents can be deduced, as the complement of everything visible.

Undo: within a turn every step produces exactly one event, and `Undone` takes back the last one.
So the steps of the turn in progress are kept on a stack and only committed when the turn ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..catalogue import SCORING_CARD_1, SCORING_CARD_2, money_cards
from ..events import (
    BuildingBought,
    DeckReshuffled,
    Event,
    GameStarted,
    MoneyTaken,
    Skipped,
    TurnEnded,
    TurnStarted,
    Undone,
)
from ..view import SeatView

#: Events that one step of a turn produces (one each); `Undone` removes the latest of them.
_STEP_EVENTS = (
    "money_taken",
    "bought",
    "placed",
    "reserved",
    "given_to_dirk",
    "removed",
    "built_from_reserve",
    "swapped",
)
TILE_IDS = frozenset(range(1, 55))


@dataclass(slots=True)
class Knowledge:
    """Deductions from the public log, checked against the view they must agree with."""

    #: every seat's hand; the viewer's own comes from the view
    hands: list[list[int]]
    #: False when the log did not allow an exact deduction (missing or inconsistent history);
    #: then other hands are only sizes and `unseen_money` includes their cards
    hands_known: bool
    #: the spent money waiting to be reshuffled, when known
    discard: list[int]
    reshuffles: int
    #: money cards in the initial deck (after dealing hands and the pool), when known
    initial_deck: int | None
    #: money cards whose place nobody knows (deck, plus unknown hands and discard if not known)
    unseen_money: list[int]
    #: buildings in the supply (everything not visible anywhere)
    unseen_tiles: list[int]


def _replay_log(
    history: Sequence[Event], players: int
) -> tuple[list[list[int]], list[int], int, int] | None:
    """Hands and discard after the committed turns plus the steps of the turn in progress."""
    start = next((e for e in history if isinstance(e, GameStarted)), None)
    if start is None or start.players != players:
        return None
    hands = [list(h) for h in start.hands]
    discard: list[int] = []
    reshuffles = 0
    steps: list[Event] = []

    def commit(event: Event) -> None:
        if isinstance(event, MoneyTaken):
            hands[event.seat].extend(event.cards)
        elif isinstance(event, BuildingBought):
            for c in event.cards:
                if c in hands[event.seat]:
                    hands[event.seat].remove(c)
                discard.append(c)

    for event in history:
        kind = getattr(event, "kind", None)
        if kind in _STEP_EVENTS:
            steps.append(event)
        elif isinstance(event, Undone):
            if steps:
                steps.pop()
        elif isinstance(event, TurnEnded | TurnStarted):
            for step in steps:
                commit(step)
            steps = []
        elif isinstance(event, Skipped):
            steps = []  # a skip restores the start of the turn
        elif isinstance(event, DeckReshuffled):
            for step in steps:
                commit(step)
            steps = []
            discard = []
            reshuffles += 1
    for step in steps:
        commit(step)
    initial = len(money_cards(players)) - sum(len(h) for h in start.hands) - len(start.pool)
    return hands, discard, reshuffles, initial


def deduce(view: SeatView, history: Sequence[Event]) -> Knowledge:
    """Everything `view.seat` can know. Falls back to hand sizes only if the log disagrees with
    the view (for instance a history that does not start at the setup)."""
    if view.seat is None:
        raise ValueError("a spectator has no hand to play")
    players = view.players
    all_money = money_cards(players)
    replayed = _replay_log(history, players)
    hands_known = False
    discard: list[int] = []
    reshuffles = 0
    initial: int | None = None
    hands: list[list[int]] = [[] for _ in range(players)]
    if replayed is not None:
        r_hands, r_discard, reshuffles, initial = replayed
        consistent = sorted(r_hands[view.seat]) == sorted(view.hand) and all(
            len(r_hands[s]) == view.table[s].hand_size for s in range(players)
        )
        consistent = consistent and len(r_discard) == view.discard_size
        if consistent:
            hands_known = True
            hands = [sorted(h) for h in r_hands]
            discard = sorted(r_discard)
    hands[view.seat] = sorted(view.hand)
    visible = set(view.pool)
    if hands_known:
        for h in hands:
            visible.update(h)
        visible.update(discard)
    else:
        visible.update(view.hand)
        initial = None
    unseen_money = [c for c in all_money if c not in visible]

    seen_tiles: set[int] = set(view.pending)
    for p in view.table:
        seen_tiles.update(t for _x, _y, t in p.alhambra)
        seen_tiles.update(p.reserve)
    seen_tiles.update(t for t in view.market if t is not None)
    seen_tiles.update(view.dirk or ())
    unseen_tiles = sorted(TILE_IDS - seen_tiles)
    return Knowledge(
        hands=hands,
        hands_known=hands_known,
        discard=discard,
        reshuffles=reshuffles,
        initial_deck=initial,
        unseen_money=unseen_money,
        unseen_tiles=unseen_tiles,
    )


def undrawn_scoring_cards(view: SeatView) -> list[int]:
    """Scoring cards still in the deck: those whose round has not been held yet."""
    held = {r.round_no for r in view.scoring_rounds}
    return [c for c, n in ((SCORING_CARD_1, 1), (SCORING_CARD_2, 2)) if n not in held]
