"""`python -m bot run` (and `sync`) meeting a database it cannot use, as an operator starts
it: one line on standard error and exit status 6, before any Discord traffic, and never the
database password, on SQLite (a read-only volume) and on a real PostgreSQL (a role without
rights, a refused password, a missing database); the database commands on a read-only volume.
A password holding `@ / : % # ?` works when given apart (`ALHAMBRA_DB_PASSWORD`, or its
`_FILE`)."""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

import asyncpg
import pytest
from fake_discord import FakeDiscord, cli_script

from bot.core.services import Services
from bot.core.store import Store

ROOT = Path(__file__).resolve().parents[2]
#: every character with a meaning in an address, and a space
AWKWARD_PASSWORD = "p@ss/w:o%rd#1? x"
_roles = itertools.count(1)


def without_root_powers(command: list[str]) -> list[str]:
    """`command` as it runs for an ordinary user: as root, without the capabilities that let
    root write where the permissions (or a read-only file) say no."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("as root this test needs setpriv (util-linux) to drop root's powers")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-all", *command]


async def bot_cli(
    sim: FakeDiscord,
    args: list[str],
    env: dict[str, str],
    cwd: Path,
    *,
    unprivileged: bool = False,
) -> tuple[int, str, str]:
    """`python -m bot ARGS` in a process of its own against the fake Discord: (status, standard
    output, standard error). `unprivileged`: as the image's user would be, never root."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("ALHAMBRA_", "DISCORD_"))}
    full |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": sim.token, "ALHAMBRA_WORKERS": "0"}
    full |= env
    command = [sys.executable, "-c", cli_script(sim, args)]
    if unprivileged:
        command = without_root_powers(command)
    proc = await asyncio.create_subprocess_exec(
        *command,
        cwd=cwd,
        env=full,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 90)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def database_cli(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """`python -m bot ARGS` (a database command: no Discord), as an unprivileged user."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ALHAMBRA_", "DISCORD_"))}
    command = without_root_powers([sys.executable, "-m", "bot", *args])
    proc = await asyncio.create_subprocess_exec(
        *command,
        cwd=cwd,
        env=env | {"PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def one_line(err: str) -> str:
    """The only line of standard error (a traceback or a second line fails the test)."""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    return lines[0]


async def admin(server: Any, database: str, *statements: str) -> None:
    conn = await asyncpg.connect(server.url(database))
    try:
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


async def new_role(server: Any, password: str) -> str:
    """A login role of its own with `password` and no other right."""
    name = f"alh_{os.getpid()}_{next(_roles)}"
    quoted = password.replace("'", "''")
    await admin(server, "postgres", f"CREATE ROLE {name} LOGIN PASSWORD '{quoted}'")
    return name


def address(server: Any, role: str, database: str, password: str | None = None) -> str:
    secret = f":{quote(password, safe='')}" if password is not None else ""
    return f"postgresql://{role}{secret}@127.0.0.1:{server.port}/{database}"


def database_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


# --- SQLite: a read-only volume -----------------------------------------------------------------


async def test_a_read_only_volume_is_one_line_and_status_6(sim: FakeDiscord, tmp_path: Path):
    """A folder the bot may not write, empty (a new volume) or holding the database: one line,
    status 6, and nothing after it (it used to end with aiosqlite's thread failing twice)."""
    fresh, used = tmp_path / "fresh", tmp_path / "used"
    fresh.mkdir()
    used.mkdir()
    await (await Store.open(used / "alhambra.sqlite3")).close()
    for path in (*used.iterdir(), fresh, used):
        path.chmod(0o444 if path.is_file() else 0o555)
    try:
        for folder in (fresh, used):
            db = folder / "alhambra.sqlite3"
            code, out, err = await bot_cli(
                sim, ["run"], {"ALHAMBRA_DB": str(db)}, tmp_path, unprivileged=True
            )
            line = one_line(err)
            assert code == 6, err
            assert line.startswith(f"alhambra-bot: cannot open {db} for writing"), line
            assert out == ""
    finally:
        for path in (fresh, used, *used.iterdir()):
            path.chmod(0o755)
    assert sim.requests == []


async def test_the_database_commands_read_from_a_read_only_volume_and_say_what_they_cannot_write(
    tmp_path: Path,
) -> None:
    """A copy on a read-only volume (a backup mounted `:ro`): verify-db reads it (it took it
    for "not an alhambra-bot database"), a backup cannot be written there and says so in one
    line, health says why the bot could not use it."""
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "alhambra.sqlite3"
    store = await Store.open(db)
    await Services.build(store).lobby.create_game(channel_id=1, host_id=1, host_name="Ann")
    await store.close()
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        code, out, err = await database_cli(["verify-db", str(db)], tmp_path)
        assert (code, err) == (0, ""), err
        assert "verify-db: 1 games, 0 replayed, 0 actions, 0 problems" in out
        code, out, err = await database_cli(
            ["backup", str(folder / "b.sqlite3"), "--db", str(db)], tmp_path
        )
        assert code == 2 and one_line(err).startswith(f"backup: cannot write the copy in {folder}")
        code, out, err = await database_cli(["health", str(db)], tmp_path)
        assert code == 1 and one_line(err).startswith(f"health: cannot open {db} for writing")
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)


# --- PostgreSQL: roles, rights and passwords -----------------------------------------------------


async def test_a_postgres_role_without_rights_is_one_line_and_status_6(
    sim: FakeDiscord, tmp_path: Path, postgres_server: Any, fresh_postgres_url: str
) -> None:
    """A role that may connect but not create the tables, then one that may not even connect:
    each a line saying which right it lacks and how to grant it (it used to be asyncpg's
    traceback and status 1)."""
    name = database_of(fresh_postgres_url)
    role = await new_role(postgres_server, "its-own")
    # PostgreSQL 15 and later refuse CREATE in public to other roles by themselves; older ones
    # must be told to
    await admin(postgres_server, name, "REVOKE CREATE ON SCHEMA public FROM PUBLIC")
    url = address(postgres_server, role, name, "its-own")

    code, out, err = await bot_cli(sim, ["run"], {"ALHAMBRA_DB": url}, tmp_path)
    line = one_line(err)
    assert code == 6, err
    assert f"role {role} may not create the bot's tables" in line
    assert f"ALTER DATABASE {name} OWNER TO {role}" in line
    assert f"GRANT CREATE, USAGE ON SCHEMA public TO {role}" in line
    assert "its-own" not in err + out

    await admin(postgres_server, "postgres", f"REVOKE CONNECT ON DATABASE {name} FROM PUBLIC")
    code, out, err = await bot_cli(sim, ["run"], {"ALHAMBRA_DB": url}, tmp_path)
    line = one_line(err)
    assert code == 6, err
    assert f"GRANT CONNECT ON DATABASE {name} TO {role}" in line
    assert sim.requests == []


async def test_a_role_that_may_only_use_the_tables_runs_the_bot_and_one_without_them_is_told(
    sim: FakeDiscord, tmp_path: Path, postgres_server: Any, postgres_url: str
) -> None:
    """The schema made by its owner; the bot's own role may read and write the tables but
    create nothing: the bot starts (a database at the latest step needs no CREATE). Without
    the rights on the tables, one line says which to grant."""
    name = database_of(postgres_url)
    role = await new_role(postgres_server, "its-own")
    url = address(postgres_server, role, name, "its-own")
    code, _, err = await bot_cli(sim, ["run"], {"ALHAMBRA_DB": url}, tmp_path)
    line = one_line(err)
    assert code == 6, err
    assert "permission denied for table schema_migrations" in line
    assert f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}" in line

    await admin(
        postgres_server,
        name,
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
        f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}",
    )
    code, out, err = await bot_cli(sim, ["sync"], {"ALHAMBRA_DB": url}, tmp_path)
    assert code == 0, err
    assert "commands synced" in out


