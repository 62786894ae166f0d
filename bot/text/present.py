"""Words for the game: actions as menu labels and typed codes, turns as short summaries.

Pure functions over engine objects and the catalogue (no discord), so the bot, the slash
commands' autocomplete and the offline mode describe the game in the same words.

Typed codes are what a player may type into a slash command and what autocomplete fills in:
money as currency + value joined by "+" ("CR5+DH2"), cells as on the pictures ("N13"), and
"reserve" / "dirk" as placement targets. They are the same in every language.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from engine import (
    CARDS,
    SCORING_TABLE,
    TILES,
    Action,
    Building,
    BuildingBought,
    BuildingPlaced,
    BuildingRemoved,
    BuildingReserved,
    BuildingsSwapped,
    BuiltFromReserve,
    Buy,
    Currency,
    DirkDrew,
    EndTurn,
    Event,
    GameStarted,
    GivenToDirk,
    GiveToDirk,
    MarketDistributed,
    MarketRefilled,
    MoneyTaken,
    Pass,
    Passed,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    PoolRefilled,
    RemoveToReserve,
    ScoringHeld,
    SeatView,
    Skipped,
    Swap,
    TakeMoney,
    Undo,
    has_exact_payment,
    majority_points,
    scoring_now,
)
from engine.ai import Advice, Reason
from engine.ai.review import Review
from render import cell_code

from ..core.errors import ServiceError, Typed
from ..core.records import GameInfo, SeatInfo
from ..core.results import GameLog, LoggedTurn
from . import i18n

#: How many lines of "since your last turn" a turn DM carries.
SUMMARY_LINES = 20

#: Currency abbreviations for typed codes, in `Currency` order.
CURRENCY_CODES: tuple[str, ...] = ("CR", "DH", "DN", "DU")
_CURRENCY_WORDS = {
    **{code: i for i, code in enumerate(CURRENCY_CODES)},
    **{c.label.upper(): int(c) for c in Currency},
    "C": 0,
    "DIR": 1,
    "DIN": 2,
    "DUC": 3,
}


class CodeError(ValueError):
    """A typed code that cannot be read; the message says what was expected."""


# --- a user's own words, repeated -------------------------------------------------------------

#: How many characters of a user's own text a message repeats back.
ECHO_LIMIT = 40
#: Discord markup that works anywhere in a line (and the backslash that escapes it).
_MARKUP = re.compile(r"[\\`*_~|\[\]<>]")
#: Markup that works only at the start of a line (headings, lists).
_LINE_START = ("#", "-")


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """A user's text made safe to repeat in a message: on one line, without invisible controls,
    at most `limit` characters (cut with "…"), Discord's markup escaped so it shows as typed
    and formats nothing around it, and a zero-width space after every "@" so it mentions and
    pings no one. The result is at most twice `limit` characters, escapes included.

    For refusals that repeat what was typed: a 6,000-character option must not push the reply
    over Discord's 2,000 characters. Pure text, no discord import (the adapter uses it too).
    """
    limit = max(1, limit)
    try:
        raw = text if isinstance(text, str) else str(text)
    except Exception:  # an object whose str() fails: name its type rather than fail
        raw = type(text).__name__
    head = raw[: 4 * limit + 64]  # enough to fill `limit` after spaces and controls go
    words = " ".join("".join(_shown(ch) for ch in head).split())
    if len(words) > limit or len(head) < len(raw):
        words = words[: limit - 1].rstrip() + "…"
    escaped = _MARKUP.sub(lambda m: "\\" + m[0], words)
    if escaped.startswith(_LINE_START):
        escaped = "\\" + escaped
    return escaped.replace("@", "@\u200b")


def _shown(ch: str) -> str:
    if ch.isspace():
        return " "
    kind = unicodedata.category(ch)
    if kind == "Cs":  # a lone surrogate cannot be sent as UTF-8
        return "\ufffd"
    return "" if kind in ("Cc", "Cf") else ch


# --- players ---------------------------------------------------------------------------------


def player_name(locale: str, seat: SeatInfo) -> str:
    """A player's name as readers see it: a person's as typed; a computer player's with its
    level once, in the reader's language. The stored name of a computer seat carries its level
    in English ("Bot Zaida (normal)", `engine.ai.display_name`): it becomes "Bot Zaida (normal)",
    "Bot Zaida (médio)" or the Japanese equivalent."""
    if not seat.is_computer or seat.level is None:
        return seat.name
    bare = computer_name(seat)
    if bare == seat.name:  # a name of its own (a seat handed over keeps its player's)
        return seat.name
    return i18n.t(locale, "name.computer", name=bare, level=level_name(locale, seat.level))


def computer_name(seat: SeatInfo) -> str:
    """A computer player's name without the level its stored name ends with."""
    suffix = f" ({seat.level})"
    if seat.is_computer and seat.level and seat.name.endswith(suffix) and seat.name != suffix:
        return seat.name[: -len(suffix)]
    return seat.name


