"""The plan panel: `/alhambra-plan` by menus, in a private message redrawn in place. What it
says and offers at each step is `text.plan_menus`' (as the turn panel's is `text.menus`'); this
draws it. Opened by a button under one's hand and under "Your turn is over"."""

from __future__ import annotations

from dataclasses import replace

import discord

from engine import SeatView

from ..core.errors import InvalidRequest, PlanRefused
from ..core.plans import Otherwise, Plan, PlanChange, PlanRule
from ..text import i18n
from ..text.menus import Option
from ..text.plan_menus import (
    bad_code,
    plan_panel_spec,
    read_kind,
    read_limit,
    read_place,
    read_tile,
    step_number,
)
from ..text.present import (
    CodeError,
    bounded,
    parse_money,
    pick_cards,
    read_number,
)
from .components import GameItem
from .context import (
    bot_of,
    handling,
    here,
    redraw,
    reply,
    selected,
    user_locale,
)
from .markup import button

# --- the plan panel: the same plan, by menus -----------------------------------------------------
#
# A private message redrawn in place. Its menu is at one step: `m` (what to add: a building of the
# market, or what to do otherwise), `p<tile>` (which cards of the hand pay for it), `q<tile>`
# with the payment in the value (where it goes). Every step is drawn from the player's own view;
# every change goes through `Play.change_plan`, which checks it again.

#: a step of the panel's menu, as its custom id carries it
_STEP = r"m|p\d{1,3}|q\d{1,3}-[A-Za-z0-9+]{2,40}|k\d|r\d-\d{1,3}"


class PlanButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:pb:{game_id}:{op}",
    op="open|back|drop|cancel|keep|once",
):
    """`open` (under one's hand, and when one's turn is over) opens the panel; `back` returns
    to its first menu; `drop` removes the plan's last rule; `cancel` the whole plan; `keep`
    keeps it for every turn until cancelled, `once` makes it for the next turn only."""

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
            elif self.op in ("keep", "once"):
                standing = self.op == "keep"
                await plan_panel(
                    interaction, self.game_id, "m", lambda p, _: replace(p, standing=standing)
                )
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
        self, game_id: int, step: str, placeholder: str = "…", options: list[Option] | None = None
    ) -> None:
        self.game_id, self.step = game_id, step
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=self.custom_id_for(game_id=game_id, step=step),
            placeholder=placeholder[:150],
            options=[
                discord.SelectOption(label=o.label[:100], value=o.value) for o in options or []
            ]
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
    elif step == "m" and value.startswith("k"):
        await plan_panel(interaction, game_id, f"k{read_kind(value[1:])}", None)
    elif step.startswith("k"):
        kind = read_kind(step[1:])
        limit = read_limit(kind, read_number(value))
        await plan_panel(interaction, game_id, f"r{kind}-{limit}", None)
    elif step.startswith("r"):
        head, _, number = step.partition("-")
        kind = read_kind(head[1:])
        limit = read_limit(kind, read_number(number))
        place = None if value == "later" else read_place(locale, value)
        rule = PlanRule.of_type(kind, limit, place)
        await plan_panel(interaction, game_id, "m", lambda p, _: replace(p, rules=(*p.rules, rule)))
    elif step == "m" and (tile := step_number(value, "t")) is not None:
        await plan_panel(interaction, game_id, f"p{read_tile(locale, str(tile))}", None)
    elif step.startswith("p") and (tile := step_number(step, "p")) is not None:
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


async def plan_panel(
    interaction: discord.Interaction,
    game_id: int,
    step: str,
    change: PlanChange | None,
    *,
    new: bool = False,
) -> None:
    """Draw the panel at `step` for the player's plan, after `change` if given (applied where
    the plan is read and written, `Play.change_plan`); `new`: as a new private message
    (from a button elsewhere), else in place of the panel."""
    locale = user_locale(interaction)
    services = bot_of(interaction).services
    if change is None:
        viewed, plan = await services.play.plan(game_id, interaction.user.id, to_change=True)
        here(interaction, viewed.game)
    else:
        # the game must be this channel's before anything changes (`here` refuses otherwise)
        here(interaction, await services.lobby.game(game_id))
        viewed, plan = await services.play.change_plan(game_id, interaction.user.id, change)
    assert viewed.seat is not None
    spec = plan_panel_spec(locale, game_id, step, plan, viewed.view, viewed.seat)
    ui = discord.ui.View(timeout=None)
    if spec.menu is not None:
        menu_step, placeholder, options = spec.menu
        ui.add_item(PlanSelect(game_id, menu_step, placeholder, options))
    for op, label in spec.buttons:
        ui.add_item(PlanButton(game_id, op, label))
    text = bounded(spec.text)
    if new:
        await reply(interaction, text, view=ui)
    else:
        await redraw(interaction, content=text, view=ui)
