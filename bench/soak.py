"""Whether the game heals without a restart: a long hostile run of the real bot under faults.

Runs the real bot (`AlhambraBot`, the real discord.py client, worker processes for pictures and
computer players) against the local fake Discord of tests/e2e, in one process and one event
loop as bench/load.py does, on the real clock: undo windows, `end_turn`, `announce` and
`computer` timers, computer retries and the periodic sweep run by themselves. The sweep's
period is lowered (`--sweep`, 5 s by default, instead of a minute) so a short run sees it work.

Set-up: `--games` tables (default 12), each a game of 2-4 seats mixing people and computer
players (easy, normal, hard), most in a thread of their own, every third in a channel of its
own; each person has first chosen an undo window with `/alhambra settings undo_window:` (0, 2
or 10 seconds) or kept the operator's (10 s). A finished game is followed by a new one.

People play as in load.py (they choose like the `easy` computer player; a button of the turn
message opens the private panel, then its menus and buttons; "End turn now", or the undo window
left to end the turn; Undo sometimes; a quarter of the decisions by slash command), and also do
what a genuine Discord client lets a person do that the bot must answer calmly, all counted as
realistic input: clicks on stale panels and old turn messages, double clicks and bursts of the
same click, commands out of turn and by people who do not play, garbage typed into options,
garbage typed where autocomplete offers choices, looks at hands and boards in between.

Chaos, seeded (`--seed`): every 20-40 s one fault, the kinds taken in turn in a shuffled order:
a worker process SIGKILLed; every worker SIGSTOPped for 5-20 s, then SIGCONT; a "full disk" of
3-10 s (every write transaction of the bot's store fails at its commit with `StorageFull`, and
is rolled back); a burst of Discord 5xx or 429 answers to posting messages, interaction
callbacks, followups or edits (the fake's `fail_next`). The last 90 s have no chaos: the
recovery phase. The worker timeout is short (`--work-timeout`, 3 s), so a stopped worker is
given up on and replaced within seconds.

At the end it prints one summary line and a table:

- interactions sent (all realistic), and how they were answered: realistic unhandled (must be
  0) are those answered with the bot's apology ("Sorry, something went wrong"), and those whose
  handler raised an unexpected exception (logged "interaction failed", not Discord's own
  failure) whatever the person was told; `unanswered` is no acknowledgement within Discord's
  3 s, or a "thinking..." never filled in (counted, and shown with the fault around it);
  refusals and "busy"/"storage full" answers are counted, not failures;
- faults injected by kind (and writes refused, Discord requests failed);
- moves acknowledged to the player as done or saved (the panel redrawn, "Done.", "Undone:",
  the held turn's panel, or "Your move was saved..."), and of those `lost`: not in the game's
  action log at the end (the log read from the database: the same player, the same action,
  written between the click and its answer; money cards compared by currency and value, as a
  person tells them apart); `told failed but saved`: a player told "not saved"/"nothing
  changed" about a move that IS in the log (duplicate clicks of a burst, one of which was told
  done, are counted apart). Both must be 0;
- stalled games after the recovery phase: waiting on a computer player that has not moved for
  60 s; a timer overdue by more than 30 s (a person's held turn's `end_turn`, or any other);
  or a person's turn waiting for a confirmation they never give (every person here lets their
  turns end by themselves) with no `end_turn` timer, for 30 s; or the timer dispatcher no
  longer running (every game's timers). Must be 0. Turns not yet told to their channel (an
  `announce` timer pending, its retries minutes apart) are shown, and so are the most overdue
  timer seen during the run (looked at every 2 s) and where the dispatcher is at the end;
- `verify-db` (`bot.core.verify.verify_database`: every game replayed from its log). Clean;
- ack latency p50/p99/max, the worker pool's restarts, timer and computer retries (the bot's
  own metrics), errors and warnings the bot logged, the load average.

Exit status 1 if any "must be" above fails; the evidence for each (the interaction, the fault
around it, what the bot logged for it) is printed. The bot's log (INFO) goes to `--log`.

    python bench/soak.py [--minutes 10] [--games 12] [--workers 2] [--seed 1]
    python bench/soak.py --quick     # about a minute
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import re
import signal
import sqlite3
import sys
import tempfile
import time
import traceback
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# bench/ must not shadow the packages it measures (bench/render.py vs render): the checkout
# comes first, bench/ last (for its helpers, people.py)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]
sys.path.append(str(ROOT / "bench"))

from aiohttp import web  # noqa: E402
from fake_discord import FakeDiscord, InteractionResult, pointed_at, running_bot  # noqa: E402
from fake_discord.errors import SimulationError  # noqa: E402
from fake_discord.faults import Fault  # noqa: E402
from fake_discord.interactions import (  # noqa: E402
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    command_data,
    find_button,
)
from fake_discord.models import Channel, Guild, Message, User  # noqa: E402
from fake_discord.rest import RecordedRequest, RestApi  # noqa: E402
from people import Abort, is_turn_message, percentile, play_decision  # noqa: E402
from people import choose as choose_option  # noqa: E402
from prometheus_client import REGISTRY  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.core.errors import StorageFull  # noqa: E402
from bot.core.store import Store, Tx  # noqa: E402
from bot.core.verify import verify_database  # noqa: E402
from bot.discord_app import client as discord_client  # noqa: E402
from bot.discord_app.client import AlhambraBot  # noqa: E402
from bot.ops import logs  # noqa: E402
from bot.text import i18n  # noqa: E402
from bot.text.present import action_code  # noqa: E402
from engine import (  # noqa: E402
    CARDS,
    Action,
    Buy,
    EndTurn,
    Game,
    GiveToDirk,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    Swap,
    TakeMoney,
    Undo,
)
from engine.actions import action_to_dict  # noqa: E402
from engine.ai import make_player  # noqa: E402

LOCALE = "en"
APOLOGY = i18n.t(LOCALE, "error.unexpected")
SAVED_ANYWAY = i18n.t(LOCALE, "error.saved_anyway")
#: what a player must never read about a move the store accepted
NOT_SAVED = (i18n.t(LOCALE, "error.busy"), i18n.t(LOCALE, "error.storage_full"))


def _pattern(text: str) -> re.Pattern[str]:
    """A catalogue text as a pattern: each placeholder stands for any text."""
    return re.compile(".*?".join(re.escape(part) for part in re.split(r"\{\w+\}", text)), re.S)


_CATALOGUE = i18n.catalogue(LOCALE)
#: the bot's refusals (a clear answer to a request it would not do): every `error.*` text and
#: "no longer current"; and how the longer ones begin (an echo of long input is cut short)
REFUSALS = [
    _pattern(text)
    for key, text in _CATALOGUE.items()
    if key.startswith("error.") or key == "reply.stale"
]
REFUSAL_LEADS = tuple(
    lead
    for key, text in _CATALOGUE.items()
    if key.startswith("error.")
    if len(lead := text.split("{")[0]) >= 12
)
#: what a slash command's move is answered with when it was done
DONE = [_pattern(_CATALOGUE["reply.done"]), _pattern(_CATALOGUE["reply.undone"])]
LEVELS = ("easy", "normal", "hard")
#: the undo windows people choose (None: they keep the operator's)
WINDOWS: tuple[int | None, ...] = (None, 0, 2, 10)
OPERATOR_WINDOW = 10
FAULTS = ("kill", "stop", "disk", "discord")
#: what a bot's answer was, as a person reads it
UNANSWERED = ("late", "no-ack", "no-answer")
#: garbage people type: empty-looking, too long, wrong codes, mentions, other scripts
GARBAGE = (
    " ",
    "zz",
    "CR99",
    "A1+A1+A1",
    "reserve",
    "dirk",
    "-1",
    "9" * 40,
    "💰" * 60,
    "'; DROP TABLE games; --",
    "<@123456789012345678> @everyone",
    "\u202e\u0645\u0631\u062d\u0628\u0627\u202c",  # right-to-left, Arabic letters
    "x" * 3000,
    "CR5+DH2+CR5+CR5",
    "A0",
    "Z9",
    "0,0",
)


@dataclass(frozen=True)
class Move:
    """A decision a person asked the bot to make: whose, in which game, what (canonical JSON)."""

    game_id: int
    user_id: int
    action: str


def canonical(action: Action) -> str:
    """The action as JSON where only what a person can tell apart counts: money cards as their
    currency and value, in any order (the bot reads a typed "CR5" as the first such card of the
    pool or hand, and a payment into the order of the hand)."""
    return _canonical(action_to_dict(action))


def _canonical(data: Any) -> str:
    def norm(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: sorted(f"{CARDS[c].currency}:{CARDS[c].value}" for c in v) if k == "cards" else v
                for k, v in ((k, norm(v)) for k, v in value.items())
            }
        if isinstance(value, list | tuple):
            return sorted((norm(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
        return value

    return json.dumps(norm(data), sort_keys=True)


@dataclass(eq=False)
class Sent:
    """One interaction a person sent, and what the fake saw of the bot's answer."""

    kind: str
    user: User
    result: InteractionResult
    game_id: int | None
    sent_wall: float
    sent_at: float  # since the start of the run
    move: Move | None = None
    burst: int | None = None
    webhook_writes: int = 0
    edits: int = 0  # of the message the interaction answered (the panel), after it
    last_wall: float | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    outcome: str | None = None

    @property
    def answered(self) -> bool:
        """Acknowledged, and a defer followed by its edit or followup (or refused as late)."""
        result = self.result
        if result.rejected:
            return True
        if result.callback_type is None:
            return False
        return result.callback_type not in (5, 6) or self.webhook_writes > 0

    def texts(self) -> list[str]:
        """What the bot said in answer: the reply (not the message a component is on) and the
        followups."""
        result = self.result
        shown = list(result.followups)
        if result.callback_type in (4, 5) and result.response is not None:
            shown.append(result.response)
        out: list[str] = []
        for message in shown:
            out.append(message.content)
            out += [e.get("description") or "" for e in message.embeds]
        return [t for t in out if t]

    def classify(self) -> str:
        result = self.result
        if result.callback_type is None:
            late = any(code == 10062 for code, _ in result.rejected)
            return "late" if late else "no-ack"
        if not self.answered:
            return "no-answer"
        texts = self.texts()
        if any(APOLOGY in t for t in texts):
            return "apology"
        if any(SAVED_ANYWAY in t for t in texts):
            return "saved"
        if any(words in t for t in texts for words in NOT_SAVED):
            return "failed"
        if any(p.fullmatch(t) for t in texts for p in REFUSALS) or any(
            t.startswith(REFUSAL_LEADS) for t in texts
        ):
            return "refused"
        if self.move is not None and not self.done():
            return "other"  # answered, but with nothing that says the move was done
        return "ok"

    def done(self) -> bool:
        """Whether the answer says the move was made: the panel redrawn after the move (a
        button or menu of the panel), or "Done."/"Undone:"/the held turn's panel (a command)."""
        result = self.result
        if result.callback_type == 6:
            return self.edits > 0 and not self.texts()
        reply = result.response
        if reply is not None and reply.components:
            return True
        return any(p.fullmatch(t) for t in self.texts() for p in DONE)

    def describe(self) -> str:
        data = self.result.data
        what = data.get("custom_id") or "/" + " ".join(_command_path(data))
        values = data.get("values")
        return (
            f"{self.kind} {what}{' ' + str(values) if values else ''} by {self.user.name} "
            f"(game {self.game_id}, interaction {self.result.id}, at {self.sent_at:.1f} s)"
        )


