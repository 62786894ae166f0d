"""The plan panel: `/alhambra-plan` by menus, in a private message redrawn in place, and the
parsing both share. Opened by a button under one's hand and under "Your turn is over"."""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands

import render
from engine import CARDS, TILES, SeatView, minimal_payments

from ..core.errors import BadCode, InvalidRequest, PlanRefused
from ..core.plans import Otherwise, Placement, Plan, PlanChange, PlanRule
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
    the_building,
)
from .components import GameItem
from .context import (
    bot_of,
    bounded,
    handling,
    here,
    redraw,
    reply,
    selected,
    user_locale,
)
from .markup import button

MAX_CHOICES = 25
Choices = list[app_commands.Choice[str]]
#: one card of each face, for money named in `otherwise` (the pool's copies are alike)
_FACES = {(int(CARDS[c].currency), CARDS[c].value): c for c in reversed(range(len(CARDS)))}


def bad_code(locale: str, reason: str) -> BadCode:
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
        raise bad_code(locale, str(exc)) from None


def read_otherwise(locale: str, text: str) -> Otherwise:
    word = str(text).strip().lower()
    if word in ("wait", "most"):
        return "wait" if word == "wait" else "most"
    try:
        pairs = parse_money(text)
    except CodeError as exc:
        raise bad_code(locale, str(exc)) from None
    if len(pairs) > 5 or any(p not in _FACES for p in pairs):
        raise bad_code(locale, f"{echo(text)} is not money one may take")
    return tuple(_FACES[p] for p in pairs)


# --- the plan panel: the same plan, by menus -----------------------------------------------------
#
# A private message redrawn in place. Its menu is at one step: `m` (what to add: a building of the
# market, or what to do otherwise), `p<tile>` (which cards of the hand pay for it), `q<tile>`
# with the payment in the value (where it goes). Every step is drawn from the player's own view;
# every change goes through `GameService.change_plan`, which checks it again.

#: a step of the panel's menu, as its custom id carries it
_STEP = r"m|p\d{1,3}|q\d{1,3}-[A-Za-z0-9+]{2,40}"


class PlanButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:pb:{game_id}:{op}",
    op="open|back|drop|cancel",
):
    """`open` (under one's hand, and when one's turn is over) opens the panel; `back` returns
    to its first menu; `drop` removes the plan's last rule; `cancel` the whole plan."""

    def __init__(self, game_id: int, op: str, label: str = "…") -> None:
        self.game_id, self.op = game_id, op
        style = discord.ButtonStyle.danger if op == "cancel" else discord.ButtonStyle.secondary
        super().__init__(button(self.custom_id_for(game_id=game_id, op=op), label, style=style))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, f"plan:{self.op}"):
            if self.op == "drop":
                await plan_panel(interaction, self.game_id, "m", lambda p, _: _drop_last(p))
            elif self.op == "cancel":
                await plan_panel(interaction, self.game_id, "m", lambda _p, _v: Plan())
            else:
                await plan_panel(interaction, self.game_id, "m", None, new=self.op == "open")


def plan_button(game_id: int, locale: str) -> PlanButton:
    return PlanButton(game_id, "open", i18n.t(locale, "button.plan"))


def _drop_last(plan: Plan) -> Plan:
    return replace(plan, rules=plan.rules[:-1])


class PlanSelect(
    GameItem[discord.ui.Select[discord.ui.View]],
    custom_id="alh:ps:{game_id}:{step}",
    step=_STEP,
):
    def __init__(
        self, game_id: int, step: str, placeholder: str = "…", options: Choices | None = None
    ) -> None:
        self.game_id, self.step = game_id, step
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=self.custom_id_for(game_id=game_id, step=step),
            placeholder=placeholder[:150],
            options=[discord.SelectOption(label=c.name[:100], value=c.value) for c in options or []]
            or [discord.SelectOption(label="…", value="back")],
        )
        super().__init__(select)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "plan:menu"):
            values = selected(interaction)
            await plan_picked(interaction, self.game_id, self.step, values[0] if values else "")


async def plan_picked(
    interaction: discord.Interaction, game_id: int, step: str, value: str
) -> None:
    """An option of the panel's menu: go one step on, or change the plan and start again."""
    locale = user_locale(interaction)
    if value == "back":
        await plan_panel(interaction, game_id, "m", None)
    elif step == "m" and value in ("ow", "om"):
        chosen: Otherwise = "wait" if value == "ow" else "most"
        await plan_panel(interaction, game_id, "m", lambda p, _: replace(p, otherwise=chosen))
    elif step == "m" and (tile := _number(value, "t")) is not None:
        await plan_panel(interaction, game_id, f"p{read_tile(locale, str(tile))}", None)
    elif step.startswith("p") and (tile := _number(step, "p")) is not None:
        try:
            parse_money(value)
        except CodeError as exc:
            raise bad_code(locale, str(exc)) from None
        await plan_panel(interaction, game_id, f"q{read_tile(locale, str(tile))}-{value}", None)
    elif step.startswith("q"):
        head, _, code = step.partition("-")
        tile = read_tile(locale, head[1:])
        place = None if value == "later" else read_place(locale, value)

        def added(plan: Plan, view: SeatView) -> Plan:
            try:
                cards = pick_cards(parse_money(code), view.hand)
            except CodeError as exc:
                raise bad_code(locale, str(exc)) from None
            if cards is None:
                raise PlanRefused(variant="not_in_hand")
            return replace(plan, rules=(*plan.rules, PlanRule(tile, tuple(sorted(cards)), place)))

        await plan_panel(interaction, game_id, "m", added)
    else:
        raise InvalidRequest()


