"""How a picture looks to a player with a colour vision deficiency, to check it is still read.

Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of Color
Vision Deficiency", severity 1.0: protanopia and deuteranopia (red-green, about 1 man in 12
between them and their milder forms) and tritanopia (blue-yellow). The matrices act on linear
RGB, so the picture is linearised first and re-encoded after.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from PIL import Image

Deficiency = Literal["protanopia", "deuteranopia", "tritanopia"]
DEFICIENCIES: tuple[Deficiency, ...] = ("protanopia", "deuteranopia", "tritanopia")

_MATRICES: dict[Deficiency, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _to_linear(v: float) -> float:
    c = v / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> int:
    c = min(1.0, max(0.0, c))
    v = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(v * 255)


@cache
def _simulate_rgb(rgb: tuple[int, int, int], kind: Deficiency) -> tuple[int, int, int]:
    lin = [_to_linear(v) for v in rgb]
    out = [sum(m * c for m, c in zip(row, lin, strict=True)) for row in _MATRICES[kind]]
    return _to_srgb(out[0]), _to_srgb(out[1]), _to_srgb(out[2])


def simulate_colour(rgb: tuple[int, int, int], kind: Deficiency) -> tuple[int, int, int]:
    """One colour as seen with the deficiency."""
    r, g, b = rgb
    return _simulate_rgb((r, g, b), kind)


def simulate(img: Image.Image, kind: Deficiency) -> Image.Image:
    """The picture as seen with the deficiency. Pictures are flat colours (the bot sends them
    as 256-colour PNGs), so it goes through a palette and each colour is converted once."""
    pal = img.convert("RGB").quantize(
        colors=256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE
    )
    palette = pal.getpalette() or []
    mapped: list[int] = []
    for i in range(0, len(palette), 3):
        r, g, b = palette[i : i + 3]
        mapped.extend(_simulate_rgb((r, g, b), kind))
    pal.putpalette(mapped)
    return pal.convert("RGB")