def _command_path(data: dict[str, Any]) -> list[str]:
    path = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        path.append(options[0]["name"])
        options = options[0].get("options") or []
    return path


@dataclass(eq=False)
class Table:
    """One table: its people and computer players, and the game they play now."""

    index: int
    channel: Channel  # where `/alhambra new` is typed
    threaded: bool
    people: list[User]
    levels: list[str]
    rng: random.Random
    seed: int
    home: Channel | None = None  # the game's thread, or the channel
    lobby: Message | None = None
    game_id: int = 0
    users: dict[int, User] = field(default_factory=dict)  # by seat
    state: Game | None = None  # as the acting person last read it
    version: int = -1  # the game's version (actions in its log) when it was read
    panel: Message | None = None  # the acting person's panel after their last move
    panel_user: User | None = None
    old_panels: deque[tuple[User, Message]] = field(default_factory=lambda: deque(maxlen=12))
    letting: tuple[int, float] | None = None  # a held turn left to its window: (version, until)
    games: int = 0


class SoakFake(FakeDiscord):
    """The fake Discord, telling the soak which interaction each request of the bot answers and
    which message is each channel's turn message."""

    def __init__(self) -> None:
        super().__init__(reply_timeout=30.0)
        self.rest = HeardRest(self)
        self.by_token: dict[str, Sent] = {}
        self.turns: dict[int, Message] = {}  # channel id -> its last turn message

    def add_message(self, message: Message) -> None:
        super().add_message(message)
        if not message.ephemeral and is_turn_message(message):
            self.turns[message.channel.id] = message

    def heard(self, record: RecordedRequest) -> None:
        parts = record.path.split("/")
        if len(parts) > 3 and parts[1] in ("interactions", "webhooks"):
            sent = self.by_token.get(parts[3])
            if sent is not None:
                if parts[1] == "webhooks" and record.method in ("POST", "PATCH"):
                    sent.webhook_writes += 1
                    sent.edits += record.method == "PATCH"
                sent.last_wall = time.time()
                sent.changed.set()

    def forget(self, keep: set[int]) -> None:
        """Drop what the fake keeps for tests (requests, uploads, old events) and the pictures
        of messages nobody looks at again, so a long run's memory stays flat."""
        self.requests.clear()
        self.uploads.clear()
        if self.gateway.session is not None:
            self.gateway.session.events.clear()
        for message in self.messages:
            if message.id not in keep and message.attachments:
                for attachment in message.attachments:
                    attachment.data = b""


class HeardRest(RestApi):
    sim: SoakFake

    async def _route(self, request: web.Request, record: RecordedRequest) -> web.Response:
        try:
            return await super()._route(request, record)
        finally:
            self.sim.heard(record)


