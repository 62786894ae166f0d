"""The README says what the project really does: its commands are the ones CI and the code use."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import discord

from bot.__main__ import build_parser
from bot.discord_app.group import AlhambraCog

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
RUN_COMMAND = "pip install -e . && python -m bot"
TEST_COMMAND = "pip install -e '.[test]' && pytest"


def _code_blocks(text: str) -> list[str]:
    return re.findall(r"```(?:bash)?\n(.*?)```", text, re.S)


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_commands = [line.strip() for line in ci.splitlines() if line.strip() and line[0] != "#"]
    assert TEST_COMMAND in ci_commands
    assert any(block.strip() == TEST_COMMAND for block in _code_blocks(README))
    # and what CI runs after it is what the README says it runs
    after = ci_commands[ci_commands.index(TEST_COMMAND) + 1 :]
    assert after == ["ruff check .", "ruff format --check .", "lint-imports", "mypy"]
    said = " ".join(README.split())
    assert "followed by `ruff check .`, `ruff format --check .`, `lint-imports`" in said
    assert "and `mypy` (strict type checking" in said


def test_the_two_set_up_commands_come_first() -> None:
    blocks = [block.strip() for block in _code_blocks(README)]
    assert blocks[:2] == [RUN_COMMAND, TEST_COMMAND]
    assert README.index("## Set up") < README.index("## Creating the Discord application")


def test_every_cli_command_is_documented() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert set(commands) >= {"run", "sync", "verify-db", "backup", "health", "play", "simulate"}
    for name in set(commands) - {"run", "sync"}:
        assert f"python -m bot {name}" in README, name
    for flag in ("--levels", "--humans", "--db", "--seed", "--lang", "--confirm", "--out"):
        assert flag in README, flag
    for flag in ("--games", "--players", "--jobs"):
        assert flag in README, flag


def test_every_slash_command_is_documented() -> None:
    """Whatever commands the cog has when the tests run, each has a row with an example."""
    names = [command.name for command in AlhambraCog.__cog_app_commands__]
    assert len(names) >= 15
    for name in names:
        assert f"| `{name}` | `/alhambra {name}" in README, name
    for command in AlhambraCog.__cog_app_commands__:
        for parameter in getattr(command, "parameters", []):
            documented = f"{parameter.name}:" in README or f"`{parameter.name}`" in README
            assert documented, f"/alhambra {command.name} {parameter.name}"


def test_the_invite_link_asks_for_exactly_the_permissions_listed() -> None:
    wanted = discord.Permissions(
        view_channel=True,
        send_messages=True,
        create_public_threads=True,
        send_messages_in_threads=True,
        embed_links=True,
        attach_files=True,
        read_message_history=True,
    )
    link = re.search(r"https://discord\.com/oauth2/authorize\?\S+", README)
    assert link is not None
    assert "scope=bot+applications.commands" in link[0]
    assert f"permissions={wanted.value}" in link[0]
    for label in ("View Channels", "Send Messages", "Create Public Threads",
                  "Send Messages in Threads", "Embed Links", "Attach Files",
                  "Read Message History"):  # fmt: skip
        assert f"| {label} |" in README, label


def test_the_configuration_table_names_every_setting() -> None:
    code = "".join(
        (ROOT / path).read_text(encoding="utf-8") for path in ("bot/config.py", "render/fonts.py")
    )
    settings = set(re.findall(r"\"((?:DISCORD|ALHAMBRA)_[A-Z_]+)\"", code))
    assert settings >= {"DISCORD_TOKEN", "ALHAMBRA_DB", "ALHAMBRA_LOG_LEVEL", "ALHAMBRA_FONTS"}
    for name in settings:
        assert f"| `{name}` |" in README, name


def test_the_pictures_are_committed_small_pngs() -> None:
    pictures = re.findall(r"\]\((docs/[^)]+\.png)\)", README)
    assert "docs/table.png" in pictures
    for path in pictures:
        data = (ROOT / path).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < 200_000, path


def test_the_benchmarks_named_exist() -> None:
    named = set(re.findall(r"python (bench/\w+\.py)", README))
    assert named >= {f"bench/{n}.py" for n in ("engine", "render", "service", "e2e", "ai")}
    for path in named:
        assert (ROOT / path).is_file(), path


def test_help_of_the_documented_commands_runs() -> None:
    for name in ("play", "simulate", "health"):
        done = subprocess.run(
            [sys.executable, "-m", "bot", name, "--help"],
            capture_output=True, text=True, cwd=ROOT, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0 and "usage: python -m bot" in done.stdout, done.stderr
