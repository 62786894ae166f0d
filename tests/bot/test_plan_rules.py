"""Plan rules by building type and price limit, pure: a type rule buys, of the market's
buildings of its type costing at most its limit, the cheapest it can pay exactly, else the
cheapest it can pay, never paying more than its limit, and always a legal move; it says why it
did not hold; a standing plan and a plan stored before type rules existed both load."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.plans import (
    MAX_LIMIT,
    Plan,
    PlanReport,
    PlanRule,
    PlanStep,
    cheapest_of,
    check_new_rule,
    next_step,
    rule_problem,
    skipped_rules,
)
from bot.text import i18n
from bot.text.plans import plan_lines, report_lines
from engine import CARDS, TILES, Building, Buy, Game, Undo, new_game

LOCALES = ("en", "ja", "pt-BR", "fa")


def _random_moves(game: Game, rng: random.Random, count: int) -> None:
    for _ in range(count):
        if game.is_over:
            return
        game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Undo)]))


def _paid(buy: Buy) -> int:
    return sum(CARDS[c].value for c in buy.cards)


def _play(plan: Plan, game: Game, seat: int) -> list[PlanStep]:
    """The plan's moves in the seat's turn, each checked legal before it is applied."""
    steps: list[PlanStep] = []
    while len(steps) < 8 and (step := next_step(plan, game.view(seat), steps)) is not None:
        assert step.move in game.legal_actions(), step  # never an illegal move
        game.apply(step.move)
        steps.append(step)
        if game.current_seat != seat or game.phase == "confirm":
            break
    return steps


def _at_action(seed: int, moves: int) -> tuple[Game, int] | None:
    """A game after some random moves, at the start of a seat's turn."""
    rng = random.Random(seed)
    game = new_game(rng.choice([2, 3, 4]), seed)
    _random_moves(game, rng, moves)
    for _ in range(60):
        if game.is_over:
            return None
        view = game.view(game.current_seat)
        if view.phase == "action" and not view.actions_this_turn:
            assert game.current_seat is not None
            return game, game.current_seat
        _random_moves(game, rng, 1)
    return None


rules = st.one_of(
    st.builds(
        PlanRule.of_type,
        st.integers(0, len(Building) - 1),
        st.integers(1, 20),
        st.sampled_from([None, "reserve", (0, -1), (1, 0), (-1, 0), (0, 1)]),
    ),
    st.builds(PlanRule, st.integers(1, len(TILES) - 1), st.just(())),
)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 60),
    chosen=st.lists(rules, min_size=1, max_size=5),
    otherwise=st.sampled_from(["wait", "most"]),
)
def test_a_plan_never_makes_an_illegal_move_nor_pays_more_than_its_limit(
    seed: int, moves: int, chosen: list[PlanRule], otherwise: str
) -> None:
    found = _at_action(seed, moves)
    if found is None:
        return
    game, seat = found
    view = game.view(seat)
    # a tile rule paid with the first cards of the hand: checked, not trusted
    fixed = tuple(
        r if r.kind is not None else PlanRule(r.tile, tuple(sorted(view.hand[:2])), r.place)
        for r in chosen
    )
    plan = Plan(fixed, "most" if otherwise == "most" else "wait")
    skipped_rules(plan, view)  # never raises
    for step in _play(plan, game, seat):
        if isinstance(step.move, Buy) and step.rule is not None:
            rule = plan.rules[step.rule]
            assert step.tile is not None
            if rule.kind is not None:
                assert TILES[step.tile].building == rule.kind
                assert TILES[step.tile].cost <= rule.limit
                assert _paid(step.move) <= rule.limit
            else:
                assert step.tile == rule.tile


def test_a_type_rule_buys_the_cheapest_it_can_pay_exactly_else_the_cheapest() -> None:
    checked = exact_seen = over_seen = 0
    for seed in range(300):
        found = _at_action(seed, seed % 40)
        if found is None:
            continue
        game, seat = found
        view = game.view(seat)
        for kind in Building:
            rule = PlanRule.of_type(int(kind), MAX_LIMIT)
            step = next_step(Plan((rule,)), view)
            buys = [
                a
                for a in view.legal
                if isinstance(a, Buy) and TILES[view.market[a.slot] or 0].building == kind
            ]
            if not buys:
                assert step is None
                assert rule_problem(rule, view) in ("none", "unpaid")
                continue
            assert step is not None and isinstance(step.move, Buy)
            exact = [a for a in buys if _paid(a) == TILES[view.market[a.slot] or 0].cost]
            pool = exact or buys
            cheapest = min(TILES[view.market[a.slot] or 0].cost for a in pool)
            assert TILES[step.tile or 0].cost == cheapest
            assert step.move in pool
            exact_seen += bool(exact)
            over_seen += not exact
            # the same view, the same choice (deterministic)
            assert next_step(Plan((rule,)), view) == step
            checked += 1
            # a limit below what it paid: it pays less, or does not buy
            low = _paid(step.move) - 1
            if low >= 1:
                again = next_step(Plan((PlanRule.of_type(int(kind), low),)), view)
                assert again is None or _paid(again.move) <= low  # type: ignore[arg-type]
    assert checked > 50 and exact_seen and over_seen


