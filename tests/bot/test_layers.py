"""The layout holds where a contract checker cannot see: what a command really loads at run time,
and that every silenced type error says why (docs/ARCHITECTURE.md)."""

from __future__ import annotations

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
