"""Plans that keep working while one is away, through the fake Discord in every language: a
rule by building type and price limit ("any Garden up to 9"), by `/alhambra-plan add` (its
autocomplete offers the types) and by the plan panel's menus; a plan kept for every turn until
cancelled, playing two turns in a row while its player is away, then cancelled; the Plan
button after a turn played by slash command; and bad input refused with words, changing
nothing."""

from __future__ import annotations

import contextlib

import pytest
from fake_discord import FakeDiscord
from fake_discord.errors import InteractionNotAnswered
from players import open_game, stored_game
from test_bot_plans import _seats

from bot.core.plans import MAX_LIMIT, Plan, PlanRule, cheapest_of
from bot.text import i18n
from bot.text.plans import rule_line
from bot.text.present import action_code
from engine import CARDS, TILES, Building, Game, TakeMoney, minimal_payments

LOCALES = ["en", "ja", "pt-BR", "fa"]
SELECT = 3


def _p(text: str) -> str:
    return i18n.plain(text)


def _has(text: str, locale: str, key: str, **params: object) -> bool:
    return _p(i18n.t(locale, key, **params)) in _p(text)


def _payable_type(game: Game, seat: int) -> tuple[int, int]:
    """A building type of the market the seat can pay for, and a limit its cheapest such
    payment meets exactly (so the plan is held to it)."""
    view = game.view(seat)
    best: tuple[int, int] | None = None
    for slot, tile in enumerate(view.market):
        if tile is None:
            continue
        for pay in minimal_payments(view.hand, slot, TILES[tile].cost):
            paid = sum(CARDS[c].value for c in pay)
            kind = TILES[tile].building
            assert kind is not None
            if best is None or paid < best[1]:
                best = (int(kind), max(paid, cheapest_of(int(kind))))
    assert best is not None, "nothing in the market is affordable"
    return best


async def _started(sim: FakeDiscord, names: list[str], locale: str):
    """A started game whose players speak `locale`: their Discord clients' language (Discord
    has no Persian client: Persian is chosen in the settings)."""
    client = "en-US" if locale in ("en", "fa") else locale
    users = [sim.user(n, locale=client) for n in names]
    guild = sim.guild("Club", owner=users[0])
    for user in users[1:]:
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    for user in users:
        await sim.slash(user, "alhambra settings", channel=channel, language=locale)
    await open_game(sim, users[0], channel)
    for user in users[1:]:
        await sim.slash(user, "alhambra join", channel=channel)
    await sim.slash(users[0], "alhambra start", channel=channel)
    return channel, users


async def _take(sim, db_path, channel, user):
    _, game, _ = stored_game(db_path, channel.id)
    assert game is not None
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    return await sim.slash(user, "alhambra take", channel=channel, cards=action_code(take))


