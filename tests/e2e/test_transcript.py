"""What people see of a whole game is what the committed transcript says they see.

`transcript.py` plays one deterministic game through the real bot and the fake Discord and
records every message the bot created, edited or deleted (see its docstring). This test plays
it and compares the result with `data/transcript.json`: texts, embeds, components, file names,
alt texts and picture sizes exactly, and the pictures' pixels when this machine's Pillow is the
one that wrote the file. A change meant to be invisible to users (a refactoring) must leave it
passing; a change meant to be seen is regenerated with `python tests/e2e/transcript.py --write`
and the file's diff read in review.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import transcript

from bot.text import i18n

REGENERATE = (
    "if this change is meant to be seen by users, regenerate the file with "
    "`python tests/e2e/transcript.py --write` and review its diff; otherwise the change altered "
    "what users see"
)


def _pictures(value: Any, where: str = "") -> dict[str, str]:
    """Every picture's pixel hash, by where it is in the transcript."""
    found: dict[str, str] = {}
    if isinstance(value, dict):
        if "pixels" in value:
            found[f"{where} {value.get('file')}"] = value["pixels"]
        for key, item in value.items():
            found |= _pictures(item, f"{where}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found |= _pictures(item, f"{where}[{index}]")
    return found


async def test_a_whole_game_shows_what_the_transcript_says(
    tmp_path: Path, blocked_hosts: list[str]
) -> None:
    expected = json.loads(transcript.GOLDEN.read_text(encoding="utf-8"))
    got = await transcript.record(tmp_path)

    apology = i18n.t("en", "error.unexpected")
    assert apology not in transcript.dumps(got), "the bot apologised for a failure in the game"
    assert not blocked_hosts

    problem = transcript.differences(
        transcript.without_pixels(expected), transcript.without_pixels(got)
    )
    if problem is not None:
        pytest.fail(
            f"the game shows something else than {transcript.GOLDEN.name}:\n{problem}\n{REGENERATE}"
        )
    if got["pillow"] != expected["pillow"]:
        pytest.skip(
            f"texts, embeds, components, file names, alt texts and picture sizes match; the "
            f"pictures' pixels were NOT compared: Pillow {got['pillow']} here, "
            f"{expected['pillow']} wrote {transcript.GOLDEN.name}"
        )
    old, new = _pictures(expected), _pictures(got)
    changed = [where for where in old if old[where] != new.get(where)]
    if changed:
        pytest.fail(
            f"{len(changed)} of {len(old)} pictures have other pixels with the same Pillow "
            f"({got['pillow']}), first at {changed[0]}: the drawing (or the fonts) changed. "
            + REGENERATE
        )
    assert got == expected