class FullDisk:
    """The bot's store on a disk that is full for a while: while `full`, every write
    transaction runs and then fails at its commit with `StorageFull`, and is rolled back, as
    SQLite's SQLITE_FULL does. Reads go on."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.full = False
        self.refused = 0
        self._write = store.write

    def install(self) -> None:
        self.store.write = self.write  # type: ignore[method-assign]  # the fault, in place

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        async with self._write() as tx:
            yield tx
            if self.full:
                self.refused += 1
                raise StorageFull()


class Noted(logging.Handler):
    """What the bot and discord.py log at WARNING and above, kept with the interaction or game
    it was logged for, to show as evidence."""

    def __init__(self, start: float) -> None:
        super().__init__(logging.WARNING)
        self.start = start
        self.records: list[tuple[float, int, str, dict[str, object]]] = []
        #: interactions whose handler raised something unexpected that is not Discord failing
        #: (whatever the person was then told): the exception and where it was raised
        self.crashed: dict[int, str] = {}

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "voice will NOT be supported" in message:  # discord.py, at start
            return
        context = logs.current()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            frames = traceback.extract_tb(error.__traceback__)
            site = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
            message += f" [{type(error).__name__}: {error}{site}]"
            interaction = context.get("interaction")
            ours = not type(error).__module__.startswith(("discord", "aiohttp"))
            if message.startswith("interaction failed") and ours and isinstance(interaction, int):
                self.crashed[interaction] = f"{type(error).__name__}{site}"
        self.records.append((time.monotonic() - self.start, record.levelno, message, context))

    def count(self, level: int) -> int:
        return sum(1 for _, lv, _, _ in self.records if lv == level)

    def about(self, *, interaction: int | None = None, game: int | None = None) -> list[str]:
        return [
            f"{at:7.1f} s {logging.getLevelName(lv)} {message[:400]}"
            for at, lv, message, ctx in self.records
            if (interaction is not None and ctx.get("interaction") == interaction)
            or (game is not None and ctx.get("game") == game)
        ]


@dataclass
class Options:
    seconds: float = 600.0
    #: the last seconds of the run, without faults
    recovery_seconds: float = 90.0
    games: int = 12
    workers: int = 2
    seed: int = 1
    #: the computer players' levels, drawn from
    levels: tuple[str, ...] = LEVELS
    work_timeout: float = 3.0
    sweep_seconds: float = 5.0
    #: seconds between two faults, from..to
    fault_gap: tuple[float, float] = (20.0, 40.0)
    stop_seconds: tuple[float, float] = (5.0, 20.0)
    disk_seconds: tuple[float, float] = (3.0, 10.0)
    #: a person's pause between two clicks, from..to seconds
    think: tuple[float, float] = (0.4, 2.0)
    #: shares of a person's steps: hostile input, a look, a decision by slash command
    hostile_share: float = 0.15
    look_share: float = 0.05
    slash_share: float = 0.25
    #: share of a person's moves clicked twice or more at once
    burst_share: float = 0.08
    #: how long a person waits for an answer before giving up on it
    reply_timeout: float = 20.0
    #: stalled: waiting on a computer player with no move for this long, or a held turn's
    #: `end_turn` timer overdue by this long
    stall_seconds: float = 60.0
    overdue_seconds: float = 30.0
    log_path: Path | None = None
    show: Callable[[str], None] | None = print


@dataclass
class Report:
    seconds: float
    sent: int
    outcomes: dict[str, int]
    by_kind: dict[str, int]
    unhandled: list[Sent]
    unanswered: int
    faults: dict[str, int]
    writes_refused: int
    requests_failed: int
    moves_told_done: int
    moves_told_saved: int
    lost: list[Sent]
    told_failed_but_saved: list[Sent]
    duplicates_told_failed: int
    stalled: list[str]
    #: turns not yet told to their channel at the end (their `announce` timer pending)
    unannounced: list[str]
    #: the timer dispatcher at the end (timers fired, what it awaits), and the most overdue a
    #: timer was during the run (seconds, which and when)
    dispatcher: str
    most_overdue: tuple[float, str]
    verify_problems: list[str]
    verify_games: int
    verify_actions: int
    ack_p50_ms: float | None
    ack_p99_ms: float | None
    ack_max_ms: float | None
    pool_restarts: int
    timer_retries: float
    computer_retries: float
    finished_games: int
    logged_errors: int
    logged_warnings: int
    not_sendable: int
    harness: dict[str, int]
    harness_seen: list[str]
    #: the answers people got most often that were not "ok", and how many times
    answers_seen: list[tuple[str, int]]
    load_average: tuple[float, float, float] | None
    evidence: list[str]

    @property
    def failures(self) -> list[str]:
        out = []
        if self.unhandled:
            out.append(f"realistic unhandled {len(self.unhandled)}")
        if self.lost:
            out.append(f"lost {len(self.lost)}")
        if self.told_failed_but_saved:
            out.append(f"told failed but saved {len(self.told_failed_but_saved)}")
        if self.stalled:
            out.append(f"stalled {len(self.stalled)}")
        if self.verify_problems:
            out.append(f"verify-db problems {len(self.verify_problems)}")
        return out


class Soak:
    def __init__(
        self, sim: SoakFake, bot: AlhambraBot, db_path: Path, options: Options, start: float
    ) -> None:
        self.sim, self.bot, self.options = sim, bot, options
        self.db = sqlite3.connect(db_path)
        self.start = start
        self.tables: list[Table] = []
        self.sent: list[Sent] = []
        self.watchers: list[User] = []
        self.windows: dict[int, int | None] = {}
        self.stopping = False
        self.faults: Counter[str] = Counter()
        self.fault_log: list[tuple[float, float, str]] = []  # (from, to, what)
        self.discord_faults: list[Fault] = []
        self.disk: FullDisk | None = None
        self.finished = 0
        self.not_sendable = 0
        self.harness: Counter[str] = Counter()
        self.harness_seen: list[str] = []  # the first few, to show
        self.bursts = 0
        #: the most overdue a timer was, seen every 2 s: (seconds, which and when)
        self.most_overdue: tuple[float, str] = (0.0, "")
        #: timers the bot had fired at the last look, and when that count last grew
        self.fired: tuple[int, float] = (0, 0.0)
        self.rng = random.Random(options.seed)

    def say(self, text: str) -> None:
        if self.options.show is not None:
            self.options.show(text)

    def now(self) -> float:
        return time.monotonic() - self.start

    # ----- sending one interaction ----------------------------------------------------------------
    async def send(
        self,
        kind: str,
        user: User,
        channel: Channel,
        itype: int,
        data: dict[str, Any],
        *,
        source: Message | None = None,
        game_id: int | None = None,
        move: Move | None = None,
        burst: int | None = None,
    ) -> Sent:
        """Send one interaction as a Discord client does and wait for the bot's answer (up to
        the reply timeout); the answer is classified, never trusted to be one shape."""
        result = self.sim._interaction(itype, user, channel, data, source)
        sent = Sent(kind, user, result, game_id, time.time(), self.now(), move, burst)
        self.sim.by_token[result.token] = sent
        self.sent.append(sent)
        result.created = time.monotonic()
        self.sim.gateway.dispatch("INTERACTION_CREATE", result.payload)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.options.reply_timeout):
                while not sent.answered:
                    sent.changed.clear()
                    await sent.changed.wait()
        sent.outcome = sent.classify()
        return sent

    async def command(
        self,
        kind: str,
        user: User,
        channel: Channel,
        line: str,
        options: dict[str, Any] | None = None,
        *,
        game_id: int | None = None,
        move: Move | None = None,
    ) -> Sent | None:
        """A slash command as the client builds it (None: the client would not send it)."""
        try:
            data = command_data(self.sim, channel, user, line, options or {})
        except SimulationError:
            self.not_sendable += 1
            return None
        return await self.send(
            kind, user, channel, APPLICATION_COMMAND, data, game_id=game_id, move=move
        )

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        line: str,
        focused: str,
        typed: str,
        other: dict[str, Any],
    ) -> Sent | None:
        try:
            options = {**other, focused: typed}
            data = command_data(self.sim, channel, user, line, options, focused=focused)
        except SimulationError:
            self.not_sendable += 1
            return None
        return await self.send("autocomplete", user, channel, AUTOCOMPLETE, data)

    async def component(
        self,
        kind: str,
        user: User,
        message: Message,
        data: dict[str, Any],
        *,
        table: Table | None = None,
        move: Move | None = None,
    ) -> Sent:
        game_id = table.game_id if table is not None else None
        if move is None and table is not None and kind == "act":
            move = self.move_of(table, user, data)
        if kind == "act" and table is not None and table.rng.random() < self.options.burst_share:
            self.bursts += 1
            copies = table.rng.randint(2, 3)
            burst = await asyncio.gather(
                *(
                    self.send(
                        kind,
                        user,
                        message.channel,
                        MESSAGE_COMPONENT,
                        data,
                        source=message,
                        game_id=game_id,
                        move=move,
                        burst=self.bursts,
                    )
                    for _ in range(copies)
                )
            )
            return next((s for s in burst if s.outcome == "ok"), burst[0])
        return await self.send(
            kind,
            user,
            message.channel,
            MESSAGE_COMPONENT,
            data,
            source=message,
            game_id=game_id,
            move=move,
        )

    def move_of(self, table: Table, user: User, data: dict[str, Any]) -> Move | None:
        """The move a panel's component asks for, read as the bot does: the custom id names
        the game and the version the panel was drawn for, the value the legal action's index."""
        state = table.state
        parts = str(data.get("custom_id", "")).split(":")
        if state is None or len(parts) != 5 or parts[1] not in ("b", "s"):
            return None
        value = parts[4] if parts[1] == "b" else str((data.get("values") or [""])[0])
        seat = state.current_seat
        if not value.startswith("a") or seat is None or int(parts[3]) != table.version:
            return None
        legal = state.view(seat).legal
        index = int(value[1:]) if value[1:].isdigit() else -1
        if not 0 <= index < len(legal):
            return None
        return Move(table.game_id, user.id, canonical(legal[index]))

    # ----- the hands people play with (people.Hands) -------------------------------------------
    async def open_panel(self, live: Table, user: User, button: str) -> Message:
        turn = self.turn_of(live)
        if turn is None:
            raise SimulationError("no turn message")
        sent = await self.component("open", user, turn, _button_data(turn, button), table=live)
        panel = sent.result.response
        if sent.outcome != "ok" or panel is None or not panel.ephemeral or not panel.components:
            raise Abort(sent.outcome or "no panel")
        live.old_panels.append((user, panel))
        return panel

    async def click(
        self, live: Table, user: User, message: Message, label: str, kind: str
    ) -> object:
        sent = await self.component(kind, user, message, _button_data(message, label), table=live)
        if sent.outcome != "ok":
            raise Abort(sent.outcome or "?")
        return sent

    async def choose(self, live: Table, user: User, panel: Message, label: str) -> object:
        async def send(user: User, message: Message, data: dict[str, Any], kind: str) -> Sent:
            sent = await self.component(kind, user, message, data, table=live)
            if sent.outcome != "ok":
                raise Abort(sent.outcome or "?")
            return sent

        return await choose_option(send, user, panel, label)

    # ----- setting up ---------------------------------------------------------------------------
    async def set_up(self, guild: Guild, shared: Channel) -> None:
        for n in range(2):
            watcher = self.sim.user(f"watcher{n}")
            self.sim.member(guild, watcher)
            self.watchers.append(watcher)
        for index in range(self.options.games):
            rng = random.Random(self.options.seed * 1000 + index)
            seats = rng.randint(2, 4)
            humans = rng.randint(1, seats)
            if seats > 1 and humans == seats and rng.random() < 0.6:
                humans -= 1  # most tables have a computer player
            people = [self.sim.user(f"t{index}p{n}") for n in range(humans)]
            for person in people:
                self.sim.member(guild, person)
            levels = [rng.choice(self.options.levels) for _ in range(seats - humans)]
            threaded = index % 3 != 2
            channel = shared if threaded else self.sim.channel(guild, f"table-{index}")
            table = Table(index, channel, threaded, people, levels, rng, seed=index)
            self.tables.append(table)
            for person in people:
                window = rng.choice(WINDOWS)
                self.windows[person.id] = window
                if window is not None:
                    sent = await self.command(
                        "settings", person, channel, "alhambra settings", {"undo_window": window}
                    )
                    if sent is None or sent.outcome != "ok":
                        raise RuntimeError(f"settings refused: {sent and sent.texts()}")
        await asyncio.gather(*(self.open_game(t, strict=True) for t in self.tables))

    async def open_game(self, table: Table, *, strict: bool = False) -> bool:
        """The table's host opens a game, the others join, the computer players are added and
        the host starts it, as people do; False if the bot refused any of it (tried again)."""
        host = table.people[0]
        options: dict[str, Any] = {} if table.threaded else {"thread": False}
        created = await self.command("lobby", host, table.channel, "alhambra new", options)
        try:
            if created is None or created.outcome != "ok" or created.result.response is None:
                raise Abort("new")
            opened = created.result.response
            if table.threaded:
                await self.sim.wait_until(lambda: opened.thread is not None, timeout=20)
                home = opened.thread
                assert home is not None

                def lobby_shown() -> Message | None:
                    return next(
                        (m for m in self.sim.channel_messages(home) if "Join" in m.button_labels()),
                        None,
                    )

                await self.sim.wait_until(lambda: lobby_shown() is not None, timeout=20)
                lobby = lobby_shown()
            else:
                home, lobby = table.channel, opened
            assert lobby is not None
            table.home, table.lobby = home, lobby
            row = self.db.execute(
                "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (home.id,)
            ).fetchone()
            table.game_id = int(row[0])
            for person in table.people[1:]:
                joined = await self.component("lobby", person, lobby, _button_data(lobby, "Join"))
                if joined.outcome != "ok":
                    raise Abort("join")
            for level in table.levels:
                added = await self.command(
                    "lobby", host, home, "alhambra add-bot", {"level": level}, game_id=table.game_id
                )
                if added is None or added.outcome != "ok":
                    raise Abort("add-bot")
            started = await self.component("lobby", host, lobby, _button_data(lobby, "Start"))
            if started.outcome != "ok":
                raise Abort("start")
            await self.sim.wait_until(lambda: self.status(table.game_id) == "active", timeout=20)
        except (Abort, TimeoutError, SimulationError, LookupError) as exc:
            if strict:
                raise RuntimeError(f"table {table.index} could not open its game: {exc!r}") from exc
            if table.home is not None and self.status(table.game_id) == "lobby":
                await self.command("lobby", host, table.home, "alhambra abandon")
            return False
        seats = dict(
            self.db.execute(
                "SELECT seat, user_id FROM seats WHERE game_id = ? AND user_id IS NOT NULL",
                (table.game_id,),
            ).fetchall()
        )
        by_id = {p.id: p for p in table.people}
        table.users = {int(s): by_id[u] for s, u in seats.items()}
        table.panel = table.panel_user = None
        table.letting = None
        table.old_panels.clear()
        table.games += 1
        return True

    # ----- reading the game ---------------------------------------------------------------------
    def status(self, game_id: int) -> str | None:
        row = self.db.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else str(row[0])

    def read(self, game_id: int) -> tuple[str | None, int, Game | None]:
        row = self.db.execute(
            "SELECT status, version, snapshot FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            return None, -1, None
        return str(row[0]), int(row[1]), (Game.from_json(row[2]) if row[2] else None)

    def turn_of(self, table: Table) -> Message | None:
        return None if table.home is None else self.sim.turns.get(table.home.id)

    def window_of(self, user: User) -> int:
        chosen = self.windows.get(user.id)
        return OPERATOR_WINDOW if chosen is None else chosen

    # ----- people ---------------------------------------------------------------------------------
    async def play(self, table: Table) -> None:
        while not self.stopping:
            await asyncio.sleep(table.rng.uniform(*self.options.think))
            if self.stopping:
                break
            try:
                await self.step(table)
            except Abort:
                table.panel = None
            except Exception as exc:  # the soak's own confusion, or an answer it did not expect
                self.harness[type(exc).__name__] += 1
                if len(self.harness_seen) < 5:
                    self.harness_seen.append(f"{type(exc).__name__}: {str(exc)[:160]}")
                table.panel = None
                await asyncio.sleep(1.0)

    async def step(self, table: Table) -> None:
        status, version, game = self.read(table.game_id)
        if status in ("finished", "abandoned") or status is None:
            if status == "finished":
                self.finished += 1
            if not await self.open_game(table):
                await asyncio.sleep(2.0)
            return
        if status != "active" or game is None:
            return
        table.state, table.version = game, version
        rng = table.rng
        if rng.random() < self.options.hostile_share:
            await self.hostile(table, game)
            return
        seat = game.current_seat
        user = table.users.get(seat) if seat is not None else None
        if rng.random() < self.options.look_share:
            await self.look(table, game, user or rng.choice(table.people))
            return
        if user is None or seat is None:  # a computer player's turn: it plays by itself
            return
        view = game.view(seat)
        action: Action = make_player("easy", table.seed + seat).choose(view, [])
        can_undo = any(isinstance(a, Undo) for a in view.legal)
        if game.phase == "confirm":
            window = self.window_of(user)
            if table.letting is not None and table.letting[0] == version:
                if time.monotonic() < table.letting[1]:
                    return  # the undo window ends the turn (a person gives up after a while)
            elif window > 0 and rng.random() < 0.5:
                table.letting = (version, time.monotonic() + window + 30)
                return
            action = Undo() if can_undo and rng.random() < 0.15 else EndTurn()
        elif can_undo and game.turn_actions and rng.random() < 0.04:
            action = Undo()
        if _by_command(action) and rng.random() < self.options.slash_share:
            await self.by_command(table, user, game, action)
            return
        kept = table.panel if table.panel_user is user else None
        table.panel = None
        panel = await play_decision(
            self, table, user, action, view, kept=kept, turn=self.turn_of(table), locale=LOCALE
        )
        if panel.components:  # the redrawn panel: the person's turn goes on there
            table.panel, table.panel_user = panel, user

    async def by_command(self, table: Table, user: User, game: Game, action: Action) -> None:
        """The decision typed as a slash command, as autocomplete offers it."""
        home = table.home
        assert home is not None
        move = Move(table.game_id, user.id, canonical(action))
        kw: dict[str, Any]
        if isinstance(action, TakeMoney):
            line, kw = "alhambra take", {"cards": action_code(action)}
        elif isinstance(action, Buy):
            line, kw = "alhambra buy", {"slot": action.slot + 1, "payment": action_code(action)}
        elif isinstance(action, Place | PlaceInReserve | GiveToDirk):
            line, kw = (
                "alhambra place",
                {"where": action_code(action), "building": str(action.tile)},
            )
        elif isinstance(action, RemoveToReserve):
            line, kw = "alhambra redesign", {"move": "remove", "building": action_code(action)}
        elif isinstance(action, PlaceFromReserve | Swap):
            kw = {
                "move": "build" if isinstance(action, PlaceFromReserve) else "swap",
                "building": str(action.tile),
                "cell": action_code(action),
            }
            line = "alhambra redesign"
        elif isinstance(action, EndTurn):
            line, kw = "alhambra end-turn", {}
        else:
            line, kw = "alhambra undo", {}
        sent = await self.command(
            "slash-act", user, home, line, kw, game_id=table.game_id, move=move
        )
        table.panel = None
        if sent is not None and sent.outcome == "ok":
            reply = sent.result.response
            if reply is not None and reply.components:  # the held turn's panel
                table.panel, table.panel_user = reply, user
                table.old_panels.append((user, reply))

    async def look(self, table: Table, game: Game, user: User) -> None:
        """A look at the game: a hand, a board, the log, the scores (pictures, in workers)."""
        home = table.home
        turn = self.turn_of(table)
        assert home is not None
        choice = table.rng.randrange(5)
        if choice < 2 and turn is not None:
            label = table.rng.choice(["Show my hand", "Every Alhambra", "Details", "Log"])
            if label in turn.button_labels():
                await self.component("look", user, turn, _button_data(turn, label), table=table)
                return
        line = table.rng.choice(["alhambra hand", "alhambra scores", "alhambra board"])
        await self.command("look", user, home, line, game_id=table.game_id)

    # ----- hostile but realistic input ---------------------------------------------------------
    async def hostile(self, table: Table, game: Game) -> None:
        """One thing a genuine client lets a person do that the bot must answer calmly."""
        rng = table.rng
        home = table.home
        assert home is not None
        seat = game.current_seat
        current = table.users.get(seat) if seat is not None else None
        others = [p for p in table.people if p is not current] + self.watchers
        what = rng.choice(
            [
                "stale-panel",
                "old-turn",
                "out-of-turn-click",
                "out-of-turn-command",
                "garbage",
                "autocomplete",
                "burst-look",
            ]
        )
        kind = f"hostile:{what}"
        if what == "stale-panel" and table.old_panels:
            user, panel = rng.choice(list(table.old_panels))
            components = [c for c in panel.buttons() + panel.selects() if c.get("custom_id")]
            if panel.deleted or not components:
                return
            picked = rng.choice(components)
            data: dict[str, Any] = {"custom_id": picked["custom_id"], "component_type": 2}
            if picked.get("options"):
                option = rng.choice(picked["options"])
                data = {
                    "custom_id": picked["custom_id"],
                    "component_type": picked["type"],
                    "values": [str(option["value"])],
                }
            await self.component(kind, user, panel, data, table=table)
        elif what == "old-turn":
            turn = self.turn_of(table)
            old = [
                m for m in self.sim.channel_messages(home) if m is not turn and is_turn_message(m)
            ]
            source = rng.choice(old) if old else turn
            if source is None:
                return
            label = rng.choice(source.button_labels())
            user = rng.choice(table.people + self.watchers)
            await self.component(kind, user, source, _button_data(source, label), table=table)
        elif what == "out-of-turn-click":
            turn = self.turn_of(table)
            if turn is None or not others:
                return
            plays = [b for b in turn.button_labels() if b in ("Take money", "Buy", "Redesign")]
            label = rng.choice(plays or turn.button_labels())
            user = rng.choice(others)
            await self.component(kind, user, turn, _button_data(turn, label), table=table)
        elif what == "out-of-turn-command":
            if not others:
                return
            user = rng.choice(others)
            money = [a for a in game.legal_actions() if isinstance(a, TakeMoney)]
            choices: list[tuple[str, dict[str, Any]]] = [
                ("alhambra end-turn", {}),
                ("alhambra undo", {}),
                ("alhambra hint", {}),
                ("alhambra take", {"cards": action_code(money[0]) if money else "CR5"}),
            ]
            line, kw = rng.choice(choices)
            await self.command(kind, user, home, line, kw, game_id=table.game_id)
        elif what == "garbage":
            user = rng.choice([*table.people, *self.watchers])
            junk = rng.choice(GARBAGE)
            garbage: list[tuple[str, dict[str, Any]]] = [
                ("alhambra take", {"cards": junk}),
                ("alhambra buy", {"slot": rng.randint(1, 4), "payment": junk}),
                ("alhambra place", {"where": junk, "building": rng.choice(GARBAGE)}),
                ("alhambra place", {"where": junk}),
                ("alhambra redesign", {"move": "remove", "building": junk}),
                ("alhambra redesign", {"move": "swap", "building": junk, "cell": junk}),
                ("alhambra board", {"player": junk}),
                ("alhambra log", {"page": rng.randint(1, 50)}),
            ]
            line, kw = rng.choice(garbage)
            await self.command(kind, user, home, line, kw, game_id=table.game_id)
        elif what == "autocomplete":
            user = rng.choice([*table.people, *self.watchers])
            junk = rng.choice(GARBAGE)
            typing: list[tuple[str, str, dict[str, Any]]] = [
                ("alhambra take", "cards", {}),
                ("alhambra place", "where", {"building": rng.choice(GARBAGE)}),
                ("alhambra place", "building", {}),
                ("alhambra buy", "payment", {"slot": rng.randint(1, 4)}),
                ("alhambra board", "player", {}),
                ("alhambra redesign", "cell", {"move": "build", "building": junk}),
            ]
            line, focused, other = rng.choice(typing)
            await self.autocomplete(user, home, line, focused, junk, other)
        elif what == "burst-look":
            turn = self.turn_of(table)
            if turn is None or "Show my hand" not in turn.button_labels():
                return
            user = rng.choice(table.people)
            data = _button_data(turn, "Show my hand")
            await asyncio.gather(
                *(self.component(kind, user, turn, data, table=table) for _ in range(3))
            )

    # ----- chaos ----------------------------------------------------------------------------------
    async def chaos(self, until: float) -> None:
        """One fault every `fault_gap` seconds until `until` (seconds into the run), the kinds
        in turn in a shuffled order, so every kind comes round."""
        order: list[str] = []
        while True:
            await asyncio.sleep(max(0.0, self.rng.uniform(*self.options.fault_gap)))
            if self.now() >= until or self.stopping:
                return
            if not order:
                order = list(FAULTS)
                self.rng.shuffle(order)
            kind = order.pop()
            began = self.now()
            try:
                what = await self.fault(kind, until)
            except Exception as exc:  # the soak goes on: a fault that could not be made
                what = f"{kind} failed to inject: {exc!r}"
            self.fault_log.append((began, self.now(), what))
            self.say(f"{began:7.1f} s  fault: {what}")

    async def fault(self, kind: str, until: float) -> str:
        rng = self.rng
        if kind == "kill":
            pids = self.bot.workers.pids()
            if not pids:
                return "kill: no worker alive"
            pid = rng.choice(sorted(pids))
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            self.faults["worker killed"] += 1
            return f"SIGKILL worker {pid}"
        if kind == "stop":
            pids = sorted(self.bot.workers.pids())
            seconds = min(rng.uniform(*self.options.stop_seconds), max(1.0, until - self.now()))
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGSTOP)
            self.faults["workers stopped"] += 1
            try:
                await asyncio.sleep(seconds)
            finally:
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGCONT)
            return f"SIGSTOP workers {pids} for {seconds:.1f} s, then SIGCONT"
        if kind == "disk":
            assert self.disk is not None
            seconds = min(rng.uniform(*self.options.disk_seconds), max(1.0, until - self.now()))
            refused = self.disk.refused
            self.disk.full = True
            self.faults["full disk"] += 1
            try:
                await asyncio.sleep(seconds)
            finally:
                self.disk.full = False
            return f"full disk for {seconds:.1f} s ({self.disk.refused - refused} writes refused)"
        routes = rng.sample(
            ["send_message", "callback", "followup", "edit_original", "edit_message"],
            rng.randint(1, 2),
        )
        status = rng.choice([500, 502, 503, 429])
        count = rng.randint(3, 10)
        for route in routes:
            retry = rng.uniform(0.2, 1.5)
            self.discord_faults.append(
                self.sim.fail_next(route, status=status, count=count, retry_after=retry)
            )
        self.faults["Discord faults"] += 1
        return f"Discord answers {status} to the next {count} of {', '.join(routes)}"

    def fault_near(self, at: float) -> str:
        """The fault under way at `at` seconds, or the last one before it."""
        before = [f for f in self.fault_log if f[0] <= at]
        if not before:
            return "no fault before it"
        _, ended, what = before[-1]
        if at <= ended + 1:
            return f"during: {what}"
        return f"{at - ended:.1f} s after: {what}"

    async def watch(self) -> None:
        """Every 2 s: how overdue the most overdue timer is (a timer overdue for long is a
        dispatcher that does not heal), and how many timers the bot has fired."""
        while True:
            await asyncio.sleep(2)
            now_ms = time.time() * 1000
            row = self.db.execute(
                "SELECT t.due_at, t.kind, t.game_id, t.attempts FROM timers t "
                "JOIN games g ON g.id = t.game_id WHERE g.status = 'active' "
                "ORDER BY t.due_at LIMIT 1"
            ).fetchone()
            if row is not None and (late := (now_ms - row[0]) / 1000) > self.most_overdue[0]:
                self.most_overdue = (late, f"{row[1]} of game {row[2]} at {self.now():.0f} s")
            timers = self.bot.timers
            fired = timers.fired if timers is not None else 0
            if fired > self.fired[0]:
                self.fired = (fired, self.now())

    def dispatcher(self) -> str:
        """The timer dispatcher's task: running (and what it awaits), or how it ended."""
        timers = self.bot.timers
        task = getattr(timers, "_task", None)
        if timers is None or task is None:
            return "not running"
        fired = f"{timers.fired} fired, the last at {self.fired[1]:.0f} s"
        if task.done():
            error = None if task.cancelled() else task.exception()
            return f"ended ({'cancelled' if error is None else repr(error)}) after {fired}"
        frames: list[str] = []
        awaited: Any = task.get_coro()
        while awaited is not None and len(frames) < 12:
            frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "ag_frame", None)
            if frame is None:
                frames.append(type(awaited).__name__)
                break
            frames.append(
                f"{frame.f_code.co_name} ({Path(frame.f_code.co_filename).name}:{frame.f_lineno})"
            )
            awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "ag_await", None)
        return f"{fired}; now in " + " > ".join(frames)

    async def forget(self) -> None:
        """Every 30 s: the fake forgets what only tests read back, keeping the live messages."""
        while not self.stopping:
            await asyncio.sleep(30)
            keep = {m.id for m in self.sim.turns.values()}
            for table in self.tables:
                keep |= {p.id for _, p in table.old_panels}
            self.sim.forget(keep)

    # ----- the end ------------------------------------------------------------------------------
    def stalled(self) -> list[str]:
        """Games that wait on a computer player which has not moved for `stall_seconds`; on a
        timer overdue by `overdue_seconds` (a held turn's `end_turn`, or any other: the
        dispatcher is stuck); or on a turn that only waits for the confirmation its player
        never gives (every person here lets their turns end by themselves), with no `end_turn`
        timer to end it, for `overdue_seconds`."""
        now_ms = time.time() * 1000
        out = []
        for table in self.tables:
            row = self.db.execute(
                "SELECT status, current_seat, updated_at, snapshot FROM games WHERE id = ?",
                (table.game_id,),
            ).fetchone()
            if row is None or row[0] != "active":
                continue
            seat = self.db.execute(
                "SELECT kind, level FROM seats WHERE game_id = ? AND seat = ?",
                (table.game_id, row[1]),
            ).fetchone()
            (last,) = self.db.execute(
                "SELECT MAX(created_at) FROM actions WHERE game_id = ?", (table.game_id,)
            ).fetchone()
            quiet = (now_ms - (last or row[2])) / 1000
            timers = self.db.execute(
                "SELECT kind, due_at, attempts FROM timers WHERE game_id = ?", (table.game_id,)
            ).fetchall()
            shown = (
                ", ".join(
                    f"{k} due {(d - now_ms) / 1000:+.0f} s (attempts {a})" for k, d, a in timers
                )
                or "none"
            )
            where = f"game {table.game_id}"
            if seat is not None and seat[0] == "computer" and quiet > self.options.stall_seconds:
                out.append(
                    f"{where}: waiting on a {seat[1]} computer player, no move for "
                    f"{quiet:.0f} s; timers: {shown}"
                )
            overdue = [
                (k, (now_ms - d) / 1000)
                for k, d, _ in timers
                if (now_ms - d) / 1000 > self.options.overdue_seconds
            ]
            if overdue:
                kinds = ", ".join(f"{k} by {late:.0f} s" for k, late in overdue)
                out.append(f"{where}: timers overdue ({kinds}); timers: {shown}")
            held = seat is not None and seat[0] == "human" and row[3] is not None
            if (
                held
                and Game.from_json(row[3]).phase == "confirm"
                and not any(k == "end_turn" for k, _, _ in timers)
                and quiet > self.options.overdue_seconds
            ):
                out.append(
                    f"{where}: a turn waiting for a confirmation its player never gives, with "
                    f"no end_turn timer, for {quiet:.0f} s; timers: {shown}"
                )
        return out

    def unannounced(self) -> list[str]:
        """Turns not yet told to their channel (an `announce` timer still pending)."""
        now_ms = time.time() * 1000
        rows = self.db.execute(
            "SELECT game_id, due_at, attempts FROM timers WHERE kind = 'announce'"
        ).fetchall()
        return [f"game {g}: due {(d - now_ms) / 1000:+.0f} s (attempts {a})" for g, d, a in rows]

    def check_moves(self) -> tuple[int, int, list[Sent], list[Sent], int]:
        """Moves told done or saved, and which of them are not in the log (lost); moves told
        failed that are in the log (and the duplicates of a burst that were told so)."""
        logged: dict[tuple[int, int, str], list[int]] = {}
        for game_id, user_id, action, created in self.db.execute(
            "SELECT game_id, user_id, action, created_at FROM actions WHERE user_id IS NOT NULL"
        ):
            key = (int(game_id), int(user_id), _canonical(json.loads(action)))
            logged.setdefault(key, []).append(int(created))

        def in_log(sent: Sent) -> bool:
            move = sent.move
            assert move is not None
            # written after the click and before its last answer (a person's next try, a
            # moment after a refusal, is not this one's)
            began = sent.sent_wall * 1000 - 20
            ended = (sent.last_wall or sent.sent_wall + self.options.reply_timeout) * 1000 + 20
            times = logged.get((move.game_id, move.user_id, move.action), [])
            return any(began <= t <= ended for t in times)

        moves = [s for s in self.sent if s.move is not None]
        told_ok = {s.burst for s in moves if s.burst is not None and s.outcome in ("ok", "saved")}
        done = [s for s in moves if s.outcome == "ok"]
        saved = [s for s in moves if s.outcome == "saved"]
        lost = [s for s in done + saved if not in_log(s)]
        failed = [s for s in moves if s.outcome in ("failed", "apology") and in_log(s)]
        duplicates = [s for s in failed if s.burst is not None and s.burst in told_ok]
        wrong = [s for s in failed if s not in duplicates]
        return len(done), len(saved), lost, wrong, len(duplicates)


