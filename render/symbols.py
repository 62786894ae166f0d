"""A shape for every currency and every building type, so colour is never the only cue.

The box tells the four currencies and six building types apart by colour alone; under
protanopia or deuteranopia the crown's yellow, the dirham's green and the ducat's orange become
one olive, and tritanopia merges the dirham with the dinar. Letters would tie the pictures to one
language. So each has a silhouette that reads at a glance in any language and any vision:

    currencies: crown (Crown), crescent (Dirham), diamond (Dinar), star (Ducat)
    buildings:  roof (Pavilion), onion dome (Seraglio), arch (Arcades), window (Chambers),
                tree (Garden), battlements (Tower)

Shapes are drawn four times larger and scaled down (smooth edges), once per size and colour.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Building, Currency

from .palette import RGB

_SUPER = 4
Point = tuple[float, float]


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> list[Point]:
    out: list[Point] = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / points
        out.append((cx + rr * math.cos(angle), cy + rr * math.sin(angle)))
    return out


def _draw_currency(d: ImageDraw.ImageDraw, s: float, currency: Currency, ink: RGB) -> None:
    """One currency's shape inside an s x s square."""
    if currency is Currency.CROWN:
        base, top = s * 0.80, s * 0.22
        d.polygon(
            [
                (s * 0.10, base),
                (s * 0.10, top + s * 0.12),
                (s * 0.30, s * 0.48),
                (s * 0.50, top - s * 0.04),
                (s * 0.70, s * 0.48),
                (s * 0.90, top + s * 0.12),
                (s * 0.90, base),
            ],
            fill=ink,
        )
    elif currency is Currency.DIRHAM:
        d.ellipse((s * 0.08, s * 0.08, s * 0.92, s * 0.92), fill=ink)
        d.ellipse((s * 0.32, s * 0.02, s * 1.06, s * 0.76), fill=(0, 0, 0, 0))
    elif currency is Currency.DINAR:
        d.polygon(
            [(s * 0.5, s * 0.04), (s * 0.90, s * 0.5), (s * 0.5, s * 0.96), (s * 0.10, s * 0.5)],
            fill=ink,
        )
    else:
        d.polygon(_star(s * 0.5, s * 0.54, s * 0.48), fill=ink)


def _draw_building(d: ImageDraw.ImageDraw, s: float, building: Building, ink: RGB) -> None:
    """One building type's shape inside an s x s square."""
    if building is Building.PAVILION:  # a pointed roof on a low base
        d.polygon([(s * 0.5, s * 0.08), (s * 0.95, s * 0.55), (s * 0.05, s * 0.55)], fill=ink)
        d.rectangle((s * 0.22, s * 0.55, s * 0.78, s * 0.90), fill=ink)
    elif building is Building.SERAGLIO:  # an onion dome with its spire
        d.ellipse((s * 0.14, s * 0.30, s * 0.86, s * 0.98), fill=ink)
        d.polygon([(s * 0.5, s * 0.02), (s * 0.66, s * 0.36), (s * 0.34, s * 0.36)], fill=ink)
    elif building is Building.ARCADES:  # an arch
        d.rectangle((s * 0.06, s * 0.10, s * 0.94, s * 0.92), fill=ink)
        d.rectangle((s * 0.30, s * 0.52, s * 0.70, s * 0.92), fill=(0, 0, 0, 0))
        d.ellipse((s * 0.30, s * 0.32, s * 0.70, s * 0.72), fill=(0, 0, 0, 0))
    elif building is Building.CHAMBERS:  # a window of four panes
        d.rectangle((s * 0.10, s * 0.10, s * 0.90, s * 0.90), fill=ink)
        for x0, y0 in ((0.22, 0.22), (0.54, 0.22), (0.22, 0.54), (0.54, 0.54)):
            d.rectangle((s * x0, s * y0, s * (x0 + 0.24), s * (y0 + 0.24)), fill=(0, 0, 0, 0))
    elif building is Building.GARDEN:  # a tree: three leaves and a trunk
        for cx, cy in ((0.5, 0.28), (0.28, 0.52), (0.72, 0.52)):
            d.ellipse(
                (s * (cx - 0.22), s * (cy - 0.22), s * (cx + 0.22), s * (cy + 0.22)), fill=ink
            )
        d.rectangle((s * 0.42, s * 0.55, s * 0.58, s * 0.95), fill=ink)
    else:  # Tower: battlements
        d.rectangle((s * 0.20, s * 0.30, s * 0.80, s * 0.95), fill=ink)
        for x0 in (0.12, 0.42, 0.72):
            d.rectangle((s * x0, s * 0.06, s * (x0 + 0.16), s * 0.34), fill=ink)
        d.rectangle((s * 0.12, s * 0.24, s * 0.88, s * 0.36), fill=ink)


@lru_cache(maxsize=512)
def currency_symbol(currency: Currency, size: int, ink: RGB) -> Image.Image:
    """The currency's shape, `size` pixels square, in `ink` on transparency."""
    return _render(lambda d, s: _draw_currency(d, s, currency, ink), size)


@lru_cache(maxsize=512)
def building_symbol(building: Building, size: int, ink: RGB) -> Image.Image:
    """The building type's shape, `size` pixels square, in `ink` on transparency."""
    return _render(lambda d, s: _draw_building(d, s, building, ink), size)


def _render(draw: Callable[[ImageDraw.ImageDraw, float], None], size: int) -> Image.Image:
    size = max(4, int(size))
    big = Image.new("RGBA", (size * _SUPER, size * _SUPER), (0, 0, 0, 0))
    draw(ImageDraw.Draw(big), float(size * _SUPER))
    return big.resize((size, size), Image.Resampling.LANCZOS)


def reset() -> None:
    currency_symbol.cache_clear()
    building_symbol.cache_clear()
