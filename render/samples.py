"""Seeded game positions to draw: the gallery, the tests and the benchmark use the same ones.

Positions come from real games played by the engine with a simple greedy policy (build when you
can, buy when you can, otherwise take the most money), so they look like games people play:
random play leaves Alhambras small and reserves full.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from engine import (
    TILES,
    Action,
    Alhambra,
    Buy,
    Game,
    Place,
    PlaceFromReserve,
    PlayerView,
    SeatView,
    TakeMoney,
    Undo,
    new_game,
)
from engine.catalogue import CARD_VALUE

from .alhambra import Mode
from .canvas import to_png
from .labels import Labels

NAMES = (
    "Ana",
    "João Conceição",
    "さくら",
    "Maximilian von Hohenzollern-Sigmaringen the Magnificent",
    "🐉 Dragon 🔥",
    "نور",
)


def _choose(game: Game, rng: random.Random) -> Action:
    legal: list[Action] = [a for a in game.legal_actions() if not isinstance(a, Undo)]
    for kind in (Place, PlaceFromReserve):
        options = [a for a in legal if isinstance(a, kind)]
        if options and (kind is Place or rng.random() < 0.5):
            return rng.choice(options)
    buys = [a for a in legal if isinstance(a, Buy)]
    if buys:
        return rng.choice(buys)
    takes = [a for a in legal if isinstance(a, TakeMoney)]
    if takes:
        best = max(sum(CARD_VALUE[c] for c in a.cards) for a in takes)
        return rng.choice([a for a in takes if sum(CARD_VALUE[c] for c in a.cards) == best])
    return rng.choice(legal)


def play(players: int, seed: int, stop: Callable[[Game], bool] | None = None) -> Game:
    """A game played greedily from `seed` until `stop(game)` holds or the game is over."""
    game = new_game(players, seed)
    rng = random.Random(seed)
    while not game.is_over and not (stop and stop(game)):
        game.apply(_choose(game, rng))
    return game


def middle(players: int, seed: int) -> Game:
    """Just after the first scoring round, in the action phase."""
    return play(players, seed, lambda g: len(g.scoring_rounds) >= 1 and g.phase == "action")


def late(players: int, seed: int) -> Game:
    return play(players, seed, lambda g: len(g.scoring_rounds) >= 2 and g.phase == "action")


def placing(players: int, seed: int, after_rounds: int = 1) -> Game:
    """A game waiting for its current seat to place a bought building."""
    return play(
        players,
        seed,
        lambda g: (
            len(g.scoring_rounds) >= after_rounds
            and g.phase == "place"
            and any(isinstance(a, Place) for a in g.legal_actions())
        ),
    )


def grown_alhambra(
    buildings: int, seed: int = 0, spread: bool = True
) -> dict[tuple[int, int], int]:
    """A legal Alhambra of `buildings` tiles grown by the engine's own placement rules. With
    `spread` each building goes to the legal cell farthest out in a direction that turns with
    every building, which makes about the widest Alhambras the rules allow."""
    rng = random.Random(seed)
    grid = Alhambra()
    tiles = list(range(1, 55))
    rng.shuffle(tiles)
    directions = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))
    for _ in range(4):  # tiles that fit nowhere yet may fit later
        for tile in list(tiles):
            dx, dy = directions[len(grid) % len(directions)]
            if len(grid) >= buildings:
                break
            cells = grid.legal_positions(tile)
            if not cells:
                continue
            if spread:
                cell = max(cells, key=lambda c: (dx * c[0] + dy * c[1], rng.random()))
            else:
                cell = rng.choice(cells)
            grid.place(tile, cell)
            tiles.remove(tile)
    assert not grid.problems(), grid.problems()
    return grid.tiles


def with_alhambra(
    view: SeatView, seat: int, tiles: dict[tuple[int, int], int], reserve: tuple[int, ...] = ()
) -> SeatView:
    """The same view with `seat`'s Alhambra replaced, its counts and wall recomputed."""
    grid = Alhambra.from_tiles(tiles, view.holes)
    used = set(tiles.values()) | set(reserve)
    assert len(used) == len(tiles) + len(reserve), "a tile may appear only once"
    player = PlayerView(
        seat=seat,
        alhambra=tuple(sorted((x, y, t) for (x, y), t in tiles.items())),
        reserve=reserve,
        hand_size=view.table[seat].hand_size,
        score=view.table[seat].score,
        counts=grid.counts(),
        wall=grid.longest_wall(),
    )
    table = tuple(player if p.seat == seat else p for p in view.table)
    return dataclasses.replace(view, table=table)


def unused_tiles(tiles: dict[tuple[int, int], int], n: int) -> tuple[int, ...]:
    used = set(tiles.values())
    return tuple(t for t in range(1, len(TILES)) if t not in used)[:n]


def names(players: int) -> list[str]:
    return list(NAMES[:players])


@dataclass(frozen=True)
class Sample:
    """One picture of the gallery: a file name, which kind of picture it is (how the bot posts
    it: `render.display.SHOWN`) and how to draw it, in the words of the labels it is given."""

    name: str
    kind: str
    image: Callable[[Labels | None], Image.Image]

    def draw(self, labels: Labels | None = None) -> bytes:
        return to_png(self.image(labels))