def level_name(locale: str, level: str) -> str:
    """A computer player's level in a word of `locale` ("normal", "médio")."""
    key = f"level.{level}"
    return i18n.t(locale, key) if i18n.has(key) else level


def player_names(locale: str, game: GameInfo) -> list[str]:
    """Every player's name (`player_name`) in turn order, once the game has started: what
    the sentences and pictures of the game call them."""
    seated = sorted((s for s in game.seats if s.seat is not None), key=lambda s: s.seat or 0)
    return [player_name(locale, s) for s in seated]


# --- names -----------------------------------------------------------------------------------


def currency_name(locale: str, currency: int) -> str:
    return i18n.t(locale, f"currency.{Currency(currency).label}")


def building_name(locale: str, tile: int) -> str:
    """'Garden (8)': the type in the player's language and the cost."""
    t = TILES[tile]
    assert t.building is not None
    return i18n.t(locale, "building.with_cost", name=building_type(locale, tile), cost=t.cost)


def the_building(locale: str, tile: int) -> str:
    """'the Tower (11)', 'a Torre (11)': a building named in a sentence, with the article its
    name takes in the language (`building.<type>.the` in the catalogue: Portuguese names are
    feminine or masculine, singular or plural; Japanese has no article). Sentences are written
    around it so that no preposition has to merge with the article, nor a verb agree with it."""
    t = TILES[tile]
    assert t.building is not None
    name = i18n.t(locale, f"building.{t.building.label}.the")
    return i18n.t(locale, "building.with_cost", name=name, cost=t.cost)


def building_type(locale: str, tile: int) -> str:
    t = TILES[tile]
    assert t.building is not None
    return i18n.t(locale, f"building.{t.building.label}")


def money_lines(locale: str, view: SeatView, *, market: bool) -> list[str]:
    """A player's own money where they decide: the total per currency and, with `market`,
    what each market slot asks of them (enough, short by how much, an exact payment)."""
    if view.seat is None:
        return []
    totals = [0, 0, 0, 0]
    for card in view.hand:
        totals[int(CARDS[card].currency)] += CARDS[card].value
    if view.hand:
        shown = i18n.join(
            locale,
            (
                i18n.t(locale, "card.name", currency=currency_name(locale, c), value=totals[c])
                for c in range(4)
                if totals[c]
            ),
        )
        lines = [i18n.t(locale, "panel.money", totals=shown, count=len(view.hand))]
    else:
        lines = [i18n.t(locale, "panel.money_none")]
    if market:
        for slot, tile in enumerate(view.market):
            if tile is None:
                continue
            cost, have = TILES[tile].cost, totals[slot]
            words = {
                "currency": currency_name(locale, slot),
                "building": building_name(locale, tile),
                "have": have,
            }
            if has_exact_payment(view.hand, slot, cost):
                lines.append(i18n.t(locale, "panel.market_exact", **words))
            elif have >= cost:
                lines.append(i18n.t(locale, "panel.market_can", **words))
            else:
                lines.append(i18n.t(locale, "panel.market_short", short=cost - have, **words))
    return lines


