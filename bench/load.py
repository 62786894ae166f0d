"""How much one bot process takes: many live games, a rising rate of clicks, pictures at once.

Runs the real bot (`AlhambraBot` with the real discord.py client, as bench/chat_game.py builds
it) against the local fake Discord of tests/e2e. The bot, the fake Discord and the simulated
people all run in ONE process and ONE event loop, as in chat_game.py: every figure below is
paid for by the same loop (and the same two-core machine), so the fake's and the people's own
work is measured and printed beside the bot's, and a rate where they take a large share of the
loop understates what the bot alone could do.

Set-up: `--games` games (default 200) of three people each, no computer seats, opened as players
open them (`/alhambra new` in a server channel: each game in its own thread, two Join clicks,
Start). Time in the game stands still (a manual clock, as in chat_game.py): no reminder, deadline
or undo-window timer fires by itself, so everything measured is caused by a click; a person ends
a turn with "End turn now", and players who moved minutes ago are told by a mention, not a DM.

Then, per rate step (`--rates`, default 2 5 10 20 40 actions/s, each `--step-seconds` long): a
scheduler hands out actions at that rate (random, Poisson arrivals). A person in the middle of
their turn gets the next one (people click through a panel in seconds), otherwise the game that
has waited longest begins a turn; so every rate plays the same mix of clicks. The person decides
like the `easy` computer player and acts as a person does: a button of the turn message opens
the private panel, then picks in its menus ("More…" pages, a slot, a building, a cell) and
buttons such as "End turn now". Every interaction counts as one action. Per step it prints:

- `sent/s`, `done/s`: interactions sent per second of the step, and those answered in time
  (acknowledged within Discord's 3 s and finished within the reply timeout) per second: the
  achieved throughput. `wait` is how often no game was free to act when an action was due
  (every game still waiting for the bot: the bot is saturated; that action is not sent);
- `ack50`, `ack99`: from the fake dispatching INTERACTION_CREATE on the gateway to the fake
  receiving the bot's first response (the callback: a reply, an update or a defer);
- `fin99`: from sending to the last message, edit or deletion the action caused in the fake:
  the redrawn panel, the next turn message with its table picture, the old turn message losing
  its buttons, a turn DM. Writes to a game's thread and its players' DMs are counted until that
  game's next interaction is sent (time stands still, so nothing else writes there);
- `lag99`, `lagmax`: event-loop lag of the process, from a task that sleeps 10 ms in a loop and
  records how late it wakes up;
- `db99`: a one-row read through the bot's own store (`service.meta`) every 50 ms: the store
  keeps one connection behind one lock, so this is the wait any handler has for the database;
- errors: interactions not acknowledged in time (`late`), not finished within the reply timeout
  (`timeout`), answered with the bot's apology (`error`), and refusals (`refused`, e.g. "no
  longer current": a person acted on an outdated message; not a failure of the bot); `harness`
  counts the people's own confusion (an option they looked for was not shown); `logged errors`
  and `logged warnings` count what the bot and discord.py logged (counted, not printed);
- `cpu`: cores the whole process used (bot, render threads, fake and people); `fake` and `ppl`:
  milliseconds per second spent inside the fake's REST handlers, gateway dispatch and payload
  building, and inside the people's decisions (reading the game, choosing). aiohttp's own HTTP
  and websocket work for the fake is not in `fake`;
- by kind: count, ack p99 and final p99 of panel openings (`open`, answered with the panel and
  its picture), menu navigation (`menu`) and moves (`act`: deferred, then the panel redrawn).

A step counts as saturated when interactions failed (late, timeout, apology) or the achieved
throughput fell well below the rate; "highest rate kept up with" is the last rate before that.

A separate measurement (`pictures`), after the idle one and before the steps (so nothing else
loads the bot), sends `--pictures` (default 20) picture requests at once:
half "Show my hand" on the turn message, half a player picked in the menu under "Every
Alhambra" (an Alhambra), each from a different game, in `--picture-rounds` rounds, and prints
the event-loop lag while they are drawn and answered, how long the whole batch took and how
many pictures came back.

Goals (issue 16), printed with whether they were met: event-loop lag p99 < 20 ms while 20
pictures render concurrently; ack p99 < 150 ms at 20 actions/s. The machine is shared, so the
idle event-loop lag is printed first as the noise floor.

    python bench/load.py [--games 200] [--rates 2 5 10 20 40] [--step-seconds 25] [--seed 7]
    python bench/load.py --quick     # a few games and short steps: under a minute

Several bot processes (bench/load_processes.py): `--processes 1 2 4` runs the steps once per
count, with that many real `python -m bot run` processes sharing four shards and one database
(`--db postgres`: a private PostgreSQL server, started as the tests start it; `--db sqlite`:
one file), and prints per step the throughput, ack p99 and the picture workers' queue depth,
then each count's peak throughput and its ratio to one process's:

    python bench/load.py --db postgres --processes 1 2 4 --rates 20 40 60 80 120
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
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
from fake_discord.interactions import MESSAGE_COMPONENT, find_button, find_select  # noqa: E402
from fake_discord.models import Channel, Message, User  # noqa: E402
from fake_discord.rest import RecordedRequest, RestApi  # noqa: E402
from people import Abort, LogCount, percentile, play_decision  # noqa: E402
from people import choose as choose_option  # noqa: E402
from people import is_turn_message as _is_turn_message  # noqa: E402

from bot.config import Settings, default_workers  # noqa: E402
from bot.core.clock import ManualClock  # noqa: E402
from bot.discord_app.client import AlhambraBot  # noqa: E402
from bot.text import i18n  # noqa: E402
from engine import (  # noqa: E402
    Action,
    EndTurn,
    Game,
    Undo,
)
from engine.ai import make_player  # noqa: E402

#: issue 16's goals on this machine
LAG_GOAL_MS = 20.0
ACK_GOAL_MS = 150.0
ACK_GOAL_RATE = 20.0
PEOPLE = 3
LOCALE = "en"
APOLOGY = i18n.t(LOCALE, "error.unexpected")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@dataclass(eq=False)
class Sent:
    """One interaction sent by a person, and what the fake saw of the bot's answer."""

    game: Live
    kind: str
    step: int
    result: InteractionResult
    sent: float
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    webhook_writes: int = 0
    last_change: float | None = None
    outcome: str | None = None  # None: still running; "ok", "refused", "error", "late", ...

    @property
    def answered(self) -> bool:
        """Acknowledged, and a defer followed by its edit or followup."""
        result = self.result
        if result.rejected:
            return True
        if result.callback_type is None:
            return False
        return result.callback_type not in (5, 6) or self.webhook_writes > 0

    @property
    def ack_ms(self) -> float | None:
        seconds = self.result.ack_seconds
        return None if seconds is None else seconds * 1000

    @property
    def final_ms(self) -> float | None:
        ends = [t for t in (self.last_change, self.result.callback_at) if t is not None]
        return (max(ends) - self.sent) * 1000 if ends else None


