"""One base for the bot's persistent buttons and menus (discord.py's `DynamicItem`).

Each button or menu the bot leaves on a message must keep working after a restart, so what it
acts on travels in its custom id ("alh:t:12:31:take": game 12, version 31, Take). A subclass
says it once, as a format whose fields are the names of its constructor's parameters:

    class TurnButton(GameItem[discord.ui.Button[discord.ui.View]],
                     custom_id="alh:t:{game_id}:{version}:{op}", op="take|buy|place"):
        def __init__(self, game_id: int, version: int, op: str, label: str = "…") -> None:
            ...
            discord.ui.Button(custom_id=self.custom_id_for(game_id=..., version=..., op=...))

From that one format the base builds discord.py's template (each field a named group: a
number unless the subclass gives its pattern), the custom ids (`custom_id_for`), and the item
again from a click (`from_custom_id`: the fields by name, numbers as `int`), so no subclass
writes a parser. A field whose pattern is made of digits only is a number. Anything that does
not match is not this bot's (discord.py drops it), and what matches is still checked by the
callback (`context.here`, the service), as a forged id may carry any value the pattern allows.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from typing import Any, ClassVar, Self, TypeVar

import discord

ItemT = TypeVar("ItemT", bound="discord.ui.Item[Any]")

#: The pattern of a field given none: a number such as a game id or a version (a snowflake has
#: at most 19 digits; the bot's own numbers far fewer).
NUMBER = r"\d{1,18}"
#: Patterns that can only match digits: such a field is read back as an `int`.
_DIGITS_ONLY = re.compile(r"(?:\\d|\[0-9\]|\[1-9\]|[0-9]|\{\d+(?:,\d*)?\}|\||\(|\)|\?:)+")


class GameItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """A persistent button or menu whose custom id carries the fields it acts on."""

    #: the custom id's format (fields named as the constructor's parameters)
    custom_id_format: ClassVar[str] = ""
    #: the fields read back as numbers
    number_fields: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, *, custom_id: str, **patterns: str) -> None:
        parts = [(literal, name) for literal, name, _, _ in string.Formatter().parse(custom_id)]
        names = [name for _, name in parts if name]
        if set(patterns) - set(names):
            raise TypeError(f"{cls.__name__}: patterns for no field: {set(patterns) - set(names)}")
        template = "".join(
            re.escape(literal) + (f"(?P<{name}>{patterns.get(name, NUMBER)})" if name else "")
            for literal, name in parts
        )
        super().__init_subclass__(template=template)
        cls.custom_id_format = custom_id
        cls.number_fields = frozenset(
            name for name in names if _DIGITS_ONLY.fullmatch(patterns.get(name, NUMBER))
        )

    @classmethod
    def custom_id_for(cls, **fields: object) -> str:
        """The custom id of an item with these fields."""
        return cls.custom_id_format.format(**fields)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """The item again, from a click on it: its fields by name, the numbers as numbers."""
        fields = {
            name: int(value) if name in cls.number_fields else value
            for name, value in match.groupdict().items()
        }
        make: Callable[..., Self] = cls
        return make(**fields)