def table_lines(locale: str, view: SeatView) -> list[str]:
    """The market and the money pool in two lines: what a player plans their turn from, readable
    in the turn message without opening the picture (which a phone shows small)."""
    slots = [
        i18n.t(locale, "panel.slot", currency=currency_name(locale, slot), building=name)
        for slot, tile in enumerate(view.market)
        for name in [building_name(locale, tile) if tile is not None else "—"]
    ]
    pool = sorted(view.pool, key=lambda c: (CARDS[c].currency, CARDS[c].value))
    cards = i18n.join(locale, [card_name(locale, c) for c in pool]) if pool else "—"
    return [
        i18n.t(locale, "turn.market", slots=i18n.t(locale, "turn.separator").join(slots)),
        i18n.t(locale, "turn.pool", cards=cards),
    ]


def card_name(locale: str, card: int) -> str:
    """'Dinar 8' ('ディナール8' in Japanese, which puts no space next to its own script)."""
    c = CARDS[card]
    return i18n.t(
        locale, "card.name", currency=currency_name(locale, int(c.currency)), value=c.value
    )


def cards_text(locale: str, cards: Sequence[int]) -> str:
    plus = i18n.t(locale, "card.plus")
    return plus.join(card_name(locale, c) for c in sorted(cards, key=_card_order))


def _card_order(card: int) -> tuple[int, int]:
    return CARDS[card].currency, -CARDS[card].value


def cell_text(x: int, y: int) -> str:
    try:
        return cell_code(x, y)
    except ValueError:
        return f"({x}, {y})"


# --- typed codes -----------------------------------------------------------------------------


def money_code(cards: Sequence[int]) -> str:
    return "+".join(
        f"{CURRENCY_CODES[CARDS[c].currency]}{CARDS[c].value}"
        for c in sorted(cards, key=_card_order)
    )


#: Digits a typed number may have: enough for any value in the game, few enough for int().
MAX_DIGITS = 3


