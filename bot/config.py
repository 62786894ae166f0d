"""Configuration from the environment (and an optional `.env` file), with laptop-friendly defaults.

Only `DISCORD_TOKEN` is required, and only to connect to Discord; everything else has a default
so `python -m bot play` and the tests run with no configuration at all.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

DEFAULT_DB = "alhambra.sqlite3"
#: Seconds a turn waits after its last decision, undo still possible, before it ends by itself.
#: Board Game Arena's Alhambra counts down from about 4 to 8 seconds; a chat client needs a
#: little longer to see the answer and reach the button.
DEFAULT_UNDO_WINDOW_S = 10
#: The longest window a user or operator may choose.
MAX_UNDO_WINDOW_S = 60
#: Times the bot tries to reach Discord at start-up (1, 2, 4, 8, 16 s between: half a minute).
DEFAULT_STARTUP_TRIES = 6
#: `ALHAMBRA_LOG_FORMAT`'s values (bot.core.logs writes them; the config imports nothing).
LOG_FORMATS = ("plain", "json")
#: The most shards and processes a setting may name (Discord's largest bots run a few thousand
#: shards; a larger number is a typo).
MAX_SHARDS = 100_000


def default_db() -> str:
    """`ALHAMBRA_DB` from the environment (a SQLite file path or a `postgresql://` address),
    else `alhambra.sqlite3` in the working directory."""
    return os.environ.get("ALHAMBRA_DB", "").strip() or DEFAULT_DB


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None
    db_path: str
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
    return Settings(
        token=env.get("DISCORD_TOKEN", "").strip() or None,
        db_path=env.get("ALHAMBRA_DB", "").strip() or DEFAULT_DB,
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
