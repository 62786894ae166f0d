"""`python -m bot play`: whole games in the terminal through the prompts a person sees."""

from __future__ import annotations

import io
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import build_parser
from bot.cli.offline import run_play
from bot.core.verify import verify_database

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"
MENU_LINE = re.compile(r"^\s+(\d+)\. (.*)$")


def _args(*argv: str):
    return build_parser().parse_args(["play", *argv])


def _game_row(db: Path) -> sqlite3.Row:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute("SELECT id, status, version FROM games").fetchone()
    finally:
        conn.close()


class MenuReader(io.TextIOBase):
    """A player at the keyboard: reads the menu just printed and answers like a person would
    (build when possible, buy when possible, else the first choice; Enter to take the
    keyboard)."""

    PREFER = ("Place bought", "Buy", " at ", "exact", "End turn")

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.seen = 0
        self.answers = 0

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        text = self.out.getvalue()[self.seen :]
        self.seen = len(self.out.getvalue())
        self.answers += 1
        if self.answers > 20_000:  # a game that never ends is a failure, not a hang
            return ""
        if "Pass the keyboard" in text.rsplit("\n", 1)[-1]:
            return "\n"
        menu = [m.groups() for line in text.splitlines() if (m := MENU_LINE.match(line))]
        for word in self.PREFER:
            for number, label in menu:
                if word in label and not label.startswith(("Back", "Undo")):
                    return f"{number}\n"
        return "1\n"


