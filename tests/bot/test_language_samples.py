"""Every language right, read in rendered sentences (not only in keys): a sample of what players
read (turn summaries with purchases and placements, refusals naming a player, counts of 1 and
2, lists) in each language, checked for what a careful reader of that language would notice."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

from bot.core.errors import LobbyFull, NotYourTurn
from bot.core.records import SeatInfo
from bot.text import i18n
from bot.text.menus import build_panel
from bot.text.present import (
    computer_name,
    error_text,
    level_name,
    player_name,
    results_lines,
    turn_lines,
)
from engine import (
    TILES,
    Building,
    BuildingBought,
    BuildingPlaced,
    BuildingReserved,
    BuildingsSwapped,
    Buy,
    DirkDrew,
    MarketDistributed,
    MarketRefilled,
    MoneyTaken,
    PoolRefilled,
    ScoreRow,
    ScoringHeld,
    TurnEnded,
    Undo,
    new_game,
)

WHEN = datetime(2024, 6, 1, tzinfo=UTC)
SEATS = (
    SeatInfo(0, 0, "human", 1, None, "ana", WHEN),
    SeatInfo(1, 1, "human", 2, None, "bruno", WHEN),
    SeatInfo(2, 2, "computer", None, "normal", "Bot Zaida (normal)", WHEN),
)
TOWER = next(t.id for t in TILES if t.building is Building.TOWER and t.cost == 11)
PAVILION = next(t.id for t in TILES if t.building is Building.PAVILION)
ARCADES = next(t.id for t in TILES if t.building is Building.ARCADES)
GARDEN = next(t.id for t in TILES if t.building is Building.GARDEN)


def names(locale: str) -> list[str]:
    return [player_name(locale, seat) for seat in SEATS]


def turns(locale: str) -> list[str]:
    """A few turns as the channel reads them: money, purchases and placements by a person and
    by the computer player, the refills, a scoring round and the market handed out."""
    who = names(locale)
    lines = []
    lines += turn_lines(
        locale,
        who,
        [MoneyTaken(1, (80, 81))],
        [PoolRefilled((20, 60)), MarketRefilled(0, PAVILION), MarketRefilled(1, ARCADES)],
    )
    lines += turn_lines(
        locale,
        who,
        [BuildingBought(0, 2, TOWER, (20, 21), False), BuildingPlaced(0, TOWER, 6, 5)],
        [MarketRefilled(2, GARDEN)],
    )
    lines += turn_lines(
        locale,
        who,
        [
            BuildingBought(2, 0, PAVILION, (0,), True),
            BuildingReserved(2, PAVILION),
            BuildingsSwapped(2, ARCADES, GARDEN, 5, 6),
        ],
        [
            PoolRefilled((3,)),
            DirkDrew((GARDEN,)),
            MarketDistributed(1, ARCADES, 2),
            MarketDistributed(2, GARDEN, None),
            ScoringHeld(
                1, tuple(ScoreRow(s, (1, 0, 0, 0, 0, 0), 2, 3 + s, 3 + s) for s in range(3)), ()
            ),
        ],
    )
    return lines


def refusals(locale: str) -> list[str]:
    return [error_text(NotYourTurn(variant="named", name=seat), locale) for seat in SEATS] + [
        error_text(LobbyFull(variant="size", count=2), locale)
    ]


def counts(locale: str) -> list[str]:
    return [
        i18n.t(locale, key, count=n, name="ana")
        for key in ("notify.reminder", "panel.count", "log.dirk_drew", "deadline.handed_over")
        for n in (1, 2)
    ]


def panels(locale: str) -> list[str]:
    """What the private panel says in a real game: how to pay for a building in the market."""
    game = new_game(3, 7)
    view = game.view(game.current_seat)
    slots = {a.slot for a in game.legal_actions() if isinstance(a, Buy)}
    return [build_panel(view, locale, f"buy-{slot}").text for slot in sorted(slots)]


def whole_game(locale: str, seed: int = 5) -> list[str]:
    """Every turn of a game played to the end at random, as the channel would read it."""
    game = new_game(3, seed)
    rng = random.Random(seed)
    lines, steps = [], []
    while not game.is_over:
        moves = [a for a in game.legal_actions() if not isinstance(a, Undo)]
        events = game.apply(rng.choice(moves))
        ended = next((i for i, e in enumerate(events) if isinstance(e, TurnEnded)), None)
        if ended is None:
            steps += events
            continue
        lines += turn_lines(locale, names(locale), steps + events[:ended], events[ended:])
        steps = []
    return lines + results_lines(locale, names(locale), game.view(None))


def sample(locale: str) -> list[str]:
    return turns(locale) + refusals(locale) + counts(locale) + panels(locale)


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_the_sample_is_filled_and_names_the_computer_player_once(locale: str) -> None:
    # (without the invisible marks that set parts of a right-to-left line apart)
    text = i18n.plain("\n".join(sample(locale) + whole_game(locale)))
    assert "{" not in text and "}" not in text
    assert "(s)" not in text
    level = {"en": "normal", "ja": "ふつう", "pt-BR": "médio", "fa": "متوسط"}[locale]
    shown = f"Bot Zaida\uff08{level}\uff09" if locale == "ja" else f"Bot Zaida ({level})"
    assert i18n.plain(player_name(locale, SEATS[2])) == shown
    assert text.count("Bot Zaida") == text.count(shown) > 3
    if locale != "en":
        assert "(normal)" not in text  # the stored English level never shows
    lobby = i18n.t(
        locale, "lobby.computer", name=computer_name(SEATS[2]), level=level_name(locale, "normal")
    )
    lobby = i18n.plain(lobby)
    assert lobby.count(level) == 1 and lobby.startswith("Bot Zaida") and "normal)" not in lobby[:12]


#: Characters of the Japanese script and its full-width punctuation.
WIDE = r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]"


def test_japanese_has_no_half_width_spacing_artefacts() -> None:
    lines = sample("ja") + whole_game("ja")
    text = "\n".join(lines)
    for line in lines:
        assert not re.search(rf"{WIDE} (?={WIDE})", line), line  # a space between wide ones
        assert " の" not in line and "。 " not in line and "、 " not in line, line
        assert not re.search(r"\S [をにでがはと]", line), line  # no space before a particle
    assert "ディナール" in text and not re.search(
        r"(クラウン|ディルハム|ディナール|ドゥカート) \d", text
    )
    assert re.search(r"\uff08\d+\uff09の支払い方は\uff1f\S", text)  # no space around it


def test_japanese_lists_use_its_own_separator_and_no_honorific_for_a_computer() -> None:
    lines = turns("ja") + whole_game("ja")
    scores = next(line for line in lines if line.startswith("ana\uff1a+") or "\uff1a+" in line)
    assert "\u3001" in scores and ", " not in scores
    market = next(line for line in lines if "市場に新しい建物" in line and "\u3001" in line)
    assert ", " not in market
    assert all(", " not in line for line in lines)
    text = "\n".join(sample("ja") + whole_game("ja"))
    assert "Bot Zaida\uff08ふつう\uff09さん" not in text
    assert "Bot Zaida\uff08ふつう\uff09が" in text  # ...but it does act in sentences
    assert "今はanaの手番です" in text and "今はBot Zaida\uff08ふつう\uff09の手番です" in text
    assert i18n.join("ja", names("ja")) == "ana\u3001bruno\u3001Bot Zaida\uff08ふつう\uff09"


#: Portuguese articles for the building names, as the catalogue gives them.
ARTICLE = r"(o|a|os|as) (Pavilhão|Serralho|Arcadas|Aposentos|Jardim|Torre)"


def test_portuguese_names_buildings_with_their_articles() -> None:
    lines = sample("pt-BR") + whole_game("pt-BR")
    text = "\n".join(lines)
    assert "ana comprou a Torre (11) por " in text
    assert "ana colocou a Torre (11) em " in text
    assert "comprou o Pavilhão" in text
    for verb in ("comprou", "colocou", "deu", "moveu", "construiu", "tirou"):
        for found in re.finditer(rf"\b{verb} (\S+)", text):
            assert re.match(ARTICLE, text[found.start(1) :]) or found[1] in ("no",), found[0]
    assert re.search(rf"Como você paga {ARTICLE} \(\d+\)\?", text)
    assert "fica com as Arcadas" in text and "Ninguém fica com o Jardim" in text
    assert not re.search(
        r"(comprou|colocou|paga) (Pavilhão|Serralho|Arcadas|Aposentos|Jardim|Torre)", text
    )


@pytest.mark.parametrize(
    ("locale", "one", "two"),
    [
        ("en", "1 game waiting", "2 games waiting"),
        ("en", "1 choice", "2 choices"),
        ("en", "Dirk takes 1 building ", "Dirk takes 2 buildings "),
        ("pt-BR", "1 jogo esperando", "2 jogos esperando"),
        ("pt-BR", "1 opção", "2 opções"),
        ("pt-BR", "perdeu 1 prazo:", "perdeu 2 prazos seguidos"),
        ("ja", "ゲームが1件", "ゲームが2件"),
    ],
)
def test_counts_of_one_and_two_take_real_plurals(locale: str, one: str, two: str) -> None:
    text = "\n".join(counts(locale))
    assert one in text and two in text


def test_english_reads_naturally_too() -> None:
    text = "\n".join(sample("en") + whole_game("en"))
    assert "ana bought the Tower (11) for " in text and "ana placed the Tower (11) at " in text
    assert "It is ana's turn, not yours." in text
    assert "It is Bot Zaida (normal)'s turn, not yours." in text
    assert "How do you pay for the " in text
    assert re.search(r"New money in the pool: .+\. New in the market: \w+ \(\d+\), ", text)
    assert "the the" not in text.lower()


#: Persian's own digits, zero first.
PERSIAN_DIGITS = "".join(chr(0x06F0 + d) for d in range(10))


def fa(text: str) -> str:
    """A text with its ASCII digits written as Persian writes them (a pattern's \\d too)."""
    text = text.replace("\\d", f"[{PERSIAN_DIGITS}]")
    return text.translate(str.maketrans("0123456789", PERSIAN_DIGITS))


#: The six building types as the Persian catalogue names them.
BUILDINGS_FA = "(کوشک|حرمسرا|رواق|حجره|باغ|برج)"


def test_persian_reads_verb_last_with_its_object_marker() -> None:
    """Persian puts the verb last and marks a definite object with «را»: "ana buys the Tower
    for ..." is «ana برج (11) را با ... خرید.», never the English order word for word."""
    lines = [i18n.plain(line) for line in sample("fa") + whole_game("fa")]
    text = "\n".join(lines)
    assert fa("ana برج (11) را با ") in text and fa("ana برج (11) را در ") in text
    assert re.search(fa(r"ana برج \(11\) را با کرون \d+ \+ کرون \d+ خرید\."), text)
    # a cell code is written as it is typed: a Latin letter and ASCII digits
    assert re.search(fa(r"ana برج \(11\) را در ") + r"[A-Z][0-9]+ گذاشت\.", text)
    for found in re.finditer(rf"{BUILDINGS_FA} \(\d+\) را (با|در) ", text):
        line = next(line for line in lines if found[0] in line)
        assert re.search(r"(خرید|گذاشت|ساخت|برد|عوض کرد)( \(.*\))?\.$", line), line
    assert "نوبتِ ana است، نه شما." in text and "نوبتِ Bot Zaida (متوسط) است، نه شما." in text
    assert "پول شما:" in text and "کم دارید" in text
    # Persian's own list comma, and no English left in the sentences
    assert "، " in text and ", " not in text
    assert not re.search(r"\b(took|bought|placed|turn|money)\b", text)


def test_persian_writes_numbers_with_persian_digits() -> None:
    """Persian text counts, costs and scores with Persian digits (CLDR's default for fa),
    as Persian readers expect; only what a player types stays Latin: a cell code such as B3
    and a card code such as CR5."""
    lines = [i18n.plain(line) for line in sample("fa") + whole_game("fa")]
    latin = [line for line in lines if re.search(r"(?<![A-Za-z0-9])[0-9]", line)]
    assert not latin, latin[:5]
    text = "\n".join(lines)
    assert re.search(fa("[0-9]+ امتیاز"), text)
    assert i18n.number("fa", 110.5) == fa("110") + "\u066b" + fa("5")
    assert i18n.number("en", 110.5) == "110.5"


def test_persian_counts_keep_a_singular_noun_after_the_number() -> None:
    text = i18n.plain("\n".join(counts("fa")))
    assert fa("1 بازی منتظر حرکت شماست") in text and fa("2 بازی منتظر حرکت شما هستند") in text
    assert fa("دیرک 1 ساختمان") in text and fa("دیرک 2 ساختمان ") in text
    assert not re.search("\\d ساختمان\u200c", text)  # never "2 buildings", a plural noun


def test_every_mixed_persian_line_reads_right_to_left() -> None:
    """Whatever direction Discord gives a message, each line that mixes Persian with Latin
    names, codes or digits is a right-to-left isolate, and every name and code inside it an
    isolate of its own, so they keep their place in the sentence."""
    for line in sample("fa") + whole_game("fa"):
        for part in line.split("\n"):
            shown = i18n.plain(part)
            mixed = re.search(r"[A-Za-z0-9]", shown) and re.search(r"[\u0600-\u06ff]", shown)
            if mixed:
                assert part.startswith(i18n.RTL_START) and part.endswith(i18n.ISOLATE_END), part
                assert part.count(i18n.ISOLATE_START) >= 1, part
