"""A game as a file: `python -m bot export GAME` writes a versioned record of a stored game, and
`python -m bot replay FILE` plays it through to exactly the state the bot stored; a file from a
newer version of the format, or anything that is not a game file, is refused with one line and
its own exit status, and changes nothing."""

from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path

import pytest
from service_helpers import random_move, started

from bot.__main__ import build_parser, main
from bot.cli import game_files
from bot.core.game_file import FORMAT, VERSION, load
from bot.core.services import Services
from bot.core.store import Store
from bot.text import i18n


async def _finished(target: str) -> tuple[int, str]:
    """A two-player game played to its end by random legal moves: its id and the snapshot
    the bot stored."""
    store = await Store.open(target)
    try:
        seeds = iter(range(500, 600))
        services = Services.build(store, seed_source=lambda: next(seeds))
        game = await started(services)
        rng = random.Random(9)
        while (await services.lobby.game(game.id)).status == "active":
            await random_move(services, game.id, rng)
        async with store.read() as tx:
            snapshot = await tx.snapshot(game.id)
        assert snapshot is not None
        return game.id, snapshot
    finally:
        await store.close()


@pytest.fixture
def exported(
    db_target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, str, str]:
    """A finished game's file (written by `export`), the bot's snapshot of it, the database."""
    game_id, snapshot = asyncio.run(_finished(db_target))
    capsys.readouterr()
    assert main(["export", str(game_id), "--db", db_target]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    path = tmp_path / "game.json"
    path.write_text(out.out, encoding="utf-8")
    return path, snapshot, db_target


def test_export_then_replay_reaches_the_stored_state_byte_for_byte(
    exported: tuple[Path, str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, snapshot, _ = exported
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert sorted(s["name"] for s in data["seats"]) == ["Ann", "Bob"]  # by turn order
    assert [s["seat"] for s in data["seats"]] == [0, 1]
    assert data["status"] == "finished" and data["options"] == {"holes": "classic"}
    assert len(data["results"]["scores"]) == 2 and 1 in data["results"]["ranks"]
    assert "user_id" not in path.read_text(encoding="utf-8")  # no Discord ids in a file

    state, pictures = tmp_path / "state.json", tmp_path / "pictures"
    code = main(["replay", str(path), "--out", str(pictures), "--state", str(state)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert state.read_text(encoding="utf-8") == snapshot  # the engine's own serialised state
    assert load(path.read_bytes()).replay().to_json() == snapshot
    assert "Turn 1" in out.out and "The game is over!" in out.out
    for name in ("table.png", "alhambra-1.png", "alhambra-2.png", "scores.png"):
        assert (pictures / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"picture: {pictures / name}" in out.out


def test_a_replay_can_pause_after_each_turn_and_be_stopped(
    exported: tuple[Path, str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = exported
    out = io.StringIO()
    args = build_parser().parse_args(
        ["replay", str(path), "--out", str(tmp_path / "p"), "--pause", "--lang", "ja"]
    )
    assert game_files.replay(args, io.StringIO("\n\nq\n"), out) == 0
    text = out.getvalue()
    assert text.startswith(i18n.t("ja", "game_file.title", game=1, names="")[:4])  # ja
    assert text.count(i18n.t("ja", "game_file.next")) == 3  # Enter, Enter, then q stopped it
    assert i18n.t("ja", "log.turn", turn=3) in text
    assert i18n.t("ja", "log.turn", turn=4) not in text
    assert (tmp_path / "p" / "table.png").is_file()  # drawn after each turn while pausing


def _refused(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["replay", str(path), "--out", str(path.parent / "none")])
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1, out.err  # one line says why
    assert not (path.parent / "none").exists()  # nothing was drawn or written
    return code, lines[0]


def test_a_file_from_a_newer_version_is_refused_with_one_line(
    exported: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = exported
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = VERSION + 1
    data["something_new"] = {"we": "cannot read"}
    path.write_text(json.dumps(data), encoding="utf-8")
    code, line = _refused(path, capsys)
    assert code == 3
    assert f"version {VERSION + 1}" in line and "update the bot" in line


@pytest.mark.parametrize(
    "damage",
    [
        "not json",
        "another format",
        "no seed",
        "a seed of text",
        "one seat",
        "a made-up action",
        "an action out of place",
        "other results",
        "an unknown option",
    ],
)
def test_a_malformed_file_is_refused_with_one_line(
    exported: tuple[Path, str, str], capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    path, _, _ = exported
    data = json.loads(path.read_text(encoding="utf-8"))
    if damage == "not json":
        text = path.read_text(encoding="utf-8")[:-20]
    else:
        if damage == "another format":
            data["format"] = "chess-pgn"
        elif damage == "no seed":
            del data["seed"]
        elif damage == "a seed of text":
            data["seed"] = "42"
        elif damage == "one seat":
            data["seats"] = data["seats"][:1]
        elif damage == "a made-up action":
            data["actions"][3] = {"kind": "teleport"}
        elif damage == "an action out of place":
            data["actions"][0], data["actions"][5] = data["actions"][5], data["actions"][0]
        elif damage == "other results":
            data["results"]["scores"][0] += 1
        elif damage == "an unknown option":
            data["options"]["gravity"] = "off"
        text = json.dumps(data)
    path.write_text(text, encoding="utf-8")
    code, line = _refused(path, capsys)
    assert code == 2
    assert line.startswith(f"replay: {path} is not a game file this bot can read: "), line


def test_export_refuses_a_game_that_is_not_there_with_one_line(
    exported: tuple[Path, str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, db = exported
    assert main(["export", "999999", "--db", db]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1
    assert "export: game 999999" in out.err
    missing = tmp_path / "nowhere.sqlite3"
    assert main(["export", "1", "--db", str(missing)]) == 2
    out = capsys.readouterr()
    assert len(out.err.splitlines()) == 1 and "no database" in out.err
    assert not missing.exists()  # nothing was created
    assert main(["replay", str(tmp_path / "absent.json")]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
