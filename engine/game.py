"""A game of Alhambra: turns, refills, scoring rounds and the end (RULES.md 3-7).

`Game` is a state machine driven only by actions. Each call to `apply` checks the action fully
before touching anything, so a refused action leaves the game exactly as it was. Undo restores
the state saved at the start of the turn and re-applies the turn's steps but the last: nothing
random happens inside a turn (drawing happens when it ends), so this is exact.

Randomness: the seed shuffles seats, money and buildings at setup (`engine.dealing`); each later
reshuffle of the spent money uses a generator seeded from (seed, reshuffle number). The same seed
and actions give the same game, and a JSON snapshot needs no generator state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, TypeVar

from .actions import (
    Action,
    Buy,
    EndTurn,
    GiveToDirk,
    Pass,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    Skip,
    Swap,
    TakeMoney,
    Undo,
    action_from_dict,
    action_to_dict,
)
from .alhambra import Alhambra, Cell
from .catalogue import (
    CARD_CURRENCY,
    CARD_VALUE,
    CARDS,
    SCORING_CARD_1,
    SCORING_CARD_2,
    TILE_COST,
    TILES,
    Currency,
)
from .events import (
    BuildingBought,
    BuildingPlaced,
    BuildingRemoved,
    BuildingReserved,
    BuildingsSwapped,
    BuiltFromReserve,
    DeckReshuffled,
    DirkDrew,
    Event,
    GameEnded,
    GameStarted,
    GivenToDirk,
    MarketDistributed,
    MarketRefilled,
    MoneyTaken,
    Passed,
    PoolRefilled,
    ScoreRow,
    ScoringCardDrawn,
    ScoringHeld,
    Skipped,
    TurnEnded,
    TurnStarted,
    Undone,
    event_from_dict,
    event_to_dict,
)
from .options import Options
from .payments import sorted_payments
from .scoring import majority_points
from .state import Phase, TableState
from .view import PlayerView, SeatView

K = TypeVar("K")
V = TypeVar("V")

JSON_FORMAT = 1
POOL_SIZE = 4
MARKET_SLOTS = 4
TAKE_LIMIT = 5
DIRK_AFTER_FIRST = 6


class IllegalAction(Exception):
    """An action the rules do not allow now; the message says why, for the player."""


def _money(cards: Iterable[int]) -> str:
    return ", ".join(str(CARDS[c]) for c in cards)


def _building(tile: object) -> str:
    # Messages may name a tile id that came from a malformed action, so never index blindly.
    if not isinstance(tile, int) or not 1 <= tile < len(TILES):
        return f"tile {tile!r}"
    t = TILES[tile]
    assert t.building is not None
    return f"{t.building.label} ({t.cost})"


class Game:
    """One game. Create it with `new_game` (or restore it with `from_dict`), change it only with
    `apply`.

    The bare constructor holds no table yet: `start`, `from_dict` and `copy` give it one.
    """

    def __init__(self, players: int, seed: int, options: Options, seating: Sequence[int]) -> None:
        self.players = players
        self.seed = seed
        self.options = options
        #: seating[seat] = the index (in join order) of the player who sits there.
        self.seating = tuple(seating)
        self._s: TableState
        self._turn_start: TableState | None = None
        self._turn_actions: list[Action] = []
        self._turn_events: list[Event] = []
        self._setup_events: list[Event] = []
        # legal_actions() of the position as it is, until the next apply or rig: a computer
        # player asks for them, then for the view, which lists them again
        self._legal: tuple[Action, ...] | None = None

    @classmethod
    def start(
        cls, players: int, seed: int, options: Options, seating: Sequence[int], table: TableState
    ) -> Game:
        """A game whose first turn begins now on `table`, a fresh deal (`new_game` deals one from
        the seed). The seat with the fewest money cards, then the least money, then the lowest
        number starts (RULES.md 2). `table` is copied: the caller's stays its own."""
        game = cls(players, seed, options, seating)
        s = game._s = table.copy()
        start = min(
            range(players),
            key=lambda p: (len(s.hands[p]), sum(CARD_VALUE[c] for c in s.hands[p]), p),
        )
        started = GameStarted(
            players,
            tuple(seating),
            start,
            tuple(tuple(h) for h in s.hands),
            tuple(s.pool),
            tuple(s.market),
            tuple(s.dirk or ()),
        )
        game._setup_events = [started, *game._begin_turn(start)]
        return game

    # --- public reading -----------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        """A copy of the whole table, hidden parts included (every hand, the deck and supply
        order): for tests, tools and analysis, never for players (`view` is what a seat sees).
        Changing the copy changes nothing; `rig` sets up a position."""
        return self._s.copy()

    @property
    def current_seat(self) -> int | None:
        """The seat whose decision it is; None once the game is over."""
        return None if self._s.phase == "over" else self._s.current

    @property
    def is_over(self) -> bool:
        return self._s.phase == "over"

    @property
    def phase(self) -> Phase:
        """`action` (take, buy or redesign), `place` (bought buildings wait), `confirm`
        (only end of turn or undo left), `over`."""
        return self._s.phase

    @property
    def is_final_placement(self) -> bool:
        """True while players place the market buildings handed out at the end."""
        return self._s.final

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._s.scores)

    @property
    def ranks(self) -> tuple[int, ...] | None:
        """Rank per seat once the game is over (1 = first, equal scores share a rank)."""
        return None if self._s.ranks is None else tuple(self._s.ranks)

    @property
    def winners(self) -> tuple[int, ...]:
        ranks = self.ranks
        return () if ranks is None else tuple(s for s, r in enumerate(ranks) if r == 1)

    def ranking(self) -> list[tuple[int, int, int]]:
        """(rank, seat, score) best first; ranks as in `ranks` (or by current scores)."""
        scores = self._s.scores
        ranks = self.ranks or _ranks(scores)
        return sorted((ranks[s], s, scores[s]) for s in range(self.players))

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(h) for h in self._s.hands)

    def hand(self, seat: int) -> tuple[int, ...]:
        return tuple(self._s.hands[seat])

    def alhambra(self, seat: int) -> Alhambra:
        """A copy of a seat's Alhambra."""
        return self._s.alhambras[seat].copy()

    def reserve(self, seat: int) -> tuple[int, ...]:
        return tuple(self._s.reserves[seat])

    @property
    def pool(self) -> tuple[int, ...]:
        return tuple(self._s.pool)

    @property
    def market(self) -> tuple[int | None, ...]:
        return tuple(self._s.market)

    @property
    def pending(self) -> tuple[int, ...]:
        """Buildings bought this turn (or handed out at the end) that still wait for a place."""
        return tuple(self._s.pending)

    @property
    def deck(self) -> tuple[int, ...]:
        """The money deck, next card last. Hidden information: never show it to players."""
        return tuple(self._s.deck)

    @property
    def discard(self) -> tuple[int, ...]:
        return tuple(self._s.discard)

    @property
    def supply(self) -> tuple[int, ...]:
        """The building supply, next tile last. Hidden information."""
        return tuple(self._s.supply)

    @property
    def dirk(self) -> tuple[int, ...] | None:
        """Dirk's buildings in a two-player game, None otherwise."""
        return None if self._s.dirk is None else tuple(self._s.dirk)

    @property
    def scoring_cards_aside(self) -> tuple[int, ...]:
        return tuple(self._s.scoring_aside)

    @property
    def scoring_rounds(self) -> tuple[ScoringHeld, ...]:
        """The scoring rounds held so far, in order."""
        return tuple(self._s.rounds)

    @property
    def turn_number(self) -> int:
        return self._s.turn_no

    @property
    def actions_this_turn(self) -> int:
        """Take, buy and redesign actions already done this turn."""
        return self._s.actions_done

    @property
    def turn_actions(self) -> tuple[Action, ...]:
        """The steps of the current turn, which `Undo` can take back."""
        return tuple(self._turn_actions)

    @property
    def turn_events(self) -> tuple[Event, ...]:
        """What the current turn's steps did so far (undone steps excluded): read it before
        ending the turn to tell the table what happened."""
        return tuple(self._turn_events)

    def setup_events(self) -> list[Event]:
        """The events of the setup: the starting hands, pool, market and the first turn."""
        return list(self._setup_events)

    # --- setting up a position ----------------------------------------------------------------

    def rig(self, table: TableState) -> None:
        """Put the game in a position set up by hand: a copy of `table` becomes the table, and the
        start of the current turn (what `Undo` goes back to).

        For tests and puzzles that need a position a deal rarely gives (take `state`, change
        it, rig it). The rules are not checked: keeping every card and building in exactly one
        place is the caller's business. Raises ValueError once the turn's first step is taken
        (`Undo` could no longer go back to the turn's real start) or if `table` seats another
        number of players.
        """
        if self._turn_actions:
            raise ValueError("rig a position only before the turn's first step")
        sizes = {len(table.hands), len(table.alhambras), len(table.reserves), len(table.scores)}
        if sizes != {self.players}:
            raise ValueError(f"that table does not seat the {self.players} players of this game")
        self._s = table.copy()
        self._turn_start = None if table.phase == "over" else table.copy()
        self._legal = None

    # --- legal actions ------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the current seat may take now (never `Skip`, which is administrative)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return list(legal)

    def _list_legal(self) -> tuple[Action, ...]:
        s = self._s
        phase = s.phase
        undo = bool(self._turn_actions)
        if phase == "confirm":
            return _CONFIRM_UNDO if undo else _CONFIRM
        if phase == "over":
            return ()
        out: list[Action]
        if phase == "action":
            out = [*self._takes(), *self._buys(), *self._redesigns()]
            if s.actions_done:
                out.extend(self._placements())
            elif not out:
                out.append(_PASS)
        else:
            out = self._placements()
        if undo:
            out.append(_UNDO)
        return tuple(out)

    def _takes(self) -> tuple[TakeMoney, ...]:
        pool = tuple(self._s.pool)
        takes = _TAKES.get(pool)
        if takes is None:
            takes = _TAKES.put(pool, _list_takes(pool))
        return takes

    def _buys(self) -> list[Buy]:
        s = self._s
        mine: tuple[list[int], ...] = ([], [], [], [])
        for c in sorted(s.hands[s.current]):
            mine[c // 27].append(c)
        out: list[Buy] = []
        for slot, tile in enumerate(s.market):
            if tile is None:
                continue
            cards = mine[slot]
            if not cards:
                continue
            key = (TILE_COST[tile], *cards)
            memo = _BUYS[slot]
            buys = memo.get(key)
            if buys is None:
                made = _BUY_OF[slot]
                buys = memo.put(key, tuple([made[paid] for paid in sorted_payments(cards, key[0])]))
            out.extend(buys)
        return out

    def _redesigns(self) -> tuple[Action, ...]:
        s = self._s
        seat = s.current
        alhambra = s.alhambras[seat]
        memo = alhambra.memo
        removals: tuple[Action, ...] | None = memo.get("remove")
        if removals is None:
            removals = memo["remove"] = _removals(alhambra)
        reserve = s.reserves[seat]
        if not reserve:
            return removals
        key = ("redesign", tuple(reserve))
        found: tuple[Action, ...] | None = memo.get(key)
        if found is None:
            out = list(removals)
            for tile in reserve:
                rebuilds: tuple[Action, ...] | None = memo.get(tile)
                if rebuilds is None:
                    rebuilds = memo[tile] = _rebuilds(alhambra, tile)
                out.extend(rebuilds)
            found = memo[key] = tuple(out)
        return found

    def _placements(self) -> list[Action]:
        s = self._s
        alhambra = s.alhambras[s.current]
        memo = alhambra.memo
        dirk = s.dirk is not None and not s.final
        out: list[Action] = []
        for tile in s.pending:
            key = -tile  # tiles are 1..54: placements are kept under their negated ids
            places: tuple[Action, ...] | None = memo.get(key)
            if places is None:
                places = memo[key] = _places(alhambra, tile)
            out.extend(places)
            out.append(_RESERVE[tile])
            if dirk:
                out.append(_DIRK[tile])
        return out

    # --- applying -----------------------------------------------------------------------------

    def apply(self, action: Action | dict[str, Any]) -> list[Event]:
        """Apply one action of the current seat and return what happened.

        Raises `IllegalAction` (and changes nothing) when the rules do not allow it.
        """
        if isinstance(action, dict):
            try:
                action = action_from_dict(action)
            except ValueError as exc:
                raise IllegalAction(f"That is not an action this game understands: {exc}") from None
        s = self._s
        if s.phase == "over":
            raise IllegalAction("The game is over.")
        self._legal = None
        handler = _HANDLERS.get(type(action))
        events = self._handle(action) if handler is None else handler(self, action)
        if type(action) in _STEPS:
            self._turn_events.extend(events)
        return events

    def _handle(self, action: Action) -> list[Event]:
        # Every handler checks everything first, then changes the state.
        handler = _HANDLERS.get(type(action))
        if handler is not None:
            return handler(self, action)
        match action:  # subclasses of the actions, and what is no action at all
            case EndTurn():
                return self._do_end_turn(action)
            case TakeMoney():
                return self._do_take(action)
            case Buy():
                return self._do_buy(action)
            case Place():
                return self._do_place(action)
            case PlaceInReserve():
                return self._do_reserve(action)
            case PlaceFromReserve():
                return self._do_build(action)
            case RemoveToReserve():
                return self._do_remove(action)
            case Swap():
                return self._do_swap(action)
            case GiveToDirk():
                return self._do_dirk(action)
            case Pass():
                return self._do_pass(action)
            case Undo():
                return self._do_undo(action)
            case Skip():
                return self._do_skip(action)
            case _:  # only callers without type checking get here
                raise IllegalAction(f"That is not an action this game understands: {action!r}")

    def _do_take(self, a: TakeMoney) -> list[Event]:
        s = self._s
        if s.phase != "action":
            self._need_action_phase()
        cards = tuple(a.cards)
        if not cards:
            raise IllegalAction("Taking nothing is not an action: choose at least one card.")
        chosen = set(cards)
        if len(chosen) != len(cards) or not chosen.issubset(s.pool):
            raise IllegalAction("You can only take cards that lie in the money pool.")
        total = sum([CARD_VALUE[c] for c in cards])
        if len(cards) > 1 and total > TAKE_LIMIT:
            values = " + ".join(str(CARD_VALUE[c]) for c in cards)
            raise IllegalAction(
                f"You may take one card of any value, or several whose values add up to at most "
                f"{TAKE_LIMIT}; {values} = {total}."
            )
        for c in cards:
            s.pool.remove(c)
            s.hands[s.current].append(c)
        self._after_action(a)
        return [MoneyTaken(s.current, cards)]

    def _do_buy(self, a: Buy) -> list[Event]:
        s = self._s
        if s.phase != "action":
            self._need_action_phase()
        if not 0 <= a.slot < MARKET_SLOTS:
            raise IllegalAction("The market has four slots, 1 to 4.")
        tile = s.market[a.slot]
        if tile is None:
            raise IllegalAction(f"Market slot {a.slot + 1} is empty.")
        cards = tuple(a.cards)
        hand = s.hands[s.current]
        if not cards:
            raise IllegalAction("Choose the cards you pay with.")
        paid = set(cards)
        if len(paid) != len(cards) or not paid.issubset(hand):
            raise IllegalAction("You can only pay with cards from your own hand.")
        wrong = [c for c in cards if CARD_CURRENCY[c] != a.slot]
        if wrong:
            raise IllegalAction(
                f"The building in slot {a.slot + 1} is paid in {Currency(a.slot).label}s only; "
                f"you offered {_money(wrong)}."
            )
        total = sum([CARD_VALUE[c] for c in cards])
        cost = TILE_COST[tile]
        if total < cost:
            raise IllegalAction(
                f"Those cards add up to {total}, but the {_building(tile)} costs {cost}; "
                "no change is given, so pay at least the cost."
            )
        for c in cards:
            hand.remove(c)
            s.discard.append(c)
        s.market[a.slot] = None
        s.pending.append(tile)
        exact = total == cost
        self._after_action(a, extra=exact)
        return [BuildingBought(s.current, a.slot, tile, cards, exact)]

    def _do_remove(self, a: RemoveToReserve) -> list[Event]:
        s = self._s
        if s.phase != "action":
            self._need_action_phase()
        alhambra = s.alhambras[s.current]
        why = alhambra.removal_error((a.x, a.y))
        if why:
            raise IllegalAction(why)
        tile = alhambra.remove((a.x, a.y))
        s.reserves[s.current].append(tile)
        self._after_action(a)
        return [BuildingRemoved(s.current, tile, a.x, a.y)]

    def _do_build(self, a: PlaceFromReserve) -> list[Event]:
        s = self._s
        if s.phase != "action":
            self._need_action_phase()
        reserve = s.reserves[s.current]
        if a.tile not in reserve:
            raise IllegalAction(self._not_in_reserve(a.tile))
        alhambra = s.alhambras[s.current]
        why = alhambra.placement_error(a.tile, (a.x, a.y))
        if why:
            raise IllegalAction(why)
        reserve.remove(a.tile)
        alhambra.place(a.tile, (a.x, a.y))
        self._after_action(a)
        return [BuiltFromReserve(s.current, a.tile, a.x, a.y)]

    def _do_swap(self, a: Swap) -> list[Event]:
        s = self._s
        if s.phase != "action":
            self._need_action_phase()
        reserve = s.reserves[s.current]
        if a.tile not in reserve:
            raise IllegalAction(self._not_in_reserve(a.tile))
        alhambra = s.alhambras[s.current]
        why = alhambra.swap_error(a.tile, (a.x, a.y))
        if why:
            raise IllegalAction(why)
        reserve.remove(a.tile)
        old = alhambra.swap(a.tile, (a.x, a.y))
        reserve.append(old)
        self._after_action(a)
        return [BuildingsSwapped(s.current, a.tile, old, a.x, a.y)]

    def _not_in_reserve(self, tile: int) -> str:
        if tile in self._s.pending:
            return "A building bought this turn cannot be used in a redesign; place it instead."
        return "That building is not in your reserve."

    def _need_action_phase(self) -> None:
        s = self._s
        if s.phase != "action":
            if s.final:
                raise IllegalAction(
                    "The game has ended: only the market buildings handed out are placed now."
                )
            if s.phase == "place":
                raise IllegalAction(
                    "Your actions are over for this turn: place the buildings you bought."
                )
            raise IllegalAction("Your actions are over for this turn: end your turn (or undo).")

    def _after_action(self, a: Action, extra: bool = False) -> None:
        s = self._s
        s.actions_done += 1
        self._turn_actions.append(a)
        if extra:
            s.phase = "action"
        else:
            s.phase = "place" if s.pending else "confirm"

    def _pending_tile(self, tile: int) -> None:
        s = self._s
        if s.phase == "confirm" or (s.phase == "action" and not s.actions_done):
            raise IllegalAction("You have no bought building waiting to be placed.")
        if tile not in s.pending:
            raise IllegalAction(
                f"The {_building(tile)} is not waiting to be placed: "
                f"you can place {', '.join(_building(t) for t in s.pending)}."
            )

    def _placed(self, a: Action, tile: int) -> None:
        s = self._s
        s.pending.remove(tile)
        self._turn_actions.append(a)
        s.phase = "place" if s.pending else "confirm"

    def _do_place(self, a: Place) -> list[Event]:
        s = self._s
        self._pending_tile(a.tile)
        alhambra = s.alhambras[s.current]
        why = alhambra.placement_error(a.tile, (a.x, a.y))
        if why:
            raise IllegalAction(why)
        alhambra.place(a.tile, (a.x, a.y))
        self._placed(a, a.tile)
        return [BuildingPlaced(s.current, a.tile, a.x, a.y)]

    def _do_reserve(self, a: PlaceInReserve) -> list[Event]:
        s = self._s
        self._pending_tile(a.tile)
        s.reserves[s.current].append(a.tile)
        self._placed(a, a.tile)
        return [BuildingReserved(s.current, a.tile)]

    def _do_dirk(self, a: GiveToDirk) -> list[Event]:
        s = self._s
        if s.dirk is None:
            raise IllegalAction("Dirk only plays in two-player games.")
        if s.final:
            raise IllegalAction("Dirk takes no part in the end-of-game distribution.")
        self._pending_tile(a.tile)
        s.dirk.append(a.tile)
        self._placed(a, a.tile)
        return [GivenToDirk(s.current, a.tile)]

    def _do_undo(self, a: Undo) -> list[Event]:
        if not self._turn_actions:
            raise IllegalAction("There is nothing to undo in this turn.")
        assert self._turn_start is not None
        steps = self._turn_actions[:-1]
        undone = self._turn_actions[-1]
        self._s = self._turn_start.copy()
        self._turn_actions = []
        self._turn_events = []
        for step in steps:
            self._turn_events.extend(self._handle(step))
        return [Undone(self._s.current, undone)]

    def _do_end_turn(self, a: EndTurn) -> list[Event]:
        s = self._s
        if s.phase == "place":
            raise IllegalAction("Place the buildings you bought before ending your turn.")
        if s.phase == "action":
            if s.actions_done:
                raise IllegalAction("Place the buildings you bought before ending your turn.")
            raise IllegalAction("Take an action first: take money, buy a building or redesign.")
        return self._end_turn()

    def _do_pass(self, a: Pass) -> list[Event]:
        s = self._s
        if s.phase != "action" or s.actions_done:
            raise IllegalAction("You can only pass at the start of a turn.")
        if self._takes() or self._buys() or self._redesigns():
            raise IllegalAction(
                "You can only pass when you can neither take money, buy nor redesign."
            )
        return [Passed(s.current), *self._end_turn()]

    def _do_skip(self, a: Skip) -> list[Event]:
        if self._turn_actions:
            assert self._turn_start is not None
            self._s = self._turn_start.copy()
            self._turn_actions = []
            self._turn_events = []
        s = self._s
        events: list[Event] = [Skipped(s.current)]
        for tile in list(s.pending):  # a skipped final placement puts the buildings in reserve
            s.reserves[s.current].append(tile)
            events.append(BuildingReserved(s.current, tile))
        s.pending.clear()
        return events + self._end_turn()

    # --- between turns ------------------------------------------------------------------------

    def _begin_turn(self, seat: int, final: bool = False) -> list[Event]:
        return [self._start_turn(seat, final)]

    def _start_turn(self, seat: int, final: bool) -> Event:
        s = self._s
        s.current = seat
        s.actions_done = 0
        s.phase = "place" if final else "action"
        s.turn_no += 1
        self._turn_actions = []
        self._turn_events = []
        self._turn_start = s.turn_copy()
        return _TURN_STARTED[final][seat]

    def _end_turn(self) -> list[Event]:
        s = self._s
        # The turn's start shares with the table what only the end of a turn changes (see
        # `TableState.turn_copy`): it goes first, and the next turn takes its own.
        self._turn_start = None
        events: list[Event] = [_TURN_ENDED[s.current]]
        self._turn_actions = []
        if s.final:
            return events + self._next_final_turn()
        scoring: list[int] = []
        drawn: list[int] = []
        pool = s.pool
        while len(pool) < POOL_SIZE:
            deck = s.deck
            if deck and deck[-1] < SCORING_CARD_1:
                card = deck.pop()  # the common case of `_draw`
            else:
                drew = self._draw(events, scoring)
                if drew is None:
                    break
                card = drew
            pool.append(card)
            drawn.append(card)
        if drawn:
            events.append(PoolRefilled(tuple(drawn)))
        game_ends = False
        market = s.market
        if None in market:
            supply = s.supply
            for slot in range(MARKET_SLOTS):
                if market[slot] is None:
                    if not supply:
                        game_ends = True
                        continue
                    tile = supply.pop()
                    market[slot] = tile
                    events.append(_REFILLED[slot][tile])
        for round_no in scoring:
            events.append(self._hold_scoring(round_no))
            events.extend(self._dirk_draws(round_no))
        if game_ends:
            events.extend(self._distribute())
        else:
            events.append(self._start_turn((s.current + 1) % self.players, False))
        return events

    def _draw(self, events: list[Event], scoring: list[int]) -> int | None:
        s = self._s
        while True:
            if not s.deck:
                if not s.discard:
                    return None
                s.reshuffles += 1
                deck = sorted(s.discard)
                random.Random(f"{self.seed}/reshuffle/{s.reshuffles}").shuffle(deck)
                s.deck = deck
                s.discard = []
                events.append(DeckReshuffled(len(deck)))
            card = s.deck.pop()
            if card in (SCORING_CARD_1, SCORING_CARD_2):
                s.scoring_aside.append(card)
                round_no = 1 if card == SCORING_CARD_1 else 2
                scoring.append(round_no)
                events.append(ScoringCardDrawn(round_no))
                continue
            return card

    def _dirk_draws(self, round_no: int) -> list[Event]:
        s = self._s
        if s.dirk is None or round_no == 3:
            return []
        n = DIRK_AFTER_FIRST if round_no == 1 else len(s.supply) // 3
        tiles = tuple(s.supply.pop() for _ in range(min(n, len(s.supply))))
        s.dirk.extend(tiles)
        return [DirkDrew(tiles)] if tiles else []

    def _hold_scoring(self, round_no: int) -> ScoringHeld:
        s = self._s
        counts = [a.counts() for a in s.alhambras]
        if s.dirk is not None:
            dirk = [0] * 6
            for t in s.dirk:
                building = TILES[t].building
                assert building is not None
                dirk[int(building)] += 1
            counts.append(tuple(dirk))
        points = majority_points(round_no, counts)
        rows = []
        for seat in range(self.players):
            wall = s.alhambras[seat].longest_wall()
            total = sum(points[seat]) + wall
            s.scores[seat] += total
            rows.append(ScoreRow(seat, tuple(points[seat]), wall, total, s.scores[seat]))
        held = ScoringHeld(round_no, tuple(rows), tuple(tuple(c) for c in counts))
        s.rounds.append(held)
        return held

    def _distribute(self) -> list[Event]:
        """The supply ran out: hand out what is left in the market, then the final placements."""
        s = self._s
        events: list[Event] = []
        given: dict[int, list[int]] = {}
        for slot in range(MARKET_SLOTS):
            tile = s.market[slot]
            if tile is None:
                continue
            totals = [
                sum(CARD_VALUE[c] for c in hand if CARD_CURRENCY[c] == slot) for hand in s.hands
            ]
            best = max(totals)
            leaders = [seat for seat, t in enumerate(totals) if t == best]
            winner = leaders[0] if best > 0 and len(leaders) == 1 else None
            s.market[slot] = None
            if winner is None:
                s.unclaimed.append(tile)
            else:
                given.setdefault(winner, []).append(tile)
            events.append(MarketDistributed(slot, tile, winner))
        start = (s.current + 1) % self.players
        order = [(start + k) % self.players for k in range(self.players)]
        s.final = True
        s.final_queue = [(seat, given[seat]) for seat in order if seat in given]
        return events + self._next_final_turn()

    def _next_final_turn(self) -> list[Event]:
        s = self._s
        if s.final_queue:
            seat, tiles = s.final_queue.pop(0)
            s.pending = list(tiles)
            return self._begin_turn(seat, final=True)
        return self._finish()

    def _finish(self) -> list[Event]:
        s = self._s
        events: list[Event] = [self._hold_scoring(3)]
        s.ranks = _ranks(s.scores)
        s.phase = "over"
        s.final = False
        self._turn_start = None
        self._turn_actions = []
        self._turn_events = []
        winners = tuple(seat for seat, r in enumerate(s.ranks) if r == 1)
        events.append(GameEnded(tuple(s.scores), tuple(s.ranks), winners))
        return events

    # --- views and serialisation --------------------------------------------------------------

    def view(self, seat: int | None = None) -> SeatView:
        """What `seat` may see (None: a spectator), and nothing more (RULES.md 8): public state
        for everyone, the seat's own hand, and the legal actions when it is that seat's decision.
        Other hands appear only as their size; deck and supply only as their size.

        >>> from engine import new_game
        >>> game = new_game(3, seed=7)
        >>> seat = game.current_seat
        >>> mine = game.view(seat)
        >>> mine.hand == tuple(sorted(game.hand(seat)))
        True
        >>> list(mine.legal) == game.legal_actions()
        True
        >>> game.view().hand, game.view().legal, game.view().deck_size == len(game.deck)
        ((), (), True)
        """
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a game of {self.players}")
        s = self._s
        table = []
        for p in range(self.players):
            alhambra = s.alhambras[p]
            table.append(
                PlayerView(
                    seat=p,
                    alhambra=alhambra.derived("view", partial(_view_cells, alhambra)),
                    reserve=tuple(s.reserves[p]),
                    hand_size=len(s.hands[p]),
                    score=s.scores[p],
                    counts=alhambra.counts(),
                    wall=alhambra.longest_wall(),
                )
            )
        current = self.current_seat
        return SeatView(
            seat=seat,
            players=self.players,
            seating=self.seating,
            holes=self.options.holes,
            hand=() if seat is None else tuple(sorted(s.hands[seat])),
            table=tuple(table),
            pool=tuple(s.pool),
            market=tuple(s.market),
            deck_size=len(s.deck),
            discard_size=len(s.discard),
            supply_size=len(s.supply),
            dirk=self.dirk,
            current_seat=current,
            phase=s.phase,
            pending=tuple(s.pending),
            actions_this_turn=s.actions_done,
            final_placement=s.final,
            turn_number=s.turn_no,
            scoring_rounds=tuple(s.rounds),
            is_over=s.phase == "over",
            ranks=self.ranks,
            legal=tuple(self.legal_actions()) if seat is not None and seat == current else (),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": JSON_FORMAT,
            "players": self.players,
            "seed": self.seed,
            "options": self.options.model_dump(mode="json"),
            "seating": list(self.seating),
            "state": self._s.to_dict(),
            "turn_start": None if self._turn_start is None else self._turn_start.to_dict(),
            "turn_actions": [action_to_dict(a) for a in self._turn_actions],
            "turn_events": [event_to_dict(e) for e in self._turn_events],
            "setup_events": [event_to_dict(e) for e in self._setup_events],
        }

    def to_json(self) -> str:
        """A complete snapshot; `Game.from_json` restores a game that plays on identically."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        if d.get("format") != JSON_FORMAT:
            raise ValueError(f"unknown game snapshot format {d.get('format')!r}")
        options = Options.model_validate(d["options"])
        game = cls(d["players"], d["seed"], options, d["seating"])
        game._s = TableState.from_dict(d["state"], options.holes)
        ts = d["turn_start"]
        game._turn_start = None if ts is None else TableState.from_dict(ts, options.holes)
        game._turn_actions = [action_from_dict(a) for a in d["turn_actions"]]
        game._turn_events = [event_from_dict(e) for e in d.get("turn_events", ())]
        game._setup_events = [event_from_dict(e) for e in d["setup_events"]]
        return game

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        return cls.from_dict(json.loads(text))

    def copy(self) -> Game:
        other = Game(self.players, self.seed, self.options, self.seating)
        other._s = self._s.copy()
        other._turn_start = None if self._turn_start is None else self._turn_start.copy()
        other._turn_actions = list(self._turn_actions)
        other._turn_events = list(self._turn_events)
        other._setup_events = self._setup_events
        other._legal = self._legal
        return other


class _Made(dict[K, V]):
    """Immutable values made once per key, when first asked for (forgotten when too many)."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: K) -> V:
        if len(self) >= 20_000:
            self.clear()
        value = self[key] = self._make(key)
        return value


class _Memo(dict[K, V]):
    """A bounded memo of pure results (emptied when full): actions are immutable values, so
    handing the same object to every game that asks is safe, and building them is a good part of
    what `legal_actions()` costs."""

    __slots__ = ("_limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self._limit = limit

    def put(self, key: K, value: V) -> V:
        if len(self) >= self._limit:
            self.clear()
        self[key] = value
        return value


_TAKES: _Memo[tuple[int, ...], tuple[TakeMoney, ...]] = _Memo(20_000)
#: the card values of a pool (in pool order) -> the subsets of positions one may take
_TAKE_CHOICES: _Memo[tuple[int, ...], tuple[tuple[int, ...], ...]] = _Memo(20_000)
#: per market slot: cost << 27 | the hand's cards of that currency as bits -> the payments
_BUYS: tuple[_Memo[tuple[int, ...], tuple[Buy, ...]], ...] = tuple(_Memo(5_000) for _ in range(4))
_CURRENCY_BITS = (1 << 27) - 1
#: per market slot: the buy actions made so far, by the cards paid
_BUY_OF: tuple[_Made[tuple[int, ...], Buy], ...] = tuple(
    _Made(partial(Buy, slot)) for slot in range(MARKET_SLOTS)
)
#: the take actions made so far, by the cards taken
_TAKE_OF: dict[tuple[int, ...], TakeMoney] = {}
_RESERVE: tuple[PlaceInReserve, ...] = tuple(PlaceInReserve(t) for t in range(len(TILES)))
_DIRK: tuple[GiveToDirk, ...] = tuple(GiveToDirk(t) for t in range(len(TILES)))
_PASS = Pass()
_UNDO = Undo()
_CONFIRM: tuple[Action, ...] = (EndTurn(),)
_CONFIRM_UNDO: tuple[Action, ...] = (EndTurn(), _UNDO)
#: the subsets of the pool's positions, in the order of their bit masks
_SUBSETS = tuple(
    tuple(tuple(i for i in range(n) if bits >> i & 1) for bits in range(1, 1 << n))
    for n in range(POOL_SIZE + 1)
)


def _take_choices(kinds: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Which pool positions each distinct take picks, given each card's currency and value
    (`card // 3`): cards of the same currency and value make the same choice, so only the first
    subset of each kind is listed, in the order of the subsets' bit masks."""
    values = tuple([k % 9 + 1 for k in kinds])
    allowed = _TAKE_CHOICES.get(values)
    if allowed is None:
        subsets = _SUBSETS[len(kinds)] if len(kinds) <= POOL_SIZE else _subsets(len(kinds))
        allowed = _TAKE_CHOICES.put(
            values,
            tuple(
                idx
                for idx in subsets
                if len(idx) == 1 or sum([values[i] for i in idx]) <= TAKE_LIMIT
            ),
        )
    if len(set(kinds)) == len(kinds):
        return allowed  # no two cards alike: every subset is a take of its own
    seen: set[tuple[int, ...]] = set()
    out = []
    for idx in allowed:
        key = tuple(sorted([kinds[i] for i in idx]))
        if key not in seen:
            seen.add(key)
            out.append(idx)
    return tuple(out)


def _subsets(n: int) -> tuple[tuple[int, ...], ...]:
    """Only a rigged pool holds more than four cards."""
    return tuple(tuple(i for i in range(n) if bits >> i & 1) for bits in range(1, 1 << n))


def _list_takes(pool: tuple[int, ...]) -> tuple[TakeMoney, ...]:
    made = _TAKE_OF
    out = []
    for idx in _take_choices(tuple([c // 3 for c in pool])):
        cards = tuple([pool[i] for i in idx])
        take = made.get(cards)
        if take is None:
            if len(made) >= 20_000:
                made.clear()
            take = made[cards] = TakeMoney(cards)
        out.append(take)
    return tuple(out)


# The action tables are looked up by `map` over their own `__getitem__`: no comprehension (a
# function call of its own) for the few cells of a grid.


def _removals(alhambra: Alhambra) -> tuple[Action, ...]:
    return tuple(map(_REMOVALS.__getitem__, alhambra.removable_cells()))


def _rebuilds(alhambra: Alhambra, tile: int) -> tuple[Action, ...]:
    return (
        *map(_BUILDS[tile].__getitem__, alhambra.legal_cells(tile)),
        *map(_SWAPS[tile].__getitem__, alhambra.swap_cells(tile)),
    )


def _places(alhambra: Alhambra, tile: int) -> tuple[Action, ...]:
    return tuple(map(_PLACES[tile].__getitem__, alhambra.legal_cells(tile)))


def _removal(cell: Cell) -> Action:
    return RemoveToReserve(*cell)


def _build(tile: int, cell: Cell) -> Action:
    return PlaceFromReserve(tile, *cell)


def _swap(tile: int, cell: Cell) -> Action:
    return Swap(tile, *cell)


def _place(tile: int, cell: Cell) -> Action:
    return Place(tile, *cell)


#: The redesign and placement actions made so far, by tile and cell (the `_Memo` idea, keyed
#: by the cell tuples the grid hands out, so that looking one up builds nothing).
_REMOVALS: _Made[Cell, Action] = _Made(_removal)
_BUILDS: tuple[_Made[Cell, Action], ...] = tuple(
    _Made(partial(_build, t)) for t in range(len(TILES))
)
_SWAPS: tuple[_Made[Cell, Action], ...] = tuple(_Made(partial(_swap, t)) for t in range(len(TILES)))
_PLACES: tuple[_Made[Cell, Action], ...] = tuple(
    _Made(partial(_place, t)) for t in range(len(TILES))
)


def _view_cells(alhambra: Alhambra) -> tuple[tuple[int, int, int], ...]:
    return tuple([(x, y, t) for (x, y), t in alhambra if t])


def _ranks(scores: Sequence[int]) -> list[int]:
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


#: The steps of a turn: what Undo takes back and `turn_events` reports.
_STEPS = frozenset(
    {TakeMoney, Buy, RemoveToReserve, PlaceFromReserve, Swap, Place, PlaceInReserve, GiveToDirk}
)


#: Events that carry only a seat, or a slot and a tile, made once (they are immutable values).
_TURN_ENDED: _Made[int, TurnEnded] = _Made(TurnEnded)
_TURN_STARTED: tuple[_Made[int, TurnStarted], ...] = (
    _Made(lambda seat: TurnStarted(seat, False)),
    _Made(lambda seat: TurnStarted(seat, True)),
)
_REFILLED: tuple[_Made[int, MarketRefilled], ...] = tuple(
    _Made(partial(MarketRefilled, slot)) for slot in range(MARKET_SLOTS)
)

#: The handler of each action type (a subclass of one goes through `_handle`'s match).
_HANDLERS: dict[type, Callable[[Game, Any], list[Event]]] = {
    EndTurn: Game._do_end_turn,
    TakeMoney: Game._do_take,
    Buy: Game._do_buy,
    Place: Game._do_place,
    PlaceInReserve: Game._do_reserve,
    PlaceFromReserve: Game._do_build,
    RemoveToReserve: Game._do_remove,
    Swap: Game._do_swap,
    GiveToDirk: Game._do_dirk,
    Pass: Game._do_pass,
    Undo: Game._do_undo,
    Skip: Game._do_skip,
}