@dataclass(eq=False)
class Live:
    """One game being played: its thread, its people, what they see of it."""

    index: int
    home: Channel
    game_id: int
    users: dict[int, User]  # by seat
    seed: int
    turn: Message | None = None  # the current turn message (the last one with its buttons)
    panel: Message | None = None  # the acting person's panel after their last move
    panel_user: User | None = None
    pending: Sent | None = None  # the game's last interaction: its writes are counted to it
    mid_turn: bool = False  # a person has begun their turn: their next click comes first
    over: bool = False


class LoadFake(FakeDiscord):
    """The fake Discord, timing its own work and telling the bench what the bot wrote where."""

    def __init__(self) -> None:
        super().__init__(reply_timeout=30.0)
        self.rest = TimedRest(self)
        self.by_token: dict[str, Sent] = {}
        self.game_of_channel: dict[int, Live] = {}
        self.game_of_user: dict[int, Live] = {}
        self.fake_seconds = 0.0
        dispatch = self.gateway.dispatch

        def timed_dispatch(event: str, data: dict[str, Any]) -> None:
            started = time.perf_counter()
            dispatch(event, data)
            self.fake_seconds += time.perf_counter() - started

        self.gateway.dispatch = timed_dispatch  # type: ignore[method-assign]  # timed in place

    # every message the bot creates, edits or deletes passes here
    def add_message(self, message: Message) -> None:
        super().add_message(message)
        live = self._touch(message)
        if live is not None and not message.ephemeral and _is_turn_message(message):
            live.turn = message

    def message_changed(self, message: Message) -> None:
        super().message_changed(message)
        self._touch(message)

    def delete(self, message: Message) -> None:
        super().delete(message)
        self._touch(message)

    def _touch(self, message: Message) -> Live | None:
        channel = message.channel
        live = self.game_of_channel.get(channel.id)
        if live is None and channel.is_dm and channel.recipient is not None:
            live = self.game_of_user.get(channel.recipient.id)
        if live is not None and live.pending is not None:
            live.pending.last_change = time.monotonic()
        return live

    def heard(self, record: RecordedRequest) -> None:
        """A request of the bot was handled: wake whoever waits on its interaction."""
        parts = record.path.split("/")
        if len(parts) > 3 and parts[1] in ("interactions", "webhooks"):
            sent = self.by_token.get(parts[3])
            if sent is not None:
                if parts[1] == "webhooks":
                    sent.webhook_writes += 1
                sent.changed.set()

    def forget_history(self) -> None:
        """Drop what the fake keeps for tests and resumes (requests, uploads, old events)."""
        self.requests.clear()
        self.uploads.clear()
        self.interactions.clear()
        if self.gateway.session is not None:
            self.gateway.session.events.clear()
        live = {s.result.token for g in self.game_of_channel.values() if (s := g.pending)}
        self.by_token = {t: s for t, s in self.by_token.items() if t in live}
        self.interactions_by_token = {
            t: r for t, r in self.interactions_by_token.items() if t in live
        }


