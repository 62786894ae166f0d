"""`/alhambra plan`: a waiting player queues moves for their next turn (`core.plans`).

Each use with `buy` and `pay` adds a rule ("if this building is in the market at my turn, buy
it with these cards of my hand, and place it there"); `otherwise` says what happens when no
rule holds; `remove` drops a rule, `clear` the plan; with no option it shows the plan. The
answer is only the player's, built from their own view; the turn flow plays the plan when
their turn begins (`TurnFlow.play_plan`).
"""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

import render
from engine import CARDS, TILES, SeatView, minimal_payments

from ..core.errors import BadCode, PlanRefused
from ..core.plans import MAX_RULES, Otherwise, Placement, Plan, PlanRule
from ..text import i18n
from ..text.plans import plan_lines
from ..text.present import (
    CodeError,
    building_name,
    cards_text,
    cell_text,
    currency_name,
    echo,
    money_code,
    parse_money,
    pick_cards,
    read_number,
)
from .context import BaseBot, bot_of, current_game, handling, reply, user_locale
from .translator import T

MAX_CHOICES = 25
Choices = list[app_commands.Choice[str]]
#: one card of each face, for money named in `otherwise` (the pool's copies are alike)
_FACES = {(int(CARDS[c].currency), CARDS[c].value): c for c in reversed(range(len(CARDS)))}


def _bad(locale: str, reason: str) -> BadCode:
    return BadCode(i18n.t(locale, "error.bad_code", reason=reason))


def read_tile(locale: str, text: str) -> int:
    """A building named by its catalogue number (what the autocomplete fills in)."""
    number = read_number(str(text).strip())
    if number is None or not 1 <= number < len(TILES):
        raise PlanRefused(variant="bad_building")
    return number


def read_place(locale: str, text: str | None) -> Placement:
    word = str(text or "").strip().lower()
    if not word:
        return None
    if word == "reserve":
        return "reserve"
    try:
        return render.parse_cell_code(word)
    except ValueError as exc:
        raise _bad(locale, str(exc)) from None


def read_otherwise(locale: str, text: str) -> Otherwise:
    word = str(text).strip().lower()
    if word in ("wait", "most"):
        return "wait" if word == "wait" else "most"
    try:
        pairs = parse_money(text)
    except CodeError as exc:
        raise _bad(locale, str(exc)) from None
    if len(pairs) > 5 or any(p not in _FACES for p in pairs):
        raise _bad(locale, f"{echo(text)} is not money one may take")
    return tuple(_FACES[p] for p in pairs)


class PlanCommands(commands.Cog):
    """Part of the `/alhambra` group cog (`group.AlhambraCog`)."""

    bot: BaseBot

    @app_commands.command(name=T("cmd.plan.name"), description=T("cmd.plan.description"))
    @app_commands.describe(
        buy=T("cmd.plan.buy.description"),
        pay=T("cmd.plan.pay.description"),
        place=T("cmd.plan.place.description"),
        otherwise=T("cmd.plan.otherwise.description"),
        remove=T("cmd.plan.remove.description"),
        clear=T("cmd.plan.clear.description"),
    )
    async def plan(
        self,
        interaction: discord.Interaction,
        buy: str | None = None,
        pay: str | None = None,
        place: str | None = None,
        otherwise: str | None = None,
        remove: app_commands.Range[int, 1, MAX_RULES] | None = None,
        clear: bool = False,
    ) -> None:
        async with handling(interaction, "plan"):
            locale = user_locale(interaction)
            service = bot_of(interaction).service
            game = await current_game(interaction)
            viewed, plan = await service.plan(game.id, interaction.user.id)
            changed = clear or any(o is not None for o in (buy, pay, place, otherwise, remove))
            if clear:
                plan = Plan()
            if remove is not None:
                if remove > len(plan.rules):
                    raise PlanRefused(variant="no_rule", number=remove)
                rules = plan.rules[: remove - 1] + plan.rules[remove:]
                plan = replace(plan, rules=rules)
            if buy is not None or pay is not None or place is not None:
                if buy is None or pay is None:
                    raise _bad(locale, i18n.t(locale, "plan.needs_buy_and_pay"))
                tile = read_tile(locale, buy)
                try:
                    cards = pick_cards(parse_money(pay), viewed.view.hand)
                except CodeError as exc:
                    raise _bad(locale, str(exc)) from None
                if cards is None:
                    raise PlanRefused(variant="not_in_hand")
                rule = PlanRule(tile, tuple(sorted(cards)), read_place(locale, place))
                plan = replace(plan, rules=(*plan.rules, rule))
            if otherwise is not None:
                plan = replace(plan, otherwise=read_otherwise(locale, otherwise))
            if changed:
                plan = await service.set_plan(game.id, interaction.user.id, plan)
            await reply(interaction, "\n".join(plan_lines(locale, game.id, plan)))

    async def _view(self, interaction: discord.Interaction) -> SeatView | None:
        try:
            game = await current_game(interaction)
            viewed, _ = await bot_of(interaction).service.plan(game.id, interaction.user.id)
        except Exception:  # no game here, not a player: nothing to offer
            return None
        return viewed.view

    @plan.autocomplete("buy")
    async def _buy(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await self._view(interaction)
        if view is None:
            return []
        locale, needle = user_locale(interaction), current.strip().lower()
        market = [t for t in view.market if t is not None]
        # the market first (with its slot's currency), then every other building by name
        out: Choices = []
        for tile in [*market, *(t for t in range(1, len(TILES)) if t not in market)]:
            name = building_name(locale, tile)
            if tile in market:
                slot = view.market.index(tile)
                name = i18n.t(
                    locale,
                    "plan.in_market",
                    slot=slot + 1,
                    building=name,
                    currency=currency_name(locale, slot),
                )
            if needle and needle not in name.lower() and needle != str(tile):
                continue
            out.append(app_commands.Choice(name=name[:100], value=str(tile)))
            if len(out) == MAX_CHOICES:
                break
        return out

    @plan.autocomplete("pay")
    async def _pay(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await self._view(interaction)
        if view is None:
            return []
        locale, needle = user_locale(interaction), current.strip().lower()
        chosen = read_number(str(getattr(interaction.namespace, "buy", "") or "").strip())
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

    @plan.autocomplete("place")
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

    @plan.autocomplete("otherwise")
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
