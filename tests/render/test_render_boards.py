"""Everyone's Alhambra in one picture: pure and deterministic, every seat drawn, read from the
right in a right-to-left language."""

from __future__ import annotations

import pytest

from bot.text import i18n
from render import boards_image, render_boards, text
from render.boards import HEIGHT, WIDTH
from render.samples import late, names


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_seat_is_drawn_the_same_way_twice(players: int) -> None:
    view = late(players, 5).view(None)
    with text.placing() as placed:
        img = boards_image(view, names(players))
    assert img.size == (WIDTH, HEIGHT)
    drawn = {t for t, _, _ in placed}
    latin = [n for n in names(players) if n.isascii()]  # (the others are drawn reordered)
    assert latin and all(any(n[:6] in t for t in drawn) for n in latin)
    assert render_boards(view, names(players)) == render_boards(view, names(players))


def test_the_first_seat_is_on_the_right_in_persian() -> None:
    view = late(3, 5).view(None)
    nm = names(3)

    def first_x(locale: str) -> float:
        with text.placing() as placed:
            boards_image(view, nm, labels=i18n.image_labels(locale))
        return next(x0 for t, x0, _ in placed if t == nm[0])

    assert first_x("en") < WIDTH / 3 and first_x("fa") > 2 * WIDTH / 3
