"""The adapter's persistent buttons and menus share one base (`discord_app.components`): each
says its custom id once, and a click on it gives the same item back, fields and all."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord_app.client import DYNAMIC_ITEMS
from bot.discord_app.components import GameItem
from bot.discord_app.followers import FollowButton
from bot.discord_app.help import HelpButton
from bot.discord_app.history import (
    ArchiveButton,
    OpenGameSelect,
    PositionButton,
    ReplayButton,
    ReplayHandButton,
    SeasonButton,
    SheetButton,
)
from bot.discord_app.lobby_message import LobbyButton
from bot.discord_app.panel import PanelButton, PanelSelect
from bot.discord_app.plan_panel import PlanButton, PlanSelect
from bot.discord_app.replies import BoardSelect, LogPageButton
from bot.discord_app.results_message import ResultsButton
from bot.discord_app.turn_message import TurnButton

#: one item of every kind, with the fields its custom id carries
SAMPLES: list[tuple[GameItem[Any], dict[str, object]]] = [
    (TurnButton(12, 31, "take"), {"game_id": 12, "version": 31, "op": "take"}),
    (LobbyButton(12, 3, "join"), {"game_id": 12, "version": 3, "op": "join"}),
    (ResultsButton(12, "boards"), {"game_id": 12, "op": "boards"}),
    (PanelButton(12, 31, "a3", "Buy"), {"game_id": 12, "version": 31, "value": "a3"}),
    (PanelSelect(12, 31, "buy~2"), {"game_id": 12, "version": 31}),
    (SheetButton(12, 40), {"game_id": 12, "step": 40}),
    (ReplayButton(12, 40, slot=3), {"game_id": 12, "step": 40}),
    (ReplayHandButton(12, 40, slot=4), {"game_id": 12, "step": 40}),
    (PositionButton(12, 56), {"game_id": 12, "turn": 56}),
    (OpenGameSelect(20), {"offset": 20}),
    (ArchiveButton(0, 4242), {"offset": 0, "user_id": 4242}),
    (SeasonButton(3), {"season": 3}),
    (FollowButton(12, "thread"), {"game_id": 12, "op": "thread"}),
    (PlanButton(12, "drop"), {"game_id": 12, "op": "drop"}),
    (PlanSelect(12, "q2-CR5+DH2"), {"game_id": 12, "step": "q2-CR5+DH2"}),
    (BoardSelect(12), {"game_id": 12}),
    (LogPageButton(12, 3), {"game_id": 12, "page": 3}),
    (HelpButton("Help"), {}),  # the same help from anywhere: nothing in its id
]


def test_every_persistent_item_stands_on_the_one_base() -> None:
    assert {type(item) for item, _ in SAMPLES} == set(DYNAMIC_ITEMS)
    for kind in DYNAMIC_ITEMS:
        assert issubclass(kind, GameItem), kind
        assert "from_custom_id" not in vars(kind), f"{kind.__name__} parses its own id again"


@pytest.mark.parametrize("item,fields", SAMPLES, ids=lambda v: type(v).__name__)
async def test_a_click_gives_the_same_item_back(
    item: GameItem[Any], fields: dict[str, object]
) -> None:
    match = item.template.fullmatch(item.custom_id)
    assert match is not None, (item.custom_id, item.template.pattern)
    again = await type(item).from_custom_id(None, item.item, match)  # the click is not read
    assert again.custom_id == item.custom_id
    for name, value in fields.items():
        assert getattr(again, name) == value, name


def test_numbers_are_read_back_as_numbers_and_words_as_words() -> None:
    assert TurnButton.number_fields == {"game_id", "version"}
    assert ArchiveButton.number_fields == {"offset", "user_id"}
    assert PlanSelect.number_fields == {"game_id"}  # its step is a word ("m", "p3", ...)
    assert ReplayButton.number_fields == {"game_id", "step", "slot"}


def test_ids_the_bot_never_made_do_not_match() -> None:
    assert not TurnButton.__discord_ui_compiled_template__.fullmatch("alh:t:12:31:steal")
    assert not TurnButton.__discord_ui_compiled_template__.fullmatch("alh:t:x:31:take")
    assert not OpenGameSelect.__discord_ui_compiled_template__.fullmatch("alh:ag:0012")
    assert not ReplayHandButton.__discord_ui_compiled_template__.fullmatch("alh:rh:12:10000:0")
    assert not PositionButton.__discord_ui_compiled_template__.fullmatch("alh:rp:12:-1")
    assert not ReplayButton.__discord_ui_compiled_template__.fullmatch("alh:rh:12:1:0")


def test_a_pattern_for_a_field_the_id_does_not_have_is_refused() -> None:
    with pytest.raises(TypeError):

        class Wrong(
            GameItem[discord.ui.Button[discord.ui.View]],
            custom_id="alh:w:{game_id}",
            op="take",
        ):
            pass
