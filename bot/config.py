"""Configuration from the environment (and an optional `.env` file), with laptop-friendly defaults.

Only `DISCORD_TOKEN` is required, and only to connect to Discord; everything else has a default
so `python -m bot play` and the tests run with no configuration at all.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import quote, unquote

DEFAULT_DB = "alhambra.sqlite3"
#: Seconds a turn waits after its last decision, undo still possible, before it ends by itself.
#: Board Game Arena's Alhambra counts down from about 4 to 8 seconds; a chat client needs a
#: little longer to see the answer and reach the button.
DEFAULT_UNDO_WINDOW_S = 10
#: The longest window a user or operator may choose.
MAX_UNDO_WINDOW_S = 60
#: Times the bot tries to reach Discord at start-up (1, 2, 4, 8, 16 s between: half a minute).
DEFAULT_STARTUP_TRIES = 6
#: `ALHAMBRA_LOG_FORMAT`'s values (bot.ops.logs writes them; the config imports nothing).
LOG_FORMATS = ("plain", "json")
#: The most shards and processes a setting may name (Discord's largest bots run a few thousand
#: shards; a larger number is a typo).
MAX_SHARDS = 100_000


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line for the operator."""


def default_db(given: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The database a command works on: `given` (a command's argument), else `ALHAMBRA_DB` from
    the environment, else `alhambra.sqlite3` in the working directory. A `postgresql://`
    address without a password gets the one of `ALHAMBRA_DB_PASSWORD(_FILE)` (`db_address`)."""
    env = os.environ if environ is None else environ
    target = given or env.get("ALHAMBRA_DB", "").strip() or DEFAULT_DB
    return db_address(target, db_password(env))


_POSTGRES = re.compile(r"^postgres(ql)?://", re.IGNORECASE)
#: what may stand unencoded in an address's `user:password` part besides letters, digits and
#: `-._~` (RFC 3986 `userinfo`; `%` for what is already encoded)
_USERINFO_SAFE = "!$&'()*+,;=%"


def db_password(env: Mapping[str, str]) -> str | None:
    """The PostgreSQL password given apart from the address: `ALHAMBRA_DB_PASSWORD`, or the
    contents of the file `ALHAMBRA_DB_PASSWORD_FILE` names (a Docker secret; its trailing line
    breaks dropped). Apart, it can hold any character and is never part of a printed address."""
    given = env.get("ALHAMBRA_DB_PASSWORD", "")
    path = env.get("ALHAMBRA_DB_PASSWORD_FILE", "").strip()
    if given and path:
        raise ConfigError(
            "ALHAMBRA_DB_PASSWORD and ALHAMBRA_DB_PASSWORD_FILE are both set: keep one."
        )
    if not path:
        return given or None
    try:
        password = Path(path).read_text(encoding="utf-8").rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise ConfigError(f"ALHAMBRA_DB_PASSWORD_FILE: cannot read {path} ({reason}).") from None
    if not password:
        raise ConfigError(f"ALHAMBRA_DB_PASSWORD_FILE: {path} is empty.")
    return password


def db_address(target: str, password: str | None = None) -> str:
    """`target` as the bot opens it: a file path unchanged; a `postgresql://` address checked,
    its `user:password` part percent-encoded where it must be (a password holding `@`, or a
    space), and given `password` if it has none of its own.

    A password holding `/`, `?` or `#` unencoded cannot be told apart from the host and the
    database name that follow it, so such an address is refused, in words that do not show it.
    """
    if not _POSTGRES.match(target):
        return target
    scheme, rest = target.split("://", 1)
    ends = [i for i in (rest.find(c) for c in "/?#") if i >= 0]
    authority, tail = rest[: min(ends, default=len(rest))], rest[min(ends, default=len(rest)) :]
    if "@" in tail:
        raise ConfigError(
            "the PostgreSQL address has an '@' after its host: a password holding '/', '?' or "
            "'#' must be percent-encoded in it ('/' is %2F, '?' %3F, '#' %23, '@' %40, '%' %25), "
            "or left out of the address and given in ALHAMBRA_DB_PASSWORD instead."
        )
    userinfo, at, host = authority.rpartition("@")
    user, colon, own = userinfo.partition(":")
    user, own = quote(user, safe=_USERINFO_SAFE), quote(own, safe=_USERINFO_SAFE + ":")
    if not colon and password and not re.search(r"[?&]password=", tail, re.IGNORECASE):
        own, colon = quote(password, safe=""), ":"
    credentials = f"{user}{colon}{own}@" if at or colon else ""
    return f"{scheme}://{credentials}{host}{tail}"


def address_password(target: str) -> str | None:
    """The password written in a `postgresql://` address (decoded), to be kept out of logs."""
    if not _POSTGRES.match(target):
        return None
    authority = re.split(r"[/?#]", target.split("://", 1)[1], maxsplit=1)[0]
    userinfo, at, _ = authority.rpartition("@")
    _, colon, own = userinfo.partition(":")
    return unquote(own) if at and colon and own else None


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None
    #: a SQLite file path, or a `postgresql://` address with its password in it, encoded
    db_path: str = field(repr=False)
    dev_guild: int | None
    log_level: str
    #: SQLite's durability: FULL syncs every move to disk (survives a power cut); NORMAL only
    #: survives a crash of the bot, and is faster on slow disks.
    db_sync: str = "FULL"
    #: seconds a finished turn waits for an undo before it ends (users may choose their own)
    undo_window_s: int = DEFAULT_UNDO_WINDOW_S
    #: worker processes for pictures and computer players (0: a thread per job, as here by
    #: default; `load_settings` gives cores - 1 unless ALHAMBRA_WORKERS says otherwise)
    workers: int = 0
    #: seconds one picture or decision may take in a worker before the pool restarts
    work_timeout_s: float = 30.0
    #: the port of /metrics, /healthz and /readyz (None: not served)
    metrics_port: int | None = None
    #: "plain" lines for a terminal, or "json": one object per line for a log pipeline
    log_format: str = "plain"
    #: where errors are reported (Sentry or compatible); None: not reported
    sentry_dsn: str | None = None
    #: the gateway's shards: None (one connection, no sharding), "auto" (as many as Discord's
    #: /gateway/bot recommends, all in this process) or a count shared by every process
    shards: int | Literal["auto"] | None = None
    #: processes the shards are split between, and which of them this one is (0-based)
    clusters: int = 1
    cluster: int = 0
    #: times Discord is tried at start-up before giving up (`ALHAMBRA_STARTUP_TRIES`)
    startup_tries: int = DEFAULT_STARTUP_TRIES
    #: PostgreSQL's password, from `ALHAMBRA_DB_PASSWORD(_FILE)` or the address: hidden in logs
    db_password: str | None = field(default=None, repr=False)

    def secrets(self) -> tuple[str, ...]:
        """What no log line may show: the token, and the database password as typed and as
        written in an address."""
        found = [self.token, self.db_password]
        if self.db_password:
            found.append(quote(self.db_password, safe=""))
        return tuple(s for s in found if s)

    @property
    def sharded(self) -> bool:
        return self.shards is not None

    def shard_ids(self) -> list[int] | None:
        """The shards this process connects: its contiguous share of `shards` (None: all of
        them, when there is no count to split, without sharding or with "auto")."""
        if not isinstance(self.shards, int):
            return None
        return list(cluster_shards(self.shards, self.clusters, self.cluster))

    def require_token(self) -> str:
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put your bot's token in the environment or in a .env "
                "file (see the README, 'Creating the Discord application')."
            )
        return self.token


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments skipped; optional quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
) -> Settings:
    """The environment wins over `.env`, which wins over the defaults."""
    env: dict[str, str] = {}
    if dotenv is not None:
        env.update(read_dotenv(dotenv))
    env.update(os.environ if environ is None else environ)

    guild_raw = env.get("ALHAMBRA_DEV_GUILD", "").strip()
    dev_guild: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError(f"ALHAMBRA_DEV_GUILD must be a server id, not {guild_raw!r}.")
        dev_guild = int(guild_raw)

    level = env.get("ALHAMBRA_LOG_LEVEL", env.get("LOG_LEVEL", "INFO")).strip().upper() or "INFO"
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(
            f"ALHAMBRA_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}."
        )
    sync = env.get("ALHAMBRA_DB_SYNC", "FULL").strip().upper() or "FULL"
    if sync not in ("FULL", "NORMAL"):
        raise ConfigError(f"ALHAMBRA_DB_SYNC must be FULL or NORMAL, not {sync!r}.")
    window_raw = env.get("ALHAMBRA_UNDO_WINDOW", "").strip() or str(DEFAULT_UNDO_WINDOW_S)
    if not (window_raw.isascii() and window_raw.isdigit()) or int(window_raw) > MAX_UNDO_WINDOW_S:
        raise ConfigError(
            f"ALHAMBRA_UNDO_WINDOW must be 0 to {MAX_UNDO_WINDOW_S} seconds, not {window_raw!r}."
        )
    workers = _number(env, "ALHAMBRA_WORKERS", default=default_workers(), low=0, high=64)
    timeout = _number(env, "ALHAMBRA_WORK_TIMEOUT", default=30, low=1, high=600)
    port_raw = env.get("ALHAMBRA_METRICS_PORT", "").strip()
    port = _number(env, "ALHAMBRA_METRICS_PORT", default=0, low=1, high=65535) if port_raw else None
    log_format = env.get("ALHAMBRA_LOG_FORMAT", "").strip().lower() or "plain"
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"ALHAMBRA_LOG_FORMAT must be plain or json, not {log_format!r}.")
    shards, clusters, cluster = _sharding(env)
    tries = _number(env, "ALHAMBRA_STARTUP_TRIES", default=DEFAULT_STARTUP_TRIES, low=1, high=100)
    db = default_db(environ=env)
    return Settings(
        token=env.get("DISCORD_TOKEN", "").strip() or None,
        db_path=db,
        db_password=address_password(db),
        dev_guild=dev_guild,
        log_level=level,
        db_sync=sync,
        undo_window_s=int(window_raw),
        workers=workers,
        work_timeout_s=float(timeout),
        metrics_port=port,
        log_format=log_format,
        sentry_dsn=env.get("ALHAMBRA_SENTRY_DSN", "").strip() or None,
        shards=shards,
        clusters=clusters,
        cluster=cluster,
        startup_tries=tries,
    )


def cluster_shards(shards: int, clusters: int, cluster: int) -> range:
    """Cluster `cluster`'s contiguous share of `shards` split between `clusters` processes:
    [k*N//C, (k+1)*N//C), so the shares differ by one shard at most and cover every shard."""
    return range(cluster * shards // clusters, (cluster + 1) * shards // clusters)


def _sharding(env: Mapping[str, str]) -> tuple[int | Literal["auto"] | None, int, int]:
    """`ALHAMBRA_SHARDS`, `ALHAMBRA_CLUSTERS` and `ALHAMBRA_CLUSTER`, checked together."""
    raw = env.get("ALHAMBRA_SHARDS", "").strip()
    shards: int | Literal["auto"] | None = None
    if raw.lower() == "auto":
        shards = "auto"
    elif raw:
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_SHARDS:
            raise ConfigError(
                f"ALHAMBRA_SHARDS must be auto or a number of shards from 1 to {MAX_SHARDS}, "
                f"not {raw!r}."
            )
        shards = int(raw)
    clusters = _number(env, "ALHAMBRA_CLUSTERS", default=1, low=1, high=MAX_SHARDS)
    cluster_raw = env.get("ALHAMBRA_CLUSTER", "").strip() or "0"
    if not (cluster_raw.isascii() and cluster_raw.isdigit()) or int(cluster_raw) >= clusters:
        raise ConfigError(
            f"ALHAMBRA_CLUSTER must be this process's number from 0 to {clusters - 1} "
            f"(ALHAMBRA_CLUSTERS is {clusters}), not {cluster_raw!r}."
        )
    cluster = int(cluster_raw)
    if clusters > 1 and not isinstance(shards, int):
        raise ConfigError(
            f"ALHAMBRA_CLUSTERS={clusters} needs ALHAMBRA_SHARDS to be the number of shards to "
            f"split between the processes (at least {clusters}, the same in every process), "
            f"not {'auto' if shards == 'auto' else 'unset'}."
        )
    if isinstance(shards, int) and shards < clusters:
        raise ConfigError(
            f"ALHAMBRA_SHARDS={shards} is fewer than ALHAMBRA_CLUSTERS={clusters}: every "
            "process needs at least one shard."
        )
    return shards, clusters, cluster


def default_workers() -> int:
    """One worker process per core but one, which the event loop keeps: at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def _number(env: Mapping[str, str], name: str, *, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip() or str(default)
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not {raw!r}.")
    return int(raw)
