"""The pictures in words (attachment descriptions): what each shows, in the reader's language,
within Discord's 1,024 characters."""

from __future__ import annotations

import dataclasses

import pytest

from bot.text import i18n
from bot.text.alt import ALT_LIMIT, alhambra_alt, hand_alt, scores_alt, stats_alt, table_alt
from bot.text.present import building_name, card_name, cell_text
from engine import CARDS, TILES, Building, Currency, Place, new_game, scoring_now
from render.samples import late, placing, play

NAMES = ["ana", "bruno", "chiyo", "dan", "eve", "flo"]


def test_the_table_says_whose_turn_the_market_the_pool_and_the_scores() -> None:
    game = late(4, 11)
    view = game.view(None)
    said = table_alt("en", NAMES, view)
    assert said.startswith(f"The Alhambra table: {NAMES[view.current_seat]} to play. Market: ")
    for slot, tile in enumerate(view.market):
        currency = Currency(slot).name.capitalize()
        if tile is None:
            assert f"{currency}: empty" in said
        else:  # the slot's currency, the building and its price
            assert f"{currency}: {building_name('en', tile)}" in said
            assert f"({TILES[tile].cost})" in said
    for card in view.pool:
        assert card_name("en", card) in said
    for seat, player in enumerate(view.table):
        assert (
            f"{NAMES[seat]}: {player.score} points, {len(player.alhambra)} buildings, "
            f"longest outer wall {player.wall}"
        ) in said
    assert "Dirk" not in said
    assert len(said) <= ALT_LIMIT


def test_the_table_of_two_players_counts_dirk_and_the_end_says_so() -> None:
    game = play(2, 3)
    said = table_alt("en", NAMES, game.view(None))
    assert said.startswith("The Alhambra table at the end of the game.")
    assert f"Dirk (neutral) has {len(game.view(None).dirk or ())} buildings." in said


def test_an_alhambra_says_whose_it_is_its_buildings_wall_and_reserve() -> None:
    view = late(4, 11).view(None)
    player = view.table[2]
    said = alhambra_alt("en", "chiyo", view, 2)
    assert said.startswith(f"chiyo's Alhambra: {len(player.alhambra)} buildings (")
    for building, count in zip(Building, player.counts, strict=True):
        name = i18n.t("en", f"building.{building.label}")
        assert (f"{name} {count}" in said) == bool(count), (name, count)
    assert f"longest outer wall {player.wall}, {len(player.reserve)} in the reserve." in said
    start = new_game(3, 1).view(None)
    assert alhambra_alt("en", "ana", start, 0) == (
        "ana's Alhambra: only the fountain so far, 0 in the reserve."
    )


def test_a_placement_picture_names_the_cells_it_labels() -> None:
    game = placing(4, 11, 1)
    seat = game.current_seat
    view = game.view(seat)
    tile = view.pending[0]
    said = alhambra_alt("en", "dan", view, seat, (tile, "place"))
    legal = [cell_text(a.x, a.y) for a in view.legal if isinstance(a, Place) and a.tile == tile]
    assert legal
    where = said.split(f"Where the {building_name('en', tile)} may go: ")[1]
    assert sorted(where.rstrip(".").split(", ")) == sorted(legal)


def test_a_hand_says_the_cards_and_each_currencys_total() -> None:
    game = late(4, 11)
    view = game.view(game.current_seat)
    assert view.hand
    said = hand_alt("en", "ana", view)
    assert said.startswith("ana's hand: ")
    for currency in Currency:
        total = sum(CARDS[c].value for c in view.hand if CARDS[c].currency == currency)
        assert f"{currency.name.capitalize()} {total}" in said.split("Totals: ")[1]
    empty = dataclasses.replace(view, hand=())
    assert hand_alt("en", "ana", empty) == "ana's hand is empty."


def test_the_score_sheet_says_the_standings_and_each_round() -> None:
    view = late(4, 11).view(None)
    said = scores_alt("en", NAMES, view)
    held = len(view.scoring_rounds)
    assert said.startswith(f"Score sheet after {held} of 3 scoring rounds. Standings: 1. ")
    for scoring in view.scoring_rounds:
        rows = ", ".join(f"{NAMES[r.seat]} +{r.total}" for r in scoring.rows)
        assert f"Round {scoring.round_no}: {rows}." in said
    now = scoring_now(view)
    rows = ", ".join(f"{NAMES[r.seat]} +{r.total}" for r in now.rows)
    assert said.endswith(f"If round {now.round_no} were held now: {rows}.")
    over = play(3, 2).view(None)
    final = scores_alt("en", NAMES, over)
    assert final.startswith("Final scores. Standings: ") and "were held now" not in final
    best = min(range(3), key=lambda s: (over.ranks[s], s))
    assert final.startswith(f"Final scores. Standings: 1. {NAMES[best]} {over.scores[best]}")