def read_number(text: str) -> int | None:
    """The value of a typed number of ASCII digits (at most `MAX_DIGITS`), or None. Digits
    `str.isdigit` accepts but Python cannot read ("²") or would read slowly (thousands) are
    not numbers here."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None


def parse_money(code: object) -> list[tuple[int, int]]:
    """'CR5+dh2' -> [(0, 5), (1, 2)]: (currency, value) pairs. CodeError for anything else,
    including an option that is not text at all."""
    if not isinstance(code, str) or not code.strip():
        raise CodeError("money is written like CR5+DH2 (currency then value, joined by +)")
    pairs = []
    parts = [p.strip() for p in code.replace(",", "+").split("+")]
    if not all(parts):
        raise CodeError("money is written like CR5+DH2 (currency then value, joined by +)")
    for part in parts:
        word = part.rstrip("0123456789").strip().upper()
        value = read_number(part[len(part.rstrip("0123456789")) :])
        if word not in _CURRENCY_WORDS or value is None or not 1 <= value <= 9:
            raise CodeError(
                f"'{echo(part)}' is not a money card: write CR, DH, DN or DU followed by 1 to 9"
            )
        pairs.append((_CURRENCY_WORDS[word], value))
    return pairs


def pick_cards(pairs: list[tuple[int, int]], among: Sequence[int]) -> list[int] | None:
    """Card ids from `among` matching the (currency, value) pairs; None if some are missing."""
    free = sorted(among)
    chosen = []
    for currency, value in pairs:
        card = next(
            (c for c in free if CARDS[c].currency == currency and CARDS[c].value == value), None
        )
        if card is None:
            return None
        free.remove(card)
        chosen.append(card)
    return chosen


def action_code(action: Action) -> str:
    """The typed form of an action, as the slash commands accept it."""
    if isinstance(action, TakeMoney | Buy):
        return money_code(action.cards)
    if isinstance(action, Place):
        return cell_text(action.x, action.y)
    if isinstance(action, PlaceInReserve):
        return "reserve"
    if isinstance(action, GiveToDirk):
        return "dirk"
    if isinstance(action, RemoveToReserve | PlaceFromReserve | Swap):
        return cell_text(action.x, action.y)
    return action.kind


# --- actions as labels -----------------------------------------------------------------------


def action_label(locale: str, action: Action, view: SeatView) -> str:
    """What a menu option or an autocomplete choice says for an action."""
    t = i18n.t
    if isinstance(action, TakeMoney):
        total = sum(CARDS[c].value for c in action.cards)
        return t(locale, "action.take", cards=cards_text(locale, action.cards), total=total)
    if isinstance(action, Buy):
        tile = view.market[action.slot]
        assert tile is not None
        paid = sum(CARDS[c].value for c in action.cards)
        key = "action.buy_exact" if paid == TILES[tile].cost else "action.buy"
        return t(
            locale,
            key,
            building=building_name(locale, tile),
            cards=cards_text(locale, action.cards),
            paid=paid,
        )
    if isinstance(action, Place):
        return t(
            locale,
            "action.place",
            building=building_name(locale, action.tile),
            cell=cell_text(action.x, action.y),
        )
    if isinstance(action, PlaceInReserve):
        return t(locale, "action.reserve", building=building_name(locale, action.tile))
    if isinstance(action, GiveToDirk):
        return t(locale, "action.dirk", building=the_building(locale, action.tile))
    if isinstance(action, RemoveToReserve):
        tile = _tile_at(view, action.x, action.y)
        return t(
            locale,
            "action.remove",
            building=the_building(locale, tile),
            cell=cell_text(action.x, action.y),
        )
    if isinstance(action, PlaceFromReserve):
        return t(
            locale,
            "action.build",
            building=the_building(locale, action.tile),
            cell=cell_text(action.x, action.y),
        )
    if isinstance(action, Swap):
        return t(
            locale,
            "action.swap",
            building=the_building(locale, action.tile),
            other=the_building(locale, _tile_at(view, action.x, action.y)),
            cell=cell_text(action.x, action.y),
        )
    if isinstance(action, Undo):
        return t(locale, "action.undo")
    if isinstance(action, EndTurn):
        return t(locale, "action.end_turn")
    if isinstance(action, Pass):
        return t(locale, "action.pass")
    return action.kind


#: Reason codes whose words count (`_one` / `_other`): their `amount` is the count.
_COUNTED_REASONS = frozenset({"wall", "place_wall", "place_open"})


def reason_text(locale: str, reason: Reason) -> str:
    """The one line saying why a computer level would make a move (`engine.ai.reason_for`):
    `hint.reason.<code>` filled with the building type, the market building or the count."""
    key = f"hint.reason.{reason.code}"
    params: dict[str, object] = {}
    if reason.building is not None and reason.building >= 0:
        params["type"] = i18n.t(locale, f"building.{Building(reason.building).label}")
    if reason.tile is not None:
        params["building"] = the_building(locale, reason.tile)
    if reason.code in _COUNTED_REASONS:
        params["count"] = reason.amount
    if reason.code in ("money_most", "money_later"):
        params["total"] = reason.amount
    if not i18n.has(key) and not i18n.plural_family(key):
        key = "hint.reason.best_value"
    return i18n.t(locale, key, **params)


def hint_text(locale: str, advice: Advice, view: SeatView, used: int) -> str:
    """A hint: the level's move in the panel's words, why, and how many hints were asked."""
    answer = i18n.t(
        locale,
        "hint.answer",
        level=level_name(locale, advice.level),
        action=action_label(locale, advice.action, view),
        reason=reason_text(locale, advice.reason),
    )
    return f"{answer}\n{i18n.t(locale, 'hint.used', count=used)}"


def _tile_at(view: SeatView, x: int, y: int) -> int:
    seat = view.current_seat if view.current_seat is not None else view.seat
    assert seat is not None
    for cx, cy, tile in view.table[seat].alhambra:
        if (cx, cy) == (x, y):
            return tile
    raise KeyError((x, y))


# --- what happened ---------------------------------------------------------------------------


#: The sentence for each kind of step; its placeholders are filled from the event's fields.
_STEP_KEYS: dict[type, str] = {
    MoneyTaken: "log.took",
    BuildingBought: "log.bought",
    BuildingPlaced: "log.placed",
    BuildingReserved: "log.reserved",
    GivenToDirk: "log.dirk",
    BuildingRemoved: "log.removed",
    BuiltFromReserve: "log.built",
    BuildingsSwapped: "log.swapped",
    Passed: "log.passed",
    Skipped: "log.skipped",
}


def step_line(locale: str, event: Event, names: Sequence[str]) -> str | None:
    """One sentence for one step of a turn (None for events that say nothing by themselves)."""
    key = _STEP_KEYS.get(type(event))
    if key is None:
        return None
    if isinstance(event, BuildingBought) and event.exact:
        key = "log.bought_exact"
    seat = getattr(event, "seat", None)
    if not isinstance(seat, int):
        return None
    params: dict[str, str] = {"name": names[seat]}
    if isinstance(tile := getattr(event, "tile", None), int):
        params["building"] = the_building(locale, tile)
    if isinstance(cards := getattr(event, "cards", None), tuple):
        params["cards"] = cards_text(locale, cards)
    x, y = getattr(event, "x", None), getattr(event, "y", None)
    if isinstance(x, int) and isinstance(y, int):
        params["cell"] = cell_text(x, y)
    if isinstance(event, BuildingsSwapped):
        params["other"] = the_building(locale, event.replaced)
    return i18n.t(locale, key, **params)


def turn_summary(
    locale: str, names: Sequence[str], steps: Sequence[Event], end: Sequence[Event]
) -> list[str]:
    """Lines telling the table what a turn did: its steps, then what the refill brought."""
    lines = [line for e in (*steps, *end) if (line := step_line(locale, e, names))]
    drawn: list[int] = []
    market: list[str] = []
    for event in end:
        if isinstance(event, PoolRefilled):
            drawn.extend(event.cards)
        elif isinstance(event, MarketRefilled):
            market.append(building_name(locale, event.tile))
    if drawn or market:
        parts = []
        if drawn:
            parts.append(i18n.t(locale, "log.pool", cards=cards_text(locale, drawn)))
        if market:
            parts.append(i18n.t(locale, "log.market", buildings=i18n.join(locale, market)))
        line = parts[0]
        for part in parts[1:]:
            line = i18n.t(locale, "log.then", first=line, second=part)
        lines.append(line)
    for event in end:
        if isinstance(event, DirkDrew):
            lines.append(i18n.t(locale, "log.dirk_drew", count=len(event.tiles)))
        elif isinstance(event, MarketDistributed):
            building = the_building(locale, event.tile)
            if event.seat is None:
                lines.append(i18n.t(locale, "log.distributed_none", building=building))
            else:
                lines.append(
                    i18n.t(locale, "log.distributed", building=building, name=names[event.seat])
                )
    return lines


def turn_lines(
    locale: str, names: Sequence[str], steps: Sequence[Event], end: Sequence[Event]
) -> list[str]:
    """A finished turn as the table reads it: the summary, then a block per scoring round."""
    lines = turn_summary(locale, names, steps, end)
    for event in end:
        if isinstance(event, ScoringHeld):
            lines += scoring_lines(locale, names, event)
    return lines


def _logged_lines(locale: str, names: Sequence[str], turn: LoggedTurn) -> list[str]:
    return turn_lines(locale, names, turn.steps, turn.end)


def log_paragraphs(locale: str, names: Sequence[str], game_log: GameLog) -> list[str]:
    """Each finished turn as a short headed paragraph (the game log command)."""
    return [
        f"__{i18n.t(locale, 'log.turn', turn=number)}__\n"
        + "\n".join(_logged_lines(locale, names, turn))
        for number, turn in enumerate(game_log.turns(), start=1)
    ]


def start_lines(locale: str, names: Sequence[str], started: GameStarted) -> list[str]:
    """The start of a game as the table reads it: the order of play from the player who
    starts, why they start (RULES.md 2), and everyone's starting money, which is public."""
    seats = len(started.hands)
    order = [(started.start_seat + i) % seats for i in range(seats)]
    lines = [i18n.t(locale, "game.started", order=i18n.join(locale, [names[s] for s in order]))]
    counts = [len(hand) for hand in started.hands]
    totals = [sum(CARDS[c].value for c in hand) for hand in started.hands]
    first = started.start_seat
    name = names[first]
    fewest = [s for s in range(seats) if counts[s] == counts[first]]
    least = [s for s in fewest if totals[s] == totals[first]]
    if len(fewest) == 1:
        lines.append(i18n.t(locale, "game.starts_fewest", name=name, count=counts[first]))
    elif len(least) == 1:
        lines.append(
            i18n.t(locale, "game.starts_least", name=name, count=counts[first], total=totals[first])
        )
    else:
        lines.append(i18n.t(locale, "game.starts_seat", name=name))
    lines.append(i18n.t(locale, "game.starting_money"))
    lines += [f"- {names[s]}: {cards_text(locale, started.hands[s])}" for s in order]
    return lines


