"""`/alhambra-plan`: a waiting player queues moves for their next turn (`core.plans`).

`add buy: pay: place:` adds a rule ("if this building is in the market at my turn, buy it
with these cards of my hand, and place it there"), or `add buy:<type> up_to:` one by type and
price limit ("any Garden up to 9"); `every_turn:` keeps the plan for every turn until it is
cancelled (or makes it for the next turn only again); `otherwise then:` says what happens when no
rule holds; `remove rule:` drops a rule, `cancel` the plan, `show` shows it. Every answer is
only the player's, built from their own view; the turn flow plays the plan when their turn
begins (`TurnFlow.play_plan`).
"""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from engine import TILES, Building, SeatView, minimal_payments

from ..core.errors import PlanRefused
from ..core.plans import MAX_RULES, Plan, PlanChange, PlanRule
from ..text import i18n
from ..text.plan_menus import (
    MAX_CHOICES,
    bad_code,
    read_buy,
    read_limit,
    read_otherwise,
    read_place,
)
from ..text.plans import plan_lines, type_name
from ..text.present import (
    CodeError,
    building_name,
    cards_text,
    cell_text,
    currency_name,
    money_code,
    parse_money,
    pick_cards,
    read_number,
)
from .context import (
    BaseBot,
    bot_of,
    chosen_language,
    current_game,
    handling,
    reply,
    user_locale,
)
from .translator import T

Choices = list[app_commands.Choice[str]]


