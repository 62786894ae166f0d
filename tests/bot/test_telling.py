"""What the channel is told, and when: computer players' turns are folded into the next
person's turn message, and the start names the order of play from the player who starts."""

from __future__ import annotations

import random

from bot.core.results import LoggedTurn, untold
from bot.text.present import start_lines, told_lines
from engine import (
    CARDS,
    GameStarted,
    MoneyTaken,
    ScoringHeld,
    TakeMoney,
    Undo,
    new_game,
)


def turn(seat: int, seq: int, *, scoring: bool = False) -> LoggedTurn:
    end = [ScoringHeld(1, (), ())] if scoring else []
    return LoggedTurn(seat, [MoneyTaken(seat, (seq,))], list(end), seq)  # type: ignore[arg-type]


def test_a_persons_turn_is_told_alone() -> None:
    # seat 1 is a computer; seats 0 and 2 are people
    turns = [turn(0, 1), turn(1, 2), turn(2, 3)]
    assert untold(turns, {1}) == turns[2:]  # the computer's turn was told when it handed over
    assert untold(turns[:2], {1}) == turns[:2]  # ...together with ana's, which handed to it
    assert untold(turns[:1], {1}) == turns[:1]


def test_computer_turns_are_told_with_the_next_persons() -> None:
    # seats 1 and 2 are computers: after ana (0) they both play, then it is ana's turn
    turns = [turn(0, 1), turn(1, 2), turn(2, 3), turn(0, 4), turn(1, 5), turn(2, 6)]
    assert untold(turns, {1, 2}) == turns[3:]  # ana's own move, then both computers'
    assert untold(turns[:3], {1, 2}) == turns[:3]
    # when computers open the game, everything so far is untold
    assert untold(turns[1:3], {1, 2}) == turns[1:3]


def test_a_scoring_round_is_told_when_it_happens() -> None:
    turns = [turn(0, 1), turn(1, 2, scoring=True), turn(2, 3)]
    assert untold(turns[:2], {1, 2}) == turns[:2]  # the scoring post tells both
    assert untold(turns, {1, 2}) == turns[2:]  # and the next message starts after it


def test_told_lines_name_every_untold_turn_in_order() -> None:
    game = new_game(3, 7)
    names = ["ana", "Bot Zaida", "Bot Omar"]
    turns = []
    for seq in range(1, 4):
        seat = game.current_seat
        assert seat is not None
        take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
        steps = game.apply(take)
        end = game.apply(next(a for a in game.legal_actions() if not isinstance(a, Undo)))
        turns.append(LoggedTurn(seat, list(steps), list(end), seq))
    told = untold(turns, {1, 2})
    assert told and told[-1] is turns[-1]
    lines = told_lines("en", names, told)
    movers = [names[t.seat] for t in told]
    said = [line for line in lines if "took" in line]
    assert [line.split(" took")[0] for line in said] == movers


def test_the_start_lists_the_order_from_the_player_who_starts_and_says_why() -> None:
    for seed in range(40):
        game = new_game(3, seed)
        started = next(e for e in game.setup_events() if isinstance(e, GameStarted))
        names = ["ana", "bruno", "chiyo"]
        lines = start_lines("en", names, started)
        first = started.start_seat
        order = [names[(first + i) % 3] for i in range(3)]
        assert lines[0] == f"The game begins! Order of play: {', '.join(order)}."
        assert lines[1].startswith(f"{names[first]} starts: fewest starting cards")
        counts = [len(h) for h in started.hands]
        if counts.count(min(counts)) == 1:
            assert lines[1].endswith(f"({min(counts)}).")
        # everyone's starting money, in the order of play, with the right totals
        for line, seat in zip(lines[3:], [(first + i) % 3 for i in range(3)], strict=True):
            assert line.startswith(f"- {names[seat]}: ")
            assert str(max(CARDS[c].value for c in started.hands[seat])) in line


def test_the_start_reason_names_a_tie_on_cards() -> None:
    rng = random.Random(3)
    for _ in range(200):
        seed = rng.randrange(10_000)
        started = next(e for e in new_game(4, seed).setup_events() if isinstance(e, GameStarted))
        counts = [len(h) for h in started.hands]
        if counts.count(counts[started.start_seat]) > 1:
            line = start_lines("en", ["a", "b", "c", "d"], started)[1]
            assert "and the least money" in line or "first in the seating" in line
            return
    raise AssertionError("no deal with a tie on the number of cards among 200")
