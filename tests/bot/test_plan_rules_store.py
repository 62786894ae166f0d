"""Type rules and standing plans as the store keeps them, on SQLite and PostgreSQL alike: a
standing plan is read at each turn and kept until cancelled (and may be cancelled during one's
own turn, when nothing else may change); a plan stored before type rules existed loads and
plays; the rules a standing plan keeps are not checked again against a hand that has changed;
changes at once all count; and a refused change writes nothing."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from service_helpers import BOB, HOST, dump, started

from bot.core.errors import PlanRefused
from bot.core.plans import MAX_LIMIT, Plan, PlanChange, PlanRule
from bot.core.services import Services
from engine import CARDS, Building


def _waiting(game) -> tuple[int, int]:
    waiting = BOB if game.current_player and game.current_player.user_id == HOST else HOST
    return waiting, HOST if waiting == BOB else BOB


async def test_a_standing_plan_stays_until_cancelled(services: Services, db_target) -> None:
    game = await started(services)
    waiting, mover = _waiting(game)
    viewed, _ = await services.play.plan(game.id, waiting)
    seat = viewed.seat
    assert seat is not None
    plan = Plan((PlanRule.of_type(int(Building.GARDEN), 10, "reserve"),), "most", standing=True)
    assert await services.play.set_plan(game.id, waiting, plan) == plan
    assert await services.play.take_plan(game.id, seat) == plan
    assert await services.play.take_plan(game.id, seat) == plan  # kept for every turn
    assert await services.play.has_plan(game.id, seat)

    # during the mover's own turn they may not change a plan, but may cancel theirs
    before = dump(db_target)
    with pytest.raises(PlanRefused, match="It is your turn now"):
        await services.play.set_plan(game.id, mover, plan)
    with pytest.raises(PlanRefused, match="It is your turn now"):  # not "no rule 3"

        def remove_third(p: Plan, _v: object) -> Plan:
            raise PlanRefused(variant="no_rule", number=3)

        await services.play.change_plan(game.id, mover, remove_third)
    assert dump(db_target) == before
    assert (await services.play.change_plan(game.id, mover, lambda _p, _v: Plan()))[1] == Plan()

    # one turn only again, then it is taken once
    once = (
        await services.play.change_plan(game.id, waiting, lambda p, _: replace(p, standing=False))
    )[1]
    assert not once.standing and once.rules == plan.rules
    assert await services.play.take_plan(game.id, seat) == once
    assert await services.play.take_plan(game.id, seat) is None


async def test_an_older_stored_plan_still_loads(services: Services, db_target, clock) -> None:
    game = await started(services)
    waiting, _ = _waiting(game)
    viewed, _ = await services.play.plan(game.id, waiting)
    seat = viewed.seat
    assert seat is not None
    card = max(viewed.view.hand, key=lambda c: CARDS[c].value)
    old = f'{{"rules":[{{"tile":1,"cards":[{card}],"place":"reserve"}}],"otherwise":"most"}}'
    async with services.store.write() as tx:  # as the bot before type rules stored it
        await tx.save_plan(game.id, seat, waiting, old, game.version, clock.now())
    loaded = (await services.play.plan(game.id, waiting))[1]
    assert loaded == Plan((PlanRule(1, (card,), "reserve"),), "most")
    # a change keeps it and adds to it; the plan is for one turn, as it was
    added = PlanRule.of_type(int(Building.TOWER), 13)
    changed = await services.play.change_plan(
        game.id, waiting, lambda p, _: replace(p, rules=(*p.rules, added))
    )
    assert changed[1].rules == (*loaded.rules, added) and not changed[1].standing
    assert await services.play.take_plan(game.id, seat) == changed[1]
    assert await services.play.take_plan(game.id, seat) is None


async def test_rules_kept_by_a_standing_plan_are_not_checked_again(
    services: Services, db_target, clock
) -> None:
    """A standing plan's rule may name cards since spent: adding a rule still works."""
    game = await started(services)
    waiting, _ = _waiting(game)
    viewed, _ = await services.play.plan(game.id, waiting)
    seat = viewed.seat
    assert seat is not None
    # as kept from an earlier turn: the card it names has been spent since
    foreign = next(c for c in range(len(CARDS)) if c not in viewed.view.hand)
    stored = Plan((PlanRule(1, (foreign,), "reserve"),), standing=True)
    async with services.store.write() as tx:
        await tx.save_plan(game.id, seat, waiting, stored.to_json(), game.version, clock.now())
    added = PlanRule.of_type(int(Building.PAVILION), 8)
    kept = (
        await services.play.change_plan(
            game.id, waiting, lambda p, _: replace(p, rules=(*p.rules, added))
        )
    )[1]
    assert kept.rules == (*stored.rules, added) and kept.standing
    # a new rule with cards not held is still refused, and writes nothing
    before = dump(db_target)
    with pytest.raises(PlanRefused, match="only pay with cards of your hand"):
        await services.play.change_plan(
            game.id, waiting, lambda p, _: replace(p, rules=(*p.rules, PlanRule(2, (foreign,))))
        )
    assert dump(db_target) == before


async def test_type_rule_changes_at_once_all_count_and_bad_ones_write_nothing(
    services: Services, db_target
) -> None:
    game = await started(services)
    waiting, _ = _waiting(game)

    def adding(rule: PlanRule) -> PlanChange:
        return lambda plan, _view: replace(plan, rules=(*plan.rules, rule))

    wanted = [PlanRule.of_type(k, 12) for k in (0, 1, 2, 3)]
    answers = await asyncio.gather(
        *(services.play.change_plan(game.id, waiting, adding(r)) for r in wanted),
        services.play.change_plan(game.id, waiting, lambda p, _: replace(p, standing=True)),
    )
    assert len(answers) == 5
    stored = (await services.play.plan(game.id, waiting))[1]
    assert sorted(r.kind or 0 for r in stored.rules) == [0, 1, 2, 3] and stored.standing

    before = dump(db_target)
    for rule, words in [
        (PlanRule.of_type(4, 5), "from 6 to 40"),  # no Garden costs 5 or less
        (PlanRule.of_type(4, MAX_LIMIT + 1), "from 6 to 40"),
        (PlanRule.of_type(9, 9), "no such building type"),
        (PlanRule(0, (1,), None, 4, 9), "Name the cards"),
    ]:
        with pytest.raises(PlanRefused, match=words):
            await services.play.change_plan(game.id, waiting, adding(rule))
    assert dump(db_target) == before
