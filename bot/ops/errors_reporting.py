"""Optional error reports to Sentry (or a compatible service), for operators who want to hear of
a failure without reading the logs.

Off unless a DSN is configured, and `sentry-sdk` is an optional extra (`alhambra-bot[sentry]`),
so a bot that does not report errors does not carry it. What is sent is kept to what a
maintainer needs and nothing a player would not want to leave the server: no personal data, no
local variables of the failing frames (they can hold what a player typed), every string passed
through the same redaction as the log lines, and the ids of what was being handled as tags.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import metadata
from typing import TYPE_CHECKING, Any

from . import logs

if TYPE_CHECKING:
    from sentry_sdk.transport import Transport
    from sentry_sdk.types import Event, Hint

log = logging.getLogger("alhambra")

MISSING_SDK = (
    "ALHAMBRA_SENTRY_DSN is set but sentry-sdk is not installed (pip install "
    "'alhambra-bot[sentry]'): errors are not reported"
)


def start(
    dsn: str | None,
    *,
    transport: Transport | type[Transport] | Callable[[Event], None] | None = None,
) -> bool:
    """Report errors to `dsn` from now on; whether reporting started. Without a DSN nothing is
    imported; with one but no sentry-sdk, one warning says so and the bot runs on."""
    if not dsn:
        return False
    try:
        import sentry_sdk
    except ImportError:
        log.warning(MISSING_SDK)
        return False
    sentry_sdk.init(
        dsn=dsn,
        release=_release(),
        # (personal data, such as a user's address, is left out by default: not turned on)
        include_local_variables=False,
        # only the logging, excepthook and other defaults: no instrumenting of aiohttp (trace
        # headers would go with every request to Discord) nor of anything else installed
        auto_enabling_integrations=False,
        before_send=scrub_event,
        before_breadcrumb=scrub_breadcrumb,
        transport=transport,
    )
    return True


def stop() -> None:
    """Send what is queued and stop reporting (at shutdown, and between tests)."""
    try:
        import sentry_sdk
    except ImportError:
        return
    client = sentry_sdk.get_client()
    if client.is_active():
        client.close(timeout=2)
    sentry_sdk.get_global_scope().set_client(None)


def scrub_event(event: Event, hint: Hint) -> Event | None:
    """Every string of the event redacted, and the fields bound where it happened as tags (the
    user's id left out: reports leave the operator's hands)."""
    tags = {key: str(value) for key, value in logs.current().items() if key != "user"}
    scrubbed: Event = _scrub(event)
    if tags:
        scrubbed["tags"] = {**tags, **scrubbed.get("tags", {})}
    return scrubbed


def scrub_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any] | None:
    scrubbed: dict[str, Any] = _scrub(crumb)
    return scrubbed


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return logs.redact(value)
    if isinstance(value, dict):
        return {key: _scrub(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_scrub(item) for item in value)
    return value


def _release() -> str | None:
    try:
        return f"alhambra-bot@{metadata.version('alhambra-bot')}"
    except metadata.PackageNotFoundError:
        return None