class TimedRest(RestApi):
    sim: LoadFake

    async def _route(self, request: web.Request, record: RecordedRequest) -> web.Response:
        started = time.perf_counter()
        try:
            return await super()._route(request, record)
        finally:
            self.sim.fake_seconds += time.perf_counter() - started
            self.sim.heard(record)


class Gate:
    """Hands out actions: a person in the middle of their turn clicks on first (people click
    through a panel in seconds), then the game that has waited longest begins a turn."""

    def __init__(self) -> None:
        self.waiting: deque[asyncio.Future[None]] = deque()
        self.urgent: deque[asyncio.Future[None]] = deque()
        self.missed = 0

    async def wait(self, urgent: bool = False) -> None:
        future = asyncio.get_running_loop().create_future()
        (self.urgent if urgent else self.waiting).append(future)
        try:
            await future
        finally:
            if not future.done():
                future.cancel()

    def release(self) -> bool:
        for queue in (self.urgent, self.waiting):
            while queue:
                future = queue.popleft()
                if not future.done():
                    future.set_result(None)
                    return True
        return False


class Probe:
    """A measurement taken again and again in the bot's own event loop, with its time."""

    def __init__(self, period: float) -> None:
        self.period = period
        self.samples: list[tuple[float, float]] = []  # (monotonic time, ms)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            ms = await self.measure()
            self.samples.append((time.monotonic(), ms))

    async def measure(self) -> float:
        raise NotImplementedError

    def between(self, start: float, end: float) -> list[float]:
        return [ms for t, ms in self.samples if start <= t <= end]


class LagProbe(Probe):
    """Event-loop lag: how late a 10 ms sleep wakes up, sampled all along."""

    def __init__(self, period: float = 0.01) -> None:
        super().__init__(period)

    async def measure(self) -> float:
        started = time.monotonic()
        await asyncio.sleep(self.period)
        return max(0.0, (time.monotonic() - started - self.period) * 1000)


class DbProbe(Probe):
    """How long a one-row read through the bot's own store takes, every 50 ms: the store keeps
    one connection behind one lock, so this is the wait any handler has for the database."""

    def __init__(self, bot: AlhambraBot, period: float = 0.05) -> None:
        super().__init__(period)
        self.bot = bot

    async def measure(self) -> float:
        await asyncio.sleep(self.period)
        started = time.monotonic()
        await self.bot.services.people.meta("load-bench-probe")
        return (time.monotonic() - started) * 1000


@dataclass
class StepReport:
    rate: float
    seconds: float
    sent: int
    done: int
    sent_per_s: float
    done_per_s: float
    ack_p50_ms: float | None
    ack_p99_ms: float | None
    final_p50_ms: float | None
    final_p99_ms: float | None
    lag_p99_ms: float | None
    lag_max_ms: float | None
    db_p99_ms: float | None
    errors: dict[str, int]
    waiting: int
    cpu_cores: float
    fake_ms_per_s: float
    people_ms_per_s: float
    #: per kind of interaction ("open" a panel, "menu" navigation, "act"): count, ack p99, final p99
    by_kind: dict[str, tuple[int, float | None, float | None]]
    saturated: str | None  # why the step counts as saturated, or None


@dataclass
class PictureReport:
    pictures: int
    rounds: int
    answered: int
    with_picture: int
    batch_ms_p50: float | None
    ack_p99_ms: float | None
    lag_p99_ms: float | None
    lag_max_ms: float | None
    lag_samples: int
    errors: dict[str, int]


@dataclass
class Report:
    games: int
    setup_seconds: float
    idle_lag_p99_ms: float | None
    steps: list[StepReport]
    pictures: PictureReport | None
    goals: list[tuple[str, float | None, float, bool | None]]
    sustained_rate: float | None
    logged_errors: int
    first_error: str | None
    first_warning: str | None