def test_a_whole_game_choosing_the_first_option_every_time(tmp_path: Path) -> None:
    """The real command in a subprocess, fed a stdin of 1s, plays a game to its end."""
    db, out = tmp_path / "offline.sqlite3", tmp_path / "pictures"
    cmd = [sys.executable, "-m", "bot", "play", "--levels", "random", "--seed", "5"]
    cmd += ["--db", str(db), "--out", str(out)]
    done = subprocess.run(
        cmd, input="1\n" * 5000, capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "The game begins! Order of play:" in text and "Starting money" in text
    assert "Your turn: what do you do?" in text and "   1. Take money" in text
    assert "Scoring round 3!" in text
    assert "The game is over!" in text and "Winner:" in text
    results = text[text.index("The game is over!") :]
    assert re.search(r"1\. .+: \d+ points", results) and re.search(r"2\. .+: \d+ points", results)
    for name in ("table.png", "alhambra-1-you.png", "scores.png"):
        assert (out / name).read_bytes().startswith(PNG), name
    assert f"picture: {out / 'table.png'}" in text
    # the game went through the service into the database, and replays to the same state
    game = _game_row(db)
    assert game["status"] == "finished" and game["version"] > 50
    report = verify_database(db)
    assert report.ok and report.replayed == 1 and report.actions == game["version"]


def test_hot_seat_game_with_a_computer_and_confirmed_turns(tmp_path: Path) -> None:
    """Two people share the keyboard against a computer, reading the menus, to the end."""
    db, out = tmp_path / "hotseat.sqlite3", tmp_path / "pictures"
    stdout = io.StringIO()
    args = _args(
        "--humans", "Ana,Bo", "--levels", "easy", "--seed", "11", "--confirm",
        "--db", str(db), "--out", str(out),
    )  # fmt: skip
    assert run_play(args, MenuReader(stdout), stdout) == 0
    text = stdout.getvalue()
    assert "Pass the keyboard to Ana" in text and "Pass the keyboard to Bo" in text
    assert re.search(r"(Ana|Bo) bought the .+ for ", text)
    assert re.search(r"(Ana|Bo) placed the .+ at [A-Z]\d+", text)
    assert "   1. End turn" in text  # --confirm: the turn waits for a confirmation
    assert "(the cell codes are marked on" in text and (out / "choices.png").is_file()
    assert "The game is over!" in text
    assert {p.name for p in out.glob("alhambra-*.png")} >= {
        next(p.name for p in out.glob("alhambra-*-ana.png")),
        next(p.name for p in out.glob("alhambra-*-bo.png")),
    }
    assert _game_row(db)["status"] == "finished"
    assert verify_database(db).ok


def test_bad_input_is_refused_and_the_prompt_repeats(tmp_path: Path) -> None:
    db = tmp_path / "bad.sqlite3"
    stdout = io.StringIO()
    typed = "hello\n\n99\n0\n-3\n?\n"
    args = _args("--levels", "random", "--seed", "5", "--db", str(db), "--out", str(tmp_path))
    assert run_play(args, io.StringIO(typed), stdout) == 0  # then end of input: Ctrl-D
    text = stdout.getvalue()
    assert "'hello' is not a number: type one from 1 to 2." in text
    assert "Please type the number of a choice, from 1 to 2." in text
    assert "There is no choice 99: type a number from 1 to 2." in text
    assert "There is no choice 0: type a number from 1 to 2." in text
    assert "There is no choice -3: type a number from 1 to 2." in text
    assert text.count("Your choice (1-2, ? to list again, q to quit): ") == 7
    assert text.count("   1. Take money") == 2  # "?" listed the menu again
    assert f"Goodbye! It is saved in {db}" in text
    # nothing the refused input said reached the game: it still waits on the same decision
    before = _game_row(db)
    assert before["status"] == "active"
    again = io.StringIO()
    assert run_play(args, io.StringIO("q\n"), again) == 0
    assert f"Resuming game #{before['id']}" in again.getvalue()
    assert _game_row(db)["version"] == before["version"]
    turn = re.findall(r"Turn \d+: You to play", text)[-1]
    assert turn in again.getvalue()


def test_the_table_is_set_up_with_menus_when_no_flag_says_how(tmp_path: Path) -> None:
    stdout = io.StringIO()
    # 3 players; player 2 a hard computer; player 3 a person named Bo; then Ctrl-D
    typed = "2\n4\nseven\n6\nBo\n"
    assert run_play(_args("--name", "Ana", "--out", str(tmp_path)), io.StringIO(typed), stdout) == 0
    text = stdout.getvalue()
    assert "How many players at the table, you included?" in text and "   5. 6 players" in text
    assert "Who is player 2?" in text and "Computer: Hard (hard)" in text
    assert "'seven' is not a number: type one from 1 to 6." in text
    order = re.search(r"Order of play: (.*)\.", text)
    assert order is not None
    players = order[1].split(", ")
    assert sorted(players)[:2] == ["Ana", "Bo"] and any("(hard)" in p for p in players)
    assert text.rstrip().endswith("Goodbye!")


def test_end_of_input_at_the_first_prompt_exits_cleanly(tmp_path: Path) -> None:
    stdout = io.StringIO()
    assert run_play(_args("--out", str(tmp_path)), io.StringIO(""), stdout) == 0
    assert "Goodbye!" in stdout.getvalue()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--computers", "6"], "Alhambra is played by 2 to 6: 1 people and 6 computer players"),
        (["--humans", "Ana", "--computers", "0"], "make 1"),
        (["--levels", "easy,grandmaster"], "no computer level 'grandmaster'"),
        (["--humans", "Ana,ana"], "the people at the keyboard need different names"),
    ],
)
def test_an_impossible_table_is_refused(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stdout = io.StringIO()
    assert run_play(_args(*argv, "--out", str(tmp_path)), io.StringIO("1\n"), stdout) == 2
    assert message in capsys.readouterr().err
    assert stdout.getvalue() == ""


def test_japanese_game_uses_the_catalogue(tmp_path: Path) -> None:
    stdout = io.StringIO()
    args = _args("--levels", "random", "--seed", "5", "--lang", "ja", "--out", str(tmp_path))
    assert run_play(args, io.StringIO("1\n1\n"), stdout) == 0
    text = stdout.getvalue()
    from bot.text import i18n

    assert i18n.t("ja", "button.take") in text and "Take money" not in text
    # the terminal's own words too: prompts, the turn's summary, the pictures' words
    assert i18n.t("ja", "offline.choice_prompt", count=2) in text
    assert i18n.t("ja", "offline.hand", cards="").rstrip() in text
    assert i18n.t("ja", "offline.goodbye") in text
    for english in ("Your choice", "Scores:", "Market:", "Your hand:", "picture:", "Goodbye"):
        assert english not in text, english


def test_a_step_can_be_undone_before_the_turn_is_confirmed(tmp_path: Path) -> None:
    stdout = io.StringIO()
    args = _args("--levels", "random", "--seed", "5", "--confirm", "--out", str(tmp_path))
    # Take money, take the first cards, then Undo (2) instead of End turn, then take again
    assert run_play(args, io.StringIO("1\n1\n2\n1\n1\n1\n"), stdout) == 0
    text = stdout.getvalue()
    took = re.search(r"  You took (.+)\.\n", text)
    assert took is not None
    assert f"  Undone: Take {took[1]} (total " in text
    after = text[text.index("  Undone: ") :]
    assert "Your turn: what do you do?" in after and "   1. Take money" in after
    assert re.search(r"  You took .+\.\n", after)  # the second try ended the turn
    assert "Bot " in after.split("You took", 1)[1]  # and the computer played next


def test_a_whole_persian_game_to_the_end(tmp_path: Path) -> None:
    """`--lang fa`: a game played to its end in Persian, in the terminal's words and the
    pictures', and stored like any other."""
    from bot.text import i18n

    db, out = tmp_path / "fa.sqlite3", tmp_path / "pictures"
    cmd = [sys.executable, "-m", "bot", "play", "--levels", "random", "--seed", "5"]
    cmd += ["--lang", "fa", "--db", str(db), "--out", str(out)]
    done = subprocess.run(
        cmd, input="1\n" * 5000, capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    text = i18n.plain(done.stdout)
    assert "بازی شروع شد! ترتیب بازی:" in text and "پول شروع" in text
    assert "نوبت شماست: چه می‌کنید؟" in text and "   1. برداشتن " in text
    assert f"دور امتیازدهی {i18n.number('fa', 3)}!" in text  # Persian digits
    assert "بازی تمام شد!" in text and "برنده:" in text
    results = text[text.index("بازی تمام شد!") :]
    first, second = i18n.number("fa", 1), i18n.number("fa", 2)  # ranks in Persian digits
    assert re.search(rf"{first}\. .+: \d+ امتیاز", results)
    assert re.search(rf"{second}\. .+: \d+ امتیاز", results)
    for english in ("Your choice", "Take money", "The game is over", "Scores:", "Goodbye"):
        assert english not in text, english
    # what the player types stays Latin: the menu's numbers and the range the prompt asks for
    assert re.search(r"\(1-[0-9]+،", text), text[-400:]
    # (a file name of Persian letters alone falls back to "player")
    for name in ("table.png", "alhambra-1-player.png", "scores.png"):
        assert (out / name).read_bytes().startswith(PNG), name
    game = _game_row(db)
    assert game["status"] == "finished"
    assert verify_database(db).ok