async def test_a_refused_password_or_a_missing_database_is_one_line_and_status_6(
    sim: FakeDiscord, tmp_path: Path, postgres_server: Any, postgres_url: str
) -> None:
    name = database_of(postgres_url)
    role = await new_role(postgres_server, "the-right-one")
    for env in (
        {"ALHAMBRA_DB": address(postgres_server, role, name, "a-wrong-one")},
        {
            "ALHAMBRA_DB": address(postgres_server, role, name),
            "ALHAMBRA_DB_PASSWORD": "a-wrong-one",
        },
    ):
        code, out, err = await bot_cli(sim, ["run"], env, tmp_path)
        line = one_line(err)
        assert code == 6, err
        assert f"PostgreSQL refused the password of role {role}" in line
        assert "ALHAMBRA_DB_PASSWORD" in line
        assert "a-wrong-one" not in err + out and "the-right-one" not in err + out

    nowhere = address(postgres_server, role, "no_such_db", "the-right-one")
    code, out, err = await bot_cli(sim, ["run"], {"ALHAMBRA_DB": nowhere}, tmp_path)
    line = one_line(err)
    assert code == 6, err
    assert 'database "no_such_db" does not exist' in line
    assert f"CREATE DATABASE no_such_db OWNER {role}" in line
    assert "the-right-one" not in err + out
    assert sim.requests == []


