"""The help's examples are commands that work as written, in every language."""

from __future__ import annotations

import re

import pytest

from bot.text import i18n
from bot.text.help import TOPICS, help_text
from bot.text.plan_menus import read_buy


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_every_topic_has_an_example_command(locale: str) -> None:
    words = help_text(locale)
    assert len(words.topics) == len(TOPICS)
    for topic in words.topics:
        assert re.search(r"`/alhambra[-\w]* \S+", topic.example), topic


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_the_plan_example_names_a_building_type_the_command_reads(locale: str) -> None:
    example = i18n.t(locale, "help.plans.example")
    (named,) = re.findall(r"buy:(\S+)", example)
    assert isinstance(read_buy(locale, named), tuple)  # a type, as "any Garden up to 9"
    assert "up_to:9" in example and "every_turn:True" in example


def test_the_results_pointer_keeps_the_game_number_as_typed() -> None:
    from bot.text.help import results_pointer

    # what is typed keeps Latin digits and no invisible direction marks, which a copy would
    # carry into the command; the sentence around it is still set right to left
    pointer = results_pointer("fa", 12)
    assert "`/alhambra-history replay game:12`" in pointer
    assert "`/alhambra-history review game:12`" in pointer
    assert i18n.plain(pointer) != pointer
