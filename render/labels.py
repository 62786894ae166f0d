"""The words drawn on the pictures, in English unless the caller passes its own.

Render does not import the bot, so it cannot reach the bot's catalogue; instead every public
`render_*` / `*_image` function takes `labels`, a mapping from the keys below to texts in the
reader's language (the bot builds it with `bot.i18n.image_labels(locale)`). Any key missing
from that mapping, or a text whose placeholders do not match, falls back to the English here,
so a picture is always drawn. A test keeps this table equal to the English catalogue.

Keys `currency.*` and `building.*` are the catalogue's own names for currencies and building
types; `direction` is "rtl" for a language written right to left (Persian), which mirrors the
layouts that read in a direction (`rtl`); every other key is `img.<key>` in the catalogue.

In a right-to-left language each filled text starts with an RLM and has its placeholders
isolated (FSI ... PDI), so `render.text` draws "ana: ..." with the name on the right.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import Building, Currency

Labels = Mapping[str, str]

DEFAULT_LABELS: dict[str, str] = {
    # How the language runs: "ltr", or "rtl" (a mark, not a word: never drawn).
    "direction": "ltr",
    # The digits its numbers are drawn with, zero first (`text.in_its_digits`; never drawn).
    "digits": "0123456789",
    # Shared by several pictures.
    "player": "Player {n}",
    "pts": "pts",
    "points": "{n} pts",
    "wall": "wall {n}",
    "cards": "{n} cards",
    "cards_one": "{n} card",
    "empty": "empty",
    # The table.
    "title": "Alhambra",
    "turn": "Turn {n}",
    "title_to_play": "{name} to play",
    "title_final_placement": "{name}: final placement",
    "game_over_one": "Game over: {names} wins",
    "game_over_many": "Game over: {names} win",
    "deck": "deck {n}",
    "scoring": "scoring",
    "money_pool": "Money",
    "dirk": "Dirk",
    "dirk_note": "neutral, counts in majorities",
    "legend_hand": "cards in hand",
    "legend_wall": "longest wall",
    "legend_reserve": "reserve",
    # Everyone's Alhambra at a glance.
    "boards_title": "Everyone's Alhambra",
    # A player's Alhambra.
    "prompt_place": "Place the {building} (cost {cost}) on a marked cell",
    "prompt_swap": "Swap the {building} (cost {cost}) with a marked building",
    "prompt_remove": "Pick a marked building to move to your reserve",
    "prompt_remove_none": "No building can be moved to the reserve",
    "prompt_place_none": "No cell fits it: it can only go to the reserve",
    "reserve": "Reserve",
    "outside": "Beyond the picture: {codes}",
    # A hand.
    "your_hand": "Your hand",
    "hand_total": "{cards} · {total} in all",
    "only_you_named": "{name} · only you can see it",
    "only_you": "only you see it",
    "no_cards": "no cards",
    "nothing_for_sale": "nothing for sale",
    "can_buy": "can buy",
    "exact": "exact: +1 action",
    "no_exact": "no exact payment",
    "short_by": "short by {n}",
    # The score sheet.
    "final_scores": "Final scores",
    "score_sheet": "Score sheet",
    "rounds_held": "{n} of 3 scoring rounds held",
    "ranking": "Ranking",
    "standings": "Standings",
    "chart_first": "1st",
    "chart_second": "2nd",
    "chart_final": "final",
    "scoring_1": "First scoring",
    "scoring_2": "Second scoring",
    "scoring_3": "Final scoring",
    "scoring_n": "Round {n}",
    "col_round": "round",
    "col_total": "total",
    "counts_legend": "count · rank",
    "scoring_now": "If round {n} were held now",
    "points_title": "Points per scoring round",
    "place_n": "#{n}",
    # A player's record.
    "stats_games": "{n} games",
    "stats_games_one": "{n} game",
    "stats_wins": "{n} wins",
    "stats_wins_one": "{n} win",
    "stats_scores": "Final score of each game",
    "stats_won": "won",
    "stats_other": "not won",
    "stats_average": "average {n}",
    "stats_per_round": "Average per round",
    "stats_per_type": "Average per game, by type",
    # Names of currencies and building types (the catalogue's currency.* and building.*).
    "currency.crown": "Crown",
    "currency.dirham": "Dirham",
    "currency.dinar": "Dinar",
    "currency.ducat": "Ducat",
    "building.pavilion": "Pavilion",
    "building.seraglio": "Seraglio",
    "building.arcades": "Arcades",
    "building.chambers": "Chambers",
    "building.garden": "Garden",
    "building.tower": "Tower",
}


def label(labels: Labels | None, key: str, /, **params: Any) -> str:
    """The text of `key` from `labels`, else English, with its placeholders filled.

    A translation with a wrong placeholder must not cost the player the picture: it falls back
    to the English text. An unknown key is a programming error and raises KeyError."""
    default = DEFAULT_LABELS[key]
    # Translations come from files: a value that is not text is possible at run time.
    chosen: object = labels.get(key, default) if labels else default
    if not isinstance(chosen, str):
        chosen = default
    marked = rtl(labels) and bool(params)  # a text of Persian words alone needs no mark
    if marked:
        params = {k: FSI + _unmarked(v) + PDI for k, v in params.items()}
    try:
        filled = chosen.format_map(params)
    except (KeyError, ValueError, IndexError, AttributeError):
        filled = default.format_map(params)
    return RLM + filled if marked else filled


FSI, PDI, RLM = "\u2068", "\u2069", "\u200f"


def _unmarked(value: object) -> str:
    """A value without direction marks of its own (a name must not close our isolate)."""
    return "".join(ch for ch in str(value) if not "\u2066" <= ch <= "\u2069" and ch != RLM)


def rtl(labels: Labels | None) -> bool:
    """Whether the pictures' language is written right to left: their layouts that read in a
    direction (a ranking, a row of totals) are mirrored."""
    return labels is not None and labels.get("direction") == "rtl"


def counted(labels: Labels | None, key: str, n: int) -> str:
    """'1 card' / '3 cards': the `<key>_one` text for exactly one, else `<key>`."""
    return label(labels, f"{key}_one" if n == 1 else key, n=n)


def currency_name(labels: Labels | None, currency: Currency) -> str:
    return label(labels, f"currency.{currency.label}")


def building_name(labels: Labels | None, building: Building) -> str:
    return label(labels, f"building.{building.label}")


class Mirror:
    """x positions and text anchors of a layout that reads in a direction, mirrored across a
    picture `width` wide when the language is right to left (`rtl`), as they are otherwise."""

    def __init__(self, labels: Labels | None, width: float) -> None:
        self.on = rtl(labels)
        self.width = width

    def x(self, x: float) -> float:
        return self.width - x if self.on else x

    def left(self, x: float, w: float) -> float:
        """The left edge of a box `w` wide whose left edge is at `x` left to right."""
        return self.width - x - w if self.on else x

    def span(self, x0: float, x1: float) -> tuple[float, float]:
        """The left and right ends of what runs from `x0` to `x1` left to right."""
        return (self.width - x1, self.width - x0) if self.on else (x0, x1)

    def anchor(self, anchor: str) -> str:
        if not self.on:
            return anchor
        return {"l": "r", "r": "l"}.get(anchor[0], anchor[0]) + anchor[1:]
