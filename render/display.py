"""How big Discord first shows each picture, and how big its smallest text then is on screen.

Most players never click a picture to enlarge it, so every picture is designed for the box
Discord fits it into, not for its own pixels:

    where                  desktop     phone
    embed image (table)    400 x 300   300 x 400
    attachment (others)    550 x 350   320 x 400
    two attachments        271 x 350   158 x 400   (each, side by side in one message)

A picture is scaled down (never up) to fit its box: scale = min(1, box_w / w, box_h / h). A
text drawn at font size `s` px is `s * scale` px on screen, and every text a picture draws must
then be at least `MIN_SCREEN_PX`: that is what `smallest_on_screen` measures, by recording
every text drawn (`render.text.recording`), sprites included. The desktop boxes are what
Discord's client shows (an embed image fits about 400 x 300); the phone boxes are the width of
the chat column on a 360-390 px wide phone, with the height a phone shows before scrolling.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from PIL import Image

from . import text

Shown = Literal["embed", "attachment", "pair"]
Device = Literal["desktop", "phone"]

#: (width, height) of the box each kind of picture is first shown in.
BOXES: dict[Shown, dict[Device, tuple[int, int]]] = {
    "embed": {"desktop": (400, 300), "phone": (300, 400)},
    "attachment": {"desktop": (550, 350), "phone": (320, 400)},
    # two files in one message share its width: why the bot posts a picture to read alone
    "pair": {"desktop": (271, 350), "phone": (158, 400)},
}
DEVICES: tuple[Device, ...] = ("desktop", "phone")
#: The smallest text a player must read, in screen pixels (font size).
MIN_SCREEN_PX = 10.0

#: How the bot posts each picture: the table in the turn message's embed, the rest as files.
SHOWN: dict[str, Shown] = {
    "table": "embed",
    "alhambra": "attachment",
    "boards": "attachment",
    "hand": "attachment",
    "scores": "attachment",
    "points": "attachment",
    "stats": "attachment",
    "stakes": "attachment",
}


def scale(size: tuple[int, int], shown: Shown, device: Device) -> float:
    """How much Discord shrinks a picture of `size` in that box (1.0: shown as it is)."""
    box_w, box_h = BOXES[shown][device]
    w, h = size
    return min(1.0, box_w / w, box_h / h)


def preview(img: Image.Image, shown: Shown, device: Device) -> Image.Image:
    """The picture at the size Discord first shows it."""
    k = scale(img.size, shown, device)
    if k >= 1.0:
        return img.copy()
    size = (max(1, round(img.width * k)), max(1, round(img.height * k)))
    return img.resize(size, Image.Resampling.LANCZOS)


@dataclass(frozen=True, slots=True)
class Legibility:
    """The smallest text of one picture: what it says, its font size and its size on screen."""

    text: str
    size: int
    screen: dict[Device, float]

    @property
    def worst(self) -> float:
        return min(self.screen.values())


def measure(draw: Callable[[], Image.Image], shown: Shown) -> tuple[Image.Image, Legibility]:
    """Draw the picture with every cache cold (sprites draw their text anew) and return it
    with its smallest text."""
    from . import reset_caches  # the package's cache list; imported late to avoid a circle

    reset_caches()
    with text.recording() as found:
        img = draw()
    drawn = [(t, s) for t, s in found if t.strip()]
    if not drawn:
        return img, Legibility("", 0, {d: float("inf") for d in DEVICES})
    smallest_text, smallest = min(drawn, key=lambda ts: ts[1])
    screen = {d: smallest * scale(img.size, shown, d) for d in DEVICES}
    return img, Legibility(smallest_text, smallest, screen)


def smallest_on_screen(draw: Callable[[], Image.Image], shown: Shown) -> Legibility:
    return measure(draw, shown)[1]