#: The words of each kind of step in a turn's one line (`short_lines`).
_SHORT_KEYS: dict[type, str] = {key: f"short.{value[4:]}" for key, value in _STEP_KEYS.items()}


def short_lines(locale: str, names: Sequence[str], turns: Sequence[LoggedTurn]) -> list[str]:
    """What the turn message says of `turns`: one line per turn, its steps without their
    payments ("ana: took Dinar 8, bought the Tower (12), placed the Tower (12) at M12."), and
    what the end of a turn did that the picture does not show (Dirk's draw, the last market).
    The whole story (payments, the pool and the market refilled, scoring rounds) is in
    `told_lines`, one click away: a turn message that fits a phone's screen."""
    out = []
    for turn in turns:
        steps = []
        for event in turn.steps:
            key = _SHORT_KEYS.get(type(event))
            if key is None:
                continue
            if isinstance(event, BuildingBought) and event.exact:
                key = "short.bought_exact"
            if not isinstance(getattr(event, "seat", None), int):
                continue
            params: dict[str, str] = {}
            if isinstance(tile := getattr(event, "tile", None), int):
                params["building"] = the_building(locale, tile)
            if isinstance(cards := getattr(event, "cards", None), tuple):
                params["cards"] = cards_text(locale, cards)
            x, y = getattr(event, "x", None), getattr(event, "y", None)
            if isinstance(x, int) and isinstance(y, int):
                params["cell"] = cell_text(x, y)
            if isinstance(event, BuildingsSwapped):
                params["other"] = the_building(locale, event.replaced)
            steps.append(i18n.t(locale, key, **params))
        if steps and 0 <= turn.seat < len(names):
            out.append(
                i18n.t(locale, "short.turn", name=names[turn.seat], steps=i18n.join(locale, steps))
            )
        for event in turn.end:
            if isinstance(event, DirkDrew | MarketDistributed):
                out += turn_summary(locale, names, [], [event])
    return out[-SUMMARY_LINES:]


