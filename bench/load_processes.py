"""bench/load.py with several bot processes: `python bench/load.py --processes 1 2 4 --db postgres`.

For each count N of `--processes`, N real bot processes (`python -m bot run`, as
tests/e2e/test_bot_shards.py starts them) share `SHARDS` gateway shards (cluster k of N each
holds its contiguous range, `ALHAMBRA_SHARDS/CLUSTERS/CLUSTER`) against the one local fake
Discord of tests/e2e, running in this process with the simulated people, and one database: a
PostgreSQL server started as the tests start it (tests/postgres_server.py, durable: fsync on),
a fresh database for each N; or one SQLite file for each N (`--db sqlite`). The games are
spread over one server per shard, so every process has its share of them.

Then the same rising click rate as the one-process bench (`--rates`), the same people, the
same figures per step: throughput (`done/s`: interactions answered in time per second) and
ack p99 (INTERACTION_CREATE dispatched to the bot's first answer, seen by the fake), plus the
picture workers' queue depth: each process's `alhambra_pool_queue_depth`, read from its
`/metrics` every half second, the largest of all processes (`q max`) and the mean of their
sum (`q mean`). Each process has `--workers` picture workers (default 1: the machine has two
cores for everything). After all counts: the highest throughput of each count and its ratio to
one process's (the scaling ratio).

Everything shares one machine: the fake Discord and the people (this process, one core at most),
the bot processes, their workers and PostgreSQL. On two cores the ratio says how far more
processes help before the machine is the limit, not what separate machines would do.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
SHARDS = 4

_QUEUE = re.compile(r"^alhambra_pool_queue_depth\s+([0-9.eE+-]+)", re.M)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class BotProcess:
    name: str
    proc: asyncio.subprocess.Process
    log: Path
    metrics_port: int

    def records(self) -> list[dict[str, Any]]:
        out = []
        for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                out.append(json.loads(line))
        return out

    def answered(self) -> int:
        return sum(
            1
            for r in self.records()
            if r.get("logger") == "alhambra.interactions" and "outcome" in r
        )

    def errors(self) -> list[str]:
        return [
            str(r.get("message")) for r in self.records() if r.get("level") in ("ERROR", "CRITICAL")
        ]


@dataclass
class QueueProbe:
    """Every process's picture-worker queue depth, read from its /metrics twice a second."""

    ports: Sequence[int]
    samples: list[tuple[float, list[float]]] = field(default_factory=list)
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        timeout = aiohttp.ClientTimeout(total=2)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while True:
                depths = []
                for port in self.ports:
                    try:
                        async with session.get(f"http://127.0.0.1:{port}/metrics") as answer:
                            found = _QUEUE.search(await answer.text())
                            depths.append(float(found.group(1)) if found else 0.0)
                    except (aiohttp.ClientError, TimeoutError):
                        depths.append(0.0)
                self.samples.append((time.monotonic(), depths))
                await asyncio.sleep(0.5)

    def between(self, start: float, end: float) -> tuple[float | None, float | None]:
        """(largest depth of any process, mean of the processes' summed depth)."""
        chosen = [d for t, d in self.samples if start <= t <= end]
        if not chosen:
            return None, None
        return max(max(d) for d in chosen), statistics.fmean(sum(d) for d in chosen)


@dataclass
class CountReport:
    processes: int
    games: int
    setup_seconds: float
    steps: list[Any]
    queue: list[tuple[float | None, float | None]]
    answered: list[int]
    errors: list[str]

    @property
    def peak(self) -> float:
        return max((s.done_per_s for s in self.steps), default=0.0)


@contextlib.asynccontextmanager
async def databases(db: str) -> AsyncIterator[Callable[[str], Any]]:
    """`await make(name)` gives a fresh database's address (or file path) for one count."""
    if db == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:

            async def make_file(name: str) -> str:
                return str(Path(tmp) / f"{name}.sqlite3")

            yield make_file
        return
    sys.path.insert(0, str(ROOT / "tests"))
    import asyncpg
    from postgres_server import PostgresServer

    with PostgresServer(durable=True) as server:

        async def make_database(name: str) -> str:
            admin = await asyncpg.connect(server.url())
            try:
                await admin.execute(f"CREATE DATABASE {name}")
            finally:
                await admin.close()
            return str(server.url(name))

        yield make_database


async def start_processes(
    sim: Any, target: str, count: int, folder: Path, workers: int
) -> list[BotProcess]:
    from fake_discord import cli_script

    started = []
    for k in range(count):
        port = _free_port()
        environment = {
            **{k: v for k, v in os.environ.items() if not k.startswith("ALHAMBRA_")},
            "DISCORD_TOKEN": sim.token,
            "ALHAMBRA_DB": target,
            "ALHAMBRA_LOG_FORMAT": "json",
            "ALHAMBRA_WORKERS": str(workers),
            "ALHAMBRA_UNDO_WINDOW": "0",
            "ALHAMBRA_METRICS_PORT": str(port),
            "ALHAMBRA_SHARDS": str(SHARDS),
            "ALHAMBRA_CLUSTERS": str(count),
            "ALHAMBRA_CLUSTER": str(k),
            "PYTHONPATH": str(ROOT),
        }
        log = folder / f"bot{count}-{k}.log"
        with log.open("w", encoding="utf-8") as err:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                cli_script(sim, ["run"]),
                cwd=folder,
                env=environment,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=err,
            )
        started.append(BotProcess(f"cluster{k}", proc, log, port))
    return started


