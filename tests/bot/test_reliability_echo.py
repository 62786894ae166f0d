"""Text a user typed and a refusal repeats back: clipped, on one line, without markup or pings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.text.present import ECHO_LIMIT, echo

ZWSP = "\u200b"


def test_long_text_is_clipped_with_an_ellipsis() -> None:
    assert ECHO_LIMIT == 40
    assert echo("x" * 6000) == "x" * 39 + "…"
    assert echo("x" * 40) == "x" * 40
    assert echo("abcdef", limit=4) == "abc…"
    assert echo("short") == "short"


def test_mentions_never_ping() -> None:
    assert echo("@everyone") == f"@{ZWSP}everyone"
    assert echo("<@123456789012345678>") == f"\\<@{ZWSP}123456789012345678\\>"
    assert echo("@here and <@&42>").count(ZWSP) == 2


def test_markup_is_shown_as_typed() -> None:
    assert echo("`code`") == "\\`code\\`"
    assert echo("**bold** __u__ ~~s~~ ||spoiler||") == (
        "\\*\\*bold\\*\\* \\_\\_u\\_\\_ \\~\\~s\\~\\~ \\|\\|spoiler\\|\\|"
    )
    assert echo("[link](https://x.example)") == "\\[link\\](https://x.example)"
    assert echo("a\\") == "a\\\\"  # a trailing backslash cannot escape the text after it
    assert echo("# big") == "\\# big"
    assert echo("> quote") == "\\> quote"
    assert echo("- item") == "\\- item"
    assert echo("22-7") == "22-7"  # a dash inside the text is no markup
    assert echo("2025-08-31") == "2025-08-31"


def test_one_line_without_invisible_controls() -> None:
    assert echo("a\nb\r\n\tc") == "a b c"
    assert echo("\u202eevil\u200b\x00") == "evil"
    assert echo("\ud800x") == "\ufffdx"  # a lone surrogate cannot be sent as UTF-8
    assert echo("   ") == ""


def test_anything_can_be_echoed() -> None:
    assert echo(12345) == "12345"
    assert echo(None) == "None"
    assert echo(["a", "@b"]) == f"\\['a', '@{ZWSP}b'\\]"


@given(st.one_of(st.text(), st.integers(), st.floats(), st.binary()), st.integers(1, 100))
def test_an_echo_is_short_and_harmless(text: object, limit: int) -> None:
    out = echo(text, limit)
    assert isinstance(out, str)
    assert len(out.replace("\\", "").replace(ZWSP, "")) <= limit
    assert len(out) <= 2 * limit
    assert "\n" not in out and "\r" not in out
    unescaped = out.replace("\\\\", "")
    for mark in "`*_~|[]<>":
        assert unescaped.count(mark) == unescaped.count("\\" + mark), (mark, out)
    assert all(ch != "@" or out[i + 1 : i + 2] == ZWSP for i, ch in enumerate(out))
    out.encode("utf-8")  # sendable
