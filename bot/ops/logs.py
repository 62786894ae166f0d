"""The bot's log lines: plain for a terminal, one JSON object per line for a log pipeline, each
carrying what it was about (interaction, server, channel, user, game, version) and never a
secret.

Why here and not in the Discord adapter: the turn logic and the store log too, and a line they
write while an interaction is handled must say which game and which user it was for, without
them knowing about Discord. The adapter opens a scope with `bound(...)` for each unit of work;
whatever is learned during it (the game, once its channel was looked up) is added with
`bind(...)`; a handler filter copies the scope's fields onto every record, whichever logger
(ours, discord.py's, asyncio's) wrote it.

Secrets are removed from the finished line, after the message, its arguments, the traceback and
the extra fields were all turned into text, so no path into a line can carry one out: the
configured token is replaced wherever it appears, and so is anything shaped like a Discord bot
token (a token pasted somewhere else, or one of a previous deployment) and the interaction
tokens discord.py's debug lines show (each lets whoever reads it answer as the bot for 15
minutes).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Any, TextIO

from pythonjsonlogger.json import JsonFormatter

from ..config import LOG_FORMATS

#: What replaces a secret in a log line.
REDACTED = "[redacted]"

#: Discord bot tokens: the bot's id in base64, a timestamp, an HMAC, separated by dots (the
#: shape secret scanners look for, with room for longer ids and HMACs); and the older user
#: tokens of accounts with two-factor authentication.
TOKEN_SHAPE = re.compile(
    r"(?<![\w-])(?:[\w-]{23,30}\.[\w-]{6,7}\.[\w-]{27,}|mfa\.[\w-]{20,})(?![\w-])", re.ASCII
)
#: Other secrets discord.py's debug lines can hold: an interaction's or a webhook's token in a
#: URL (`/webhooks/<id>/<token>`, `/interactions/<id>/<token>/callback`), and the value of any
#: "token" key of a logged payload (the gateway events it prints at DEBUG carry their
#: interaction's). Quotes may come escaped, as they do inside a JSON line.
SECRET_PLACES = (
    re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/?\s\\\"']+"),
    re.compile(r"""(\\?["']token\\?["']\s*:\s*\\?["'])[^"'\\]+"""),
)
#: A configured secret shorter than this is not looked for: replacing every "abc" in every line
#: would hide more than it protects (a real token is about 70 characters).
MIN_SECRET = 8

#: The plain format, as discord.py's `setup_logging` writes it without colours.
PLAIN_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
PLAIN_DATES = "%Y-%m-%d %H:%M:%S"

#: The fields of the unit of work being handled; None outside any (see `bound`).
_fields: ContextVar[Mapping[str, object] | None] = ContextVar("alhambra_log_fields", default=None)
_secrets: set[str] = set()
#: Marks the handler `configure` installed, so configuring again replaces only it.
_OURS = "_alhambra_handler"


def hide(*secrets: str | None) -> None:
    """Never write these values in a log line (empty or too short ones are ignored)."""
    _secrets.update(s for s in secrets if s and len(s) >= MIN_SECRET)


def redact(text: str) -> str:
    """`text` without the configured secrets and anything shaped like a bot token."""
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    for place in SECRET_PLACES:
        text = place.sub(rf"\g<1>{REDACTED}", text)
    return TOKEN_SHAPE.sub(REDACTED, text)


@contextlib.contextmanager
def bound(**fields: object) -> Iterator[None]:
    """Every record logged inside the block (in this task, and in tasks it starts) carries
    these fields, added to those of an enclosing block; None values are left out."""
    token = _fields.set({**(_fields.get() or {}), **_present(fields)})
    try:
        yield
    finally:
        _fields.reset(token)


def bind(**fields: object) -> None:
    """Add fields to the innermost `bound` block, for what is learned while handling it (the
    game, its version). Outside any block it does nothing: a long-lived task (the timer loop)
    must not carry one game's id into everything it logs afterwards."""
    current = _fields.get()
    if current is not None:
        _fields.set({**current, **_present(fields)})


def current() -> dict[str, object]:
    """The fields records logged here and now would carry."""
    return dict(_fields.get() or {})


def _present(fields: Mapping[str, object]) -> dict[str, object]:
    return {key: value for key, value in fields.items() if value is not None}


class ContextFilter(logging.Filter):
    """Copies the bound fields onto each record a handler receives, whichever logger wrote it.
    A field the caller passed explicitly (`extra=`) wins."""

    def filter(self, record: logging.LogRecord) -> bool:
        fields = _fields.get()
        names: list[str] = []
        for key, value in (fields or {}).items():
            if not hasattr(record, key):
                setattr(record, key, value)
                names.append(key)
        record.__dict__["_alhambra_fields"] = names
        return True


class PlainFormatter(logging.Formatter):
    """The familiar one-line format, then the bound fields as `key=value` (those the message
    already says, such as `game=12` in the interaction line, are not repeated)."""

    def __init__(self) -> None:
        super().__init__(PLAIN_FORMAT, PLAIN_DATES, style="{")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        head, newline, rest = line.partition("\n")
        pairs = [
            pair
            for key in getattr(record, "_alhambra_fields", ())
            if (pair := f"{key}={_plain(getattr(record, key))}") not in record.getMessage()
        ]
        if pairs:
            head = f"{head} {' '.join(pairs)}"
        return redact(head + newline + rest)


def _plain(value: object) -> str:
    text = str(value)
    return json.dumps(text) if not text or any(c.isspace() or c in '"=' for c in text) else text


class JsonLinesFormatter(JsonFormatter):
    """One JSON object per line: `timestamp` (UTC, ISO 8601), `level`, `logger`, `message`, the
    bound fields and any `extra=` fields, `exc_info` with the traceback. ASCII only, so no
    character of a player's name can break a line in a line-oriented reader."""

    def __init__(self) -> None:
        super().__init__(
            ["levelname", "name", "message"],
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp=True,
        )

    def format(self, record: logging.LogRecord) -> str:
        # (a token is made of letters, digits, '-', '_' and '.', which JSON never escapes)
        return redact(super().format(record))

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        # the timestamp first, as in the plain lines, for people reading the raw lines
        stamp = log_data.pop("timestamp")
        rest = dict(log_data)
        log_data.clear()
        log_data.update({"timestamp": stamp, **rest})


def configure(
    level: str | int = "INFO",
    fmt: str = "plain",
    *,
    secrets: tuple[str | None, ...] = (),
    stream: TextIO | None = None,
) -> logging.Handler:
    """Send every logger's records to `stream` (standard error) in `fmt`, at `level` and above.

    Configuring again replaces the handler installed before (and only it: a test's capturing
    handler stays)."""
    if fmt not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}, not {fmt!r}")
    hide(*secrets)
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, _OURS, False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonLinesFormatter() if fmt == "json" else PlainFormatter())
    handler.addFilter(ContextFilter())
    setattr(handler, _OURS, True)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
