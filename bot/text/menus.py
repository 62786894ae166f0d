"""The acting player's private panel as data: menus that offer exactly the legal choices.

A panel is drawn from the player's `SeatView` and a *focus* (which menu is open: `main`,
`take`, `buy`, `buy-2`, `redesign`, `remove`, `build`, `build-37`, `swap`, `swap-37`,
`place-37`; a `~N` suffix is a page). Every option's value is either `a<i>` (do legal action i
of the view's version) or `f<focus>` (open another menu), and every component's custom id
carries the game id and that version, so the components keep working after a restart and a
click on an outdated panel changes nothing. Menus with more than 25 choices are paged: no legal
choice is ever dropped.

The model knows no Discord: buttons carry a neutral `Tone` that the Discord adapter maps to its
button styles and the terminal game ignores, so both show the same menus.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

import render
from engine import (
    TILES,
    Action,
    Buy,
    EndTurn,
    GiveToDirk,
    Pass,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    SeatView,
    Swap,
    TakeMoney,
    Undo,
    has_exact_payment,
)

from . import i18n
from .present import action_label, building_name, currency_name, money_lines, the_building

SELECT_MAX = 25
PAGE = 23  # leaves room for "previous" and "more" in one select
Mode = Literal["place", "swap", "remove"]


class Tone(Enum):
    """How much a button stands out: the main choices, a neutral one, going on, taking back."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    SUCCESS = "success"
    DANGER = "danger"


@dataclass(frozen=True)
class Choice:
    """A panel value read back: act on legal action `index` of the panel's version, or open the
    menu `focus`. Values are `a<index>` and `f<focus>`, exactly as the panel writes them: an
    index of 1 to 3 ASCII digits without leading zeros, a focus of at most 40 characters among
    `a-z`, `0-9`, `-` and `~`. Anything else (a forged value) is not a choice."""

    index: int | None = None
    focus: str | None = None

    @classmethod
    def parse(cls, value: object) -> Choice | None:
        if not isinstance(value, str):
            return None
        if m := _ACT.fullmatch(value):
            return cls(index=int(m[1]))
        if m := _OPEN.fullmatch(value):
            return cls(focus=m[1])
        return None


#: A number as the panel writes it: ASCII, no leading zero, at most 3 digits (`\d` would also
#: match digits `int` reads slowly or not at all).
_NUMBER = r"(0|[1-9][0-9]{0,2})"
_ACT = re.compile(rf"a{_NUMBER}", re.ASCII)
_OPEN = re.compile(r"f([a-z0-9~-]{1,40})", re.ASCII)
_BUY_SLOT = re.compile(r"buy-([0-9])", re.ASCII)
_RESERVE_TILE = re.compile(rf"(build|swap)-{_NUMBER}", re.ASCII)
_PLACE_TILE = re.compile(rf"place-{_NUMBER}", re.ASCII)
_PAGE = re.compile(_NUMBER, re.ASCII)


@dataclass
class Option:
    label: str
    value: str
    description: str | None = None


@dataclass
class PanelSpec:
    """What to show: text, maybe a picture of the Alhambra, buttons and one or two menus."""

    focus: str
    text: str
    buttons: list[tuple[str, str, Tone]] = field(default_factory=list)
    menus: list[tuple[str, str, list[Option]]] = field(default_factory=list)  # (id, hint, opts)
    picture: tuple[int | None, Mode] | None = None  # (tile to place, mode)
    #: the panel is about money: it shows the player's hand (picture and totals)
    money: bool = False


def _indexed(view: SeatView) -> list[tuple[int, Action]]:
    return list(enumerate(view.legal))


def _page(focus: str) -> tuple[str, int]:
    """A focus's menu and page ("take~2" -> ("take", 2)); the first page if it has none or one
    that is not a number as the panel writes it."""
    base, _, page = focus.partition("~")
    return base, int(page) if _PAGE.fullmatch(page) else 0


