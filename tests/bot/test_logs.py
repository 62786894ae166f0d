"""Log lines an operator can search and ship: plain or JSON, each carrying the interaction and
game it was written for, never a token; and the optional error reports."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sentry_sdk
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport
from service_helpers import add_timer

from bot.config import ConfigError, load_settings
from bot.core.clock import ManualClock
from bot.core.errors import NotYourTurn
from bot.core.records import TimerRow
from bot.core.services import Services
from bot.discord_app.context import handling, note_game
from bot.ops import errors_reporting, logs
from bot.turns.timers import TimerDispatcher

ROOT = Path(__file__).resolve().parents[2]
#: Shaped like a real bot token (id, timestamp, HMAC); made up.
TOKEN = "MTE4NDU2Nzg5MDEyMzQ1Njc4OQ.GhAbCd.Zx0yW1vU2tS3rQ4pO5nM6lK7jI8hG9fE0dC1bA"
#: Another token the bot was not configured with (a previous deployment's, pasted somewhere).
OTHER_TOKEN = "OTk4NzY1NDMyMTA5ODc2NTQzMjE.YAbCdE.qwertyuiopasdfghjklzxcvbnm_-QWERTYUIOPA"
#: The operator's token need not look like one to be hidden.
ODD_TOKEN = "not-shaped-like-a-token-but-secret"

Capture = Callable[..., io.StringIO]


@pytest.fixture
def capture(monkeypatch: pytest.MonkeyPatch) -> Iterator[Capture]:
    """`capture(fmt, level, secrets)` configures the bot's logging into a string; the root
    logger is put back afterwards."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    monkeypatch.setattr(logs, "_secrets", set())

    def configure(
        fmt: str = "plain", level: str = "DEBUG", secrets: tuple[str | None, ...] = ()
    ) -> io.StringIO:
        stream = io.StringIO()
        logs.configure(level, fmt, secrets=secrets, stream=stream)
        return stream

    yield configure
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
    root.setLevel(level)


class Response:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str = "", **_: Any) -> None:
        self.sent.append(content)


def interaction(**extras: Any) -> Any:
    """What `handling` reads of an interaction, as discord.py would hand it over."""
    return SimpleNamespace(
        id=1378,
        guild_id=77,
        channel_id=88,
        user=SimpleNamespace(id=4242),
        extras=dict(extras),
        client=object(),
        locale="en-US",
        guild_locale="en-US",
        response=Response(),
    )


async def handled(command: str, body: Callable[[Any], None], **extras: Any) -> Any:
    clicked = interaction(**extras)
    async with handling(clicked, command):
        body(clicked)
    return clicked


def lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


# --- the fields of an interaction -------------------------------------------------------------


async def test_json_lines_parse_and_carry_the_game_of_the_interaction(capture: Capture) -> None:
    stream = capture("json", "INFO")

    def play(clicked: Any) -> None:
        logging.getLogger("alhambra.turns").info("before the game is known")
        note_game(clicked, 12, 31)
        logging.getLogger("alhambra.turns").info("the move is saved")
        logging.getLogger("discord.webhook.async_").info("the reply is sent")

    await handled("buy", play)
    before, saved, sent, done = lines(stream)
    ids = {"interaction": 1378, "guild": 77, "channel": 88, "user": 4242}
    assert before.items() >= {**ids, "message": "before the game is known"}.items()
    assert "game" not in before
    for line in (saved, sent, done):
        assert line.items() >= {**ids, "game": 12, "version": 31}.items()
    assert sent["logger"] == "discord.webhook.async_"  # discord.py's lines carry them too
    assert done["logger"] == "alhambra.interactions" and done["level"] == "INFO"
    assert done.items() >= {"command": "buy", "outcome": "ok"}.items()
    assert isinstance(done["latency_ms"], float)
    assert done["message"].startswith("interaction command=buy game=12 user=4242 latency_ms=")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00", done["timestamp"])
    # and nothing is left bound once the interaction is handled
    logging.getLogger("alhambra").info("later")
    assert "interaction" not in lines(stream)[-1] and logs.current() == {}