@dataclass
class Options:
    games: int = 200
    rates: tuple[float, ...] = (2, 5, 10, 20, 40)
    step_seconds: float = 25.0
    seed: int = 7
    pictures: int = 20
    picture_rounds: int = 5
    setup_parallel: int = 8
    reply_timeout: float = 20.0
    idle_seconds: float = 3.0
    db_sync: str = "FULL"
    #: worker processes for pictures and computer players, as ALHAMBRA_WORKERS (0: threads)
    workers: int = 0
    #: real bot processes (one run per count; empty: the bot in this process) and their database
    processes: tuple[int, ...] = ()
    db: str = "sqlite"
    show: Callable[[str], None] | None = print


class LoadBench:
    def __init__(
        self, sim: LoadFake, bot: AlhambraBot | None, db_path: Path, options: Options
    ) -> None:
        self.sim, self.bot, self.options = sim, bot, options
        self.db = sqlite3.connect(db_path)
        self.games: list[Live] = []
        self.gate = Gate()
        self.probe = LagProbe()
        self.db_probe: Probe = DbProbe(bot) if bot is not None else Probe(1.0)
        self.log = LogCount()
        self.sent: list[Sent] = []
        self.step = -1
        self.people_seconds = 0.0
        self.harness_errors = 0
        self.rng = random.Random(options.seed)

    def say(self, text: str) -> None:
        if self.options.show is not None:
            self.options.show(text)

    # ----- setting up ---------------------------------------------------------------------------
    async def open_games(self, channel: Channel, indexes: Sequence[int] | None = None) -> None:
        """Open the games numbered `indexes` (all `--games` by default) in `channel`."""
        guild = channel.guild
        assert guild is not None
        limit = asyncio.Semaphore(self.options.setup_parallel)

        async def open_one(index: int) -> None:
            async with limit:
                people = [self.sim.user(f"g{index}p{n}") for n in range(PEOPLE)]
                for person in people:
                    self.sim.member(guild, person)
                host = people[0]
                created = await self.sim.slash(host, "alhambra new", channel=channel)
                opened = created.response
                assert opened is not None, created.text
                if not opened.buttons():  # an opening line: the lobby is in its thread
                    await created.wait_followups(1)
                home = getattr(opened, "thread", None) or channel
                lobby = self.sim.channel_messages(home)[0] if home is not channel else opened
                for person in people[1:]:
                    await self.sim.click(person, lobby, "Join")
                started = await self.sim.click(host, lobby, "Start")
                await started.wait_followups(1)
                row = self.db.execute(
                    "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                    (home.id,),
                ).fetchone()
                seats = dict(
                    self.db.execute(
                        "SELECT seat, user_id FROM seats WHERE game_id = ? AND seat IS NOT NULL",
                        (row[0],),
                    ).fetchall()
                )
                by_id = {p.id: p for p in people}
                live = Live(index, home, row[0], {s: by_id[u] for s, u in seats.items()}, index)
                self.games.append(live)

        numbers = range(self.options.games) if indexes is None else indexes
        await asyncio.gather(*(open_one(i) for i in numbers))
        if self.bot is not None:
            await self.bot.calm()
        else:  # the bot is in other processes: wait until every game shows its first turn
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(20):
                    while not all(
                        any(_is_turn_message(m) for m in self.sim.channel_messages(g.home))
                        for g in self.games
                    ):
                        await asyncio.sleep(0.2)
        for live in self.games:
            self.sim.game_of_channel[live.home.id] = live
            for person in live.users.values():
                self.sim.game_of_user[person.id] = live
            turns = [m for m in self.sim.channel_messages(live.home) if _is_turn_message(m)]
            live.turn = turns[-1] if turns else None
        self.games.sort(key=lambda g: g.index)

    # ----- sending one interaction ----------------------------------------------------------------
    async def send(
        self,
        live: Live,
        user: User,
        message: Message,
        data: dict[str, Any],
        kind: str,
        *,
        gated: bool = True,
    ) -> Sent:
        if gated:
            await self.gate.wait(urgent=live.mid_turn)
            live.mid_turn = True
        started = time.perf_counter()
        result = self.sim._interaction(MESSAGE_COMPONENT, user, message.channel, data, message)
        sent = Sent(live, kind, self.step, result, time.monotonic())
        self.sim.by_token[result.token] = sent
        live.pending = sent
        self.sent.append(sent)
        result.created = sent.sent
        self.sim.gateway.dispatch("INTERACTION_CREATE", result.payload)
        self.sim.fake_seconds += time.perf_counter() - started
        try:
            async with asyncio.timeout(self.options.reply_timeout):
                while not sent.answered:
                    sent.changed.clear()
                    await sent.changed.wait()
        except TimeoutError:
            sent.outcome = "late" if result.callback_type is None else "timeout"
            raise Abort(sent.outcome) from None
        if result.rejected or result.callback_type is None:
            sent.outcome = "late"
            raise Abort("late")
        failed = [m for m in result.followups if m.content]
        shown = result.response.content if result.response is not None else ""
        if any(m.content == APOLOGY for m in failed) or shown == APOLOGY:
            sent.outcome = "error"
            raise Abort("error")
        if failed:
            sent.outcome = "refused"
            raise Abort("refused")
        sent.outcome = "ok"
        return sent

    async def click(self, live: Live, user: User, message: Message, label: str, kind: str) -> Sent:
        button = find_button(message, label)
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self.send(live, user, message, data, kind)

    async def choose(self, live: Live, user: User, panel: Message, label: str) -> Message | None:
        """Pick the option with that label in the panel, paging through "More…" first."""

        async def send(user: User, message: Message, data: dict[str, Any], kind: str) -> Sent:
            return await self.send(live, user, message, data, kind)

        return await choose_option(send, user, panel, label)

    async def open_panel(self, live: Live, user: User, button: str) -> Message:
        turn = live.turn
        if turn is None:
            raise SimulationError("no turn message")
        sent = await self.click(live, user, turn, button, "open")
        panel = sent.result.response
        if panel is None or not panel.ephemeral or not panel.components:
            sent.outcome = "refused"
            raise Abort("refused")
        return panel

    # ----- a person's decision --------------------------------------------------------------------
    def read(self, live: Live) -> Game:
        row = self.db.execute("SELECT snapshot FROM games WHERE id = ?", (live.game_id,)).fetchone()
        return Game.from_json(row[0])

    async def decide(self, live: Live) -> None:
        started = time.perf_counter()
        game = self.read(live)
        if game.is_over:
            live.over = True
            return
        seat = game.current_seat
        assert seat is not None
        user = live.users[seat]
        view = game.view(seat)
        action: Action = make_player("easy", live.seed + seat).choose(view, [])
        if game.phase == "confirm" and not isinstance(action, EndTurn | Undo):
            action = EndTurn()
        self.people_seconds += time.perf_counter() - started
        kept = live.panel if live.panel_user is user else None
        live.panel = None
        panel = await play_decision(
            self, live, user, action, view, kept=kept, turn=live.turn, locale=LOCALE
        )
        if panel.components:  # the redrawn panel: the person's turn goes on there
            live.panel, live.panel_user = panel, user
        else:  # "Your turn is over": the next turn begins when its person comes along
            live.mid_turn = False

    async def play(self, live: Live) -> None:
        while not live.over:
            try:
                await self.decide(live)
            except Abort:
                live.panel, live.mid_turn = None, False
            except (SimulationError, AssertionError, KeyError, IndexError):
                self.harness_errors += 1
                live.panel, live.mid_turn = None, False
                await asyncio.sleep(1.0)

    # ----- the measurements -------------------------------------------------------------------
    async def settle(self, sent: list[Sent], timeout: float = 30.0) -> None:
        """Wait until these interactions are answered and the bot has finished their work."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while any(s.outcome is None for s in sent):
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.3)
                await self.bot.calm()

    async def run_step(self, rate: float, seconds: float) -> StepReport:
        self.step += 1
        self.sim.forget_history()
        first = len(self.sent)
        fake0, people0, harness0 = self.sim.fake_seconds, self.people_seconds, self.harness_errors
        logged0 = (self.log.errors, self.log.warnings)
        cpu0, start = time.process_time(), time.monotonic()
        self.gate.missed = 0
        until = start + seconds
        due = start
        while True:
            due += self.rng.expovariate(rate)
            if due >= until:
                break
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if not self.gate.release():
                self.gate.missed += 1
        end = time.monotonic()
        cpu = time.process_time() - cpu0
        fake, people = self.sim.fake_seconds - fake0, self.people_seconds - people0
        mine = self.sent[first:]
        await self.settle(mine)
        lags = self.probe.between(start, end)
        done = [s for s in mine if s.outcome in ("ok", "refused")]
        acks = [a for s in mine if s.outcome in ("ok", "refused") and (a := s.ack_ms) is not None]
        finals = [f for s in done if (f := s.final_ms) is not None]
        errors: dict[str, int] = {}
        for s in mine:
            outcome = s.outcome or "timeout"
            if outcome != "ok":
                errors[outcome] = errors.get(outcome, 0) + 1
        if self.harness_errors > harness0:
            errors["harness"] = self.harness_errors - harness0
        for name, now, before in zip(
            ("logged errors", "logged warnings"),
            (self.log.errors, self.log.warnings),
            logged0,
            strict=True,
        ):
            if now > before:
                errors[name] = now - before
        elapsed = end - start
        report = StepReport(
            rate=rate,
            seconds=elapsed,
            sent=len(mine),
            done=len(done),
            sent_per_s=len(mine) / elapsed,
            done_per_s=len(done) / elapsed,
            ack_p50_ms=percentile(acks, 50),
            ack_p99_ms=percentile(acks, 99),
            final_p50_ms=percentile(finals, 50),
            final_p99_ms=percentile(finals, 99),
            lag_p99_ms=percentile(lags, 99),
            lag_max_ms=max(lags) if lags else None,
            db_p99_ms=percentile(self.db_probe.between(start, end), 99),
            errors=errors,
            waiting=self.gate.missed,
            cpu_cores=cpu / elapsed,
            fake_ms_per_s=fake * 1000 / elapsed,
            people_ms_per_s=people * 1000 / elapsed,
            by_kind=by_kind(mine),
            saturated=None,
        )
        report.saturated = saturation(report)
        return report

    async def picture_round(self, count: int) -> tuple[list[Sent], float, float, float]:
        """`count` picture requests from different games at once: half "Show my hand", half an
        Alhambra from the menu under "Every Alhambra" (opened beforehand, outside the window)."""
        ready = [g for g in self.games if g.turn is not None and not g.over]
        chosen = self.rng.sample(ready, min(count, len(ready)))
        boards = chosen[: len(chosen) // 2]
        hands = chosen[len(chosen) // 2 :]
        menus: list[tuple[Live, User, Message]] = []
        for live in boards:
            user = self.rng.choice(list(live.users.values()))
            assert live.turn is not None
            opened = await self.send(
                live,
                user,
                live.turn,
                _button_data(live.turn, "Every Alhambra"),
                "boards",
                gated=False,
            )
            menu = opened.result.response
            if menu is not None and menu.selects():
                menus.append((live, user, menu))
        await self.settle(self.sent[-len(boards) :] if boards else [])
        calls = []
        for live in hands:
            user = self.rng.choice(list(live.users.values()))
            assert live.turn is not None
            data = _button_data(live.turn, "Show my hand")
            calls.append(self.send(live, user, live.turn, data, "hand", gated=False))
        for live, user, menu in menus:
            select = find_select(menu, menu.selects()[0]["custom_id"])
            seat = str(self.rng.randrange(len(live.users)))
            data = {"custom_id": select["custom_id"], "component_type": 3, "values": [seat]}
            calls.append(self.send(live, user, menu, data, "board", gated=False))
        first = len(self.sent)
        start = time.monotonic()
        await asyncio.gather(*calls, return_exceptions=True)
        end = time.monotonic()
        await self.settle(self.sent[first:])
        return self.sent[first:], start, end, end - start

    async def pictures(self, count: int, rounds: int) -> PictureReport:
        self.step += 1
        lags: list[float] = []
        batches: list[float] = []
        sent: list[Sent] = []
        for _ in range(rounds):
            mine, start, end, took = await self.picture_round(count)
            sent += mine
            lags += self.probe.between(start, end)
            batches.append(took * 1000)
            await asyncio.sleep(0.2)
        errors: dict[str, int] = {}
        for s in sent:
            if s.outcome != "ok":
                errors[s.outcome or "timeout"] = errors.get(s.outcome or "timeout", 0) + 1
        acks = [a for s in sent if (a := s.ack_ms) is not None]
        pictures = sum(
            1 for s in sent for m in s.result.messages if m.attachments and s.outcome == "ok"
        )
        return PictureReport(
            pictures=count,
            rounds=rounds,
            answered=sum(1 for s in sent if s.outcome == "ok"),
            with_picture=pictures,
            batch_ms_p50=statistics.median(batches) if batches else None,
            ack_p99_ms=percentile(acks, 99),
            lag_p99_ms=percentile(lags, 99),
            lag_max_ms=max(lags) if lags else None,
            lag_samples=len(lags),
            errors=errors,
        )


def by_kind(sent: list[Sent]) -> dict[str, tuple[int, float | None, float | None]]:
    kinds: dict[str, list[Sent]] = {}
    for s in sent:
        kinds.setdefault(s.kind, []).append(s)
    return {
        kind: (
            len(group),
            percentile([a for s in group if (a := s.ack_ms) is not None], 99),
            percentile([f for s in group if (f := s.final_ms) is not None], 99),
        )
        for kind, group in sorted(kinds.items())
    }


def _button_data(message: Message, label: str) -> dict[str, Any]:
    return {"custom_id": find_button(message, label)["custom_id"], "component_type": 2}


def saturation(step: StepReport) -> str | None:
    """Why a step shows the process saturated (None: it kept up)."""
    failed = sum(n for k, n in step.errors.items() if k in ("late", "timeout", "error"))
    if failed:
        return f"{failed} interactions failed"
    if step.done_per_s < 0.9 * step.rate and step.waiting:
        return "every game was waiting for the bot"
    if step.done_per_s < 0.8 * step.rate:
        return "throughput below the rate asked for"
    if step.ack_p99_ms is not None and step.ack_p99_ms > 1000:
        return "ack p99 over 1 s"
    return None


def goals(steps: list[StepReport], pictures: PictureReport | None) -> list[Any]:
    at_rate = [s for s in steps if s.rate == ACK_GOAL_RATE]
    ack = at_rate[0].ack_p99_ms if at_rate else None
    lag = pictures.lag_p99_ms if pictures is not None else None
    return [
        (
            f"event-loop lag p99 while {pictures.pictures if pictures else 20} pictures render",
            lag,
            LAG_GOAL_MS,
            None if lag is None else lag < LAG_GOAL_MS,
        ),
        (
            f"ack p99 at {ACK_GOAL_RATE:g} actions/s",
            ack,
            ACK_GOAL_MS,
            None if ack is None else ack < ACK_GOAL_MS,
        ),
    ]


async def run(options: Options) -> Report:
    """Set up the games, measure every step and the pictures; returns the report."""
    sim = LoadFake()
    await sim.start()
    clock = ManualClock(T0)
    seeds = random.Random(options.seed)
    counter = LogCount()
    logging.getLogger().addHandler(counter)
    try:
        with tempfile.TemporaryDirectory() as tmp, pointed_at(sim):
            db_path = Path(tmp) / "load.sqlite3"
            settings = Settings(
                None,
                str(db_path),
                None,
                "WARNING",
                db_sync=options.db_sync,
                workers=options.workers,
            )
            owner = sim.user("owner")
            guild = sim.guild("Load", owner=owner)
            channel = sim.channel(guild, "alhambra")

            def factory() -> AlhambraBot:
                return AlhambraBot(
                    settings, seed_source=lambda: seeds.randrange(1 << 30), clock=clock
                )

            async with running_bot(sim, factory) as bot:
                bench = LoadBench(sim, bot, db_path, options)
                bench.log = counter
                bench.probe.start()
                bench.db_probe.start()
                began = time.monotonic()
                await bench.open_games(channel)
                setup = time.monotonic() - began
                bench.say(f"{len(bench.games)} games of {PEOPLE} people opened in {setup:.1f} s")
                await asyncio.sleep(options.idle_seconds)
                now = time.monotonic()
                idle = percentile(bench.probe.between(now - options.idle_seconds, now), 99)
                bench.say(f"idle event-loop lag p99: {_ms(idle)} (the noise floor)")
                pictures = None
                if options.pictures and options.picture_rounds:  # alone, before any load
                    pictures = await bench.pictures(options.pictures, options.picture_rounds)
                    bench.say(_picture_line(pictures))
                bench.say(_step_header())
                players = [asyncio.create_task(bench.play(g)) for g in bench.games]
                steps: list[StepReport] = []
                try:
                    for rate in options.rates:
                        step = await bench.run_step(rate, options.step_seconds)
                        steps.append(step)
                        bench.say(_step_line(step))
                finally:
                    for task in players:
                        task.cancel()
                    await asyncio.gather(*players, return_exceptions=True)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(bot.calm(), 10)
                await bench.probe.stop()
                await bench.db_probe.stop()
                bench.db.close()
                kept = [s.rate for s in steps if s.saturated is None]
                first_bad = next((s.rate for s in steps if s.saturated is not None), None)
                sustained = (
                    max((r for r in kept if first_bad is None or r < first_bad), default=None)
                    if kept
                    else None
                )
                report = Report(
                    games=len(bench.games),
                    setup_seconds=setup,
                    idle_lag_p99_ms=idle,
                    steps=steps,
                    pictures=pictures,
                    goals=goals(steps, pictures),
                    sustained_rate=sustained,
                    logged_errors=counter.errors,
                    first_error=counter.first_error,
                    first_warning=counter.first_warning,
                )
                for line in _closing_lines(report):
                    bench.say(line)
                return report
    finally:
        logging.getLogger().removeHandler(counter)
        await sim.stop()


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f} ms"


def _num(value: float | None, width: int = 6) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.0f}"


def _step_header() -> str:
    return (
        f"{'rate':>5} {'sent/s':>6} {'done/s':>6} {'ack50':>6} {'ack99':>6} {'fin99':>6} "
        f"{'lag99':>6} {'lagmax':>6} {'db99':>5} {'cpu':>4} {'fake':>5} {'ppl':>4} {'wait':>4}  "
        "errors / saturation   (times in ms; fake, ppl: ms per s)"
    )


def _step_line(s: StepReport) -> str:
    errors = ", ".join(f"{k} {n}" for k, n in sorted(s.errors.items())) or "no errors"
    verdict = f"; SATURATED: {s.saturated}" if s.saturated else ""
    return (
        f"{s.rate:>5g} {s.sent_per_s:>6.1f} {s.done_per_s:>6.1f} {_num(s.ack_p50_ms)} "
        f"{_num(s.ack_p99_ms)} {_num(s.final_p99_ms)} {_num(s.lag_p99_ms)} "
        f"{_num(s.lag_max_ms)} {_num(s.db_p99_ms, 5)} {s.cpu_cores:>4.2f} "
        f"{s.fake_ms_per_s:>5.0f} {s.people_ms_per_s:>4.0f} {s.waiting:>4}  {errors}{verdict}\n"
        + f"{'':>6}by kind (count, ack p99, final p99): "
        + "; ".join(
            f"{kind} {n}, {_num(ack, 0)}, {_num(final, 0)}"
            for kind, (n, ack, final) in s.by_kind.items()
        )
    )


def _picture_line(p: PictureReport) -> str:
    errors = ", ".join(f"{k} {n}" for k, n in sorted(p.errors.items())) or "no errors"
    return (
        f"pictures: {p.pictures} at once x {p.rounds} rounds: {p.answered} answered, "
        f"{p.with_picture} with a picture; batch p50 {_ms(p.batch_ms_p50)}, "
        f"ack p99 {_ms(p.ack_p99_ms)}, event-loop lag p99 {_ms(p.lag_p99_ms)} "
        f"(max {_ms(p.lag_max_ms)}, {p.lag_samples} samples); {errors}"
    )


def _closing_lines(report: Report) -> list[str]:
    lines = []
    for name, value, target, met in report.goals:
        verdict = "not measured" if met is None else ("met" if met else "NOT met")
        lines.append(f"goal: {name} < {target:g} ms: {_ms(value)}, {verdict}")
    sustained = report.sustained_rate
    lines.append(
        "highest rate kept up with: "
        + (f"{sustained:g} actions/s" if sustained is not None else "none of the rates")
    )
    if report.first_error is not None:
        lines.append(
            f"the bot logged {report.logged_errors} errors; the first: {report.first_error[:300]}"
        )
    if report.first_warning is not None:
        lines.append(f"the first warning logged: {report.first_warning[:300]}")
    for step in report.steps:
        share = (step.fake_ms_per_s + step.people_ms_per_s) / 10  # % of one core
        if share > 25:
            lines.append(
                f"note: at {step.rate:g}/s the fake Discord and the people took {share:.0f}% "
                "of the event loop's time: the bot alone would do better than shown"
            )
    return lines


def parse(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rates", type=float, nargs="+", default=[2, 5, 10, 20, 40])
    parser.add_argument("--step-seconds", type=float, default=25.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pictures", type=int, default=20, help="picture requests at once")
    parser.add_argument("--picture-rounds", type=int, default=5)
    parser.add_argument(
        "--db-sync", choices=("FULL", "NORMAL"), default="FULL", help="as ALHAMBRA_DB_SYNC"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=default_workers(),
        help="worker processes for pictures, as ALHAMBRA_WORKERS (default cores - 1; 0: threads)",
    )
    parser.add_argument("--quick", action="store_true", help="small numbers: under a minute")
    parser.add_argument(
        "--db",
        choices=("sqlite", "postgres"),
        default=None,
        help="with --processes: the shared database (default sqlite); postgres alone means "
        "--processes 1",
    )
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=None,
        help="real bot processes sharing the shards, one run per count (bench/load_processes.py)",
    )
    args = parser.parse_args(argv)
    options = Options(
        games=args.games,
        rates=tuple(args.rates),
        step_seconds=args.step_seconds,
        seed=args.seed,
        pictures=args.pictures,
        picture_rounds=args.picture_rounds,
        db_sync=args.db_sync,
        workers=args.workers,
    )
    if args.processes or args.db == "postgres":
        options.processes = tuple(args.processes or (1,))
        options.db = args.db or "sqlite"
        if "--workers" not in " ".join(argv if argv is not None else sys.argv):
            options.workers = 1  # per process: two cores for everything
    if args.quick:
        options.games = min(options.games, 24)
        options.rates = (5, 20)
        options.step_seconds = min(options.step_seconds, 6.0)
        options.picture_rounds = min(options.picture_rounds, 2)
        options.idle_seconds = 1.0
    return options


def main() -> None:
    options = parse()
    if options.processes:
        import load_processes

        options.pictures = 0
        asyncio.run(
            load_processes.run_processes(
                sys.modules[__name__], options, options.db, options.processes
            )
        )
        return
    asyncio.run(run(options))


if __name__ == "__main__":
    main()
