"""Plans and followers as the store keeps them, on SQLite and PostgreSQL alike: a plan is one
per seat, replaced when changed, refused during its player's own turn and taken once; a watcher
follows one way at a time, players and games that are over are refused, and a refusal writes
nothing."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from service_helpers import BOB, HOST, STRANGER, dump, started

from bot.core.errors import FollowRefused, GameOver, NotAPlayer, PlanRefused
from bot.core.plans import MAX_RULES, Plan, PlanChange, PlanRule
from bot.core.services import Services
from engine import CARDS, TILES


async def test_a_plan_is_kept_per_seat_and_taken_once(services: Services, db_target) -> None:
    game = await started(services)
    waiting = BOB if game.current_player and game.current_player.user_id == HOST else HOST
    mover = HOST if waiting == BOB else BOB
    viewed, empty = await services.play.plan(game.id, waiting)
    assert empty == Plan() and viewed.seat is not None
    hand = viewed.view.hand
    card = max(hand, key=lambda c: CARDS[c].value)
    tile = next(t for t in range(1, len(TILES)) if TILES[t].cost <= CARDS[card].value)
    plan = Plan((PlanRule(tile, (card,), "reserve"),), "most")
    assert await services.play.set_plan(game.id, waiting, plan) == plan
    assert (await services.play.plan(game.id, waiting))[1] == plan
    changed = Plan(plan.rules, "wait")
    await services.play.set_plan(game.id, waiting, changed)
    assert (await services.play.plan(game.id, waiting))[1] == changed  # replaced, not added

    before = dump(db_target)
    with pytest.raises(PlanRefused, match="It is your turn now"):
        await services.play.set_plan(game.id, mover, plan)
    with pytest.raises(PlanRefused, match="only pay with cards of your hand"):
        foreign = next(c for c in range(len(CARDS)) if c not in hand)
        await services.play.set_plan(game.id, waiting, Plan((PlanRule(tile, (foreign,)),)))
    with pytest.raises(NotAPlayer):
        await services.play.set_plan(game.id, STRANGER, plan)
    assert dump(db_target) == before  # refused: nothing written

    assert await services.play.has_plan(game.id, viewed.seat)
    assert await services.play.take_plan(game.id, viewed.seat) == changed
    assert await services.play.take_plan(game.id, viewed.seat) is None  # a plan plays once
    assert not await services.play.has_plan(game.id, viewed.seat)


async def test_a_watcher_follows_one_way_at_a_time(services: Services, db_target) -> None:
    game = await started(services)
    assert await services.people.followers(game.id) == []
    await services.people.follow(game.id, STRANGER, "dm")
    assert (await services.people.following(game.id, STRANGER))[1] == "dm"
    await services.people.follow(game.id, STRANGER, "thread")  # another way: the same one row
    assert await services.people.followers(game.id) == [(STRANGER, "thread")]

    before = dump(db_target)
    with pytest.raises(FollowRefused, match="You play in this game"):
        await services.people.follow(game.id, HOST, "dm")
    with pytest.raises(Exception, match="Follow by dm or thread"):
        await services.people.follow(game.id, 555, "pigeon")
    assert dump(db_target) == before

    assert await services.people.unfollow(game.id, STRANGER) == "thread"
    with pytest.raises(FollowRefused, match="do not follow"):
        await services.people.unfollow(game.id, STRANGER)
    await services.lobby.abandon(game.id, HOST)
    with pytest.raises(GameOver):
        await services.people.follow(game.id, STRANGER, "dm")


async def test_plan_changes_at_once_all_count(services: Services, db_target) -> None:
    """Changes read and write the plan in one transaction: of several adds at once (a double
    submit, two devices), every one confirmed is kept, and the cap on rules still holds."""
    game = await started(services)
    waiting = BOB if game.current_player and game.current_player.user_id == HOST else HOST
    viewed, _ = await services.play.plan(game.id, waiting)
    card = max(viewed.view.hand, key=lambda c: CARDS[c].value)
    tiles = [t for t in range(1, len(TILES)) if TILES[t].cost <= CARDS[card].value]
    tiles = tiles[: MAX_RULES + 1]
    assert len(tiles) == MAX_RULES + 1

    def adding(tile: int) -> PlanChange:
        return lambda plan, _view: replace(plan, rules=(*plan.rules, PlanRule(tile, (card,))))

    answers = await asyncio.gather(
        *(services.play.change_plan(game.id, waiting, adding(t)) for t in tiles),
        return_exceptions=True,
    )
    kept = [a[1] for a in answers if not isinstance(a, BaseException)]
    refused = [a for a in answers if isinstance(a, BaseException)]
    assert len(kept) == MAX_RULES and [type(r) for r in refused] == [PlanRefused]
    stored = (await services.play.plan(game.id, waiting))[1]
    assert sorted(r.tile for r in stored.rules) == sorted(p.rules[-1].tile for p in kept)
    assert max(kept, key=lambda p: len(p.rules)) == stored  # the last one confirmed is stored

    before = dump(db_target)
    with pytest.raises(PlanRefused, match="at most"):
        await services.play.change_plan(game.id, waiting, adding(tiles[0]))
    assert dump(db_target) == before  # refused: nothing written
