"""The game log in pages: every turn once, in order, within a message, and stable pages."""

from __future__ import annotations

import itertools
import random

from bot.text.present import pages_of


def _paragraphs(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return [f"__Turn {i}__\n" + "x" * rng.randint(20, 400) for i in range(1, n + 1)]


def test_pages_hold_every_paragraph_once_in_order_within_the_limit() -> None:
    paragraphs = _paragraphs(120)
    pages = pages_of(paragraphs, 1_000)
    assert all(len(page) <= 1_000 for page in pages)
    assert "\n\n".join(pages) == "\n\n".join(paragraphs)
    # as few pages as packing in order allows: no page could have taken the next paragraph
    for page, following in itertools.pairwise(pages):
        first_next = following.split("\n\n")[0]
        assert len(page) + 2 + len(first_next) > 1_000


def test_a_page_once_full_never_changes_as_the_game_goes_on() -> None:
    paragraphs = _paragraphs(200, seed=7)
    earlier = pages_of(paragraphs[:150], 900)
    later = pages_of(paragraphs, 900)
    assert later[: len(earlier) - 1] == earlier[:-1]
    assert later[len(earlier) - 1].startswith(earlier[-1])


def test_a_paragraph_longer_than_a_page_is_cut() -> None:
    pages = pages_of(["short", "y" * 50, "end"], 20)
    assert pages == ["short", "y" * 19 + "…", "end"]
    assert pages_of([], 20) == []