def _button_data(message: Message, label: str) -> dict[str, Any]:
    return {"custom_id": find_button(message, label)["custom_id"], "component_type": 2}


def _by_command(action: Action) -> bool:
    """Whether a slash command plays this decision (passing is a button only)."""
    return isinstance(
        action,
        TakeMoney
        | Buy
        | Place
        | PlaceInReserve
        | GiveToDirk
        | RemoveToReserve
        | PlaceFromReserve
        | Swap
        | EndTurn
        | Undo,
    )


def _metric(name: str) -> float:
    return REGISTRY.get_sample_value(name) or 0.0


async def run(options: Options) -> Report:
    """Set up the tables, play with chaos, let it recover, check everything; the report."""
    start = time.monotonic()
    sim = SoakFake()
    await sim.start()
    noted = Noted(start)
    root = logging.getLogger()
    root.addHandler(noted)
    handler: logging.Handler | None = None
    log_file = None
    if options.log_path is not None:
        log_file = open(options.log_path, "w", encoding="utf-8")  # noqa: SIM115  # closed below
        handler = logs.configure("INFO", "plain", stream=log_file)
        logging.getLogger("discord").setLevel(logging.WARNING)
    sweep_before = discord_client.SWEEP_EVERY_S
    discord_client.SWEEP_EVERY_S = options.sweep_seconds  # read when the bot is built
    retries0 = _metric("alhambra_timer_retries_total")
    computer0 = _metric("alhambra_computer_retries_total")
    seeds = random.Random(options.seed)
    try:
        with tempfile.TemporaryDirectory() as tmp, pointed_at(sim):
            db_path = Path(tmp) / "soak.sqlite3"
            settings = Settings(
                None,
                str(db_path),
                None,
                "INFO",
                undo_window_s=OPERATOR_WINDOW,
                workers=options.workers,
                work_timeout_s=options.work_timeout,
            )
            owner = sim.user("owner")
            guild = sim.guild("Soak", owner=owner)
            shared = sim.channel(guild, "alhambra")

            def factory() -> AlhambraBot:
                return AlhambraBot(settings, seed_source=lambda: seeds.randrange(1 << 30))

            async with running_bot(sim, factory, ready_timeout=60) as bot:
                soak = Soak(sim, bot, db_path, options, start)
                assert bot.store is not None
                soak.disk = FullDisk(bot.store)
                soak.disk.install()
                await soak.set_up(guild, shared)
                people = sum(len(t.people) for t in soak.tables)
                computers = sum(len(t.levels) for t in soak.tables)
                soak.say(
                    f"{len(soak.tables)} games ({people} people, {computers} computer players) "
                    f"opened in {soak.now():.1f} s; {options.workers} workers, work timeout "
                    f"{options.work_timeout:g} s, sweep every {options.sweep_seconds:g} s "
                    f"(SWEEP_EVERY_S lowered from {sweep_before:g}), seed {options.seed}"
                )
                began = soak.now()
                end = began + options.seconds
                chaos_end = end - options.recovery_seconds
                soak.say(
                    f"chaos until {chaos_end:.0f} s, then recovery (no faults) until {end:.0f} s"
                )
                tasks = [asyncio.create_task(soak.play(t)) for t in soak.tables]
                chaos = asyncio.create_task(soak.chaos(chaos_end))
                forgetting = asyncio.create_task(soak.forget())
                watching = asyncio.create_task(soak.watch())
                await asyncio.sleep(max(0.0, end - soak.now()))
                soak.stopping = True
                soak.say(f"{soak.now():7.1f} s  recovery over: the people stop")
                stalled, unannounced = soak.stalled(), soak.unannounced()
                dispatcher = soak.dispatcher()
                if dispatcher.startswith(("ended", "not running")):  # every game's timers
                    stalled.append(f"the timer dispatcher has stopped: {dispatcher}")
                chaos.cancel()
                forgetting.cancel()
                watching.cancel()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        asyncio.gather(*tasks, return_exceptions=True),
                        options.reply_timeout + 5,
                    )
                for task in [*tasks, chaos, forgetting, watching]:
                    task.cancel()
                await asyncio.gather(*tasks, chaos, forgetting, watching, return_exceptions=True)
                with contextlib.suppress(TimeoutError):  # answers still on their way
                    async with asyncio.timeout(options.reply_timeout):
                        while any(not s.answered for s in soak.sent[-500:]):
                            await asyncio.sleep(0.2)
                for s in soak.sent:
                    s.outcome = s.classify()
                pool_restarts = bot.workers.restarts
                writes_refused = soak.disk.refused
            report = soak_report(soak, stalled, pool_restarts, writes_refused, db_path, noted)
            report.unannounced = unannounced
            report.dispatcher = dispatcher
            report.most_overdue = soak.most_overdue
            soak.db.close()
        report.timer_retries = _metric("alhambra_timer_retries_total") - retries0
        report.computer_retries = _metric("alhambra_computer_retries_total") - computer0
        report.logged_errors = noted.count(logging.ERROR) + noted.count(logging.CRITICAL)
        report.logged_warnings = noted.count(logging.WARNING)
        report.evidence = evidence(soak, report, noted)
        for line in closing(report, options):
            soak.say(line)
        return report
    finally:
        discord_client.SWEEP_EVERY_S = sweep_before
        root.removeHandler(noted)
        if handler is not None:
            root.removeHandler(handler)
        if log_file is not None:
            log_file.close()
        await sim.stop()


