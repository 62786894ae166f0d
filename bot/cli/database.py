"""`verify-db`, `backup`, `health` and `port-db`: the database commands, for operators and
Docker.

On SQLite, plain sqlite3 on the file (no event loop, no Discord), wrappers over `core.verify`;
on PostgreSQL (`postgresql://...`), one connection of their own (`core.db.postgres_reads`), with
the password of `ALHAMBRA_DB_PASSWORD(_FILE)` when the address has none. Whatever stops them is
one line on standard error and a status: 2 (or `health`'s 1) when nothing could be done.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import urllib.error
import urllib.request

from ..config import ConfigError, db_address, db_password, default_db, load_settings
from ..core.db import is_postgres_url, redact
from ..core.errors import DatabaseError
from ..core.migrate import load_migrations
from ..core.services import Services
from ..core.store import Store
from ..core.verify import backup_database, check_health, restore_database, verify_database


def _target(command: str, given: str | None) -> str | None:
    """The database `command` works on (`config.default_db`), or None once it said why not."""
    try:
        return default_db(given)
    except ConfigError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return None


def health(args: argparse.Namespace) -> int:
    if getattr(args, "live", False):
        return live()
    path = _target("health", args.path)
    if path is None:
        return 1
    try:
        if is_postgres_url(path):
            from ..core.db.postgres_reads import health_postgres

            version = health_postgres(path)
            path = redact(path)
        else:
            version = check_health(path)
    except (DatabaseError, sqlite3.Error) as exc:
        print(f"health: {exc}", file=sys.stderr)
        return 1
    latest = len(load_migrations())
    if version != latest:
        print(f"health: {path} is at schema step {version}, not {latest}", file=sys.stderr)
        return 1
    print(f"health: ok ({path}, schema step {version})")
    return 0


def live(timeout: float = 5.0) -> int:
    """`health --live`: whether the running bot's event loop answers (its `/livez` on
    `ALHAMBRA_METRICS_PORT`), whatever its database or Discord do: a liveness check, so a
    database blip does not mark every process unhealthy at once."""
    try:
        port = load_settings().metrics_port
    except ConfigError as exc:
        print(f"health: {exc}", file=sys.stderr)
        return 1
    if port is None:
        print(
            "health: --live asks the bot's /livez: set ALHAMBRA_METRICS_PORT (as the bot has it)",
            file=sys.stderr,
        )
        return 1
    url = f"http://127.0.0.1:{port}/livez"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            status = answer.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        print(f"health: the bot does not answer at {url} ({reason})", file=sys.stderr)
        return 1
    if status != 200:
        print(f"health: {url} answered {status}", file=sys.stderr)
        return 1
    print(f"health: alive ({url})")
    return 0


def verify_db(args: argparse.Namespace) -> int:
    path = _target("verify-db", args.path)
    if path is None:
        return 2
    try:
        report = verify_database(path)
    except DatabaseError as exc:
        print(f"verify-db: {exc}", file=sys.stderr)
        return 2
    for problem in report.problems:
        print(f"PROBLEM {problem}")
    print(
        f"verify-db: {report.games} games, {report.replayed} replayed, {report.actions} actions, "
        f"{len(report.problems)} problems in {redact(str(path))}"
    )
    return 0 if report.ok else 1


def backup(args: argparse.Namespace) -> int:
    source = _target("backup", args.db)
    if source is None:
        return 2
    if is_postgres_url(source):
        print(
            "backup: this copies a SQLite file; back up PostgreSQL with its own tools "
            "(pg_dump, or the server's base backups and WAL archive)",
            file=sys.stderr,
        )
        return 2
    try:
        size = backup_database(source, args.path, force=args.force)
    except DatabaseError as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 2
    print(f"backup: copied {source} to {args.path} ({size} bytes)")
    return 0


def port_db(args: argparse.Namespace) -> int:
    """Copy a SQLite database into PostgreSQL (again: only what changed)."""
    if not is_postgres_url(args.dest) or is_postgres_url(args.source):
        print(
            "port-db: copies a SQLite file into PostgreSQL: "
            "python -m bot port-db alhambra.sqlite3 postgresql://user@host/dbname",
            file=sys.stderr,
        )
        return 2
    try:
        dest = db_address(args.dest, db_password(os.environ))
        from ..core.db.postgres_reads import run_apart
        from ..core.port import port_database

        report = run_apart(lambda: port_database(args.source, dest, replace=args.replace))
    except ImportError:
        print("port-db: PostgreSQL needs its driver: pip install -e '.[postgres]'", file=sys.stderr)
        return 2
    except (ConfigError, DatabaseError) as exc:
        print(f"port-db: {exc}", file=sys.stderr)
        return 2
    if report.replaced:
        print(
            f"port-db: replaced {len(report.replaced)} games of {redact(dest)} that were not the "
            f"file's (ids {', '.join(map(str, report.replaced))})"
        )
    for table, count in report.tables.items():
        print(
            f"  {table}: {count.rows} rows; {count.inserted} added, {count.updated} changed, "
            f"{count.deleted} removed"
        )
    print(
        f"port-db: {redact(dest)} now mirrors {args.source} "
        f"({report.changed} rows changed). Check it with: python -m bot verify-db DEST"
    )
    return 0


def restore(args: argparse.Namespace) -> int:
    """Put a backup in place of the database (the bot stopped), then check every game."""
    dest = _target("restore", args.db)
    if dest is None:
        return 2
    if is_postgres_url(dest):
        print(
            "restore: this restores a SQLite file; restore PostgreSQL with pg_restore",
            file=sys.stderr,
        )
        return 2
    try:
        done = restore_database(args.path, dest)
    except (DatabaseError, sqlite3.Error, OSError) as exc:
        print(f"restore: {exc}", file=sys.stderr)
        return 2
    print(f"restore: {args.path} is now {dest} ({done.size} bytes)")
    if done.kept is not None:
        print(f"restore: the database it replaced is kept as {done.kept}")
    if done.owner is not None:
        print(f"restore: owned by uid {done.owner[0]}, as its folder is")
    report = verify_database(dest)
    print(
        f"verify-db: {report.games} games, {report.replayed} replayed, {report.actions} actions, "
        f"{len(report.problems)} problems"
    )
    for problem in report.problems:
        print(f"PROBLEM {problem}")
    return 0 if report.ok else 1


def ratings(args: argparse.Namespace) -> int:
    """`ratings --rebuild`: every server's ratings recomputed from its rated games."""
    if not args.rebuild:
        print("ratings: nothing to do; --rebuild recomputes them", file=sys.stderr)
        return 2
    target = _target("ratings", args.path)
    if target is None:
        return 2

    async def rebuild() -> int:
        store = await Store.open(target)
        try:
            return await Services.build(store).archive.rebuild_ratings()
        finally:
            await store.close()

    try:
        counted = asyncio.run(rebuild())
    except DatabaseError as exc:
        print(f"ratings: {exc}", file=sys.stderr)
        return 2
    print(f"ratings: rebuilt from {counted} rated games in {redact(str(target))}")
    return 0
