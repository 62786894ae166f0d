"""Colours and letters shared by every picture (the words are in `render.labels`).

Building and currency colours follow the box (RULES.md section 1). Every building type and
currency also has its own shape (`render.symbols`), so the pictures read the same to colour-blind
players, in greyscale and in every language.
"""

from __future__ import annotations

from engine import Building, Currency

RGB = tuple[int, int, int]

# Parchment background, ink and accents.
PAPER: RGB = (246, 239, 224)
PAPER_DARK: RGB = (233, 221, 196)
PANEL: RGB = (252, 249, 241)
GRID: RGB = (222, 208, 180)
INK: RGB = (46, 36, 30)
MUTED: RGB = (120, 104, 88)
WALL: RGB = (74, 52, 40)
WALL_HIGHLIGHT: RGB = (232, 140, 20)
LABEL_FILL: RGB = (255, 231, 120)
LABEL_EDGE: RGB = (178, 120, 0)
TURN: RGB = (196, 64, 40)
GOOD: RGB = (40, 140, 70)
BAD: RGB = (190, 60, 50)
WATER: RGB = (96, 170, 214)

#: (fill, text colour) per building type.
BUILDING_FILL: dict[Building, RGB] = {
    Building.PAVILION: (64, 118, 200),
    Building.SERAGLIO: (200, 56, 60),
    Building.ARCADES: (150, 98, 56),
    Building.CHAMBERS: (244, 244, 240),
    Building.GARDEN: (64, 150, 74),
    Building.TOWER: (128, 72, 168),
}
BUILDING_TEXT: dict[Building, RGB] = {
    Building.PAVILION: (255, 255, 255),
    Building.SERAGLIO: (255, 255, 255),
    Building.ARCADES: (255, 255, 255),
    Building.CHAMBERS: (40, 40, 40),
    Building.GARDEN: (255, 255, 255),
    Building.TOWER: (255, 255, 255),
}
CURRENCY_FILL: dict[Currency, RGB] = {
    Currency.CROWN: (242, 196, 40),
    Currency.DIRHAM: (70, 160, 80),
    Currency.DINAR: (58, 110, 196),
    Currency.DUCAT: (236, 128, 36),
}
CURRENCY_TEXT: dict[Currency, RGB] = {
    Currency.CROWN: (60, 44, 0),
    Currency.DIRHAM: (255, 255, 255),
    Currency.DINAR: (255, 255, 255),
    Currency.DUCAT: (255, 255, 255),
}


def darker(color: RGB, factor: float = 0.7) -> RGB:
    r, g, b = color
    return (int(r * factor), int(g * factor), int(b * factor))


def lighter(color: RGB, amount: float = 0.5) -> RGB:
    r, g, b = color
    return (
        int(r + (255 - r) * amount),
        int(g + (255 - g) * amount),
        int(b + (255 - b) * amount),
    )