async def test_a_refusal_and_a_failure_are_logged_with_their_game(capture: Capture) -> None:
    stream = capture("json", "INFO")

    def refuse(clicked: Any) -> None:
        note_game(clicked, 5)
        raise NotYourTurn()

    def fail(clicked: Any) -> None:
        note_game(clicked, 6)
        raise RuntimeError("a bug")

    refused = await handled("take", refuse)
    failed = await handled("take", fail)
    assert refused.response.sent and failed.response.sent
    error, done = [line for line in lines(stream) if line.get("game") == 6]
    (refusal,) = [line for line in lines(stream) if line.get("game") == 5]
    assert refusal["outcome"] == "refused:not_your_turn"
    assert error["level"] == "ERROR" and "RuntimeError: a bug" in error["exc_info"]
    assert error["interaction"] == 1378 and done["outcome"] == "error"


def test_bound_fields_nest_and_bind_adds_to_the_innermost_scope() -> None:
    logs.bind(game=1)  # outside any scope: nothing to add to, and nothing leaks
    assert logs.current() == {}
    with logs.bound(interaction=1, guild=None):
        assert logs.current() == {"interaction": 1}
        with logs.bound(timer="deadline"):
            logs.bind(game=2)
            assert logs.current() == {"interaction": 1, "timer": "deadline", "game": 2}
        assert logs.current() == {"interaction": 1}
        logs.bind(game=3, version=None)
        assert logs.current() == {"interaction": 1, "game": 3}
    assert logs.current() == {}


async def test_tasks_started_while_handling_keep_its_fields(capture: Capture) -> None:
    stream = capture("json", "INFO")

    async def later() -> None:
        logging.getLogger("alhambra.turns").info("the computer moves")

    with logs.bound(interaction=9, game=4):
        task = asyncio.create_task(later())
    await task
    (line,) = lines(stream)
    assert (line["interaction"], line["game"]) == (9, 4)


async def test_what_a_timer_handler_logs_names_the_timer_and_its_game(
    capture: Capture, services: Services, clock: ManualClock
) -> None:
    stream = capture("json", "INFO")
    game = await services.lobby.create_game(channel_id=500, host_id=1, host_name="Ana", guild_id=9)
    await services.lobby.join(game.id, 2, "Bruno")
    await services.lobby.start(game.id, 1)

    async def handle(timer: TimerRow) -> None:
        logging.getLogger("alhambra.notify").info("reminding")

    await add_timer(services, game.id, "reminder", clock.now(), seat=0)
    assert await TimerDispatcher(services, {"reminder": handle}).run_due() == 1
    logging.getLogger("alhambra.timers").info("the loop goes on")
    reminding, after = lines(stream)
    assert (reminding["timer"], reminding["game"]) == ("reminder", game.id)
    assert "game" not in after and "timer" not in after


# --- the plain format -------------------------------------------------------------------------


async def test_the_plain_line_is_the_one_the_readme_shows(capture: Capture) -> None:
    stream = capture("plain", "INFO")
    await handled("buy", lambda clicked: note_game(clicked, 12, 31))
    (line,) = stream.getvalue().splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = next(
        text for text in readme.splitlines() if "alhambra.interactions: interaction" in text
    )

    def shape(text: str) -> str:
        text = re.sub(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\]", "[time]", text)
        return re.sub(r"latency_ms=[\d.]+", "latency_ms=X", text)

    assert shape(line) == shape(shown)
    # the ids the message states already are not repeated
    assert line.count("game=") == line.count("user=") == 1


async def test_the_json_line_has_the_fields_the_readme_shows(capture: Capture) -> None:
    stream = capture("json", "INFO")
    await handled("buy", lambda clicked: note_game(clicked, 12, 31))
    (line,) = lines(stream)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = json.loads(next(text for text in readme.splitlines() if text.startswith('{"time')))
    assert list(line) == list(shown)
    same = {key for key in shown if key not in ("timestamp", "latency_ms", "message")}
    assert {key: line[key] for key in same} == {key: shown[key] for key in same}