def gallery() -> list[Sample]:
    from .alhambra import alhambra_image
    from .boards import boards_image
    from .hand import hand_image
    from .scores import points_image, scores_image
    from .table import table_image

    samples: list[Sample] = []
    Draw = Callable[[Labels | None], Image.Image]

    def add(name: str, kind: str, image: Draw) -> None:
        samples.append(Sample(name, kind, image))

    def table(at: Callable[[int, int], Game], players: int, seed: int) -> Draw:
        return lambda labels: table_image(
            at(players, seed).view(None), names(players), labels=labels
        )

    def scores(at: Callable[[int, int], Game], players: int, seed: int) -> Draw:
        return lambda labels: scores_image(
            at(players, seed).view(None), names(players), labels=labels
        )

    for players, seed in ((2, 3), (4, 11), (6, 5)):
        add(f"table_{players}p_start", "table", table(new_game, players, seed))
        add(f"table_{players}p_middle", "table", table(middle, players, seed))
        add(f"table_{players}p_end", "table", table(play, players, seed))
        add(f"scores_{players}p_middle", "scores", scores(late, players, seed))
        add(f"scores_{players}p_end", "scores", scores(play, players, seed))
    add("points", "points", lambda labels: points_image(labels=labels))

    def boards(at: Callable[[int, int], Game], players: int, seed: int) -> Draw:
        return lambda labels: boards_image(
            at(players, seed).view(None), names(players), labels=labels
        )

    for players, seed in ((2, 3), (4, 11), (6, 5)):
        add(f"boards_{players}p_middle", "boards", boards(middle, players, seed))
    add("boards_3p_end", "boards", boards(play, 3, 1))

    def hand(players: int, seed: int, at: Callable[[int, int], Game]) -> Draw:
        def draw(labels: Labels | None) -> Image.Image:
            game = at(players, seed)
            seat = game.current_seat if game.current_seat is not None else 0
            return hand_image(game.view(seat), name=names(players)[seat], labels=labels)

        return draw

    add("hand_4p_start", "hand", hand(4, 11, lambda p, s: new_game(p, s)))
    add("hand_4p_middle", "hand", hand(4, 11, middle))
    add("hand_6p_late", "hand", hand(6, 5, late))

    def alhambra(
        players: int, seed: int, at: Callable[[int, int], Game], seat: int | None = None
    ) -> Draw:
        def draw(labels: Labels | None) -> Image.Image:
            game = at(players, seed)
            chosen = seat if seat is not None else (game.current_seat or 0)
            return alhambra_image(
                game.view(None), chosen, name=names(players)[chosen], labels=labels
            )

        return draw

    add("alhambra_start", "alhambra", alhambra(4, 11, lambda p, s: new_game(p, s)))
    add("alhambra_middle", "alhambra", alhambra(4, 11, middle))
    add("alhambra_end_6p", "alhambra", alhambra(6, 5, play, seat=2))

    def placement(players: int, seed: int, rounds: int) -> Draw:
        def draw(labels: Labels | None) -> Image.Image:
            game = placing(players, seed, rounds)
            seat = game.current_seat
            assert seat is not None and game.pending
            return alhambra_image(
                game.view(seat),
                seat,
                name=names(players)[seat],
                placing=game.pending[0],
                labels=labels,
            )

        return draw

    add("alhambra_placing_early", "alhambra", placement(2, 3, 0))
    add("alhambra_placing_late", "alhambra", placement(4, 11, 2))
    add("alhambra_placing_6p_late", "alhambra", placement(6, 5, 2))

    def big(n: int, mode: Mode = "place") -> Draw:
        def draw(labels: Labels | None) -> Image.Image:
            view = new_game(3, 1).view(None)
            tiles = grown_alhambra(n, seed=n)
            view = with_alhambra(view, 1, tiles, unused_tiles(tiles, 5))
            spare = next(t for t in range(1, 55) if t not in tiles.values())
            return alhambra_image(
                view, 1, name=names(4)[3], placing=spare, mode=mode, labels=labels
            )

        return draw

    def record(games: int, seed: int) -> Draw:
        """A player's record: seat 0's games played greedily from seeds, or (past a dozen)
        scores drawn at random around what such games give, for the crowded case."""

        def draw(labels: Labels | None) -> Image.Image:
            from .stats import stats_image

            rng = random.Random(seed)
            points: list[int] = []
            won: list[bool] = []
            rounds: list[list[int]] = [[], [], []]
            types = [0] * 6
            for k in range(min(games, 12)):
                game = play(2 + k % 3, seed + k)
                ranks = game.ranks or (1,)
                points.append(game.scores[0])
                won.append(ranks[0] == 1)
                for held in game.scoring_rounds:
                    row = next(r for r in held.rows if r.seat == 0)
                    rounds[held.round_no - 1].append(row.total)
                    types = [t + p for t, p in zip(types, row.buildings, strict=True)]
            while len(points) < games:
                points.append(max(0, round(rng.gauss(sum(points) / len(points), 20))))
                won.append(points[-1] > 90 and rng.random() < 0.6)
            averages = [sum(r) / len(r) if r else None for r in rounds]
            per_game = [t / min(games, 12) for t in types]
            return stats_image(
                points, won, averages, per_game, name=names(seed % 6 + 1)[-1], labels=labels
            )

        return draw

    add("stats_12_games", "stats", record(12, 1))
    add("stats_200_games", "stats", record(200, 3))
    add("alhambra_huge_40", "alhambra", big(40))
    add("alhambra_huge_45", "alhambra", big(45))
    add("alhambra_huge_swap", "alhambra", big(30, mode="swap"))
    add("alhambra_huge_remove", "alhambra", big(30, mode="remove"))
    return samples
