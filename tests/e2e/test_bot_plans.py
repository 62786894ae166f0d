"""Plans through the bot: `/alhambra plan` queues rules while a player waits; at the start of
their turn the first rule whose building is in the market and whose moves are legal is played
as their own moves (announced in the channel, undoable while their turn waits, a DM saying what
it did and why), a rule that no longer holds falls through to the next, and a plan with nothing
to play leaves the turn to its player. A plan is made from the player's own view: cards they do
not hold are refused."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from fake_discord import FakeDiscord
from players import open_game, stored_game

from bot.text.present import action_code, money_code
from engine import (
    CARDS,
    TILES,
    Game,
    TakeMoney,
    action_from_dict,
    minimal_payments,
    new_game,
)

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)


async def _started(sim: FakeDiscord, names: list[str]):
    users = [sim.user(n) for n in names]
    guild = sim.guild("Club", owner=users[0])
    for user in users[1:]:
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    await open_game(sim, users[0], channel)
    for user in users[1:]:
        await sim.slash(user, "alhambra join", channel=channel)
    await sim.slash(users[0], "alhambra start", channel=channel)
    return channel, users


def _seats(db_path, channel, users):
    """(game, the player to move, the one waiting, the waiting one's seat)."""
    _, game, seats = stored_game(db_path, channel.id)
    assert game is not None
    by_id = {u.id: u for u in users}
    mover = by_id[seats[game.current_seat]]
    waiter = next(u for u in users if u is not mover)
    seat = next(s for s, uid in seats.items() if uid == waiter.id)
    return game, mover, waiter, seat


def _affordable(game: Game, seat: int) -> tuple[int, tuple[int, ...]]:
    """A building of the market the seat can pay for, and a payment from its hand."""
    hand = game.view(seat).hand
    for slot, tile in enumerate(game.view(seat).market):
        if tile is not None and (pays := minimal_payments(hand, slot, TILES[tile].cost)):
            return tile, pays[0]
    raise AssertionError("nothing in the market is affordable")  # never with 20+ to spend


def _absent(game: Game) -> int:
    """A building that is not in the market (still in the bag)."""
    view = game.view(None)
    placed = {t for p in view.table for _, _, t in p.alhambra} | set(view.market)
    return next(t for t in range(1, len(TILES)) if t not in placed)


async def _take_money(sim, db_path, channel, user) -> None:
    _, game, _ = stored_game(db_path, channel.id)
    assert game is not None
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    await sim.slash(user, "alhambra take", channel=channel, cards=action_code(take))


async def test_a_plan_plays_the_first_rule_that_holds_at_the_players_turn(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    async with run_bot(make_bot(undo_window=0)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"])
        await bot.calm()
        game, mover, waiter, seat = _seats(db_path, channel, users)
        tile, pay = _affordable(game, seat)
        gone = _absent(game)
        shown = await sim.slash(waiter, "alhambra-plan show", channel=channel)
        assert shown.ephemeral and "You have no plan" in shown.content
        # rule 1 names a building that is not in the market; rule 2 one that is
        first = await sim.slash(
            waiter, "alhambra-plan add", channel=channel, buy=str(gone), pay=money_code(pay)
        )
        assert "1. If " in first.content and "leave its placement to you" in first.content
        await sim.slash(
            waiter,
            "alhambra-plan add",
            channel=channel,
            buy=str(tile),
            pay=money_code(pay),
            place="reserve",
        )
        plan = await sim.slash(waiter, "alhambra-plan otherwise", channel=channel, then="most")
        assert "2. If " in plan.content and "put it in your reserve" in plan.content
        assert "Otherwise: take the most money" in plan.content

        await _take_money(sim, db_path, channel, mover)  # the mover's turn ends: the plan plays
        await bot.calm()
        _, after, _ = stored_game(db_path, channel.id)
        assert after is not None
        assert tile in after.view(seat).table[seat].reserve
        assert after.current_seat != seat  # placing a building ends one's actions
        async with bot.services.store.read() as tx:
            rows = await tx.actions(stored_game(db_path, channel.id)[0])
        mine = [r.action for r in rows if r.seat == seat]
        assert mine[0]["kind"] == "buy" and sorted(mine[0]["cards"]) == sorted(pay)
        exact = sum(CARDS[c].value for c in pay) == TILES[tile].cost
        # an exact payment leaves an action: the fallback takes the most money with it, and
        # the building goes to the reserve after that (placing ends one's actions)
        kinds = ["buy", "take", "reserve", "end_turn"] if exact else ["buy", "reserve", "end_turn"]
        assert [a["kind"] for a in mine] == kinds
        assert mine[-2] == {"kind": "reserve", "tile": tile}
        (report,) = [m for m in sim.dms(waiter) if "Your plan" in m.content]
        assert "by rule 2 you bought" in report.content
        assert "Rule 1 did not hold" in report.content and "not in the market" in report.content
        assert "went into your reserve." in report.content
        assert ("Your plan took" in report.content) == exact
        assert "Your turn is over." in report.content
        # the turn was told in the channel as any turn is
        assert f"{waiter.name}: bought" in sim.channel_messages(channel)[-1].content
        # the plan was for that turn only
        assert (
            "You have no plan"
            in (await sim.slash(waiter, "alhambra-plan show", channel=channel)).content
        )


async def test_a_plan_with_nothing_to_play_leaves_the_turn_and_a_fallback_takes_money(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    async with run_bot(make_bot(undo_window=0)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"])
        await bot.calm()
        game, mover, waiter, seat = _seats(db_path, channel, users)
        gone = _absent(game)
        _, pay = _affordable(game, seat)
        await sim.slash(
            waiter, "alhambra-plan add", channel=channel, buy=str(gone), pay=money_code(pay)
        )
        await _take_money(sim, db_path, channel, mover)
        await bot.calm()
        _, now, _ = stored_game(db_path, channel.id)
        assert now is not None and now.current_seat == seat and now.actions_this_turn == 0
        dms = [m.content for m in sim.dms(waiter)]
        assert any("Your plan did not play" in d and "Rule 1 did not hold" in d for d in dms)
        assert any("It is your turn" in d for d in dms)  # and the turn's own DM, as always
        assert (
            "You have no plan"
            in (await sim.slash(waiter, "alhambra-plan show", channel=channel)).content
        )

        # the waiter plays; now the other one waits, with only a fallback: the most money
        await _take_money(sim, db_path, channel, waiter)
        await bot.calm()
        await sim.slash(waiter, "alhambra-plan otherwise", channel=channel, then="most")
        await _take_money(sim, db_path, channel, mover)
        await bot.calm()
        game_id = stored_game(db_path, channel.id)[0]
        info = await bot.services.lobby.game(game_id)
        async with bot.services.store.read() as tx:
            rows = await tx.actions(game_id)
        assert rows[-1].seat != seat or rows[-1].action["kind"] == "end_turn"
        # the game as it stood when the plan chose, replayed from the log
        state = new_game(len(info.seats), info.seed)
        took = next(i for i in range(len(rows) - 1, -1, -1) if rows[i].action["kind"] == "take")
        assert rows[took].seat == seat
        for row in rows[:took]:
            state.apply(action_from_dict(row.action))
        best = max(
            sum(CARDS[c].value for c in a.cards)
            for a in state.legal_actions()
            if isinstance(a, TakeMoney)
        )
        assert sum(CARDS[c].value for c in rows[took].action["cards"]) == best
        assert any("Your plan took" in m.content for m in sim.dms(waiter))


async def test_what_a_plan_played_can_be_undone_while_the_turn_waits(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    async with run_bot(make_bot(undo_window=30)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"])
        await bot.calm()
        game, mover, waiter, seat = _seats(db_path, channel, users)
        tile, pay = _affordable(game, seat)
        await sim.slash(
            waiter,
            "alhambra-plan add",
            channel=channel,
            buy=str(tile),
            pay=money_code(pay),
            place="reserve",
        )
        await _take_money(sim, db_path, channel, mover)
        await sim.slash(mover, "alhambra end-turn", channel=channel)  # no wait for the mover
        await bot.calm()
        _, held, _ = stored_game(db_path, channel.id)
        exact = sum(CARDS[c].value for c in pay) == TILES[tile].cost
        # the turn waits: for its undo window, or (paid exactly, nothing planned for the extra
        # action) for the player, the building still to place
        assert held is not None and held.current_seat == seat
        assert held.phase == ("action" if exact else "confirm")
        report = next(m.content for m in sim.dms(waiter) if "Your plan played" in m.content)
        assert "you can undo what the plan did" in report
        assert ("You paid exactly" in report) == exact
        await sim.slash(waiter, "alhambra undo", channel=channel)
        await sim.slash(waiter, "alhambra undo", channel=channel)
        await bot.calm()
        _, undone, _ = stored_game(db_path, channel.id)
        assert undone is not None and undone.current_seat == seat
        assert (
            tile in undone.view(seat).market and tile not in undone.view(seat).table[seat].reserve
        )
        assert sorted(undone.view(seat).hand) == sorted(game.view(seat).hand)


async def test_a_plan_is_made_from_the_players_own_view(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    async with run_bot(make_bot(undo_window=0)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"])
        watcher = sim.user("watcher")
        sim.member(channel.guild, watcher)
        await bot.calm()
        game, mover, waiter, seat = _seats(db_path, channel, users)
        tile, pay = _affordable(game, seat)
        mover_seat = game.current_seat
        theirs = [c for c in game.view(mover_seat).hand if c not in game.view(seat).hand]
        # cards the waiter does not hold (the other player's) cannot be planned with
        other = await sim.slash(
            waiter, "alhambra-plan add", channel=channel, buy=str(tile), pay=money_code(theirs[:1])
        )
        assert other.ephemeral and "only pay with cards of your hand" in other.content
        now = await sim.slash(
            mover, "alhambra-plan add", channel=channel, buy=str(tile), pay=money_code(pay)
        )
        assert "It is your turn now" in now.content
        outsider = await sim.slash(
            watcher, "alhambra-plan add", channel=channel, buy=str(tile), pay=money_code(pay)
        )
        assert outsider.ephemeral and "You are not playing in this game" in outsider.content
        nothing = await sim.slash(
            waiter, "alhambra-plan add", channel=channel, buy="999", pay=money_code(pay)
        )
        assert "There is no such building" in nothing.content
        typo = await sim.slash(
            waiter, "alhambra-plan add", channel=channel, buy=str(tile), pay="XX9"
        )
        assert typo.ephemeral and "not a money card" in typo.content
        for _ in range(5):
            await sim.slash(
                waiter, "alhambra-plan add", channel=channel, buy=str(tile), pay=money_code(pay)
            )
        full = await sim.slash(
            waiter, "alhambra-plan add", channel=channel, buy=str(tile), pay=money_code(pay)
        )
        assert "at most 5 rules" in full.content
        missing = await sim.slash(waiter, "alhambra-plan remove", channel=channel, rule=5)
        assert "5. If" not in missing.content and "4. If" in missing.content
        gone = await sim.slash(waiter, "alhambra-plan cancel", channel=channel)
        assert "You have no plan" in gone.content
        assert not await bot.services.play.has_plan(stored_game(db_path, channel.id)[0], seat)


async def test_a_plan_made_by_menus_under_ones_hand(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    async with run_bot(make_bot(undo_window=0)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"])
        await bot.calm()
        game, mover, waiter, seat = _seats(db_path, channel, users)
        tile, pay = _affordable(game, seat)
        turn = sim.channel_messages(channel)[-1]
        hand = (await sim.click(waiter, turn, "Show my hand")).response
        assert hand.button_labels() == ["Plan my next turn"]
        mine = (await sim.click(mover, turn, "Show my hand")).response
        assert mine.button_labels() == []  # it is their turn: nothing to plan

        panel = (await sim.click(waiter, hand, "Plan my next turn")).response
        assert panel.ephemeral and "You have no plan" in panel.content
        menu = panel.selects()[0]
        values = [o["value"] for o in menu["options"]]
        assert f"t{tile}" in values and values[-2:] == ["ow", "om"]

        async def pick(value: str) -> None:
            edits = panel.edits
            await sim.select(waiter, panel, panel.selects()[0]["custom_id"], [value])
            await sim.wait_until(lambda: panel.edits > edits)

        await pick(f"t{tile}")
        assert "Which cards of your hand pay for" in panel.content
        await pick(money_code(pay))
        assert "where does" in panel.content
        places = [o["value"] for o in panel.selects()[0]["options"]]
        assert places[:2] == ["reserve", "later"] and places[-1] == "back"
        await pick("reserve")
        assert "1. If " in panel.content and "put it in your reserve" in panel.content
        await pick("om")
        assert "Otherwise: take the most money" in panel.content
        assert panel.button_labels() == [
            "Remove the last rule",
            "Keep it for every turn",
            "Cancel the plan",
        ]
        _, stored = await bot.services.play.plan(
            game_id := stored_game(db_path, channel.id)[0], waiter.id
        )
        assert [(r.tile, r.cards, r.place) for r in stored.rules] == [
            (tile, tuple(sorted(pay)), "reserve")
        ]
        assert stored.otherwise == "most"

        edits = panel.edits
        await sim.click(waiter, panel, "Remove the last rule")
        await sim.wait_until(lambda: panel.edits > edits)
        assert "1. If " not in panel.content
        edits = panel.edits
        await sim.click(waiter, panel, "Cancel the plan")
        await sim.wait_until(lambda: panel.edits > edits)
        assert "You have no plan" in panel.content
        assert not await bot.services.play.has_plan(game_id, seat)


async def test_plan_changes_sent_at_once_are_all_kept(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    """A double submit, or two devices: two `/alhambra-plan add` and a pick in the plan panel at
    the same moment are each confirmed, and each is in the plan kept."""
    async with run_bot(make_bot(undo_window=0)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"])
        await bot.calm()
        game, _, waiter, seat = _seats(db_path, channel, users)
        tile, pay = _affordable(game, seat)
        value = sum(CARDS[c].value for c in pay)
        other = next(t for t in range(1, len(TILES)) if t != tile and TILES[t].cost <= value)
        turn = sim.channel_messages(channel)[-1]
        hand = (await sim.click(waiter, turn, "Show my hand")).response
        panel = (await sim.click(waiter, hand, "Plan my next turn")).response
        edits = panel.edits

        added = await asyncio.gather(
            *(
                sim.slash(
                    waiter, "alhambra-plan add", channel=channel, buy=str(t), pay=money_code(pay)
                )
                for t in (tile, other)
            ),
            sim.select(waiter, panel, panel.selects()[0]["custom_id"], ["om"]),
        )
        await sim.wait_until(lambda: panel.edits > edits)
        assert all("1. If " in a.content for a in added[:2])  # both confirmed
        _, stored = await bot.services.play.plan(stored_game(db_path, channel.id)[0], waiter.id)
        assert sorted(r.tile for r in stored.rules) == sorted((tile, other))
        assert stored.otherwise == "most"
        shown = await sim.slash(waiter, "alhambra-plan show", channel=channel)
        assert "2. If " in shown.content and "Otherwise: take the most money" in shown.content
