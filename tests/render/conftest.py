"""Shared positions for the picture tests: seeded games, played once per test session."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import new_game
from render import samples
from render.canvas import MAX_WIDTH


def _decode(png: bytes) -> Image.Image:
    """The PNG decoded, after checking the limits every picture must respect."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < 1_000_000
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.width <= MAX_WIDTH
    return img.convert("RGB")


@pytest.fixture
def decode():
    """Decode a PNG after checking the limits every picture must respect (see `_decode`)."""
    return _decode


@pytest.fixture(scope="session")
def games():
    """(players, seed) -> games at the start, middle and end, played greedily."""
    out = {}
    for players, seed in ((2, 3), (3, 8), (4, 11), (6, 5)):
        out[players] = {
            "start": new_game(players, seed),
            "middle": samples.middle(players, seed),
            "end": samples.play(players, seed),
        }
    return out