async def test_a_password_with_address_characters_works_apart_and_is_never_printed(
    sim: FakeDiscord, tmp_path: Path, postgres_server: Any
) -> None:
    """`p@ss/w:o%rd#1? x`, as compose passes it (`ALHAMBRA_DB_PASSWORD`), from a Docker secret
    (`ALHAMBRA_DB_PASSWORD_FILE`) and percent-encoded in the address: the bot opens its
    database, syncs and exits 0, and at DEBUG no line shows the password, raw or encoded. Raw
    in the address it cannot be told from the host: one line (status 2) without it."""
    role = await new_role(postgres_server, AWKWARD_PASSWORD)
    name = f"owned_{role}"
    await admin(postgres_server, "postgres", f"CREATE DATABASE {name} OWNER {role}")
    bare = address(postgres_server, role, name)
    secret = tmp_path / "db_password"
    secret.write_text(AWKWARD_PASSWORD + "\n", encoding="utf-8")
    shown = (AWKWARD_PASSWORD, quote(AWKWARD_PASSWORD, safe=""), "rd#1", "w:o%rd")
    try:
        for env in (
            {"ALHAMBRA_DB": bare, "ALHAMBRA_DB_PASSWORD": AWKWARD_PASSWORD},
            {"ALHAMBRA_DB": bare, "ALHAMBRA_DB_PASSWORD_FILE": str(secret)},
            {"ALHAMBRA_DB": address(postgres_server, role, name, AWKWARD_PASSWORD)},
        ):
            code, out, err = await bot_cli(
                sim, ["sync"], env | {"ALHAMBRA_LOG_LEVEL": "DEBUG"}, tmp_path
            )
            assert code == 0, err[-3000:]
            assert "commands synced" in out
            assert not [s for s in shown if s in err + out]

        raw = f"postgresql://{role}:{AWKWARD_PASSWORD}@127.0.0.1:{postgres_server.port}/{name}"
        code, out, err = await bot_cli(sim, ["run"], {"ALHAMBRA_DB": raw}, tmp_path)
        line = one_line(err)
        assert code == 2, err
        assert "percent-encoded" in line and "ALHAMBRA_DB_PASSWORD" in line
        assert not [s for s in (*shown, "ss/w", "o%rd") if s in err + out]
    finally:
        await admin(postgres_server, "postgres", f"DROP DATABASE {name} WITH (FORCE)")