def _number(text: str, prefix: str) -> int | None:
    return read_number(text[len(prefix) :]) if text.startswith(prefix) else None


async def plan_panel(
    interaction: discord.Interaction,
    game_id: int,
    step: str,
    change: PlanChange | None,
    *,
    new: bool = False,
) -> None:
    """Draw the panel at `step` for the player's plan, after `change` if given (applied where
    the plan is read and written, `GameService.change_plan`); `new`: as a new private message
    (from a button elsewhere), else in place of the panel."""
    locale = user_locale(interaction)
    service = bot_of(interaction).service
    if change is None:
        viewed, plan = await service.plan(game_id, interaction.user.id, to_change=True)
        here(interaction, viewed.game)
    else:
        # the game must be this channel's before anything changes (`here` refuses otherwise)
        here(interaction, await service.game(game_id))
        viewed, plan = await service.change_plan(game_id, interaction.user.id, change)
    view = viewed.view
    # the plan so far above the menu; before a first rule, only the question being asked
    empty = not plan.rules and plan.otherwise == "wait"
    lines = [] if empty and step != "m" else plan_lines(locale, game_id, plan)
    ui = discord.ui.View(timeout=None)
    if step == "m":
        options = [
            app_commands.Choice(
                name=i18n.t(
                    locale,
                    "plan.in_market",
                    slot=slot + 1,
                    building=building_name(locale, tile),
                    currency=currency_name(locale, slot),
                ),
                value=f"t{tile}",
            )
            for slot, tile in enumerate(view.market)
            if tile is not None
        ]
        options += [
            app_commands.Choice(name=i18n.t(locale, "plan.otherwise_wait"), value="ow"),
            app_commands.Choice(name=i18n.t(locale, "plan.otherwise_most"), value="om"),
        ]
        ui.add_item(PlanSelect(game_id, "m", i18n.t(locale, "plan.panel.add"), options))
        if plan.rules:
            ui.add_item(PlanButton(game_id, "drop", i18n.t(locale, "button.plan_drop")))
        if plan.rules or plan.otherwise != "wait":
            ui.add_item(PlanButton(game_id, "cancel", i18n.t(locale, "button.plan_cancel")))
    elif step.startswith("p"):
        tile = read_tile(locale, step[1:])
        if tile not in view.market:
            raise PlanRefused(variant="bad_building")
        slot = view.market.index(tile)
        pays = minimal_payments(view.hand, slot, TILES[tile].cost)
        choices = [
            app_commands.Choice(name=cards_text(locale, cards), value=money_code(cards))
            for cards in pays[: MAX_CHOICES - 1]
        ]
        lines.append(i18n.t(locale, "plan.panel.pay", building=the_building(locale, tile)))
        if not choices:
            lines.append(i18n.t(locale, "plan.panel.cannot_pay"))
        ui.add_item(
            PlanSelect(game_id, step, i18n.t(locale, "plan.panel.pay_menu"), choices)
            if choices
            else PlanButton(game_id, "back", i18n.t(locale, "button.back"))
        )
    else:
        head, _, code = step.partition("-")
        tile = read_tile(locale, head[1:])
        try:
            cards = pick_cards(parse_money(code), view.hand)
        except CodeError as exc:
            raise bad_code(locale, str(exc)) from None
        if cards is None:
            raise PlanRefused(variant="not_in_hand")
        choices = [
            app_commands.Choice(name=i18n.t(locale, "plan.place_reserve"), value="reserve"),
            app_commands.Choice(name=i18n.t(locale, "plan.place_later"), value="later"),
        ]
        assert viewed.seat is not None
        choices += [
            app_commands.Choice(
                name=i18n.t(locale, "plan.place_at", cell=cell_text(x, y)), value=cell_text(x, y)
            )
            for x, y in view.alhambra(viewed.seat).legal_cells(tile)[: MAX_CHOICES - 3]
        ]
        choices.append(app_commands.Choice(name=i18n.t(locale, "button.back"), value="back"))
        lines.append(
            i18n.t(
                locale,
                "plan.panel.place",
                building=the_building(locale, tile),
                cards=cards_text(locale, cards),
            )
        )
        ui.add_item(PlanSelect(game_id, step, i18n.t(locale, "plan.panel.place_menu"), choices))
    text = bounded("\n".join(lines))
    if new:
        await reply(interaction, text, view=ui)
    else:
        await redraw(interaction, content=text, view=ui)
