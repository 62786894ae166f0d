"""The plan panel in words and menus, as data: what `/alhambra-plan`'s private panel says and
offers at each step, and the parsing of what players type or pick, shared by the commands and
the panel. The Discord adapter (`discord_app.plan_panel`) draws it, as it draws the turn panel
from `text.menus`.

The panel's menu is at one step: `m` (what to add: a building of the market, or what to do
otherwise), `p<tile>` (which cards of the hand pay for it), `q<tile>-<payment>` (where it
goes). Every step is drawn from the player's own view; every change is checked again where it
is saved (`change_plan`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import render
from engine import CARDS, TILES, Building, SeatView, minimal_payments

from ..core.errors import BadCode, PlanRefused
from ..core.plans import MAX_LIMIT, MIN_LIMIT, Otherwise, Placement, Plan, cheapest_of
from . import i18n
from .menus import Option
from .plans import plan_lines, type_name
from .present import (
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

#: Discord shows at most this many options in a menu (or autocomplete choices)
MAX_CHOICES = 25
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


def read_buy(locale: str, text: str) -> int | tuple[int]:
    """What `buy` names: a building by its catalogue number, or a building type by its name
    (English, as the autocomplete fills it in, or in the user's language) as `(type,)`."""
    word = str(text).strip()
    if read_number(word) is not None:
        return read_tile(locale, word)
    lowered = word.casefold()
    for kind in Building:
        if lowered in (kind.label, type_name(locale, kind).casefold()):
            return (int(kind),)
    raise PlanRefused(variant="bad_type")


def read_limit(kind: int, limit: object) -> int:
    """A type rule's price limit, a whole number in range (a normal client sends nothing
    else: a forged one of another kind is refused as out of range)."""
    if limit is None:
        raise PlanRefused(variant="needs_limit")
    low = max(MIN_LIMIT, cheapest_of(kind))
    if isinstance(limit, bool) or not isinstance(limit, int) or not low <= limit <= MAX_LIMIT:
        raise PlanRefused(variant="bad_limit", low=low, high=MAX_LIMIT)
    return limit


def limit_choices(kind: int) -> list[int]:
    """The limits the panel offers for a type: each price of that type's buildings, and a
    few more to pay over the price."""
    prices = sorted({t.cost for t in TILES[1:] if t.building is not None and t.building == kind})
    return [n for n in range(prices[0], min(prices[-1] + 4, MAX_LIMIT) + 1)][: MAX_CHOICES - 1]


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


#: a menu of the panel: the step it is at, its placeholder, its options
Menu = tuple[str, str, list[Option]]


@dataclass
class PlanPanel:
    """What the plan panel shows at a step: its text, its one menu (if any) and its buttons
    (`drop`, `cancel`, `back`, each with its label)."""

    text: str
    menu: Menu | None = None
    buttons: list[tuple[str, str]] = field(default_factory=list)


def plan_panel_spec(
    locale: str, game_id: int, step: str, plan: Plan, view: SeatView, seat: int
) -> PlanPanel:
    """The panel at `step` of `seat`'s plan for game `game_id`, from their own view."""
    # the plan so far above the menu; before a first rule, only the question being asked
    empty = not plan.rules and plan.otherwise == "wait"
    lines = [] if empty and step != "m" else plan_lines(locale, game_id, plan)
    menu: Menu | None = None
    buttons: list[tuple[str, str]] = []
    if step == "m":
        options = [
            Option(
                label=i18n.t(
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
            Option(i18n.t(locale, "plan.panel.type_option", type=type_name(locale, k)), f"k{k}")
            for k in range(len(Building))
        ]
        options += [
            Option(i18n.t(locale, "plan.otherwise_wait"), value="ow"),
            Option(i18n.t(locale, "plan.otherwise_most"), value="om"),
        ]
        menu = ("m", i18n.t(locale, "plan.panel.add"), options)
        if plan.rules:
            buttons.append(("drop", i18n.t(locale, "button.plan_drop")))
        if not plan.empty:
            keep = "once" if plan.standing else "keep"
            buttons.append((keep, i18n.t(locale, f"button.plan_{keep}")))
            buttons.append(("cancel", i18n.t(locale, "button.plan_cancel")))
    elif step.startswith("k"):
        kind = read_kind(step[1:])
        lines.append(i18n.t(locale, "plan.panel.limit", type=type_name(locale, kind)))
        choices = [
            Option(i18n.t(locale, "plan.panel.limit_option", limit=n), value=str(n))
            for n in limit_choices(kind)
        ]
        choices.append(Option(i18n.t(locale, "button.back"), value="back"))
        menu = (step, i18n.t(locale, "plan.panel.limit_menu"), choices)
    elif step.startswith("r"):
        head, _, number = step.partition("-")
        kind = read_kind(head[1:])
        limit = read_limit(kind, read_number(number))
        lines.append(
            i18n.t(locale, "plan.panel.type_place", type=type_name(locale, kind), limit=limit)
        )
        choices = [
            Option(i18n.t(locale, "plan.place_reserve"), value="reserve"),
            Option(i18n.t(locale, "plan.place_later"), value="later"),
            Option(i18n.t(locale, "button.back"), value="back"),
        ]
        menu = (step, i18n.t(locale, "plan.panel.place_menu"), choices)
    elif step.startswith("p"):
        tile = read_tile(locale, step[1:])
        if tile not in view.market:
            raise PlanRefused(variant="bad_building")
        slot = view.market.index(tile)
        pays = minimal_payments(view.hand, slot, TILES[tile].cost)
        choices = [
            Option(cards_text(locale, cards), value=money_code(cards))
            for cards in pays[: MAX_CHOICES - 1]
        ]
        lines.append(i18n.t(locale, "plan.panel.pay", building=the_building(locale, tile)))
        if choices:
            menu = (step, i18n.t(locale, "plan.panel.pay_menu"), choices)
        else:
            lines.append(i18n.t(locale, "plan.panel.cannot_pay"))
            buttons.append(("back", i18n.t(locale, "button.back")))
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
            Option(i18n.t(locale, "plan.place_reserve"), value="reserve"),
            Option(i18n.t(locale, "plan.place_later"), value="later"),
        ]
        choices += [
            Option(
                label=i18n.t(locale, "plan.place_at", cell=cell_text(x, y)), value=cell_text(x, y)
            )
            for x, y in view.alhambra(seat).legal_cells(tile)[: MAX_CHOICES - 3]
        ]
        choices.append(Option(i18n.t(locale, "button.back"), value="back"))
        lines.append(
            i18n.t(
                locale,
                "plan.panel.place",
                building=the_building(locale, tile),
                cards=cards_text(locale, cards),
            )
        )
        menu = (step, i18n.t(locale, "plan.panel.place_menu"), choices)
    return PlanPanel("\n".join(lines), menu, buttons)


def read_kind(text: str) -> int:
    """A building type by its number (0..5), as the panel's steps carry it."""
    number = read_number(str(text).strip())
    if number is None or not 0 <= number < len(Building):
        raise PlanRefused(variant="bad_type")
    return number


def step_number(text: str, prefix: str) -> int | None:
    """The number after a step's (or a value's) prefix: `p12` is 12 for `p`."""
    return read_number(text[len(prefix) :]) if text.startswith(prefix) else None
