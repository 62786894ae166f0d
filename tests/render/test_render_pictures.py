"""The table, hands and score sheets: every position draws, within the limits, for any name."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Currency, card_id, new_game
from render import (
    render_alhambra,
    render_hand,
    render_scores,
    render_table,
    scores_image,
    table_image,
)
from render.gallery import main as gallery_main
from render.hand import hand_image
from render.palette import BAD, GOOD, TURN
from render.samples import gallery, names
from render.table import HEAD_H, MARKET_H, ROW_H, TOP

NASTY_NAMES = [
    "さくら",
    "山田太郎のアルハンブラ宮殿",
    "x" * 300,
    "🐉🔥👨‍👩‍👧‍👦",
    "نور الهدى",
    "שָׁלוֹם",
    "\u202eevil override\u202c",
    "Zalgo z̷̢̛̛a̵l̴g̶o̷",
    "",
    "   ",
    "line\nbreak\ttab\x00nul",
]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("when", ["start", "middle", "end"])
def test_table_draws_every_stage_within_limits(games, players, when, decode):
    game = games[players][when]
    before = game.to_json()
    img = decode(render_table(game.view(None), names(players)))
    assert game.to_json() == before  # drawing never changes the game
    assert img.width == 720
    assert img.height < 700
    assert img.size == table_image(game.view(None), names(players)).size


def test_the_current_player_is_framed(games):
    game = games[3]["middle"]
    view = game.view(None)
    img = table_image(view, names(3))
    seat = view.current_seat
    # One line per seat, in seat order while the game runs; the current one is framed in the
    # turn colour (and marked with an arrow, so colour is not the only cue).
    framed = []
    for s in range(3):
        top = TOP + MARKET_H + 12 + HEAD_H + s * ROW_H
        framed.append(img.getpixel((img.width // 2, top + 3)) == TURN)
    assert framed == [s == seat for s in range(3)]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_scores_draw_before_during_and_after(games, players, decode):
    for when in ("start", "middle", "end"):
        view = games[players][when].view(None)
        img = decode(render_scores(view, names(players)))
        assert img.size == scores_image(view, names(players)).size
        assert img.width == 640


def test_hand_shows_affordability_per_slot(decode):
    game = new_game(3, 4)
    view = game.view(game.current_seat)
    img = decode(render_hand(view, name="Ana"))
    assert img.size == hand_image(view, name="Ana").size
    with pytest.raises(ValueError, match="spectator"):
        render_hand(game.view(None))


def _colours(img, box):
    region = img.crop(box)
    return {c for _n, c in region.getcolors(1 << 20)}


def test_hand_marks_what_it_can_and_cannot_buy():
    # A hand holding only crowns can pay slot 1 and nothing else.
    view = new_game(3, 4).view(0)
    crowns = tuple(card_id(Currency.CROWN, v, 0) for v in (9, 8, 7, 6, 5))
    view = dataclasses.replace(view, hand=crowns)
    img = hand_image(view)
    col = (img.width - 32 - 30) // 4
    first = _colours(img, (16, img.height - 90, 16 + col, img.height - 16))
    last = _colours(img, (img.width - 16 - col, img.height - 90, img.width - 16, img.height - 16))
    assert GOOD in first and BAD not in first
    assert BAD in last and GOOD not in last


@pytest.mark.parametrize("name", NASTY_NAMES)
def test_any_name_draws_safely(name, decode):
    view = new_game(6, 2).view(0)
    all_names = [name] * 6
    decode(render_table(view, all_names))
    decode(render_scores(view, all_names))
    decode(render_hand(view, name=name))
    decode(render_alhambra(view, 0, name=name))


def test_every_gallery_case_renders(decode):
    seen = set()
    for sample in gallery():
        assert sample.name not in seen
        seen.add(sample.name)
        decode(sample.draw())
    assert {"alhambra_huge_45", "alhambra_placing_late", "table_6p_end", "table_2p_start"} <= seen


def test_gallery_command_writes_the_files(tmp_path, capsys):
    assert gallery_main([str(tmp_path / "out")]) == 0
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(files) == len(gallery())
    assert all(f.endswith(".png") and (tmp_path / "out" / f).stat().st_size > 1000 for f in files)
    assert "fonts:" in capsys.readouterr().out


def _drawn_words(monkeypatch, draw) -> list[str]:
    """Every text a picture draws, in order (the words are drawn for real as well)."""
    from render import text as render_text

    real, words = render_text.draw, []

    def spy(canvas, xy, value, *args, **kwargs):
        words.append(value)
        return real(canvas, xy, value, *args, **kwargs)

    monkeypatch.setattr(render_text, "draw", spy)
    draw()
    return words


def test_the_score_sheet_shows_the_counts_behind_the_points(games, monkeypatch):
    view = games[4]["end"].view(None)
    words = _drawn_words(monkeypatch, lambda: scores_image(view, names(4)))
    assert words.count("count · rank") == 1
    assert not any(w.startswith("If round") for w in words), "nothing to foresee once over"
    for held in view.scoring_rounds:  # the standings: what each round gave each player
        for row in held.rows:
            if row.seat >= 0:
                assert f"+{row.total}" in words
    last = view.scoring_rounds[-1]  # in detail: the last round, type by type
    detail = words[words.index("Final scoring") :]
    for row in last.rows:
        if row.seat < 0:
            continue
        for i, (count, points) in enumerate(zip(last.counts[row.seat], row.buildings, strict=True)):
            if count:  # buildings, their rank among those who had any, the points they brought
                rank = 1 + sum(c[i] > count for c in last.counts)
                assert str(count) in detail and str(rank) in detail and f"+{points}" in detail
        assert str(row.wall) in detail


def test_a_running_score_sheet_foresees_the_next_round(games, monkeypatch):
    from engine import scoring_now

    view = games[3]["middle"].view(None)
    words = _drawn_words(monkeypatch, lambda: scores_image(view, names(3)))
    now = scoring_now(view)
    title = f"If round {now.round_no} were held now"
    assert title in words
    foreseen = words[words.index(title) :]  # the detail: what each player would get
    for row in now.rows:
        assert f"+{row.total}" in foreseen


def test_a_round_just_held_can_be_shown_in_detail(games, monkeypatch):
    view = games[4]["middle"].view(None)
    assert view.scoring_rounds
    first = view.scoring_rounds[0]
    words = _drawn_words(monkeypatch, lambda: scores_image(view, names(4), detail=1))
    assert "First scoring" in words and not any(w.startswith("If round") for w in words)
    detail = words[words.index("First scoring") :]
    for row in first.rows:
        if row.seat >= 0:
            assert f"+{row.total}" in detail


def test_a_long_name_is_cut_short_but_the_title_still_says_whose_turn(games, monkeypatch):
    view = games[6]["middle"].view(None)
    long_names = ["Maximilian von Hohenzollern-Sigmaringen the Magnificent " * 2] * 6
    words = _drawn_words(monkeypatch, lambda: table_image(view, long_names))
    titles = [w for w in words if w.endswith(" to play")]
    assert len(titles) == 1 and "…" in titles[0]
