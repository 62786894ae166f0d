"""What an operator watches: the bot's counters and timings, in Prometheus' format.

Defined once per process in prometheus-client's default registry, updated where the thing
happens (an act, a picture, a timer, a DM, an HTTP answer from Discord), and served on
`ALHAMBRA_METRICS_PORT` by the adapter (`bot.discord_app.observe`). Updating a metric costs
well under a microsecond, so it is always done, whether or not anything scrapes it.

Labels are kept to small fixed sets (an outcome, a picture kind, a level, a shard), never ids
or names: every distinct label value is a new time series for the operator's Prometheus.
"""

from __future__ import annotations

import time

from prometheus_client import Counter, Gauge, Histogram

#: Seconds: from a fast SQLite write to a slow picture.
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_SLOW = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

ACTIONS = Counter(
    "alhambra_actions",
    "Moves handled, by result: applied, refused (reason: the refusal's code) or outdated.",
    ["result", "reason"],
)
ACT_SECONDS = Histogram(
    "alhambra_act_seconds", "Time to check and save one move (all results).", buckets=_FAST
)
RENDER_SECONDS = Histogram(
    "alhambra_render_seconds",
    "Time to draw one picture, waiting for a worker included, by kind.",
    ["kind"],
    buckets=_SLOW,
)
AI_SECONDS = Histogram(
    "alhambra_ai_decision_seconds",
    "Time a computer player took to decide one move, waiting for a worker included, by level.",
    ["level"],
    buckets=_SLOW,
)
POOL_QUEUE = Gauge(
    "alhambra_pool_queue_depth", "Pictures and decisions sent to the workers and not done yet."
)
POOL_TIMEOUTS = Counter(
    "alhambra_pool_timeouts", "Jobs given up after the per-call timeout (the pool restarts)."
)
RENDER_REUSED = Counter(
    "alhambra_render_reused",
    "Pictures not drawn again: the same picture was drawn moments before.",
    ["kind"],
)
POOL_RESTARTS = Counter(
    "alhambra_pool_restarts",
    "Times the worker pool was replaced: a job over its timeout, or a worker that died.",
)
TIMER_RETRIES = Counter(
    "alhambra_timer_retries", "Timers whose handler failed and that are due again later."
)
COMPUTER_RETRIES = Counter(
    "alhambra_computer_retries",
    "Computer players' turns that failed (a worker, the disk, the database) and are tried again.",
)
COMPUTER_CHEAPER = Counter(
    "alhambra_computer_cheaper",
    "Computer decisions taken at the easy level after failing at their own level several times "
    "in a row (workers too slow or dead).",
)
TIMER_LAG = Histogram(
    "alhambra_timer_lag_seconds",
    "How late a durable timer fired: fired minus due.",
    buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 3600.0),
)
DMS = Counter(
    "alhambra_dms", "Direct messages, by result: sent, refused (50007), failed.", ["result"]
)
DISCORD_HTTP_ERRORS = Counter(
    "alhambra_discord_http_errors",
    "Discord's HTTP answers that were errors worth watching, by status: 429 and 5xx.",
    ["status"],
)
OPEN_GAMES = Gauge("alhambra_open_games", "Games in a lobby or being played.")
LOOP_LAG = Histogram(
    "alhambra_event_loop_lag_seconds",
    "How late the event loop woke a sleeping task (sampled a few times a second).",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0),
)
GATEWAY_LATENCY = Gauge(
    "alhambra_gateway_latency_seconds", "Discord gateway heartbeat latency, by shard.", ["shard"]
)
SHARDS_CONNECTED = Gauge(
    "alhambra_shards_connected", "Gateway connections (shards) of this process that are open."
)
SHARDS_SERVED = Gauge(
    "alhambra_shards_served", "Gateway connections (shards) this process is meant to hold."
)
SESSION_STARTS_REMAINING = Gauge(
    "alhambra_session_starts_remaining",
    "Discord's daily budget of session starts (IDENTIFYs) left, as last asked at start-up.",
)


def action(outcome: str, started: float) -> None:
    """One move handled: `outcome` is "applied" or a refusal's code; `started` from
    `time.perf_counter()`."""
    if outcome == "applied":
        ACTIONS.labels("applied", "").inc()
    elif outcome == "outdated":
        ACTIONS.labels("outdated", "").inc()
    else:
        ACTIONS.labels("refused", outcome).inc()
    ACT_SECONDS.observe(time.perf_counter() - started)