def soak_report(
    soak: Soak,
    stalled: list[str],
    pool_restarts: int,
    writes_refused: int,
    db_path: Path,
    noted: Noted,
) -> Report:
    sent = soak.sent
    outcomes = Counter(s.outcome or "no-answer" for s in sent)
    by_kind = Counter(s.kind for s in sent)
    acks = [a * 1000 for s in sent if (a := s.result.ack_seconds) is not None]
    done, saved, lost, wrong, duplicates = soak.check_moves()
    verified = verify_database(db_path)
    return Report(
        seconds=soak.now(),
        sent=len(sent),
        outcomes=dict(outcomes),
        by_kind=dict(by_kind),
        unhandled=[s for s in sent if s.outcome == "apology" or s.result.id in noted.crashed],
        unanswered=sum(outcomes[k] for k in UNANSWERED),
        faults=dict(soak.faults),
        writes_refused=writes_refused,
        requests_failed=sum(f.hits for f in soak.discord_faults),
        moves_told_done=done,
        moves_told_saved=saved,
        lost=lost,
        told_failed_but_saved=wrong,
        duplicates_told_failed=duplicates,
        stalled=stalled,
        unannounced=[],
        dispatcher="",
        most_overdue=(0.0, ""),
        verify_problems=[str(p) for p in verified.problems],
        verify_games=verified.games,
        verify_actions=verified.actions,
        ack_p50_ms=percentile(acks, 50),
        ack_p99_ms=percentile(acks, 99),
        ack_max_ms=max(acks) if acks else None,
        pool_restarts=pool_restarts,
        timer_retries=0.0,
        computer_retries=0.0,
        finished_games=soak.finished,
        logged_errors=0,
        logged_warnings=0,
        not_sendable=soak.not_sendable,
        harness=dict(soak.harness),
        harness_seen=soak.harness_seen,
        answers_seen=Counter(
            f"{s.outcome}: {(s.texts() or ['(no text)'])[0][:70]}"
            for s in sent
            if s.outcome not in ("ok", None)
        ).most_common(8),
        load_average=os.getloadavg() if hasattr(os, "getloadavg") else None,
        evidence=[],
    )