def test_a_type_rule_says_why_it_did_not_hold() -> None:
    for seed in range(200):
        found = _at_action(seed, 10)
        if found is None:
            continue
        game, seat = found
        view = game.view(seat)
        types = {TILES[t].building for t in view.market if t is not None}
        absent = next((k for k in Building if k not in types), None)
        if absent is None:
            continue
        rule = PlanRule.of_type(int(absent), MAX_LIMIT)
        assert rule_problem(rule, view) == "none"
        present = next(iter(types))
        assert present is not None
        below = PlanRule.of_type(int(present), cheapest_of(int(present)) - 1)
        assert rule_problem(below, view) == "none"  # none that cheap
        assert skipped_rules(Plan((rule,)), view) == ((0, "none"),)
        tile = next(t for t in view.market if t is not None and TILES[t].building == present)
        at_fountain = PlanRule.of_type(int(present), MAX_LIMIT, (0, 0))
        assert rule_problem(at_fountain, view) == "cell"
        broke = Game.from_json(game.to_json())
        assert TILES[tile].cost >= 2
        poor = PlanRule.of_type(int(present), TILES[tile].cost)
        # of a hand that cannot pay within the limit: "unpaid" (only cards paying more)
        problem = rule_problem(poor, broke.view(seat))
        assert problem in (None, "unpaid")
        return
    raise AssertionError("no market without some type found")


def test_new_type_rules_are_checked() -> None:
    view = new_game(2, 1).view(0)
    assert check_new_rule(PlanRule.of_type(4, 9), view) is None
    assert check_new_rule(PlanRule.of_type(6, 9), view) == "bad_type"
    assert check_new_rule(PlanRule.of_type(-1, 9), view) == "bad_type"
    assert check_new_rule(PlanRule.of_type(4, 5), view) == "bad_limit"  # no Garden costs 5
    assert check_new_rule(PlanRule.of_type(4, MAX_LIMIT + 1), view) == "bad_limit"
    assert check_new_rule(PlanRule.of_type(4, -3), view) == "bad_limit"
    assert check_new_rule(PlanRule(0, (1,), None, 4, 9), view) == "bad_cards"


def test_plans_stored_before_type_rules_still_load_and_new_ones_round_trip() -> None:
    old = '{"rules":[{"tile":12,"cards":[3,5],"place":"reserve"}],"otherwise":"most"}'
    plan = Plan.from_json(old)
    assert plan == Plan((PlanRule(12, (3, 5), "reserve"),), "most")
    assert not plan.standing and plan.rules[0].kind is None
    assert json.loads(plan.to_json()) == json.loads(old)  # stored as it was
    new = Plan((PlanRule.of_type(4, 9, (1, 0)), PlanRule(12, (3,), None)), (7, 8), standing=True)
    assert Plan.from_json(new.to_json()) == new


def test_a_type_rule_and_a_standing_plan_in_words_in_every_language() -> None:
    plan = Plan((PlanRule.of_type(4, 9, "reserve"),), "most", standing=True)
    for locale in LOCALES:
        lines = plan_lines(locale, 3, plan)
        garden = i18n.t(locale, "building.garden")
        assert garden in lines[1] and i18n.t(locale, "plan.place_reserve") in lines[1]
        assert lines[0].strip("*") == i18n.t(locale, "plan.title_standing", game=3)
        assert lines[-1] == i18n.t(locale, "plan.standing_note")
        once = plan_lines(locale, 3, Plan(plan.rules))
        assert once[-1] == i18n.t(locale, "plan.once_note")
        report = PlanReport(plan, ((0, "none"),), (), True)
        words = "\n".join(report_lines(locale, 3, report))
        assert garden in words and i18n.t(locale, "plan.report.standing") in words
        assert "{" not in words and "{" not in "\n".join(lines)
