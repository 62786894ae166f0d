"""`verify-db`, `backup` and `health`: the database commands, for operators and Docker.

Plain sqlite3 on the file (no event loop, no Discord), wrappers over `core.verify`.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys

from ..config import default_db_path
from ..core.errors import DatabaseError
from ..core.migrate import load_migrations
from ..core.verify import backup_database, check_schema, open_read_only, verify_database


def health(args: argparse.Namespace) -> int:
    path = args.path or default_db_path()
    try:
        conn = open_read_only(path)
        try:
            version = check_schema(conn)
            conn.execute("SELECT count(*) FROM games").fetchone()
        finally:
            conn.close()
    except (DatabaseError, sqlite3.Error) as exc:
        print(f"health: {exc}", file=sys.stderr)
        return 1
    latest = len(load_migrations())
    if version != latest:
        print(f"health: {path} is at schema step {version}, not {latest}", file=sys.stderr)
        return 1
    print(f"health: ok ({path}, schema step {version})")
    return 0


def verify_db(args: argparse.Namespace) -> int:
    path = args.path or default_db_path()
    try:
        report = verify_database(path)
    except DatabaseError as exc:
        print(f"verify-db: {exc}", file=sys.stderr)
        return 2
    for problem in report.problems:
        print(f"PROBLEM {problem}")
    print(
        f"verify-db: {report.games} games, {report.replayed} replayed, {report.actions} actions, "
        f"{len(report.problems)} problems in {path}"
    )
    return 0 if report.ok else 1


def backup(args: argparse.Namespace) -> int:
    source = args.db or default_db_path()
    try:
        size = backup_database(source, args.path, force=args.force)
    except DatabaseError as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 2
    print(f"backup: copied {source} to {args.path} ({size} bytes)")
    return 0
