"""Invariants over many random complete games (Hypothesis).

Hypothesis draws the number of players, the seed, the hole rule and the choice at every step
(mostly among the legal actions without `Undo`, sometimes `Undo`). Cheap checks run after every
action; the costly ones (JSON round trip, replay, views, illegal actions) at a sample of steps and
at the end of each game. Half of the sampled round trips also continue the game on the restored
copy, so a game restored from JSON must play on exactly like the original.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine_helpers import expected_cards, scaled_examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    TILES,
    VIEW_ADAPTER,
    Alhambra,
    Buy,
    EndTurn,
    Game,
    GiveToDirk,
    IllegalAction,
    Options,
    Pass,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    Skip,
    Swap,
    TakeMoney,
    Undo,
    new_game,
    replay,
)
from engine.alhambra import HOLE_RULES

STEP_LIMIT = 10_000  # random games take a few hundred actions; this only catches a stuck game
SAMPLE_EVERY = 60
UNDO_ONE_IN = 12
EXPECTED_BUILDINGS = list(range(1, 55))
EXPECTED_CARDS = {n: sorted(expected_cards(n).elements()) for n in range(2, 7)}
# Actions after which an Alhambra may have changed, so its invariant is checked again.
REBUILDS = (Place, RemoveToReserve, PlaceFromReserve, Swap, Undo, Skip)


# --- the oracle for actions legal_actions() does not list -----------------------------------


def take_is_legal(g: Game, cards: tuple[int, ...]) -> bool:
    """RULES.md action A, checked independently of the engine."""
    pool = g.pool
    if g.phase != "action" or not cards or len(set(cards)) != len(cards):
        return False
    if not all(isinstance(c, int) and c in pool for c in cards):
        return False
    return len(cards) == 1 or sum(CARDS[c].value for c in cards) <= 5


def buy_is_legal(g: Game, slot: int, cards: tuple[int, ...]) -> bool:
    """RULES.md action B, checked independently of the engine."""
    if g.phase != "action" or not 0 <= slot < 4 or g.market[slot] is None:
        return False
    hand = g.hand(g.current_seat)
    if not cards or len(set(cards)) != len(cards) or not all(c in hand for c in cards):
        return False
    if any(CARDS[c].currency != slot for c in cards):
        return False
    return sum(CARDS[c].value for c in cards) >= TILES[g.market[slot]].cost


def expected_legal(g: Game, action: Any, listed: list) -> bool:
    if isinstance(action, TakeMoney):
        return take_is_legal(g, action.cards)
    if isinstance(action, Buy):
        return buy_is_legal(g, action.slot, action.cards)
    # Every other action is legal exactly when it is listed (a complete listing).
    return action in listed


def candidate_actions(g: Game, rng: random.Random, n: int) -> list[Any]:
    """Random actions near the legal ones: real cards, tiles and cells mixed with wrong ones."""
    seat = g.current_seat if g.current_seat is not None else 0
    hand = list(g.hand(seat))
    cards = [*hand, *g.pool, rng.randrange(0, 110), rng.randrange(-3, 200)]
    tiles = [*g.pending, *g.reserve(seat), *(t for t in g.market if t is not None)]
    tiles += [rng.randrange(0, 56), rng.choice([-1, 0, 55, 999])]
    cells = [c for c, _t in g.alhambra(seat)] or [(0, 0)]
    out: list[Any] = []
    for _ in range(n):
        some_cards = tuple(rng.sample(cards, rng.randint(0, min(4, len(cards)))))
        tile = rng.choice(tiles)
        cx, cy = rng.choice(cells)
        x, y = cx + rng.randint(-1, 1), cy + rng.randint(-1, 1)
        kind = rng.randrange(14)
        out.append(
            [
                TakeMoney(some_cards),
                Buy(rng.randint(-1, 4), some_cards),
                Place(tile, x, y),
                PlaceInReserve(tile),
                GiveToDirk(tile),
                RemoveToReserve(x, y),
                PlaceFromReserve(tile, x, y),
                Swap(tile, x, y),
                Undo(),
                EndTurn(),
                Pass(),
                {"kind": "teleport", "x": x},
                {"kind": "place", "tile": "tower", "x": x, "y": y},
                {"kind": "buy", "slot": 1},
            ][kind]
        )
    return out


# --- checks ---------------------------------------------------------------------------------


def check_pieces(g: Game, players: int) -> None:
    """Every card and every building in exactly one place (sorted lists: this runs after every
    action, and comparing Counters is slow)."""
    s = g.state
    cards = [*s.deck, *s.discard, *s.pool, *s.scoring_aside]
    for hand in s.hands:
        cards += hand
    assert sorted(cards) == EXPECTED_CARDS[players], "every card is in exactly one place"
    buildings = [*s.supply, *s.pending, *s.unclaimed, *(t for t in s.market if t is not None)]
    for a in s.alhambras:
        buildings += a.tiles.values()
    for r in s.reserves:
        buildings += r
    for _seat, tiles in s.final_queue:
        buildings += tiles
    buildings += s.dirk or ()
    assert sorted(buildings) == EXPECTED_BUILDINGS, "every building is in exactly one place"


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        return set(obj) | {k for v in obj.values() for k in _keys(v)}
    if isinstance(obj, list):
        return {k for v in obj for k in _keys(v)}
    return set()


def check_views(g: Game) -> None:
    hands = [set(g.hand(s)) for s in range(g.players)]
    for seat in [*range(g.players), None]:
        view = VIEW_ADAPTER.dump_python(g.view(seat), mode="json")
        assert not _keys(view) & {"deck", "supply", "discard", "hands", "cards_in_deck"}
        own = set() if seat is None else hands[seat]
        assert sorted(view["hand"]) == sorted(own)
        assert view["deck_size"] == len(g.deck) and view["supply_size"] == len(g.supply)
        assert view["discard_size"] == len(g.discard)
        for p in view["table"]:
            assert "hand" not in p and p["hand_size"] == len(hands[p["seat"]])
        # Money card ids appear only in the viewer's hand, the pool and the viewer's legal actions.
        named = set(view["hand"]) | set(view["pool"])
        for action in view["legal"]:
            named |= set(action.get("cards", ()))
        assert named <= own | set(g.pool)
        if seat != g.current_seat:
            assert view["legal"] == []


def check_illegal_actions(g: Game, rng: random.Random) -> None:
    listed = g.legal_actions()
    for action in listed:
        if isinstance(action, TakeMoney):
            assert take_is_legal(g, action.cards)
        elif isinstance(action, Buy):
            assert buy_is_legal(g, action.slot, action.cards)
    before = g.to_json()
    for action in candidate_actions(g, rng, 12):
        legal = not isinstance(action, dict) and expected_legal(g, action, listed)
        if legal:
            g.copy().apply(action)  # accepted (listed or not) without error
            continue
        try:
            g.apply(action)
        except IllegalAction as exc:
            assert str(exc), "a refusal says why"
        else:
            raise AssertionError(f"{action!r} was accepted but is not legal")
        assert g.to_json() == before, f"refusing {action!r} changed the game"


def wall_oracle(a: Alhambra) -> int:
    """Outer walls never branch in a legal Alhambra (see test_alhambra.py), so the longest wall
    is the largest connected run of outer segments."""
    segments = a.outer_wall_segments()
    by_end: dict[tuple[int, int], list[int]] = {}
    for i, ((x, y), side) in enumerate(segments):
        sx, sy = (1 if side.name == "E" else 0), (1 if side.name == "S" else 0)
        dx, dy = (1, 0) if side.name in ("N", "S") else (0, 1)
        for end in ((x + sx, y + sy), (x + sx + dx, y + sy + dy)):
            by_end.setdefault(end, []).append(i)
    assert all(len(v) <= 2 for v in by_end.values()), "outer walls never branch"
    parent = list(range(len(segments)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for joined in by_end.values():
        if len(joined) == 2:
            parent[root(joined[0])] = root(joined[1])
    sizes = Counter(root(i) for i in range(len(segments)))
    return max(sizes.values(), default=0)


def check_alhambra_oracle(a: Alhambra, rng: random.Random) -> None:
    """Placement, removal and swap answers against "is the result still a legal Alhambra"."""
    min_x, min_y, max_x, max_y = a.bounds()
    for tile in rng.sample(range(1, 55), 2):
        legal = set(a.legal_positions(tile))
        for y in range(min_y - 1, max_y + 2):
            for x in range(min_x - 1, max_x + 2):
                if (x, y) in a:
                    continue
                b = a.copy()
                b.place(tile, (x, y))
                assert ((x, y) in legal) == (b.problems() == []) == a.can_place(tile, (x, y))
        for cell in a.tiles:
            b = a.copy()
            b.swap(tile, cell)
            assert a.can_swap(tile, cell) == (b.problems() == [])
    removable = set(a.removable())
    for cell in a.tiles:
        b = a.copy()
        b.remove(cell)
        assert (cell in removable) == (b.problems() == [])
    assert a.longest_wall() == wall_oracle(a)


# --- the games ------------------------------------------------------------------------------


def play(data, players: int, seed: int, holes: str) -> tuple[Game, list]:
    options = Options(holes=holes)  # type: ignore[arg-type]
    g = new_game(players, seed, options)
    rng = random.Random(seed)
    log: list = []
    check_pieces(g, players)
    replay_at = {data.draw(st.integers(1, 400), label="replay at")}
    scores = g.scores
    steps = 0
    before_step: list[Game] = []  # the game before each step of the current turn
    while not g.is_over:
        assert steps < STEP_LIMIT, "the game must end"
        legal = g.legal_actions()
        assert legal, "a seat always has something to do (at least Pass)"
        choices = [a for a in legal if not isinstance(a, Undo)]
        can_undo = Undo() in legal
        if len(choices) > 1 or can_undo:
            # One draw per real decision: the choice, and one time in UNDO_ONE_IN an undo.
            pick = data.draw(st.integers(0, len(choices) * UNDO_ONE_IN - 1), label="choice")
            index, undo = divmod(pick, UNDO_ONE_IN)
            if can_undo and undo == UNDO_ONE_IN - 1:
                action = Undo()
            elif undo == UNDO_ONE_IN - 2 and index % 8 == 7:
                action = Skip()  # now and then a turn times out (administrative, never listed)
            else:
                action = choices[index]
        else:
            action = choices[0]
        seat = g.current_seat
        if not isinstance(action, Undo):
            before_step.append(g.copy())
        g.apply(action)
        log.append(action)
        steps += 1
        if isinstance(action, Undo):
            # Undo restores exactly the state before the step it takes back.
            assert g.to_json() == before_step.pop().to_json()
        if not g.turn_actions:
            before_step.clear()  # a new turn: nothing left to undo

        check_pieces(g, players)
        if isinstance(action, REBUILDS):
            assert g.alhambra(seat).problems() == []
        assert all(new >= old for new, old in zip(g.scores, scores, strict=True))
        scores = g.scores

        if steps % SAMPLE_EVERY == 0 and not g.is_over:
            for a in g.state.alhambras:
                assert a.problems() == []
            text = g.to_json()
            restored = Game.from_json(text)
            assert restored.to_json() == text
            assert restored.legal_actions() == g.legal_actions()
            check_views(g)
            check_illegal_actions(g, rng)
            check_alhambra_oracle(g.alhambra(seat), rng)
            if steps // SAMPLE_EVERY % 2:
                g = restored  # play on with the restored copy
        if steps in replay_at:
            assert replay(players, seed, options, log).to_json() == g.to_json()
    return g, log


@settings(
    max_examples=scaled_examples(0.5),
    # A whole game is hundreds of choices even at its simplest; that is the point of the test.
    suppress_health_check=[*settings.default.suppress_health_check, HealthCheck.large_base_example],
)
@given(
    st.data(),
    st.integers(2, 6),
    st.integers(0, 2**32 - 1),
    st.sampled_from(HOLE_RULES),
)
def test_random_complete_games_keep_every_invariant(data, players, seed, holes):
    g, log = play(data, players, seed, holes)
    # The end: every building placed or unclaimed, the final scoring held, a ranking.
    check_pieces(g, players)
    assert g.is_over and g.pending == () and g.market == (None,) * 4
    rounds = [r.round_no for r in g.scoring_rounds]
    assert rounds[-1] == 3 and rounds == sorted(set(rounds))
    assert g.ranks is not None and g.winners and min(g.ranks) == 1
    best = max(g.scores)
    assert g.winners == tuple(s for s in range(players) if g.scores[s] == best)
    for a in g.state.alhambras:
        assert a.problems() == []
    # Expensive checks at the end: JSON, replay, views, a refused action.
    text = g.to_json()
    assert Game.from_json(text).to_json() == text
    assert replay(players, seed, Options(holes=holes), log).to_json() == text
    check_views(g)
    rng = random.Random(seed)
    for action in candidate_actions(g, rng, 5):
        try:
            g.apply(action)
        except IllegalAction:
            pass
        else:
            raise AssertionError("nothing is legal after the end")
        assert g.to_json() == text
    for seat in range(players):
        check_alhambra_oracle(g.alhambra(seat), rng)