#: Buildings in the game: the game ends when the supply cannot fill the market.
BUILDINGS = 54
#: Cells of the progress bar.
PROGRESS_CELLS = 10


def progress_line(locale: str, view: SeatView) -> str:
    """How far the game is, as BGA's progress bar: the buildings left in the supply (the game
    ends when it runs out) and the scoring rounds held; "" once the game is over."""
    if view.is_over:
        return ""
    left = view.supply_size
    done = round(PROGRESS_CELLS * (BUILDINGS - left) / BUILDINGS)
    bar = "▰" * done + "▱" * (PROGRESS_CELLS - done)
    return i18n.t(locale, "turn.progress", bar=bar, count=left, held=len(view.scoring_rounds))


def told_lines(locale: str, names: Sequence[str], turns: Sequence[LoggedTurn]) -> list[str]:
    """What the channel reads about `turns` (see `untold`): each turn's summary, and a block
    per scoring round; the oldest lines are dropped beyond `SUMMARY_LINES`."""
    out = [line for turn in turns for line in _logged_lines(locale, names, turn)]
    return out[-SUMMARY_LINES:]


def pages_of(paragraphs: Sequence[str], limit: int) -> list[str]:
    """The paragraphs in order, packed into as few pages of at most `limit` characters as
    possible, a blank line between two on the same page; a paragraph longer than a page is cut
    with "…". Packed from the first: a page, once full, never changes as paragraphs are added,
    so a page number keeps meaning the same turns while a game goes on. No paragraph, no page."""
    pages: list[str] = []
    current = ""
    for paragraph in paragraphs:
        if len(paragraph) > limit:
            paragraph = paragraph[: limit - 1] + "…"
        if current and len(current) + 2 + len(paragraph) <= limit:
            current += "\n\n" + paragraph
            continue
        if current:
            pages.append(current)
        current = paragraph
    if current:
        pages.append(current)
    return pages


