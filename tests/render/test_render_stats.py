"""A player's record as a picture: it decodes, keeps its size, puts each game where its score
falls (a star for a win, a disc otherwise; bars with counts once the games are too many for
tokens), and draws the words it is given."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from render import render_stats, stats_image, text
from render.display import BOXES, DEVICES, MIN_SCREEN_PX, measure, preview
from render.stats import MAX_BINS, MIN_BINS, WIDTH, bins

ROUNDS = (9.5, 24.0, 41.25)
TYPES = (6.0, 4.5, 9.0, 7.25, 12.0, 15.5)


def _record(games: int, seed: int = 1) -> tuple[list[int], list[bool]]:
    rng = random.Random(seed)
    points = [max(0, round(rng.gauss(90, 20))) for _ in range(games)]
    return points, [p > 100 for p in points]


def _drawn(draw) -> list[tuple[str, int]]:
    with text.recording() as found:
        draw()
    return list(found)


@pytest.mark.parametrize("games", [1, 3, 12, 200])
def test_the_picture_decodes_at_its_size_and_fits_discords_boxes(games, decode):
    points, won = _record(games)
    img = decode(render_stats(points, won, ROUNDS, TYPES, name="Ana"))
    assert img.size == (WIDTH, 496)
    _img, legible = measure(
        lambda: stats_image(points, won, ROUNDS, TYPES, name="Ana"), "attachment"
    )
    assert legible.worst >= MIN_SCREEN_PX, legible
    for device in DEVICES:
        shown = preview(img, "attachment", device)
        assert shown.width <= BOXES["attachment"][device][0]
        assert shown.height <= BOXES["attachment"][device][1]


def test_bins_are_round_and_span_every_score():
    for points in ([62], [0, 200], [40, 41, 43], list(range(30, 160, 7))):
        first, width, count = bins(points)
        assert first % width == 0 and first >= 0
        assert MIN_BINS <= count <= MAX_BINS
        assert first <= min(points) and max(points) < first + width * count
    assert bins([62]) == (50, 5, 6)


def _colour_count(img: Image.Image, colour: tuple[int, int, int]) -> int:
    colours = img.convert("RGB").getcolors(maxcolors=1 << 20) or []
    return sum(n for n, c in colours if c == colour)


def test_wins_are_stars_and_other_games_discs_until_there_are_too_many():
    from render.stats import OTHER, WON

    few = stats_image([50, 50, 80], [True, False, False], ROUNDS, TYPES, name="Ana")
    none_won = stats_image([50, 50, 80], [False, False, False], ROUNDS, TYPES, name="Ana")
    # the legend's star is always there; a won game adds a star's gold in the plot
    assert _colour_count(few, WON) > _colour_count(none_won, WON) > 0
    assert _colour_count(none_won, OTHER) > _colour_count(few, OTHER)
    # a few games: no counts on the plot (each token is a game); many: every bar says its count
    said = {
        t
        for t, _s in _drawn(
            lambda: stats_image([50, 50, 80], [True] * 3, ROUNDS, TYPES, name="Ana")
        )
    }
    assert "2" not in said
    points, won = _record(200)
    counts = [t for t, _s in _drawn(lambda: stats_image(points, won, ROUNDS, TYPES, name="Ana"))]
    first, width, count = bins(points)
    per_bin = [
        sum(1 for p in points if first + k * width <= p < first + (k + 1) * width)
        for k in range(count)
    ]
    for n in per_bin:
        if n:
            assert str(n) in counts


def test_the_picture_draws_the_words_and_figures_it_is_given():
    labels = {
        "stats_scores": "SCORES",
        "stats_won": "WON",
        "stats_other": "OTHER",
        "stats_per_round": "ROUNDS",
        "stats_per_type": "TYPES",
        "stats_average": "AVG {n}",
        "stats_games": "{n} GAMES",
        "stats_wins": "{n} WINS",
        "stats_wins_one": "{n} WIN",
    }
    drawn = {
        t
        for t, _s in _drawn(
            lambda: stats_image(
                [60, 80], [True, False], (10.0, None, None), TYPES, name="さくら", labels=labels
            )
        )
    }
    assert {"SCORES", "WON", "OTHER", "ROUNDS", "TYPES", "AVG 70.0", "2 GAMES · 1 WIN"} <= drawn
    assert {"さくら", "10.0", "15.5"} <= drawn
    assert "24.0" not in drawn  # a round never held has no bar


@pytest.mark.parametrize("scores", [[110], [62, 110], [48, 90, 131]])
def test_a_game_alone_in_its_bin_sits_at_its_score(scores: list[int]) -> None:
    """The only game of 110 points sat in the middle of its 110-115 bin, right of the
    "average 110.0" line: a token alone in its bin is drawn at its score on the axis."""
    from render.stats import AVERAGE, MARGIN, OTHER

    img = stats_image(scores, [False] * len(scores), ROUNDS, TYPES, name="Ana").convert("RGB")
    px = img.load()
    line = [(x, y) for y in range(img.height) for x in range(img.width) if px[x, y] == AVERAGE]
    plot_top = min(y for _x, y in line) + 20  # below the legend, where the games are
    first, width, count = bins(scores)
    left, right = MARGIN + 22, WIDTH - MARGIN - 22  # the plot's ends
    col = (right - left) / count
    tokens = sorted(
        {x for y in range(plot_top, img.height) for x in range(img.width) if px[x, y] == OTHER}
    )
    groups: list[list[int]] = []
    for x in tokens:
        if groups and x - groups[-1][-1] <= 2:
            groups[-1].append(x)
        else:
            groups.append([x])
    centres = [(g[0] + g[-1]) / 2 for g in groups]
    assert len(centres) == len(scores)
    for centre, score in zip(centres, sorted(scores), strict=True):
        assert abs(centre - (left + (score - first) / width * col)) <= 3, (centres, scores)
