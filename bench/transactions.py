"""How many database transactions one turn costs, counted at the database driver.

Runs the real bot (`AlhambraBot`, real discord.py) against the local fake Discord of tests/e2e
and plays one person's turn the way the issue about the bot's core defines it:

1. **open the panel**: the person clicks "Take money" on the turn message (their private panel
   opens, showing their money);
2. **a move**: they pick the first money in the panel's menu. Their automatic end of turn is
   off (`/alhambra settings auto_end_turn:False`), so the turn waits for them;
3. **End turn**: the turn is over, the table is told, the next turn is armed (its timers, the
   next player's DM, the followers).

Each click is waited on until the bot is quiet: every background task done (`bot.calm()`) and
then no database call for a quarter of a second (the timer dispatcher, woken by the new turn's
timers, claims and looks up timers on its own task). The game has `--players` people (2 by
default) and no computer seat, so no computer turn follows the End turn; `--computer` adds a
computer player that moves right after the measured person, and its turn is then part of the
End turn's figures. `--warmup` turns are played the same way first, so every person has
clicked before (the languages the bot remembers, discord.py's caches, prepared statements).
Time stands still (a manual clock), so nothing but the clicks moves the game.

Two turns are measured, as the next player's turn is told in one of two ways, and the second
reads more:

- **A**: the next player moved minutes ago, so they are at the table: the new turn message
  mentions them and no DM goes out;
- **B**: the clock moves on 10 minutes first, so the next player is away: their turn begins
  with a DM (its text, their hand, the link to the turn message).

Counted at the driver, below the store, so nothing the bot does to the database escapes:

- **SQLite**: the aiosqlite connection's `execute` and `execute_fetchall` are wrapped. Every
  `BEGIN IMMEDIATE` opens a write transaction (`SqliteDatabase.write`), every plain `BEGIN` a
  read transaction (`read`), and a statement outside any transaction is a transaction of its own
  (`autocommit`: SQLite commits it alone; `peek` works this way). `COMMIT`/`ROLLBACK` close them.
- **PostgreSQL** (`--db postgres`: a private server started from the test extra's binaries,
  as `bench/service.py --db postgres` does; or `--db postgresql://…`, an address of a database
  the bot may fill): asyncpg's `Connection.execute/fetch/fetchrow/fetchval/executemany` are
  wrapped. `BEGIN … READ ONLY` is a read transaction (`read`), any other `BEGIN` a write, a
  statement on a connection outside a transaction an autocommit one. The reset asyncpg's pool
  sends when a connection goes back (`RESET ALL`, …) is a round trip too: counted apart.

Printed per click: transactions (read / write / autocommit), statements (BEGIN, COMMIT and
ROLLBACK not included: add two per read or write transaction for the round trips), and the
turn's total. With `--why`, every transaction in the order it began, with its statements and
where it was opened: the first frame above the store and the drivers (`module:function`, the
use case, mostly a method of one of the services) and the frame that called into that module (who
wanted it), from the Python stack at the moment of its `BEGIN`. That list is where re-reads
show: the same use case opened again and again by one click.

    python bench/transactions.py [--players 2] [--warmup 4] [--why] [--computer]
    python bench/transactions.py --db postgres [--why]
    python bench/transactions.py --db postgresql://user@host/db

The figures are counts, not times: they do not depend on the machine's load. The architecture
review of 8db9479 counted at the store (`Store.read/write/peek`) 2 transactions for the panel,
4 for the move and 27 for End turn (21 reads, 5 writes, 1 peek), which is turn B here: a `peek`
of two statements is two transactions at the driver.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# bench/ must not shadow the packages it measures (bench/render.py vs render).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))

from fake_discord import FakeDiscord, pointed_at, running_bot  # noqa: E402
from fake_discord.models import Channel, Message, User  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.core.clock import ManualClock  # noqa: E402
from bot.discord_app.client import AlhambraBot  # noqa: E402
from bot.text import i18n  # noqa: E402

LOCALE = "en"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SEED = 20240601
#: the measured clicks, in order
CLICKS = ("open the panel", "a move (take money)", "End turn")
#: longer than `turns.policy.LIVE_WINDOW`: a player who moved this long ago is away
AWAY = timedelta(minutes=10)

#: frames of these files are the machinery between a use case and the database
_PLUMBING = (
    str(ROOT / "bot" / "core" / "db") + "/",
    str(ROOT / "bot" / "core" / "store") + "/",
    str(Path(__file__).resolve()),
    "/contextlib.py",
    "/asyncio/",
    "/aiosqlite/",
    "/asyncpg/",
)


# --- counting at the driver ---------------------------------------------------------------------


@dataclass
class Transaction:
    """One transaction as the driver saw it."""

    kind: str  # "read", "write" or "autocommit"
    opener: str  # the use case that opened it (module:function)
    caller: str  # who called into the opener's module
    statements: int = 0


@dataclass
class Counter:
    """Every transaction and statement the driver ran, in order."""

    transactions: list[Transaction] = field(default_factory=list)
    #: asyncpg's pool resets (PostgreSQL only): a round trip each
    resets: int = 0
    #: calls into the driver of any kind (a change means the bot is still at work)
    calls: int = 0
    _open: dict[int, Transaction] = field(default_factory=dict)

    def statement(
        self, connection: object, sql: str, in_transaction: bool, *, postgres: bool = False
    ) -> None:
        """Note one call: a BEGIN opens a transaction of `connection`, a COMMIT or ROLLBACK
        closes it, anything else is a statement of the open one (or a transaction of its own)."""
        self.calls += 1
        words = sql.lstrip().upper()
        key = id(connection)
        if words.startswith("BEGIN"):
            # SQLite: the store's writes begin IMMEDIATE, its reads deferred (a plain BEGIN);
            # PostgreSQL: its reads are READ ONLY, its writes a plain BEGIN
            read = "READ ONLY" in words if postgres else "IMMEDIATE" not in words
            self._open[key] = self._begin("read" if read else "write")
        elif words.startswith(("COMMIT", "ROLLBACK", "END")):
            self._open.pop(key, None)
        elif key in self._open and in_transaction:
            self._open[key].statements += 1
        else:
            self._open.pop(key, None)
            self._begin("autocommit").statements += 1

    def _begin(self, kind: str) -> Transaction:
        opener, caller = where_from(sys._getframe())
        transaction = Transaction(kind, opener, caller)
        self.transactions.append(transaction)
        return transaction


def _module(frame: FrameType) -> str:
    path = Path(frame.f_code.co_filename)
    with contextlib.suppress(ValueError):
        path = path.relative_to(ROOT)
    parts = list(path.with_suffix("").parts)
    if parts and parts[0] == "bot":
        parts = parts[1:]
    return ".".join(parts)


def _name(frame: FrameType) -> str:
    return f"{_module(frame)}:{frame.f_code.co_qualname}"


def where_from(frame: FrameType | None) -> tuple[str, str]:
    """(the first frame above the store and the drivers, the first frame after it in another
    module): the use case that opened a transaction, and who asked for it."""
    opener: FrameType | None = None
    while frame is not None:
        path = frame.f_code.co_filename
        if not any(part in path for part in _PLUMBING):
            if opener is None:
                opener = frame
            elif _module(frame) != _module(opener):
                return _name(opener), _name(frame)
        frame = frame.f_back
    return (_name(opener) if opener is not None else "?"), "?"


def count_sqlite(counter: Counter, connection: Any) -> None:
    """Count what goes through this aiosqlite connection (its methods wrapped on the object:
    the call is noted as it is made, with the caller's stack, and then runs unchanged)."""
    execute, fetchall = connection.execute, connection.execute_fetchall

    def counted_execute(sql: str, parameters: Any = None) -> Any:
        counter.statement(connection, sql, connection.in_transaction)
        return execute(sql, parameters)

    def counted_fetchall(sql: str, parameters: Any = None) -> Any:
        counter.statement(connection, sql, connection.in_transaction)
        return fetchall(sql, parameters)

    connection.execute = counted_execute
    connection.execute_fetchall = counted_fetchall


@contextlib.contextmanager
def counting_asyncpg(counter: Counter) -> Iterator[None]:
    """Count every query of every asyncpg connection of this process while inside."""
    import asyncpg

    names = ("execute", "fetch", "fetchrow", "fetchval", "executemany")
    originals = {name: getattr(asyncpg.Connection, name) for name in names}

    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        async def counted(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
            if sys._getframe(1).f_code.co_name == "reset":  # the pool giving a connection back
                counter.resets += 1
                counter.calls += 1
            else:
                counter.statement(self, query, self.is_in_transaction(), postgres=True)
            return await original(self, query, *args, **kwargs)

        return counted

    for name, original in originals.items():
        setattr(asyncpg.Connection, name, wrap(original))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(asyncpg.Connection, name, original)


# --- a turn through the fake Discord ------------------------------------------------------------


@dataclass
class Click:
    """What one click cost."""

    name: str
    transactions: list[Transaction]
    resets: int = 0

    def kinds(self) -> dict[str, int]:
        return {
            kind: sum(t.kind == kind for t in self.transactions)
            for kind in ("read", "write", "autocommit")
        }

    @property
    def statements(self) -> int:
        return sum(t.statements for t in self.transactions)


@dataclass
class Options:
    db: str = "sqlite"
    players: int = 2
    warmup: int = 4
    computer: bool = False
    why: bool = False
    sync: str = "FULL"
    #: seconds without a database call that count as "the bot is done"
    quiet: float = 0.25
    show: Callable[[str], None] = print


#: the two turns measured: (what they show, how long the clock moves on before)
VARIANTS = (
    ("A. the next player moved minutes ago: their turn is told by a mention", timedelta(0)),
    ("B. the next player has been away 10 minutes: their turn is told by a DM", AWAY),
)


@dataclass
class Measured:
    """One measured turn: its clicks, in order."""

    title: str
    clicks: list[Click]

    @property
    def total(self) -> Click:
        return Click(
            "the turn",
            [t for c in self.clicks for t in c.transactions],
            sum(c.resets for c in self.clicks),
        )


@dataclass
class Report:
    engine: str
    turns: list[Measured]


class Turns:
    """The people of one game, clicking through the fake Discord."""

    def __init__(
        self, sim: FakeDiscord, bot: AlhambraBot, counter: Counter, options: Options
    ) -> None:
        self.sim, self.bot, self.counter, self.options = sim, bot, counter, options
        self.thread: Channel | None = None
        self.people: list[User] = []

    async def settle(self) -> None:
        """Until every task of the bot is done and the database has been quiet a while."""
        while True:
            await self.bot.calm()
            calls = self.counter.calls
            await asyncio.sleep(self.options.quiet)
            if self.counter.calls == calls:
                return

    async def open_game(self, guild_channel: Channel) -> None:
        t = i18n.t
        host = self.people[0]
        opened = await self.sim.slash(host, "alhambra new", channel=guild_channel)
        await opened.wait_followups(1)
        assert opened.response is not None and opened.response.thread is not None
        self.thread = opened.response.thread
        lobby = self.sim.channel_messages(self.thread)[0]
        for person in self.people[1:]:
            await self.sim.click(person, lobby, t(LOCALE, "button.join"))
        if self.options.computer:
            await self.sim.slash(host, "alhambra add-bot", channel=self.thread, level="easy")
        for person in self.people:
            await self.sim.slash(
                person, "alhambra settings", channel=self.thread, auto_end_turn=False
            )
        started = await self.sim.click(host, lobby, t(LOCALE, "button.start"))
        await started.wait_followups(1)
        await self.settle()

    def turn_message(self) -> Message:
        assert self.thread is not None
        for message in reversed(self.sim.channel_messages(self.thread)):
            if any(b.get("custom_id", "").startswith("alh:t:") for b in message.buttons()):
                return message
        raise AssertionError("no turn message in the thread")

    async def to_play(self) -> User:
        """The person whose turn it is (asked before the clicks are counted)."""
        assert self.thread is not None
        player = (await self.bot.services.lobby.game_in_channel(self.thread.id)).current_player
        found = next((p for p in self.people if player and p.id == player.user_id), None)
        assert found is not None, f"a person is to play, not {player}"
        return found

    async def next_is_computer(self) -> bool:
        """Whether a computer player moves right after the person to play now."""
        assert self.thread is not None
        game = await self.bot.services.lobby.game_in_channel(self.thread.id)
        seats = sorted(game.seats, key=lambda s: s.seat or 0)
        now = next(i for i, s in enumerate(seats) if s.seat == game.current_seat)
        return seats[(now + 1) % len(seats)].kind != "human"

    async def play_turn(self, measure: bool = False) -> list[Click]:
        """One person's turn: open the panel, take the first money, End turn."""
        t = i18n.t
        person = await self.to_play()
        clicks: list[Click] = []

        @contextlib.asynccontextmanager
        async def click(name: str) -> AsyncIterator[None]:
            first, resets = len(self.counter.transactions), self.counter.resets
            yield
            await self.settle()
            clicks.append(
                Click(name, self.counter.transactions[first:], self.counter.resets - resets)
            )

        async with click(CLICKS[0]):
            opened = await self.sim.click(person, self.turn_message(), t(LOCALE, "button.take"))
        panel = opened.response
        assert panel is not None and panel.ephemeral and panel.selects(), "the panel opened"
        async with click(CLICKS[1]):
            select = panel.selects()[0]
            edits = panel.edits
            await self.sim.select(
                person, panel, select["custom_id"], [select["options"][0]["value"]]
            )
            await self.sim.wait_until(lambda: panel.edits > edits)
        assert t(LOCALE, "action.end_turn") in panel.button_labels(), panel.button_labels()
        async with click(CLICKS[2]):
            edits = panel.edits
            await self.sim.click(person, panel, t(LOCALE, "action.end_turn"))
            await self.sim.wait_until(lambda: panel.edits > edits)
        return clicks if measure else []


async def run(options: Options) -> Report:
    """Set up the game, warm up, measure turns A and B; returns the clicks' counts."""
    sim = FakeDiscord()
    await sim.start()
    counter = Counter()
    try:
        with (
            tempfile.TemporaryDirectory() as tmp,
            pointed_at(sim),
            _database(options.db, Path(tmp)) as (target, engine),
            counting_asyncpg(counter) if engine.startswith("PostgreSQL") else _nothing(),
        ):
            settings = Settings(
                None,
                target,
                None,
                "WARNING",
                db_sync="NORMAL" if options.sync == "NORMAL" else "FULL",
            )
            clock = ManualClock(T0)

            def factory() -> AlhambraBot:
                bot = AlhambraBot(settings, clock=clock, seed_source=lambda: SEED)
                bot.sweep_every_s = 10**6  # the minute's sweep is not a click's work
                return bot

            people = [sim.user(f"p{i + 1}") for i in range(options.players)]
            guild = sim.guild("Bench", owner=people[0])
            for person in people[1:]:
                sim.member(guild, person)
            channel = sim.channel(guild, "alhambra")
            async with running_bot(sim, factory) as bot:
                if engine.startswith("SQLite"):
                    assert bot.store is not None
                    count_sqlite(counter, bot.store.conn)
                turns = Turns(sim, bot, counter, options)
                turns.people = people
                await turns.open_game(channel)
                for _ in range(options.warmup):
                    await turns.play_turn()
                measured = []
                for title, away in VARIANTS:
                    while options.computer and not await turns.next_is_computer():
                        await turns.play_turn()
                    clock.advance(away)
                    measured.append(Measured(title, await turns.play_turn(measure=True)))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bot.calm(), 10)
            return Report(engine, measured)
    finally:
        await sim.stop()


@contextlib.contextmanager
def _nothing() -> Iterator[None]:
    yield


@contextlib.contextmanager
def _database(db: str, folder: Path) -> Iterator[tuple[str, str]]:
    """(what the bot opens, the engine's name): a fresh SQLite file, a private PostgreSQL
    server, or the address given."""
    if db == "sqlite":
        yield str(folder / "transactions.sqlite3"), "SQLite (aiosqlite)"
        return
    if db == "postgres":
        sys.path.insert(0, str(ROOT / "tests"))
        from postgres_server import PostgresServer

        with PostgresServer() as server:
            yield server.url(), "PostgreSQL (asyncpg, a private server)"
        return
    yield db, "PostgreSQL (asyncpg)"


# --- printing -----------------------------------------------------------------------------------


def _line(click: Click, resets: bool) -> str:
    kinds = click.kinds()
    tail = f" {click.resets:7d}" if resets else ""
    return (
        f"{click.name:22s} {len(click.transactions):5d} {kinds['read']:5d} {kinds['write']:6d} "
        f"{kinds['autocommit']:11d} {click.statements:11d}{tail}"
    )


def lines(report: Report, options: Options) -> list[str]:
    resets = report.engine.startswith("PostgreSQL")
    who = f"{options.players} people" + (", a computer player next" if options.computer else "")
    out = [
        f"one turn ({who}; after {options.warmup} warm-up turns), counted at the driver: "
        f"{report.engine}" + (f", synchronous={options.sync}" if not resets else ""),
    ]
    for turn in report.turns:
        out += [
            "",
            turn.title,
            f"{'click':22s} {'tx':>5s} {'read':>5s} {'write':>6s} {'autocommit':>11s} "
            f"{'statements':>11s}" + (f" {'resets':>7s}" if resets else ""),
        ]
        out += [_line(click, resets) for click in turn.clicks]
        out.append(_line(turn.total, resets))
    out += [
        "",
        "statements leave out BEGIN/COMMIT (two more round trips per read or write transaction)"
        + ("; resets: asyncpg's pool resetting a connection it gets back" if resets else ""),
    ]
    if options.why:
        for turn in report.turns:
            for click in turn.clicks:
                out += ["", f"{turn.title[:2]} {click.name}: who opened each transaction, in order"]
                out += [
                    f"  {i:3d} {tx.kind:10s} {tx.statements:3d} st  {tx.opener}  <- {tx.caller}"
                    for i, tx in enumerate(click.transactions, 1)
                ]
    return out


def parse(argv: list[str] | None = None) -> Options:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a fresh file, the default), postgres (a private server from the test "
        "extra's binaries) or a postgresql:// address",
    )
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--warmup", type=int, default=4, help="turns played before (default 4)")
    parser.add_argument(
        "--computer", action="store_true", help="a computer player moves after the measured turn"
    )
    parser.add_argument(
        "--why", action="store_true", help="list every transaction with the code that opened it"
    )
    parser.add_argument("--sync", choices=["FULL", "NORMAL"], default="FULL", help="SQLite's")
    args = parser.parse_args(argv)
    return Options(
        db=args.db,
        players=args.players,
        warmup=args.warmup,
        computer=args.computer,
        why=args.why,
        sync=args.sync,
    )


def main(argv: list[str] | None = None) -> None:
    options = parse(argv)
    logging.basicConfig(level=logging.ERROR)
    started = time.perf_counter()
    report = asyncio.run(run(options))
    for line in lines(report, options):
        options.show(line)
    options.show(f"(measured in {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