async def _actions_of(bot, db_path, channel, seat: int) -> list[dict]:
    async with bot.services.store.read() as tx:
        rows = await tx.actions(stored_game(db_path, channel.id)[0])
    return [r.action for r in rows if r.seat == seat]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_standing_type_rule_plays_two_turns_while_away_then_is_cancelled(
    sim: FakeDiscord, run_bot, make_bot, db_path, locale: str
) -> None:
    async with run_bot(make_bot(undo_window=0)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"], locale)
        await bot.calm()
        game, mover, waiter, seat = _seats(db_path, channel, users)
        kind, limit = _payable_type(game, seat)
        label = Building(kind).label

        # the autocomplete offers each type, in the player's language
        offered = await sim.autocomplete(waiter, "alhambra-plan add", "buy", "", channel=channel)
        types = {c["value"]: c["name"] for c in offered if not c["value"].isdigit()}
        assert set(types) == {b.label for b in Building}
        assert _p(i18n.t(locale, f"building.{label}")) in _p(types[label])
        assert (
            await sim.autocomplete(
                waiter, "alhambra-plan add", "pay", "", channel=channel, buy=label
            )
            == []
        )  # a type rule's payment is chosen at the turn
        view = game.view(seat)
        market = next(
            t
            for slot, t in enumerate(view.market)
            if t is not None and minimal_payments(view.hand, slot, TILES[t].cost)
        )
        pays = await sim.autocomplete(
            waiter, "alhambra-plan add", "pay", "", channel=channel, buy=str(market)
        )
        assert pays  # one building: the hand's payments for it
        named = i18n.plain(i18n.t(locale, f"building.{label}"))  # as typed, in one's language
        assert (
            await sim.autocomplete(
                waiter, "alhambra-plan add", "pay", "", channel=channel, buy=named
            )
            == []
        )

        added = await sim.slash(
            waiter,
            "alhambra-plan add",
            channel=channel,
            buy=label,
            up_to=limit,
            place="reserve",
            every_turn=True,
        )
        rule = PlanRule.of_type(kind, limit, "reserve")
        assert added.ephemeral and _p(rule_line(locale, 1, rule)) in _p(added.content)
        assert _has(added.content, locale, "plan.title_standing", game=game_id(db_path, channel))
        assert _has(added.content, locale, "plan.standing_note")
        await sim.slash(waiter, "alhambra-plan otherwise", channel=channel, then="most")

        # the mover plays by slash command: their reply offers the Plan button
        done = await _take(sim, db_path, channel, mover)
        assert done.response.button_labels() == [i18n.t(locale, "button.plan")]
        await bot.calm()

        # turn 1 while away: it bought a building of that type within the limit
        first = await _actions_of(bot, db_path, channel, seat)
        buy = next(a for a in first if a["kind"] == "buy")
        _, after, _ = stored_game(db_path, channel.id)
        assert after is not None
        bought = after.view(seat).table[seat].reserve[-1]
        assert TILES[bought].building == kind and TILES[bought].cost <= limit
        assert sum(CARDS[c].value for c in buy["cards"]) <= limit
        reports = [
            m.content for m in sim.dms(waiter) if _has(m.content, locale, "plan.report.standing")
        ]
        assert len(reports) == 1
        assert _p(i18n.t(locale, f"building.{label}.the")) in _p(reports[0])
        shown = await sim.slash(waiter, "alhambra-plan show", channel=channel)
        assert _p(rule_line(locale, 1, rule)) in _p(shown.content)  # still there

        # turn 2 while away: the plan plays again (a building, or the most money)
        count = len(first)
        await _take(sim, db_path, channel, mover)
        await bot.calm()
        second = (await _actions_of(bot, db_path, channel, seat))[count:]
        assert second and second[0]["kind"] in ("buy", "take")
        reports = [
            m.content for m in sim.dms(waiter) if _has(m.content, locale, "plan.report.standing")
        ]
        assert len(reports) == 2

        # cancelled: the next turn is the player's own
        gone = await sim.slash(waiter, "alhambra-plan cancel", channel=channel)
        assert _has(gone.content, locale, "plan.none", game=game_id(db_path, channel))
        count += len(second)
        await _take(sim, db_path, channel, mover)
        await bot.calm()
        assert (await _actions_of(bot, db_path, channel, seat))[count:] == []
        _, now, _ = stored_game(db_path, channel.id)
        assert now is not None and now.current_seat == seat


def game_id(db_path, channel) -> int:
    return stored_game(db_path, channel.id)[0]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_type_rule_by_the_plan_panel_from_a_slash_command_turn(
    sim: FakeDiscord, run_bot, make_bot, db_path, locale: str
) -> None:
    async with run_bot(make_bot(undo_window=0)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"], locale)
        await bot.calm()
        _, mover, _, _ = _seats(db_path, channel, users)
        done = (await _take(sim, db_path, channel, mover)).response
        assert _has(done.content, locale, "reply.next.turn_over")
        panel = (await sim.click(mover, done, i18n.t(locale, "button.plan"))).response
        assert panel.ephemeral and _has(
            panel.content, locale, "plan.none", game=game_id(db_path, channel)
        )

        async def pick(value: str) -> None:
            edits = panel.edits
            await sim.select(mover, panel, panel.selects()[0]["custom_id"], [value])
            await sim.wait_until(lambda: panel.edits > edits)

        values = [o["value"] for o in panel.selects()[0]["options"]]
        assert [f"k{k}" for k in range(len(Building))] == [v for v in values if v[0] == "k"]
        await pick(f"k{int(Building.GARDEN)}")
        garden = i18n.t(locale, "building.garden")
        assert _has(panel.content, locale, "plan.panel.limit", type=garden)
        limits = [o["value"] for o in panel.selects()[0]["options"]]
        assert limits[0] == str(cheapest_of(int(Building.GARDEN))) and limits[-1] == "back"
        await pick("9")
        assert _has(panel.content, locale, "plan.panel.type_place", type=garden, limit=9)
        await pick("reserve")
        rule = PlanRule.of_type(int(Building.GARDEN), 9, "reserve")
        assert _p(rule_line(locale, 1, rule)) in _p(panel.content)
        assert _has(panel.content, locale, "plan.once_note")
        keep = i18n.t(locale, "button.plan_keep")
        assert panel.button_labels() == [
            i18n.t(locale, "button.plan_drop"),
            keep,
            i18n.t(locale, "button.plan_cancel"),
        ]
        edits = panel.edits
        await sim.click(mover, panel, keep)
        await sim.wait_until(lambda: panel.edits > edits)
        assert _has(panel.content, locale, "plan.standing_note")
        assert i18n.t(locale, "button.plan_once") in panel.button_labels()
        _, stored = await bot.services.play.plan(game_id(db_path, channel), mover.id)
        assert stored == Plan((rule,), standing=True)
        edits = panel.edits
        await sim.click(mover, panel, i18n.t(locale, "button.plan_cancel"))
        await sim.wait_until(lambda: panel.edits > edits)
        assert _has(panel.content, locale, "plan.none", game=game_id(db_path, channel))


@pytest.mark.parametrize("locale", LOCALES)
async def test_bad_plan_input_is_refused_with_words_and_changes_nothing(
    sim: FakeDiscord, run_bot, make_bot, db_path, locale: str
) -> None:
    async with run_bot(make_bot(undo_window=0)) as bot:
        channel, users = await _started(sim, ["ana", "bruno"], locale)
        await bot.calm()
        game, _, waiter, _ = _seats(db_path, channel, users)
        gid = game_id(db_path, channel)
        kept = await sim.slash(waiter, "alhambra-plan add", channel=channel, buy="garden", up_to=9)
        before = (await bot.services.play.plan(gid, waiter.id))[1]
        assert before.rules == (PlanRule.of_type(int(Building.GARDEN), 9),)
        assert kept.ephemeral
        tile = next(t for t in game.view(None).market if t is not None)
        low, high = cheapest_of(int(Building.GARDEN)), MAX_LIMIT
        cases: list[tuple[dict, str, dict]] = [
            ({"buy": "dragon", "up_to": 9}, "bad_type", {}),
            ({"buy": "garden"}, "needs_limit", {}),
            ({"buy": "garden", "up_to": 3}, "bad_limit", {"low": low, "high": high}),
            ({"buy": "garden", "up_to": -5}, "bad_limit", {"low": low, "high": high}),
            ({"buy": "garden", "up_to": 10**15}, "bad_limit", {"low": low, "high": high}),
            ({"buy": "garden", "up_to": 9, "pay": "CR5"}, "type_no_pay", {}),
            ({"buy": str(tile), "up_to": 9}, "limit_for_type", {}),
            ({"buy": str(tile)}, "needs_pay", {}),
            ({"buy": "garden", "up_to": 9, "place": "ZZ999"}, "", {}),
        ]
        for options, variant, params in cases:
            refused = await sim.slash(waiter, "alhambra-plan add", channel=channel, options=options)
            assert refused.ephemeral, options
            if variant:
                want = i18n.t(locale, f"error.plan.{variant}", **params)
                assert _p(want) in _p(refused.content), (options, refused.content)
            assert "Traceback" not in refused.content
            assert (await bot.services.play.plan(gid, waiter.id))[1] == before, options

        # option values of the wrong kind, past Discord's own checks
        for forged_options, variant, params in [
            ({"up_to": 9, "every_turn": "yes"}, "bad_every_turn", {}),
            ({"up_to": "nine"}, "bad_limit", {"low": low, "high": high}),
            ({"up_to": "9" * 40}, "bad_limit", {"low": low, "high": high}),
        ]:
            given = {k: v for k, v in forged_options.items() if isinstance(v, int)}
            wrong = {k: v for k, v in forged_options.items() if not isinstance(v, int)}
            result = await sim.forge_command(
                waiter, "alhambra-plan add", channel=channel, buy="garden", forged=wrong, **given
            )
            want = i18n.t(locale, f"error.plan.{variant}", **params)
            assert result.ephemeral and _p(want) in _p(result.text), (forged_options, result.text)
            assert (await bot.services.play.plan(gid, waiter.id))[1] == before, forged_options

        # forged panel menus: values and steps a normal client never sends
        hand = (await sim.click(waiter, sim.channel_messages(channel)[-1], "Show my hand")).response
        panel = (await sim.click(waiter, hand, i18n.t(locale, "button.plan"))).response
        low_high = {"low": low, "high": high}

        async def forged(value: str, variant: str, params: dict) -> None:
            """A value the panel's menu (at its step now) never offers."""
            data = {
                "custom_id": panel.selects()[0]["custom_id"],
                "component_type": SELECT,
                "values": [value],
            }
            result = await sim.forge(waiter, channel, data, source=panel)
            want = _p(i18n.t(locale, variant, **params)).split("\x00")[0]
            assert want in _p(result.content), (value, result.content)
            assert (await bot.services.play.plan(gid, waiter.id))[1] == before, value

        async def pick(value: str) -> None:
            edits = panel.edits
            await sim.select(waiter, panel, panel.selects()[0]["custom_id"], [value])
            await sim.wait_until(lambda: panel.edits > edits)

        await forged("k7", "error.plan.bad_type", {})
        await forged("k" + "9" * 30, "error.plan.bad_type", {})
        await pick(f"k{int(Building.GARDEN)}")
        await forged("999", "error.plan.bad_limit", low_high)
        await forged("3", "error.plan.bad_limit", low_high)
        await forged("nine", "error.plan.needs_limit", {})
        await pick("9")
        await forged("ZZ999", "error.bad_code", {"reason": "\x00"})
        # a step no message of the bot's carries: not the bot's at all, and nothing changes
        for step in ("k9", "r4-3", "r9-9"):
            data = {"custom_id": f"alh:ps:{gid}:{step}", "component_type": SELECT, "values": ["9"]}
            with contextlib.suppress(InteractionNotAnswered):
                await sim.forge(waiter, channel, data, source=panel, timeout=2)
            assert (await bot.services.play.plan(gid, waiter.id))[1] == before, step