@app_commands.guild_only()
class PlanCommands(
    commands.GroupCog,
    group_name="alhambra-plan",
    group_description=T("cmd.plans.description"),
):
    """The `/alhambra-plan` group: `/alhambra` has no room left for five more subcommands
    (Discord counts 4,000 characters per command), and a plan has a life of its own."""

    def __init__(self, bot: BaseBot) -> None:
        self.bot = bot
        super().__init__()

    async def _change(self, interaction: discord.Interaction, change: PlanChange | None) -> None:
        """Show the player's plan for the channel's game, after `change` if one is given
        (applied where the plan is read and written, `Play.change_plan`)."""
        locale = user_locale(interaction)
        services = bot_of(interaction).services
        game = await current_game(interaction)
        if change is None:
            _, plan = await services.play.plan(game.id, interaction.user.id)
        else:
            _, plan = await services.play.change_plan(game.id, interaction.user.id, change)
        await reply(interaction, "\n".join(plan_lines(locale, game.id, plan)))

    @app_commands.command(name=T("cmd.plan_show.name"), description=T("cmd.plan_show.description"))
    async def show(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "plan:show"):
            await self._change(interaction, None)

    @app_commands.command(name=T("cmd.plan_add.name"), description=T("cmd.plan_add.description"))
    @app_commands.describe(
        buy=T("cmd.plan.buy.description"),
        pay=T("cmd.plan.pay.description"),
        place=T("cmd.plan.place.description"),
        up_to=T("cmd.plan.up_to.description"),
        every_turn=T("cmd.plan.every_turn.description"),
    )
    async def add(
        self,
        interaction: discord.Interaction,
        buy: str,
        pay: str | None = None,
        place: str | None = None,
        up_to: int | None = None,
        every_turn: bool | None = None,
    ) -> None:
        async with handling(interaction, "plan:add"):
            locale = user_locale(interaction)
            chosen = read_buy(locale, buy)
            where = read_place(locale, place)
            if every_turn is not None and not isinstance(every_turn, bool):
                raise PlanRefused(variant="bad_every_turn")  # a forged value
            standing = every_turn

            def keep(plan: Plan) -> Plan:
                return plan if standing is None else replace(plan, standing=standing)

            if isinstance(chosen, tuple):  # a type: any of it up to a price limit
                if pay:
                    raise PlanRefused(variant="type_no_pay")
                rule = PlanRule.of_type(chosen[0], read_limit(chosen[0], up_to), where)
                await self._change(
                    interaction, lambda plan, _: keep(replace(plan, rules=(*plan.rules, rule)))
                )
                return
            if up_to is not None:
                raise PlanRefused(variant="limit_for_type")
            if not pay:
                raise PlanRefused(variant="needs_pay")
            tile = chosen
            try:
                wanted = parse_money(pay)
            except CodeError as exc:
                raise bad_code(locale, str(exc)) from None

            def added(plan: Plan, view: SeatView) -> Plan:
                cards = pick_cards(wanted, view.hand)
                if cards is None:
                    raise PlanRefused(variant="not_in_hand")
                rule = PlanRule(tile, tuple(sorted(cards)), where)
                return keep(replace(plan, rules=(*plan.rules, rule)))

            await self._change(interaction, added)

    @app_commands.command(
        name=T("cmd.plan_otherwise.name"), description=T("cmd.plan_otherwise.description")
    )
    @app_commands.describe(then=T("cmd.plan.otherwise.description"))
    async def otherwise(self, interaction: discord.Interaction, then: str) -> None:
        async with handling(interaction, "plan:otherwise"):
            chosen = read_otherwise(user_locale(interaction), then)
            await self._change(interaction, lambda plan, _: replace(plan, otherwise=chosen))

    @app_commands.command(
        name=T("cmd.plan_remove.name"), description=T("cmd.plan_remove.description")
    )
    @app_commands.describe(rule=T("cmd.plan.remove.description"))
    async def remove(
        self, interaction: discord.Interaction, rule: app_commands.Range[int, 1, MAX_RULES]
    ) -> None:
        async with handling(interaction, "plan:remove"):

            def removed(plan: Plan, _: SeatView) -> Plan:
                if not 1 <= rule <= len(plan.rules):
                    raise PlanRefused(variant="no_rule", number=rule)
                return replace(plan, rules=plan.rules[: rule - 1] + plan.rules[rule:])

            await self._change(interaction, removed)

    @app_commands.command(
        name=T("cmd.plan_cancel.name"), description=T("cmd.plan_cancel.description")
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "plan:cancel"):
            await self._change(interaction, lambda _plan, _view: Plan())

    async def _view(self, interaction: discord.Interaction) -> SeatView | None:
        """The player's own view for an autocomplete (and their chosen language noted, so the
        choices are in it: `chosen_language`), or None when there is nothing to offer."""
        await chosen_language(bot_of(interaction), interaction)
        try:
            game = await current_game(interaction)
            viewed, _ = await bot_of(interaction).services.play.plan(game.id, interaction.user.id)
        except Exception:  # no game here, not a player: nothing to offer
            return None
        return viewed.view

    @add.autocomplete("buy")
    async def _buy(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await self._view(interaction)
        if view is None:
            return []
        locale, needle = user_locale(interaction), current.strip().lower()
        market = [t for t in view.market if t is not None]
        # the market first (with its slot's currency), then each type (with `up_to`), then
        # every other building by name
        out: Choices = []
        for tile in market:
            if len(out) == MAX_CHOICES:
                break
            out += self._tile_choice(locale, view, tile, needle)
        for kind in Building:
            name = i18n.t(locale, "plan.any_type", type=type_name(locale, kind))
            if len(out) < MAX_CHOICES and (not needle or needle in name.lower()):
                out.append(app_commands.Choice(name=name[:100], value=kind.label))
        for tile in (t for t in range(1, len(TILES)) if t not in market):
            if len(out) == MAX_CHOICES:
                break
            out += self._tile_choice(locale, view, tile, needle)
        return out

    @staticmethod
    def _tile_choice(locale: str, view: SeatView, tile: int, needle: str) -> Choices:
        """One building as a choice (with its slot's currency if it is in the market), or
        none if it does not match what is typed."""
        name = building_name(locale, tile)
        if tile in view.market:
            slot = view.market.index(tile)
            name = i18n.t(
                locale,
                "plan.in_market",
                slot=slot + 1,
                building=name,
                currency=currency_name(locale, slot),
            )
        if needle and needle not in name.lower() and needle != str(tile):
            return []
        return [app_commands.Choice(name=name[:100], value=str(tile))]

    @add.autocomplete("pay")
    async def _pay(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await self._view(interaction)
        if view is None:
            return []
        locale, needle = user_locale(interaction), current.strip().lower()
        named = str(getattr(interaction.namespace, "buy", "") or "").strip()
        try:
            if isinstance(read_buy(locale, named), tuple):
                return []  # a type rule: the payment is chosen at the turn
        except PlanRefused:
            pass  # not a type: the payments of every currency
        chosen = read_number(named)
        tile = chosen if chosen is not None and 1 <= chosen < len(TILES) else None
        currencies = range(4)
        if tile is not None and tile in view.market:
            currencies = range(view.market.index(tile), view.market.index(tile) + 1)
        out: Choices = []
        for currency in currencies:
            cost = TILES[tile].cost if tile is not None else 1
            for cards in minimal_payments(view.hand, currency, cost):
                code, label = money_code(cards), cards_text(locale, cards)
                if needle and needle not in code.lower() and needle not in label.lower():
                    continue
                out.append(app_commands.Choice(name=label[:100], value=code))
        return out[:MAX_CHOICES]

    @add.autocomplete("place")
    async def _place(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await self._view(interaction)
        if view is None or view.seat is None:
            return []
        locale, needle = user_locale(interaction), current.strip().lower()
        chosen = read_number(str(getattr(interaction.namespace, "buy", "") or "").strip())
        out: Choices = [
            app_commands.Choice(name=i18n.t(locale, "plan.place_reserve"), value="reserve")
        ]
        if chosen is not None and 1 <= chosen < len(TILES):
            cells = view.alhambra(view.seat).legal_cells(chosen)
            out += [
                app_commands.Choice(name=cell_text(x, y), value=cell_text(x, y)) for x, y in cells
            ]
        return [c for c in out if not needle or needle in c.name.lower()][:MAX_CHOICES]

    @otherwise.autocomplete("then")
    async def _otherwise(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await self._view(interaction)
        if view is None:
            return []
        locale, needle = user_locale(interaction), current.strip().lower()
        out: Choices = [
            app_commands.Choice(name=i18n.t(locale, "plan.otherwise_wait"), value="wait"),
            app_commands.Choice(name=i18n.t(locale, "plan.otherwise_most"), value="most"),
        ]
        out += [
            app_commands.Choice(name=cards_text(locale, (c,)), value=money_code((c,)))
            for c in view.pool
        ]
        return [c for c in out if not needle or needle in c.name.lower()][:MAX_CHOICES]