@pytest.mark.parametrize(
    ("locale", "market", "pool"),
    [("ja", "\u5e02\u5834\uff1a", "\u5834\u306e\u304a\u91d1"), ("pt-BR", "Mercado: ", "Dinheiro")],
)
def test_descriptions_are_in_the_readers_language(locale: str, market: str, pool: str) -> None:
    game = late(4, 11)
    view = game.view(game.current_seat)
    table = table_alt(locale, NAMES, view)
    assert market in table and pool in table and "Market" not in table
    assert i18n.t(locale, "currency.crown") in table
    board = alhambra_alt(locale, "ana", view, 0)
    assert board.startswith(i18n.t(locale, "alt.alhambra", name="ana", buildings=0).split("0")[0])
    standings = i18n.t(locale, "alt.scores.standings", rows="|").split("|")[0]
    assert standings in scores_alt(locale, NAMES, view)
    if locale == "ja":  # sentences follow each other without a space after a full stop
        assert "\u3002 " not in table and "\u3002" + market in table


def test_descriptions_stay_within_discords_limit() -> None:
    view = play(6, 5).view(None)
    long_names = ["W" * 32 + str(i) for i in range(6)]
    for locale in i18n.SUPPORTED:
        for said in (
            table_alt(locale, long_names, view),
            scores_alt(locale, long_names, view),
            alhambra_alt(locale, long_names[0], view, 0),
        ):
            assert 0 < len(said) <= ALT_LIMIT
    absurd = ["x" * 400] * 6  # longer than any name the bot accepts: cut, not refused
    said = table_alt("en", absurd, view)
    assert len(said) == ALT_LIMIT and said.endswith("…")


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_a_record_says_its_games_scores_rounds_and_types(locale: str) -> None:
    from bot.core.stats import PlayerStats

    stats = PlayerStats(1, games=3, wins=1, points=[60, 95, 71], won=[False, True, False])
    stats.round_points = {1: [8, 10, 12], 2: [20, 30, 25]}
    stats.building_points = [9, 0, 3, 6, 12, 30]
    said = stats_alt(locale, "ana", stats)
    number = i18n.number
    assert "ana" in said and number(locale, 60) in said and number(locale, 95) in said
    assert number(locale, 75.3) in said
    assert i18n.t(locale, "stats.round", round=2, points=25.0) in said
    for building, per_game in zip(Building, (3.0, 0.0, 1.0, 2.0, 4.0, 10.0), strict=True):
        name = i18n.t(locale, f"building.{building.label}")
        assert i18n.t(locale, "stats.type", building=name, points=per_game) in said
    assert len(said) <= ALT_LIMIT
    if locale == "en":
        assert said.startswith("ana's record: 3 games, final scores from 60 to 95, 75.3 on")
        one = PlayerStats(1, games=1, wins=0, points=[50], won=[False])
        assert stats_alt("en", "ana", one).startswith(
            "ana's record: one game, not won, with a final score of 50."
        )
        one.wins, one.won = 1, [True]
        assert stats_alt("en", "ana", one).startswith("ana's record: one game, won with a final")
    assert stats_alt(locale, "ana", PlayerStats(1)) == i18n.t(locale, "stats.none")


@pytest.mark.parametrize(
    ("locale", "one", "many"),
    [
        ("en", "0 points, 1 building,", "3 buildings"),
        ("pt-BR", "0 pontos, 1 edifício,", "3 edifícios"),
    ],
)
def test_a_count_of_one_reads_as_one(locale: str, one: str, many: str) -> None:
    """ "bruno: 0 points, 1 buildings" was the table's description early in every game: each
    count takes its own form ("1 building", "3 buildings")."""
    game = new_game(2, 1)
    view = game.view(None)
    players = [dataclasses.replace(p, score=0, alhambra=p.alhambra) for p in view.table]
    one_building = {(0, 0): 1}
    three = {(0, 0): 1, (1, 0): 2, (2, 0): 3}
    players[0] = dataclasses.replace(players[0], alhambra=one_building)
    players[1] = dataclasses.replace(players[1], alhambra=three)
    said = table_alt(locale, NAMES, dataclasses.replace(view, table=tuple(players)))
    assert one in said and many in said, said
    assert "1 buildings" not in said and "1 edifícios" not in said


def test_the_points_table_description_has_no_markdown() -> None:
    """A screen reader reads "**Round 1**" out with its asterisks."""
    from bot.text.alt import points_alt

    for locale in i18n.SUPPORTED:
        said = points_alt(locale)
        assert "*" not in said and len(said) > 100, said