async def stop_processes(processes: list[BotProcess]) -> None:
    for p in processes:
        if p.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                p.proc.terminate()
    for p in processes:
        try:
            await asyncio.wait_for(p.proc.wait(), 30)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                p.proc.kill()
            await p.proc.wait()


async def run_count(load: Any, options: Any, count: int, target: str, folder: Path) -> CountReport:
    """One count of processes: start them, open the games, run every rate step."""
    from database import connect
    from fake_discord import pointed_at

    sim = load.LoadFake()
    sim.shards, sim.max_concurrency = SHARDS, SHARDS
    await sim.start()
    processes: list[BotProcess] = []
    try:
        with pointed_at(sim):
            owner = sim.user("owner")
            channels = [
                sim.channel(sim.guild(f"Load {k}", owner=owner, shard=k), "alhambra")
                for k in range(SHARDS)
            ]
            processes = await start_processes(sim, target, count, folder, options.workers)
            async with asyncio.timeout(120):
                while not all(sim.gateway.is_connected(k) for k in range(SHARDS)):
                    dead = [p.name for p in processes if p.proc.returncode is not None]
                    if dead:
                        raise RuntimeError(f"bot process ended at start: {dead}")
                    await asyncio.sleep(0.2)
            bench = ProcessesBench(sim, target, options, connect)
            bench.probe.start()
            queue = QueueProbe([p.metrics_port for p in processes])
            queue.start()
            began = time.monotonic()
            await bench.open_spread(channels)
            setup = time.monotonic() - began
            bench.say(
                f"{count} process(es), {SHARDS} shards: {len(bench.games)} games opened in "
                f"{setup:.1f} s"
            )
            bench.say(load._step_header() + "  q max  q mean")
            players = [asyncio.create_task(bench.play(g)) for g in bench.games]
            steps = []
            depths = []
            try:
                for rate in options.rates:
                    step = await bench.run_step(rate, options.step_seconds)
                    end = time.monotonic()
                    depth = queue.between(end - step.seconds, end)
                    steps.append(step)
                    depths.append(depth)
                    first, *rest = load._step_line(step).split("\n")
                    bench.say(
                        f"{first}  {load._num(depth[0], 5)}  "
                        + ("-" if depth[1] is None else f"{depth[1]:.1f}")
                    )
                    for line in rest:
                        bench.say(line)
            finally:
                for task in players:
                    task.cancel()
                await asyncio.gather(*players, return_exceptions=True)
                await queue.stop()
                await bench.probe.stop()
                bench.db.close()
            return CountReport(
                processes=count,
                games=len(bench.games),
                setup_seconds=setup,
                steps=steps,
                queue=depths,
                answered=[p.answered() for p in processes],
                errors=[e for p in processes for e in p.errors()],
            )
    finally:
        await stop_processes(processes)
        await sim.stop()


def _bench_class(load: Any) -> Any:
    class Bench(load.LoadBench):  # type: ignore[misc,name-defined]
        """The one-process bench's people and steps, with the bot in other processes."""

        def __init__(self, sim: Any, target: str, options: Any, connect: Any) -> None:
            self.sim, self.bot, self.options = sim, None, options
            self.db = connect(target)
            self.games = []
            self.gate = load.Gate()
            self.probe = load.LagProbe()
            self.db_probe = load.Probe(1.0)  # the store's wait is measured in-process only
            self.log = load.LogCount()
            self.sent = []
            self.step = -1
            self.people_seconds = 0.0
            self.harness_errors = 0
            self.rng = load.random.Random(options.seed)
            options.setup_parallel = min(options.setup_parallel, 4)

        async def open_spread(self, channels: list[Any]) -> None:
            """The games over the servers (one per shard), as the one-process bench opens
            them in its one channel."""
            for k, channel in enumerate(channels):  # one server at a time: a shared machine
                await self.open_games(channel, range(k, self.options.games, len(channels)))

        async def settle(self, sent: list[Any], timeout: float = 30.0) -> None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    while any(s.outcome is None for s in sent):
                        await asyncio.sleep(0.05)
                    await asyncio.sleep(0.5)

    return Bench


ProcessesBench: Any = None


async def run_processes(load: Any, options: Any, db: str, counts: Sequence[int]) -> list[Any]:
    """Every count of processes in turn; prints the tables and the scaling ratio."""
    global ProcessesBench
    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    sys.path.insert(0, str(ROOT / "tests"))
    ProcessesBench = _bench_class(load)
    show = options.show or (lambda _: None)
    reports: list[CountReport] = []
    async with databases(db) as make:
        with tempfile.TemporaryDirectory() as tmp:
            for count in counts:
                target = await make(f"load{count}")
                reports.append(await run_count(load, options, count, target, Path(tmp)))
                show("")
    base = reports[0].peak if reports else 0.0
    show(f"scaling ({db}, {SHARDS} shards, {options.workers} picture worker(s) per process):")
    show(f"{'processes':>9} {'peak done/s':>11} {'ratio':>6}  answered per process   errors")
    for r in reports:
        ratio = r.peak / base if base else 0.0
        errors = f"{len(r.errors)} logged" + (f" (first: {r.errors[0][:120]})" if r.errors else "")
        show(f"{r.processes:>9} {r.peak:>11.1f} {ratio:>6.2f}  {r.answered!s:<22} {errors}")
    return reports