def test_plain_lines_outside_an_interaction_are_as_before(capture: Capture) -> None:
    stream = capture("plain", "INFO")
    logging.getLogger("alhambra").warning("shutting %s", "down")
    logging.getLogger("alhambra").debug("not at INFO")
    line = stream.getvalue()
    assert re.fullmatch(r"\[[\d :-]{19}\] \[WARNING \] alhambra: shutting down\n", line)
    with logs.bound(timer="announce", game=3, note="two words"):
        logging.getLogger("alhambra").info("posted")
    last = stream.getvalue().splitlines()[-1]
    assert last.endswith('alhambra: posted timer=announce game=3 note="two words"')


def test_configuring_again_replaces_only_its_own_handler(capture: Capture) -> None:
    root = logging.getLogger()
    mine = logging.NullHandler()
    root.addHandler(mine)
    try:
        capture("plain")
        second = capture("json")
        ours = [h for h in root.handlers if getattr(h, "_alhambra_handler", False)]
        assert len(ours) == 1 and mine in root.handlers
        logging.getLogger("alhambra").info("once")
        assert len(lines(second)) == 1
    finally:
        root.removeHandler(mine)
    with pytest.raises(ValueError, match="plain, json"):
        logs.configure("INFO", "xml")


# --- secrets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["plain", "json"])
def test_no_token_reaches_a_log_line_at_any_level(capture: Capture, fmt: str) -> None:
    stream = capture(fmt, "DEBUG", secrets=(TOKEN, ODD_TOKEN, None, ""))
    names = ["alhambra", "alhambra.interactions", "discord.client", "discord.http", "asyncio"]
    levels = [logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL]
    for name in names:
        logger = logging.getLogger(name)
        for level in levels:
            logger.log(level, f"in the message {TOKEN} and {OTHER_TOKEN}")
            logger.log(level, "in the arguments %s %r", ODD_TOKEN, {"token": "sekret-value"})
            logger.log(level, "in a field", extra={"authorization": f"Bot {TOKEN}"})
            logger.log(level, "in a stack", stack_info=True, extra={"odd": ODD_TOKEN})
            try:
                try:
                    raise KeyError(ODD_TOKEN)
                except KeyError as first:
                    raise RuntimeError(f"login with {TOKEN} failed") from first
            except RuntimeError:
                logger.log(level, "in a traceback", exc_info=True)
    logging.getLogger("discord.webhook.async_").debug(
        "POST https://discord.com/api/v10/webhooks/1184/aW50ZXJhY3Rpb246MTE4NDo2/messages"
    )
    logging.getLogger("discord.webhook.async_").debug(
        "POST https://discord.com/api/v10/interactions/1184/aW50ZXJhY3Rpb246MTE4NDo2/callback"
    )
    text = stream.getvalue()
    for secret in (TOKEN, OTHER_TOKEN, ODD_TOKEN, "sekret-value", "aW50ZXJhY3Rpb246MTE4NDo2"):
        assert secret not in text
    assert text.count(logs.REDACTED) >= len(names) * len(levels) * 6
    assert "RuntimeError: login with [redacted] failed" in text
    assert "webhooks/1184/[redacted]/messages" in text
    assert "interactions/1184/[redacted]/callback" in text
    if fmt == "json":
        assert len(lines(stream)) == len(names) * len(levels) * 5 + 2


