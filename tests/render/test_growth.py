"""The results' animation: one frame per turn that changed an Alhambra, every Alhambra on each,
a picture Discord plays inline and small enough to upload."""

from __future__ import annotations

import io
import itertools
import random

from PIL import Image

from engine import TurnEnded, Undo, new_game
from render.growth import LAST_MS, MAX_FRAMES, changes, render_growth


def _frames(players: int, seed: int) -> tuple[list, list[int]]:
    state = new_game(players, seed)
    rng = random.Random(seed)

    def grids() -> list[dict[tuple[int, int], int]]:
        return [{(0, 0): 0} | dict(state.alhambra(s).tiles) for s in range(players)]

    frames, turns, turn = [grids()], [0], 0
    while not state.is_over:
        move = rng.choice([a for a in state.legal_actions() if not isinstance(a, Undo)])
        if any(isinstance(e, TurnEnded) for e in state.apply(move)):
            turn += 1
            frames.append(grids())
            turns.append(turn)
    return frames, turns


def test_a_frame_per_change_every_alhambra_on_each() -> None:
    frames, turns = _frames(3, 5)
    keep = changes(frames)
    assert keep[0] == 0 and keep[-1] == len(frames) - 1
    assert all(frames[a] != frames[b] for a, b in itertools.pairwise(keep[:-1]))
    data = render_growth(
        [frames[k] for k in keep], ["Ana", "Bruno", "Carla"], turns=[turns[k] for k in keep]
    )
    with Image.open(io.BytesIO(data)) as animation:
        assert animation.format == "WEBP" and animation.n_frames == min(len(keep), MAX_FRAMES)
        animation.seek(animation.n_frames - 1)
        animation.load()
        assert animation.info["duration"] == LAST_MS  # the end holds
        last = animation.convert("RGB")
    first = Image.open(io.BytesIO(data)).convert("RGB")
    assert first.size == last.size == (600, 400)
    assert first.getcolors(1 << 16) != last.getcolors(1 << 16)  # the Alhambras grew
    assert len(data) < 2 * 1024 * 1024


def test_six_players_and_a_gif_too() -> None:
    frames, turns = _frames(6, 2)
    names = ["Ana", "Bruno", "Carla", "Dora", "Eve", "山田"]
    gif = render_growth(frames[:20], names, fmt="GIF", turns=turns[:20], turn_label="Turn")
    with Image.open(io.BytesIO(gif)) as animation:
        assert animation.format == "GIF" and animation.n_frames == 20


def test_a_long_game_is_shortened_evenly_keeping_its_ends() -> None:
    frames, _ = _frames(2, 9)
    long = (frames * 3)[: MAX_FRAMES + 40]
    numbers = list(range(len(long)))
    data = render_growth(long, ["Ana", "Bruno"], turns=numbers)
    with Image.open(io.BytesIO(data)) as animation:
        assert animation.n_frames == MAX_FRAMES