def since_last_turn(locale: str, names: Sequence[str], game_log: GameLog, seat: int) -> list[str]:
    """What the other players did (and any scoring) since `seat` last ended a turn."""
    turns = game_log.turns()
    mine = max((i for i, turn in enumerate(turns) if turn.seat == seat), default=-1)
    out = [line for turn in turns[mine + 1 :] for line in _logged_lines(locale, names, turn)]
    return out[-SUMMARY_LINES:]


#: The longest refusal `error_text` returns: well inside Discord's 2,000 characters.
ERROR_TEXT_LIMIT = 1_000


def error_text(error: ServiceError, locale: str) -> str:
    """What to tell a user who was refused, in their language (English included: every
    language reads the catalogue). Never raises.

    - The catalogue's words for the refusal (`error.key`: its code, or the variant it was
      raised with), filled with the parameters it was raised with: whose turn it is, how many
      players a game takes... A player is named as `player_name` names them for this reader.
    - A refusal raised with words of its own (`error.worded`): kept if they are a filled
      catalogue text of the reader's language (the adapter builds some refusals from the
      catalogue: a code it could not read, a setting, an unknown player), recognised by their
      shape (`i18n.renders`), so an English message is never kept for a Japanese reader.
      Otherwise they are a detail in English the catalogue has no words for: English readers
      get them as they are, others the catalogue's words for the code.
    - A `{reason}` in the catalogue's words is filled with the raiser's words (the rule an
      illegal move broke, the code that could not be read; in English).

    The text is cut at `ERROR_TEXT_LIMIT` characters, a last guard for a message that repeats
    what was typed without `echo`: a reply Discord refuses is no answer at all.
    """
    text = _error_words(error, i18n.normalise(locale))
    if len(text) > ERROR_TEXT_LIMIT:
        text = text[: ERROR_TEXT_LIMIT - 1] + "…"
    return text


def _error_words(error: ServiceError, locale: str) -> str:
    message = error.message if isinstance(error.message, str) and error.message.strip() else ""
    message = message or error.default
    worded = error.worded
    if worded and i18n.renders(locale, message, prefix="error."):
        return message
    key = error.key
    if not i18n.has(key):
        return message
    needs = i18n.placeholders(i18n.catalogue(i18n.DEFAULT)[key])
    params = {name: _param(locale, value) for name, value in error.params.items()}
    if needs == {"reason"} and "reason" not in params:
        return i18n.t(locale, key, reason=message)
    if worded and locale == i18n.DEFAULT:
        return message
    if needs <= set(params):
        return i18n.t(locale, key, **{name: params[name] for name in needs})
    return message


def _param(locale: str, value: object) -> object:
    """A refusal's parameter as its words show it: a player by name in the reader's words,
    what a user typed echoed (clipped, inert)."""
    if isinstance(value, SeatInfo):
        return player_name(locale, value)
    if isinstance(value, Typed):
        return echo(value)
    return value


def scoring_lines(locale: str, names: Sequence[str], held: ScoringHeld) -> list[str]:
    rows = sorted(held.rows, key=lambda r: -r.total)
    parts = [
        i18n.t(locale, "scoring.row", name=names[r.seat], points=r.total, score=r.score)
        for r in rows
    ]
    return [i18n.t(locale, "scoring.title", round=held.round_no), i18n.join(locale, parts)]


