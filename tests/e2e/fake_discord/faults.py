"""Injected REST failures: rate limits (429) and server errors (5xx) for chosen routes.

A route is named the way discord.py names it, ``"POST /channels/{channel_id}/messages"``, with
``{placeholders}`` matching one path segment (``"*"`` as method or no method matches any), or by
one of the short aliases below, so a test reads ``sim.fail_next("followup", status=500)``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from aiohttp import web

ALIASES = {
    "callback": "POST /interactions/{interaction_id}/{token}/callback",
    "followup": "POST /webhooks/{application_id}/{token}",
    "edit_original": "PATCH /webhooks/{application_id}/{token}/messages/@original",
    "delete_original": "DELETE /webhooks/{application_id}/{token}/messages/@original",
    "send_message": "POST /channels/{channel_id}/messages",
    "edit_message": "PATCH /channels/{channel_id}/messages/{message_id}",
    "delete_message": "DELETE /channels/{channel_id}/messages/{message_id}",
    "create_dm": "POST /users/@me/channels",
    "create_thread": "POST /channels/{channel_id}/messages/{message_id}/threads",
    "sync_global": "PUT /applications/{application_id}/commands",
    "sync_guild": "PUT /applications/{application_id}/guilds/{guild_id}/commands",
}


def _compile(route: str) -> tuple[str, re.Pattern[str]]:
    route = ALIASES.get(route, route)
    method, _, path = route.partition(" ")
    if not path:
        method, path = "*", method
    pattern = re.escape(path.rstrip("/"))
    pattern = re.sub(r"\\\{[^}]*\\\}", "[^/]+", pattern)
    return method.upper(), re.compile(f"^{pattern}/?$")


@dataclass
class Fault:
    """Fail the next ``remaining`` requests matching ``route`` with ``status``."""

    route: str
    status: int
    remaining: int
    retry_after: float = 0.05
    is_global: bool = False
    hits: int = 0
    method: str = field(init=False)
    pattern: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        if self.status not in (403, 429) and not 500 <= self.status <= 599:
            raise ValueError(f"fault status must be 403, 429 or 5xx, not {self.status}")
        if self.remaining < 1:
            raise ValueError("count must be at least 1")
        self.method, self.pattern = _compile(self.route)

    def matches(self, method: str, path: str) -> bool:
        return (
            self.remaining > 0
            and self.method in ("*", method.upper())
            and bool(self.pattern.match(path))
        )

    def respond(self) -> web.Response:
        self.remaining -= 1
        self.hits += 1
        if self.status == 429:
            body = {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.is_global,
            }
            headers = {
                "Content-Type": "application/json",
                # Without Via, discord.py takes a 429 for a Cloudflare ban (POC pitfall 8).
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(self.retry_after))),
                "X-RateLimit-Scope": "global" if self.is_global else "user",
            }
            if self.is_global:
                headers["X-RateLimit-Global"] = "true"
            return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)
        if self.status == 403:  # the bot lost a permission in that channel
            body = {"message": "Missing Permissions", "code": 50013}
            return web.Response(
                body=json.dumps(body).encode(),
                status=403,
                headers={"Content-Type": "application/json"},
            )
        body = {"message": "500: Internal Server Error", "code": 0}
        return web.Response(
            body=json.dumps(body).encode(),
            status=self.status,
            headers={"Content-Type": "application/json"},
        )