def evidence(soak: Soak, report: Report, noted: Noted) -> list[str]:
    """For each failure: the interaction, the fault around it, what the bot logged for it."""
    lines: list[str] = []
    for title, items in (
        ("realistic unhandled", report.unhandled),
        ("lost", report.lost),
        ("told failed but saved", report.told_failed_but_saved),
    ):
        for sent in items[:8]:
            lines.append(f"{title}: {sent.describe()}; {soak.fault_near(sent.sent_at)}")
            if sent.result.id in noted.crashed:
                lines.append(f"    raised: {noted.crashed[sent.result.id]}")
            lines += [f"    answer: {t[:200]}" for t in sent.texts()[:2]]
            lines += [f"    log: {line}" for line in noted.about(interaction=sent.result.id)[:6]]
        if len(items) > 8:
            lines.append(f"{title}: {len(items) - 8} more")
    unanswered = [s for s in soak.sent if s.outcome in UNANSWERED]
    for sent in unanswered[:5]:  # counted, not a failure: each with the fault around it
        result = sent.result
        lines.append(
            f"unanswered ({sent.outcome}): {sent.describe()}; {soak.fault_near(sent.sent_at)}; "
            f"callback {result.callback_type}, writes {sent.webhook_writes}, followups "
            f"{len(result.followups)}, refused {result.rejected}, still loading "
            f"{result.response is not None and result.response.loading}"
        )
    if len(unanswered) > 5:
        lines.append(f"unanswered: {len(unanswered) - 5} more")
    for stall in report.stalled:
        lines.append(f"stalled: {stall}")
        if stall.startswith("game "):
            game = int(stall.split()[1].rstrip(":"))
            lines += [f"    log: {line}" for line in noted.about(game=game)[-8:]]
    lines += [f"not yet announced: {u}" for u in report.unannounced[:8]]
    lines += [f"verify-db: {p}" for p in report.verify_problems[:8]]
    return lines


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def closing(report: Report, options: Options) -> list[str]:
    failures = report.failures
    verdict = "PASS" if not failures else "FAIL: " + ", ".join(failures)
    faults = sum(report.faults.values())
    load = report.load_average
    summary = (
        f"soak: {report.seconds / 60:.1f} min, {report.sent} interactions, realistic unhandled "
        f"{len(report.unhandled)}, unanswered {report.unanswered}, faults {faults}, moves acked "
        f"{report.moves_told_done + report.moves_told_saved} (lost {len(report.lost)}, told "
        f"failed but saved {len(report.told_failed_but_saved)}), stalled {len(report.stalled)}, "
        f"verify-db {'clean' if not report.verify_problems else 'PROBLEMS'}"
        f"; ack p50/p99/max {_ms(report.ack_p50_ms)}/{_ms(report.ack_p99_ms)}/"
        f"{_ms(report.ack_max_ms)} ms -> {verdict}"
    )
    outcomes = ", ".join(f"{k} {n}" for k, n in sorted(report.outcomes.items()))
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(report.by_kind.items()))
    rows = [
        ("interactions sent (all realistic)", f"{report.sent}"),
        ("  answers", outcomes),
        ("  by kind", kinds),
        (
            "realistic unhandled",
            f"{len(report.unhandled)} (the apology, or an unexpected exception in the "
            "handler whatever the person was told)",
        ),
        (
            "unanswered (no ack in 3 s / never filled)",
            f"{report.unanswered} (late {report.outcomes.get('late', 0)}, no ack "
            f"{report.outcomes.get('no-ack', 0)}, no answer {report.outcomes.get('no-answer', 0)})",
        ),
        (
            "faults injected",
            f"{faults}: "
            + ", ".join(
                f"{k} {report.faults.get(k, 0)}"
                for k in ("worker killed", "workers stopped", "full disk", "Discord faults")
            ),
        ),
        (
            "  writes refused / Discord requests failed",
            f"{report.writes_refused} / {report.requests_failed}",
        ),
        (
            "moves acked: done / saved",
            f"{report.moves_told_done} / {report.moves_told_saved}",
        ),
        ("  lost (acked, not in the log)", f"{len(report.lost)}"),
        (
            "told failed but saved",
            f"{len(report.told_failed_but_saved)} (duplicate clicks of a "
            f"burst told so, one told done: {report.duplicates_told_failed})",
        ),
        ("stalled games", f"{len(report.stalled)}"),
        ("  turns not yet announced (timer pending)", f"{len(report.unannounced)}"),
        (
            "most overdue timer during the run",
            f"{report.most_overdue[0]:.0f} s ({report.most_overdue[1] or '-'})",
        ),
        ("timer dispatcher at the end", report.dispatcher),
        (
            "verify-db",
            ("clean" if not report.verify_problems else f"{len(report.verify_problems)} problems")
            + f" ({report.verify_games} games, {report.verify_actions} actions replayed)",
        ),
        (
            "ack latency p50 / p99 / max",
            f"{_ms(report.ack_p50_ms)} / {_ms(report.ack_p99_ms)} / {_ms(report.ack_max_ms)} ms",
        ),
        ("worker pool restarts", f"{report.pool_restarts}"),
        (
            "timer retries / computer retries",
            f"{report.timer_retries:.0f} / {report.computer_retries:.0f}",
        ),
        ("games finished (and reopened)", f"{report.finished_games}"),
        ("logged errors / warnings", f"{report.logged_errors} / {report.logged_warnings}"),
        (
            "not sendable by a client / harness",
            f"{report.not_sendable} / {sum(report.harness.values())} {report.harness or ''}",
        ),
        (
            "load average (1, 5, 15 min)",
            "-" if load is None else " ".join(f"{x:.2f}" for x in load),
        ),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [summary, *(f"  {name:<{width}}  {value}" for name, value in rows)]
    lines += [f"  answered {n:>4}x  {text}" for text, n in report.answers_seen]
    lines += [f"  harness: {seen}" for seen in report.harness_seen]
    lines += report.evidence
    if options.log_path is not None:
        lines.append(f"the bot's log: {options.log_path}")
    return lines


def parse(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2, help="worker processes (0: threads)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work-timeout", type=float, default=3.0, help="seconds per job")
    parser.add_argument("--sweep", type=float, default=5.0, help="seconds between sweeps")
    parser.add_argument(
        "--log",
        type=Path,
        default=Path(tempfile.gettempdir()) / "alhambra-soak.log",
        help="where the bot's log goes",
    )
    parser.add_argument("--quick", action="store_true", help="about a minute, smaller numbers")
    args = parser.parse_args(argv)
    options = Options(
        seconds=args.minutes * 60,
        games=args.games,
        workers=args.workers,
        seed=args.seed,
        work_timeout=args.work_timeout,
        sweep_seconds=args.sweep,
        log_path=args.log,
    )
    if args.quick:
        quick(options)
    return options


def quick(options: Options) -> Options:
    """About a minute: a few tables, a fault every 5-8 s, 20 s of recovery."""
    options.seconds = 60.0
    options.recovery_seconds = 20.0
    options.games = min(options.games, 4)
    options.fault_gap = (5.0, 8.0)
    options.stop_seconds = (3.0, 5.0)
    options.disk_seconds = (2.0, 4.0)
    options.stall_seconds = 15.0
    options.overdue_seconds = 10.0
    return options


def main() -> None:
    report = asyncio.run(run(parse()))
    sys.exit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