def test_the_token_of_run_is_hidden_from_every_logger(
    capture: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`run` configures logging with the token of the settings."""
    from bot.discord_app import run

    stream = io.StringIO()
    real = logs.configure
    monkeypatch.setattr(logs, "configure", lambda *a, **k: real(*a, **k, stream=stream))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", ODD_TOKEN)
    monkeypatch.setenv("ALHAMBRA_LOG_FORMAT", "json")
    monkeypatch.delenv("ALHAMBRA_SENTRY_DSN", raising=False)
    settings = run._settings()
    assert settings is not None and settings.log_format == "json"
    logging.getLogger("discord.gateway").warning("identify %s", ODD_TOKEN)
    (line,) = lines(stream)
    assert line["message"] == "identify [redacted]"


def test_what_users_type_is_not_logged_at_info() -> None:
    """The bot's own INFO lines name ids, codes and counts: no message text, no option a user
    typed (at DEBUG discord.py prints whole gateway events; the README says so)."""
    calls = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        calls += re.findall(r"log\.info\(\s*(.*?)\)\n", source, re.S)
    assert len(calls) >= 8
    typed = re.compile(r"content|\.values?\b|options|\btext\b|\.name\b|display_name|query|typed")
    for call in calls:
        assert not typed.search(call), call


# --- settings ---------------------------------------------------------------------------------


def test_the_log_format_and_the_dsn_come_from_the_environment(tmp_path: Path) -> None:
    default = load_settings({}, dotenv=tmp_path / ".env")
    assert (default.log_format, default.sentry_dsn) == ("plain", None)
    settings = load_settings(
        {"ALHAMBRA_LOG_FORMAT": " JSON ", "ALHAMBRA_SENTRY_DSN": "https://k@example.test/1"},
        dotenv=None,
    )
    assert (settings.log_format, settings.sentry_dsn) == ("json", "https://k@example.test/1")


@pytest.mark.parametrize("value", ["xml", "text", "json-lines"])
def test_a_bad_log_format_is_one_clear_line(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="ALHAMBRA_LOG_FORMAT must be plain or json") as raised:
        load_settings({"ALHAMBRA_LOG_FORMAT": value}, dotenv=tmp_path / ".env")
    assert value in str(raised.value) and "\n" not in str(raised.value)


# --- error reports ----------------------------------------------------------------------------


class Captured(Transport):
    """A transport that keeps the events instead of sending them anywhere."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict[str, Any]] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        event = envelope.get_event()
        if event is not None:
            self.events.append(dict(event))


@pytest.fixture
def reports(monkeypatch: pytest.MonkeyPatch) -> Iterator[Captured]:
    monkeypatch.setattr(logs, "_secrets", set())
    transport = Captured()
    yield transport
    errors_reporting.stop()


def test_errors_reach_the_reports_redacted_and_tagged(reports: Captured) -> None:
    logs.hide(ODD_TOKEN)
    assert errors_reporting.start("https://key@reports.example.test/1", transport=reports)
    with logs.bound(interaction=1378, guild=77, user=4242, game=12):
        try:
            raise RuntimeError(f"login with {ODD_TOKEN} and {TOKEN}")
        except RuntimeError:
            logging.getLogger("alhambra.interactions").exception("interaction failed")
    sentry_sdk.flush(2)
    (event,) = reports.events
    text = json.dumps(event)
    assert ODD_TOKEN not in text and TOKEN not in text
    (exception,) = event["exception"]["values"]
    assert exception["type"] == "RuntimeError"
    assert exception["value"] == "login with [redacted] and [redacted]"
    assert event["tags"].items() >= {"game": "12", "interaction": "1378", "guild": "77"}.items()
    assert "user" not in event["tags"] and "user" not in event
    frames = exception["stacktrace"]["frames"]
    assert frames and not any("vars" in frame for frame in frames)


def test_nothing_is_reported_without_a_dsn(reports: Captured) -> None:
    assert not errors_reporting.start(None)
    assert not errors_reporting.start("")
    assert not sentry_sdk.get_client().is_active()
    logging.getLogger("alhambra").error("not reported")
    assert reports.events == []


def test_a_dsn_without_the_sdk_is_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "sentry_sdk", None)  # as if it were not installed
    with caplog.at_level(logging.WARNING, logger="alhambra"):
        assert not errors_reporting.start("https://key@reports.example.test/1")
    (record,) = caplog.records
    assert "sentry-sdk is not installed" in record.getMessage()
    assert "\n" not in record.getMessage()
