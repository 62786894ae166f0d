"""A replay's pictures are read where Discord first shows them: at every kind of step (as dealt,
after the first scoring, the end) and for 2 to 6 players, every Alhambra (the message's one file,
in the attachment's box) and the table (in the embed) have no text under 10 px on a desktop or a
phone, in every language."""

from __future__ import annotations

import pytest

from bot.text import i18n
from engine import new_game
from render import boards_image, table_image
from render.display import BOXES, MIN_SCREEN_PX, SHOWN, measure, preview
from render.samples import middle, names, play

LOCALES = ("en", "ja", "pt-BR", "fa")
SEED = 11


def _steps(players: int):
    """Replayed positions: as dealt, just after the first scoring round, the end."""
    return {
        "as dealt": new_game(players, SEED),
        "after round 1": middle(players, SEED),
        "the end": play(players, SEED),
    }


def test_the_replay_posts_the_boards_as_a_file_and_the_table_in_its_embed():
    """The boxes measured below are the ones the replay's message uses (`discord_app.history`:
    the table in the embed, every Alhambra the message's one file)."""
    assert SHOWN["boards"] == "attachment" and SHOWN["table"] == "embed"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_alhambra_of_a_replay_is_legible_on_desktop_and_phone(locale, players):
    labels = i18n.image_labels(locale)
    nm = names(players)
    for step, game in _steps(players).items():
        view = game.view(None)
        for kind, draw in (
            ("boards", lambda view=view: boards_image(view, nm, labels=labels)),
            ("table", lambda view=view: table_image(view, nm, labels=labels)),
        ):
            img, legible = measure(draw, SHOWN[kind])
            for device, on_screen in legible.screen.items():
                assert on_screen >= MIN_SCREEN_PX - 1e-9, (
                    f"{kind} at {step} ({players} players, {locale}) on {device}: "
                    f"{legible.text!r} drawn at {legible.size} px is {on_screen:.1f} px"
                )
                shown = preview(img, SHOWN[kind], device)
                box_w, box_h = BOXES[SHOWN[kind]][device]
                assert shown.width <= box_w and shown.height <= box_h