def results_lines(locale: str, names: Sequence[str], view: SeatView) -> list[str]:
    ranks = view.ranks
    assert ranks is not None
    order = sorted(range(view.players), key=lambda s: (ranks[s], s))
    winners = [names[s] for s in order if ranks[s] == 1]
    lines = [i18n.t(locale, "results.winner", names=i18n.join(locale, winners))]
    lines += [
        i18n.t(
            locale,
            "results.row",
            rank=ranks[s],
            name=names[s],
            score=view.table[s].score,
        )
        for s in order
    ]
    return lines


def review_lines(locale: str, game: int, name: str, review: Review) -> list[str]:
    """A game review in words: a title, each listed turn (what was played, what the level
    suggests and why, the points at stake), and how it was judged."""
    level = level_name(locale, review.level)
    lines = [f"**{i18n.t(locale, 'review.title', game=game, name=name, level=level)}**"]
    for d in review.top:
        lines.append(
            i18n.t(
                locale,
                "review.line",
                turn=d.turn,
                played=action_label(locale, d.played, d.view),
                level=level,
                suggested=action_label(locale, d.suggested, d.view),
                reason=reason_text(locale, d.reason),
                points=round(d.stake, 1),
            )
        )
    if not review.top:
        lines.append(i18n.t(locale, "review.agreed", level=level, count=review.decisions))
    lines.append(f"-# {i18n.t(locale, 'review.note', level=level, count=review.decisions)}")
    return lines


def hints_line(locale: str, names: Sequence[str], hints: dict[int, int]) -> str:
    """Who asked for hints in a game, and how many: part of its results."""
    parts = [f"{names[seat]} {count}" for seat, count in sorted(hints.items()) if count]
    return i18n.t(locale, "results.hints", hints=i18n.join(locale, parts))


# --- scoring explained -----------------------------------------------------------------------


def points_table(locale: str) -> list[str]:
    """The points of each scoring round per building type, one line per round, then how ties
    and walls score: the engine's own scoring table, in words (the rules command)."""
    lines = []
    for round_no, paid in sorted(SCORING_TABLE.items()):
        entries = [
            f"{i18n.t(locale, f'building.{b.label}')} {'/'.join(str(p) for p in paid[b])}"
            for b in Building
        ]
        lines.append(i18n.t(locale, f"rules.points.round_{round_no}", points=" · ".join(entries)))
    lines.append(i18n.t(locale, "rules.points.notes"))
    return lines


def leaders_line(locale: str, names: Sequence[str], view: SeatView) -> str:
    """Per building type, who has the most (Dirk too, in a two-player game) and what the next
    scoring round would pay them if it were held now; "" once the game is over.

    One line, for the turn message or a status: "Most buildings of each type, and what scoring
    round 2 would pay now: Pavilion: ana (3) +8 · Garden: bruno, Dirk (2) +3". Types nobody has
    built yet are left out (a row of "nobody" early in the game says nothing), and so is the
    line while nobody has built anything. Tied leaders share the points of the places they
    cover, as the engine scores them (`engine.scoring_now`).
    """
    if view.is_over:
        return ""
    held = scoring_now(view)
    points = majority_points(held.round_no, held.counts)
    dirk = len(view.table)  # Dirk's entry comes after the seats; his points are not kept
    parts = []
    for building in Building:
        b = int(building)
        params: dict[str, object] = {"building": i18n.t(locale, f"building.{building.label}")}
        most = max((c[b] for c in held.counts), default=0)
        leaders = [i for i, c in enumerate(held.counts) if c[b] == most > 0]
        who = [names[i] if i < dirk else i18n.t(locale, "img.dirk") for i in leaders]
        if not leaders:
            continue
        params |= {"count": most, "points": points[leaders[0]][b]}
        if len(leaders) > 1:
            key, params["names"] = "leaders.tied", i18n.join(locale, who)
        else:
            key, params["name"] = ("leaders.one" if leaders[0] < dirk else "leaders.dirk"), who[0]
        parts.append(i18n.t(locale, key, **params))
    if not parts:
        return ""
    return i18n.t(locale, "leaders.line", round=held.round_no, types=" · ".join(parts))


#: Discord refuses a message whose text is longer.
MESSAGE_LIMIT = 2000


def bounded(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` cut to fit a message, with an ellipsis where it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
