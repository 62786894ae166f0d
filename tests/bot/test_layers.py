"""The layout holds where a contract checker cannot see: what a command really loads at run time,
and that every silenced type error says why (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the subprocesses import this checkout, whatever else is installed
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
LOADED = (
    "import sys\n"
    "from bot.__main__ import main\n"
    "try:\n"
    "    status = main({argv!r})\n"
    "except SystemExit as exc:\n"
    "    status = exc.code\n"
    "print('discord loaded:', 'discord' in sys.modules, 'status:', status)\n"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--help"],
        ["simulate", "--games", "1", "--players", "2"],
        ["health", "does-not-exist.sqlite3"],
        ["--help"],
    ],
    ids=["play --help", "simulate", "health", "--help"],
)
def test_commands_without_discord_never_load_discord(argv: list[str], tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", LOADED.format(argv=argv)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=ENV,
        timeout=120,
        check=True,
    ).stdout
    assert "discord loaded: False" in out, out


def test_the_run_command_is_the_one_that_loads_discord(tmp_path: Path) -> None:
    """The check above would pass vacuously if nothing ever loaded discord this way."""
    code = LOADED.format(argv=["run"])
    env = {"PATH": "", "DISCORD_TOKEN": "", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env
    ).stdout
    assert "discord loaded: True" in out and "status: 2" in out, out


def test_every_type_ignore_names_its_error_and_says_why() -> None:
    silenced = re.compile(r"#\s*type:\s*ignore(?P<code>\[[^\]]+\])?(?P<rest>.*)$")
    bare = []
    for path in sorted(p for d in ("engine", "render", "bot") for p in (ROOT / d).rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            found = silenced.search(line)
            if found and (not found["code"] or not re.match(r"\s*#\s*\S", found["rest"])):
                bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert bare == []


# --- the import contracts themselves --------------------------------------------------------------


def _contracts() -> list[dict[str, object]]:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return list(config["tool"]["importlinter"]["contracts"])


def test_every_module_of_the_adapter_is_in_a_layer_of_its_contract() -> None:
    """A module left out of the adapter's layers could import anything in the adapter."""
    (adapter,) = [c for c in _contracts() if c.get("containers") == ["bot.discord_app"]]
    layers = adapter["layers"]
    assert isinstance(layers, list)
    layered = {name.strip() for layer in layers for name in str(layer).split("|")}
    modules = {p.stem for p in (ROOT / "bot" / "discord_app").glob("*.py")} - {"__init__"}
    assert modules <= layered, sorted(modules - layered)
    assert layered <= modules, sorted(layered - modules)  # and no stale name


#: `lint-imports`, as its console script runs it
LINT_IMPORTS = (
    "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
)


def _lint_imports(tmp_path: Path, tamper: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`lint-imports` on a copy of the tree with `tamper`'s lines added to its files."""
    import shutil

    for room in ("bot", "render", "engine"):
        shutil.copytree(ROOT / room, tmp_path / room, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for path, line in tamper.items():
        with (tmp_path / path).open("a", encoding="utf-8") as file:
            file.write(f"\n{line}\n")
    return subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "tamper,broken",
    [
        # one command module importing another (it passed every contract before)
        (
            {"bot/discord_app/plans.py": "from .lobby import LobbyCommands as _probe"},
            "The command modules are independent of each other",
        ),
        # a handler importing the composition root
        (
            {"bot/discord_app/history.py": "from . import client as _probe"},
            "Inside the adapter, handlers import downward",
        ),
        # the core reaching up into the adapter
        (
            {"bot/core/records.py": "import bot.discord_app.context as _probe"},
            "Rooms import downward only",
        ),
    ],
    ids=["command imports command", "handler imports client", "core imports adapter"],
)
def test_a_forbidden_import_breaks_the_contracts(
    tmp_path: Path, tamper: dict[str, str], broken: str
) -> None:
    result = _lint_imports(tmp_path, tamper)
    assert result.returncode != 0, result.stdout[-2000:]
    assert broken in result.stdout and "BROKEN" in result.stdout, result.stdout[-2000:]


def test_the_untouched_tree_keeps_every_contract(tmp_path: Path) -> None:
    """The copy the test above tampers with is sound as it is: only the added line breaks it."""
    result = _lint_imports(tmp_path, {})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


#: the most lines a class of the bot may take (docs/ARCHITECTURE.md: a room that grows past it
#: is split by concern, as the game service was)
MOST_LINES_PER_CLASS = 600


def test_no_class_of_the_bot_grows_into_a_warehouse() -> None:
    sizes = {
        f"{path.relative_to(ROOT)}:{node.name}": node.end_lineno - node.lineno + 1
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.end_lineno is not None
    }
    assert len(sizes) > 50 and max(sizes.values()) > 300  # every class was read
    over = {name: size for name, size in sizes.items() if size > MOST_LINES_PER_CLASS}
    assert not over, over
