"""Pictures of a game, drawn with Pillow from engine views: pure functions returning PNG bytes.

    from render import render_alhambra, render_table, render_hand, render_scores, render_points
    from render import render_stats, render_boards
    png = render_table(game.view(None), names)

Player names are passed in (the engine knows only seats). Each `render_*` has an `*_image`
twin returning the Pillow image, and `alhambra_layout` tells where each labelled cell is drawn.
Cell codes (`cell_code`, `parse_cell_code`) are what commands and select menus accept.
"""

from . import bidi, fonts, sprites, symbols, text
from .alhambra import AlhambraLayout, alhambra_image, alhambra_layout, marked_cells, render_alhambra
from .boards import boards_image, render_boards
from .cells import cell_code, parse_cell_code
from .growth import render_growth
from .hand import hand_image, render_hand
from .review import render_stakes, stakes_image
from .scores import points_image, render_points, render_scores, scores_image
from .stats import render_stats, stats_image
from .table import render_table, table_image


def warm_up() -> None:
    """Load the fonts and draw one of each picture, so the first real one is as fast as the
    rest: a worker process runs this once when it starts."""
    from engine import new_game

    game = new_game(3, 1)
    view = game.view(game.current_seat)
    names = ["Ana", "Bruno", "さくら"]
    render_table(view, names)
    render_hand(view, name=names[0])
    render_alhambra(view, 0, name=names[0], placing=view.market[0])
    render_scores(view, names)
    render_boards(view, names)
    render_stats([70, 95, 81], [False, True, False], [10.0, 25.0, None], [3.0] * 6, name=names[0])


def reset_caches() -> None:
    """Drop cached fonts, text measurements and sprites (after a font configuration change)."""
    fonts.reset()
    symbols.reset()
    for cached in (
        text.clean,
        text.runs,
        text._width,
        text.fit,
        text.metrics,
        text.glyphs,
        text.ordered,
        bidi.visual_split,
    ):
        cached.cache_clear()
    for sprite in (
        sprites.tile_sprite,
        sprites.fountain_sprite,
        sprites._value_card,
    ):
        sprite.cache_clear()


__all__ = [
    "AlhambraLayout",
    "alhambra_image",
    "alhambra_layout",
    "boards_image",
    "cell_code",
    "hand_image",
    "marked_cells",
    "parse_cell_code",
    "points_image",
    "render_alhambra",
    "render_boards",
    "render_growth",
    "render_hand",
    "render_points",
    "render_scores",
    "render_stakes",
    "render_stats",
    "render_table",
    "reset_caches",
    "scores_image",
    "stakes_image",
    "stats_image",
    "table_image",
    "warm_up",
]