def _paged(locale: str, focus: str, options: list[Option]) -> list[Option]:
    base, page = _page(focus)
    if len(options) <= SELECT_MAX:
        return options
    pages = max(1, -(-len(options) // PAGE))
    page = min(page, pages - 1)
    chunk = options[page * PAGE : (page + 1) * PAGE]
    out = []
    if page > 0:
        out.append(Option(i18n.t(locale, "button.previous"), f"f{base}~{page - 1}"))
    out += chunk
    if page < pages - 1:
        more = len(options) - (page + 1) * PAGE
        out.append(
            Option(
                i18n.t(locale, "button.more"),
                f"f{base}~{page + 1}",
                i18n.t(locale, "panel.count", count=more),
            )
        )
    return out


def default_focus(view: SeatView) -> str:
    if view.phase == "place" and view.pending:
        return f"place-{view.pending[0]}"
    return "main"


#: the panels about money: they show the player's money, and those about buying the market
_MONEY_FOCUS = {"main": True, "take": False, "buy": True}
#: why a choice asked for from the turn message is not there (said instead of another menu)
_MISSING = {"take": "panel.no_take", "buy": "panel.no_buy", "redesign": "panel.no_redesign"}


#: The panel value of the Hint button (an answer of its own: the panel stays as it is).
HINT_FOCUS = "hint"


def build_panel(
    view: SeatView,
    locale: str,
    focus: str,
    *,
    ends: str | None = None,
    hint: bool = False,
    did: Sequence[str] = (),
) -> PanelSpec:
    """The panel for `focus`, or for the current decision if that focus no longer applies
    (saying why, when the player asked for a choice they do not have). Panels about money
    start with the player's own money, so a normal turn needs no look at the hand first.

    `ends`: the turn waits for its confirmation until then (a time as the reader's client
    shows it), when it ends by itself; the panel says so and offers Undo and End turn now.
    `hint`: the game allows hints (it is not rated): the main menu offers a Hint button.
    `did`: what the turn did, in words: a held turn says it above its countdown, so a player
    who mis-tapped sees it while Undo still helps."""
    spec = _build(view, locale, focus)
    if spec is not None and ends is not None and view.phase == "confirm":
        held = i18n.t(locale, "panel.held", when=ends)
        spec.text = "\n".join([i18n.t(locale, "panel.held_did"), *did, held]) if did else held
        done = i18n.t(locale, "action.end_turn")
        spec.buttons = [
            (i18n.t(locale, "action.end_turn_now") if label == done else label, value, tone)
            for label, value, tone in spec.buttons
        ]
    if spec is None:
        spec = _build(view, locale, default_focus(view)) or _confirm(view, locale)
        base = _page(focus)[0]
        if base in _MISSING and view.phase == "action":
            spec.text = f"{i18n.t(locale, _MISSING[base])}\n{spec.text}"
    base = _page(spec.focus)[0]
    if hint and base == "main" and view.phase == "action":
        spec.buttons.append((i18n.t(locale, "button.hint"), f"f{HINT_FOCUS}", Tone.SECONDARY))
    market = _MONEY_FOCUS.get("buy" if _BUY_SLOT.fullmatch(base) else base)
    if market is not None and view.phase == "action":
        spec.text = "\n".join([spec.text, *money_lines(locale, view, market=market)])
        spec.money = True
    return spec


def _common_buttons(view: SeatView, locale: str, spec: PanelSpec, back: bool) -> None:
    legal = _indexed(view)
    if back:
        spec.buttons.append((i18n.t(locale, "button.back"), "fmain", Tone.SECONDARY))
    for i, a in legal:
        if isinstance(a, Undo):
            spec.buttons.append((i18n.t(locale, "action.undo"), f"a{i}", Tone.DANGER))


def _confirm(view: SeatView, locale: str) -> PanelSpec:
    spec = PanelSpec("main", i18n.t(locale, "panel.confirm"))
    for i, a in _indexed(view):
        if isinstance(a, EndTurn):
            spec.buttons.append((i18n.t(locale, "action.end_turn"), f"a{i}", Tone.SUCCESS))
    _common_buttons(view, locale, spec, back=False)
    return spec


def _build(view: SeatView, locale: str, focus: str) -> PanelSpec | None:
    legal = _indexed(view)
    base, _ = _page(focus)
    t = i18n.t
    if view.phase == "confirm":
        return _confirm(view, locale)
    pending_places = [
        (i, a) for i, a in legal if isinstance(a, Place | PlaceInReserve | GiveToDirk)
    ]
    if view.phase == "place" and not base.startswith("place-"):
        return None
    if base == "main":
        if view.phase != "action":
            return None
        text = t(locale, "panel.extra") if view.actions_this_turn else t(locale, "panel.choose")
        spec = PanelSpec("main", text)
        kinds = {type(a) for _, a in legal}
        if TakeMoney in kinds:
            spec.buttons.append((t(locale, "button.take"), "ftake", Tone.PRIMARY))
        if Buy in kinds:
            spec.buttons.append((t(locale, "button.buy"), "fbuy", Tone.PRIMARY))
        if kinds & {RemoveToReserve, PlaceFromReserve, Swap}:
            spec.buttons.append((t(locale, "button.redesign"), "fredesign", Tone.PRIMARY))
        if pending_places:
            spec.buttons.append(
                (
                    t(locale, "button.place"),
                    f"fplace-{view.pending[0]}",
                    Tone.SUCCESS,
                )
            )
        for i, a in legal:
            if isinstance(a, Pass):
                spec.buttons.append((t(locale, "action.pass"), f"a{i}", Tone.SECONDARY))
        _common_buttons(view, locale, spec, back=False)
        return spec
    if view.phase != "action" and not base.startswith("place-"):
        return None
    if base == "take":
        options = [
            Option(action_label(locale, a, view), f"a{i}")
            for i, a in legal
            if isinstance(a, TakeMoney)
        ]
        return _menu(view, locale, focus, t(locale, "panel.take"), options, hint="take")
    if base == "buy":
        slots = sorted({a.slot for _, a in legal if isinstance(a, Buy)})
        if not slots:
            return None
        if len(slots) == 1:
            return _build(view, locale, f"buy-{slots[0]}")
        options = []
        for slot in slots:
            tile = view.market[slot]
            assert tile is not None
            exact = has_exact_payment(view.hand, slot, TILES[tile].cost)
            options.append(
                Option(
                    t(
                        locale,
                        "panel.slot",
                        currency=currency_name(locale, slot),
                        building=building_name(locale, tile),
                    ),
                    f"fbuy-{slot}",
                    t(locale, "panel.slot_hint_exact" if exact else "panel.slot_hint"),
                )
            )
        return _menu(view, locale, focus, t(locale, "panel.buy"), options, hint="buy")
    if m := _BUY_SLOT.fullmatch(base):
        slot = int(m[1])
        options = [
            Option(action_label(locale, a, view), f"a{i}")
            for i, a in legal
            if isinstance(a, Buy) and a.slot == slot
        ]
        tile = view.market[slot] if slot < len(view.market) else None
        if not options or tile is None:
            return None
        text = t(locale, "panel.buy_slot", building=the_building(locale, tile))
        return _menu(view, locale, focus, text, options, hint="pay")
    if base == "redesign":
        options = []
        for kind, cls in (("remove", RemoveToReserve), ("build", PlaceFromReserve), ("swap", Swap)):
            count = sum(1 for _, a in legal if isinstance(a, cls))
            if count:
                options.append(
                    Option(
                        t(locale, f"panel.redesign.{kind}"),
                        f"f{kind}",
                        t(locale, "panel.count", count=count),
                    )
                )
        if not options:
            return None
        return _menu(view, locale, focus, t(locale, "panel.redesign"), options, hint="redesign")
    if base == "remove":
        options = [
            Option(action_label(locale, a, view), f"a{i}")
            for i, a in legal
            if isinstance(a, RemoveToReserve)
        ]
        menu = _menu(view, locale, focus, t(locale, "panel.remove"), options, hint="remove")
        if menu is not None:
            menu.picture = (None, "remove")
        return menu
    if base in ("build", "swap"):
        cls = PlaceFromReserve if base == "build" else Swap
        tiles = sorted({a.tile for _, a in legal if isinstance(a, cls)})
        if not tiles:
            return None
        if len(tiles) == 1:
            return _build(view, locale, f"{base}-{tiles[0]}")
        options = [Option(building_name(locale, tile), f"f{base}-{tile}") for tile in tiles]
        return _menu(view, locale, focus, t(locale, "panel.pick_reserve"), options, hint="reserve")
    if m := _RESERVE_TILE.fullmatch(base):
        cls = PlaceFromReserve if m[1] == "build" else Swap
        tile = int(m[2])
        options = [
            Option(action_label(locale, a, view), f"a{i}")
            for i, a in legal
            if isinstance(a, cls) and a.tile == tile
        ]
        if not options:  # not a tile of the reserve now (a stale or forged focus)
            return None
        key = "panel.build" if m[1] == "build" else "panel.swap"
        text = t(locale, key, building=the_building(locale, tile))
        hint = "cell" if m[1] == "build" else "swap"
        menu = _menu(view, locale, focus, text, options, hint=hint)
        if menu is not None:
            menu.picture = (tile, "place" if m[1] == "build" else "swap")
        return menu
    if m := _PLACE_TILE.fullmatch(base):
        tile = int(m[1])
        options = [
            Option(action_label(locale, a, view), f"a{i}")
            for i, a in pending_places
            if a.tile == tile
        ]
        if not options:
            return None
        # a cell or the reserve; and Dirk, with three players, but not in the final placement
        dirk = view.dirk is not None and not view.final_placement
        key = "panel.place_or_dirk" if dirk else "panel.place_or_reserve"
        text = t(locale, key, building=the_building(locale, tile))
        menu = _menu(view, locale, focus, text, options, back=view.phase == "action", hint="cell")
        assert menu is not None
        menu.picture = (tile, "place")
        others = sorted(set(view.pending) - {tile})
        if others:
            menu.menus.insert(
                0,
                (
                    "pick",
                    t(locale, "panel.pick_pending"),
                    [Option(building_name(locale, tile), f"fplace-{tile}")]
                    + [Option(building_name(locale, o), f"fplace-{o}") for o in others],
                ),
            )
        return menu
    return None


def _menu(
    view: SeatView,
    locale: str,
    focus: str,
    text: str,
    options: list[Option],
    back: bool = True,
    *,
    hint: str,
) -> PanelSpec | None:
    """A panel of one menu: `text` is the question above it, `hint` names the menu's short
    placeholder (`menu.hint.<hint>`: "Money to take"), which a phone shows on one line (the
    question again would be cut)."""
    if not options:
        return None
    target = Choice.parse(options[0].value) if len(options) == 1 else None
    onward = target.focus if target is not None else None
    if onward is not None and _page(onward)[0] != _page(focus)[0]:
        # one way on, and taking it changes nothing: no click for it, said in the panel
        following = _build(view, locale, onward)
        if following is not None:
            taken = i18n.t(locale, "panel.forced", choice=options[0].label)
            following.text = f"{taken}\n{following.text}"
            return following
    spec = PanelSpec(focus, text)
    placeholder = i18n.t(locale, f"menu.hint.{hint}")
    spec.menus.append((_page(focus)[0], placeholder, _paged(locale, focus, options)))
    _common_buttons(view, locale, spec, back=back)
    return spec


def panel_picture(view: SeatView, spec: PanelSpec, name: str, locale: str) -> bytes | None:
    """The picture a panel shows (the Alhambra with the legal cells labelled), if its choice is
    about cells. CPU-bound: callers on an event loop run it in a worker."""
    if spec.picture is None or view.seat is None:
        return None
    tile, mode = spec.picture
    return render.render_alhambra(
        view, view.seat, name=name, placing=tile, mode=mode, labels=i18n.image_labels(locale)
    )
