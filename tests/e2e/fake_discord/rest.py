"""The REST API under ``/api/v10``: the routes discord.py uses for an interaction-driven bot.

Every request is recorded, may be failed by an injected fault first, and otherwise changes the
fake's state like Discord would, answering with Discord's error codes for what Discord refuses.
Unknown routes answer 404 and are listed in ``sim.unhandled`` so a gap in the fake is visible.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .ids import iso_now, snowflake
from .interactions import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT
from .models import (
    ARCHIVE_DURATIONS,
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EPHEMERAL,
    LOADING,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Message,
)
from .validation import check_commands, check_message

if TYPE_CHECKING:
    from .interactions import InteractionResult
    from .sim import FakeDiscord

Handler = Callable[..., Awaitable[web.Response]]


@dataclass
class RecordedRequest:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[tuple[str, str, bytes]] = field(default_factory=list)
    status: int = 0
    authorization: str | None = None
    #: Discord asks every client to name its library here: "DiscordBot ($url, $version)"
    user_agent: str | None = None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


class DiscordError(Exception):
    """Answered to the bot as Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only parses bodies whose Content-Type is exactly application/json (pitfall 1).
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def invalid_form(problem: tuple[str, str]) -> DiscordError:
    where, text = problem
    if text == "Cannot send an empty message":
        return DiscordError(400, 50006, text)
    errors = {where or "_": {"_errors": [{"code": "INVALID", "message": text}]}}
    return DiscordError(400, 50035, f"Invalid Form Body: {where}: {text}", errors)


def unknown(kind: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {kind}")


def missing_permissions() -> DiscordError:
    return DiscordError(403, 50013, "Missing Permissions")


class RestApi:
    def __init__(self, sim: FakeDiscord) -> None:
        self.sim = sim
        self.routes: list[tuple[str, re.Pattern[str], Handler]] = []
        r = self.route
        r("GET", "/users/@me", self.get_me)
        r("GET", "/oauth2/applications/@me", self.get_application)
        r("GET", "/applications/@me", self.get_application)
        r("GET", "/gateway", self.get_gateway)
        r("GET", "/gateway/bot", self.get_gateway)
        r("GET", "/users/{user_id}", self.get_user)
        r("POST", "/users/@me/channels", self.create_dm)
        r("GET", "/applications/{app_id}/commands", self.get_commands)
        r("PUT", "/applications/{app_id}/commands", self.put_commands)
        r("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands)
        r("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands)
        r("GET", "/guilds/{guild_id}", self.get_guild)
        r("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        r("GET", "/channels/{channel_id}", self.get_channel)
        r("DELETE", "/channels/{channel_id}", self.delete_channel)
        r("GET", "/channels/{channel_id}/messages", self.get_history)
        r("POST", "/channels/{channel_id}/messages", self.post_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self.patch_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        r("POST", "/channels/{channel_id}/threads", self.create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.remove_thread_member)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self.callback)
        r("POST", "/webhooks/{app_id}/{token}", self.followup)
        r("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_webhook_message)
        r("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.edit_webhook_message)
        r("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.delete_webhook_message)

    def route(self, method: str, template: str, handler: Handler) -> None:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
        self.routes.append((method, re.compile(f"^{pattern}$"), handler))

    # ----- entry point -----
    async def handle(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"].rstrip("/")
        body, files = await _read_body(request)
        record = RecordedRequest(
            request.method,
            path,
            dict(request.query),
            body,
            files,
            authorization=request.headers.get("Authorization"),
            user_agent=request.headers.get("User-Agent"),
        )
        self.sim.requests.append(record)
        response = self._fault(request.method, path)
        if response is None:
            response = await self._route(request, record)
        record.status = response.status
        self.sim.notify()
        return response

    def _fault(self, method: str, path: str) -> web.Response | None:
        for fault in self.sim.faults:
            if fault.matches(method, path):
                return fault.respond()
        return None

    async def _route(self, request: web.Request, record: RecordedRequest) -> web.Response:
        for method, pattern, handler in self.routes:
            match = pattern.match(record.path)
            if match and method == request.method:
                if not self._authorized(record, match.groupdict()):
                    return json_response({"message": "401: Unauthorized", "code": 0}, 401)
                try:
                    return await handler(record, **match.groupdict())
                except DiscordError as e:
                    data: dict[str, Any] = {"message": e.message, "code": e.code}
                    if e.errors:
                        data["errors"] = e.errors
                    return json_response(data, e.status)
        self.sim.unhandled.append(record)
        message = f"fake discord: no route {request.method} {record.path}"
        return json_response({"message": message, "code": 0}, 404)

    def _authorized(self, record: RecordedRequest, params: dict[str, str]) -> bool:
        # Interaction callbacks and webhooks authenticate with their token, not the bot's.
        if record.path.startswith(("/interactions/", "/webhooks/")):
            return True
        return record.authorization == f"Bot {self.sim.token}"

    # ----- lookups -----
    def _channel(self, channel_id: str) -> Channel:
        channel = self.sim.channels_by_id.get(int(channel_id))
        if channel is None:
            raise unknown("Channel", 10003)
        return channel

    def _message(self, channel: Channel, message_id: str) -> Message:
        message = self.sim.messages_by_id.get(int(message_id)) if message_id.isdigit() else None
        if message is None or message.deleted or message.channel is not channel:
            raise unknown("Message", 10008)
        return message

    def _need(self, channel: Channel, permissions: int) -> None:
        """Refuse (403, 50013) what the bot may not do in a server channel or thread: its
        permissions there are the member's, the parent channel's overwrites applied."""
        if channel.is_dm:
            return
        have = self.sim.permissions_in(self.sim.bot_user, channel)
        if have & permissions != permissions:
            raise missing_permissions()

    def _interaction(self, token: str) -> InteractionResult:
        result = self.sim.interactions_by_token.get(token)
        if result is None or time.monotonic() - result.created > 15 * 60:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return result

    # ----- identity -----
    async def get_me(self, record: RecordedRequest) -> web.Response:
        return json_response(self.sim.bot_user.to_json())

    async def get_application(self, record: RecordedRequest) -> web.Response:
        bot = self.sim.bot_user.to_json()
        return json_response(
            {
                "id": str(self.sim.application_id),
                "name": self.sim.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": bot,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "team": None,
                "interactions_endpoint_url": None,
                "bot": bot,
            }
        )

    async def get_gateway(self, record: RecordedRequest) -> web.Response:
        return json_response(
            {
                "url": self.sim.gateway_url,
                "shards": self.sim.shards,
                "session_start_limit": {
                    "total": self.sim.session_starts_total,
                    "remaining": self.sim.session_starts_remaining,
                    "reset_after": self.sim.session_starts_reset_after,
                    "max_concurrency": self.sim.max_concurrency,
                },
            }
        )

    async def get_user(self, record: RecordedRequest, user_id: str) -> web.Response:
        user = self.sim.users_by_id.get(int(user_id)) if user_id.isdigit() else None
        if user is None:
            raise unknown("User", 10013)
        return json_response(user.to_json())

    async def create_dm(self, record: RecordedRequest) -> web.Response:
        recipient = int((record.body or {}).get("recipient_id", 0))
        user = self.sim.users_by_id.get(recipient)
        if user is None:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        return json_response(self.sim.dm_channel(user).to_json())

    # ----- guilds and channels -----
    async def get_guild(self, record: RecordedRequest, guild_id: str) -> web.Response:
        guild = self.sim.guild_by_id(int(guild_id))
        if guild is None:
            raise unknown("Guild", 10004)
        return json_response(guild.to_json(self.sim.bot_user))

    async def get_guild_channels(self, record: RecordedRequest, guild_id: str) -> web.Response:
        guild = self.sim.guild_by_id(int(guild_id))
        if guild is None:
            raise unknown("Guild", 10004)
        return json_response([c.to_json() for c in guild.channels if not c.is_thread])

    async def get_member(self, record: RecordedRequest, guild_id: str, user_id: str):
        guild = self.sim.guild_by_id(int(guild_id))
        if guild is None:
            raise unknown("Guild", 10004)
        member = guild.members.get(int(user_id))
        if member is None:
            raise unknown("Member", 10007)
        return json_response(member.to_json())

    async def get_channel(self, record: RecordedRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        if not channel.is_dm and not self.sim.permissions_in(self.sim.bot_user, channel) & (
            VIEW_CHANNEL
        ):
            raise DiscordError(403, 50001, "Missing Access")
        return json_response(channel.to_json())

    async def delete_channel(self, record: RecordedRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        if channel.is_dm:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        self._need(
            channel, VIEW_CHANNEL | (MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS)
        )
        data = channel.to_json()
        self.sim.delete_channel(channel)
        return json_response(data)

    async def create_thread(
        self, record: RecordedRequest, channel_id: str, message_id: str | None = None
    ) -> web.Response:
        parent = self._channel(channel_id)
        if parent.is_thread or parent.is_dm:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        body = record.body or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise invalid_form(("name", "Thread name must be 1 to 100 characters"))
        archive = int(body.get("auto_archive_duration") or 1440)
        if archive not in ARCHIVE_DURATIONS:
            raise invalid_form(("auto_archive_duration", f"Must be one of {ARCHIVE_DURATIONS}"))
        message = None
        if message_id is not None:
            message = self._message(parent, message_id)
            kind, thread_id = PUBLIC_THREAD, message.id  # a message's thread shares its id
        else:
            kind, thread_id = int(body.get("type") or PRIVATE_THREAD), snowflake()
        # a thread is made with its parent's permissions (a message's thread is public)
        needed = CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        self._need(parent, VIEW_CHANNEL | needed)
        if message is not None and message.thread is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = self.sim.thread(parent, name, type=kind, owner=self.sim.bot_user, id=thread_id)
        thread.auto_archive_duration = archive
        if message is not None:
            message.thread = thread
            self.sim.message_changed(message)
        member = {
            "id": str(thread.id),
            "user_id": str(self.sim.bot_user.id),
            "join_timestamp": iso_now(),
            "flags": 0,
        }
        return json_response(thread.to_json() | {"member": member}, 201)

    def _thread_and_member(self, channel_id: str, user_id: str) -> tuple[Channel, int]:
        thread = self._channel(channel_id)
        if not thread.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        assert thread.guild is not None
        if int(user_id) not in thread.guild.members:
            raise DiscordError(404, 10013, "Unknown User")
        # adding someone else to a thread takes the right to talk in it
        self._need(thread, VIEW_CHANNEL | SEND_MESSAGES_IN_THREADS)
        return thread, int(user_id)

    async def add_thread_member(
        self, record: RecordedRequest, channel_id: str, user_id: str
    ) -> web.Response:
        thread, user = self._thread_and_member(channel_id, user_id)
        thread.members.add(user)
        return web.Response(status=204)

    async def remove_thread_member(
        self, record: RecordedRequest, channel_id: str, user_id: str
    ) -> web.Response:
        thread, user = self._thread_and_member(channel_id, user_id)
        thread.members.discard(user)
        return web.Response(status=204)

    # ----- commands -----
    async def get_commands(self, record: RecordedRequest, app_id: str, guild_id: str | None = None):
        scope = int(guild_id) if guild_id else None
        return json_response(self.sim.commands.get(scope, []))

    async def put_commands(self, record: RecordedRequest, app_id: str, guild_id: str | None = None):
        if int(app_id) != self.sim.application_id:
            raise unknown("Application", 10002)
        scope = int(guild_id) if guild_id else None
        if scope is not None and self.sim.guild_by_id(scope) is None:
            raise DiscordError(403, 50001, "Missing Access")
        payload = record.body if isinstance(record.body, list) else None
        if payload is None:
            raise invalid_form(("", "Expected a list of commands"))
        problem = check_commands(payload)
        if problem:
            raise invalid_form(problem)
        old = {(c.get("type", 1), c["name"]): c for c in self.sim.commands.get(scope, [])}
        stored = []
        for command in payload:
            previous = old.get((command.get("type", 1), command["name"]))
            entry = {
                "type": 1,
                "description": "",
                "default_member_permissions": None,
                "nsfw": False,
                **command,
                "id": previous["id"] if previous else str(snowflake()),
                "application_id": str(self.sim.application_id),
                "version": str(snowflake()),
            }
            if scope is not None:
                entry["guild_id"] = str(scope)
            stored.append(entry)
        self.sim.commands[scope] = stored
        self.sim.sync_log.append((scope, payload))
        return json_response(stored)

    # ----- messages -----
    async def get_history(self, record: RecordedRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        messages = self.sim.channel_messages(channel)
        q = record.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        if "before" in q:
            messages = [m for m in messages if m.id < int(q["before"])]
        if "after" in q:
            messages = [m for m in messages if m.id > int(q["after"])][:limit]
        if "around" in q:
            around = int(q["around"])
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in messages if m.id > around][: limit - len(older)]
            messages = older + newer
        newest_first = list(reversed(messages))[:limit]
        return json_response([m.to_json() for m in newest_first])

    async def get_message(self, record: RecordedRequest, channel_id: str, message_id: str):
        message = self._message(self._channel(channel_id), message_id)
        if message.ephemeral:
            raise unknown("Message", 10008)
        return json_response(message.to_json())

    async def post_message(self, record: RecordedRequest, channel_id: str) -> web.Response:
        channel = self._channel(channel_id)
        if channel.is_dm and channel.recipient is not None and channel.recipient.blocks_dms:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        # in a thread Send Messages in Threads counts, not Send Messages (both from the parent)
        needed = VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES)
        self._need(channel, needed | (ATTACH_FILES if record.files else 0))
        message = self.create_message(channel, record)
        return json_response(message.to_json())

    async def patch_message(self, record: RecordedRequest, channel_id: str, message_id: str):
        message = self._message(self._channel(channel_id), message_id)
        if message.author is not self.sim.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self.edit_message(message, record)
        return json_response(message.to_json())

    async def delete_message(self, record: RecordedRequest, channel_id: str, message_id: str):
        message = self._message(self._channel(channel_id), message_id)
        self.sim.delete(message)
        return web.Response(status=204)

    # ----- message bodies -----
    def create_message(
        self,
        channel: Channel,
        record: RecordedRequest,
        *,
        body: dict | None = None,
        interaction: InteractionResult | None = None,
        ephemeral: bool = False,
        type: int = 0,
    ) -> Message:
        body = record.body if body is None else body
        body = body if isinstance(body, dict) else {}
        problem = check_message(body, creating=True, file_count=len(record.files))
        if problem:
            raise invalid_form(problem)
        flags = int(body.get("flags") or 0) & ~(EPHEMERAL | LOADING)
        message = Message(
            channel=channel,
            author=self.sim.bot_user,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=self._attachments([], body, record, creating=True),
            flags=flags | (EPHEMERAL if ephemeral else 0),
            type=type,
            allowed_mentions=body.get("allowed_mentions"),
        )
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.webhook_id = self.sim.application_id
            if ephemeral:
                message.visible_to = interaction.user
        self.sim.add_message(message)
        return message

    def edit_message(
        self, message: Message, record: RecordedRequest, body: dict | None = None
    ) -> None:
        body = record.body if body is None else body
        body = body if isinstance(body, dict) else {}
        problem = check_message(
            body | {"flags": message.flags}, creating=False, file_count=len(record.files)
        )
        if problem:
            raise invalid_form(problem)
        message.history.append(
            {
                "content": message.content,
                "embeds": message.embeds,
                "components": message.components,
                "attachments": [a.filename for a in message.attachments],
            }
        )
        if "content" in body:
            message.content = str(body["content"] or "")
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        if "components" in body:
            message.components = list(body["components"] or [])
        if "attachments" in body or record.files:
            message.attachments = self._attachments(message.attachments, body, record)
        if message.loading:
            message.flags &= ~LOADING
        else:
            message.edits += 1
            message.edited_timestamp = iso_now()
        self.sim.message_changed(message)

    def _attachments(
        self,
        existing: list[Attachment],
        body: dict,
        record: RecordedRequest,
        *,
        creating: bool = False,
    ) -> list[Attachment]:
        """Kept attachments (by id) plus uploaded files (``files[n]`` named by ``id: n``)."""
        uploads = {}
        for part_name, filename, data in record.files:
            index = part_name.removeprefix("files[").rstrip("]")
            uploads[index] = (filename, data)
        declared = body.get("attachments")
        if declared is None:
            declared = [{"id": i} for i in uploads]
            kept = [] if creating else list(existing)
        else:
            kept = []
        by_id = {str(a.id): a for a in existing}
        result = list(kept)
        for entry in declared:
            key = str(entry.get("id"))
            if key in uploads:
                filename, data = uploads.pop(key)
                description = entry.get("description")
                if description is not None and len(str(description)) > 1024:
                    raise invalid_form(
                        ("attachments.description", "Must be 1024 or fewer in length.")
                    )
                attachment = Attachment(
                    filename=entry.get("filename") or filename,
                    data=data,
                    description=description,
                )
                self.sim.register_upload(attachment)
                result.append(attachment)
            elif key in by_id:
                result.append(by_id[key])
            else:
                raise invalid_form(("attachments", f"Unknown attachment {key}"))
        if len(result) > 10:
            raise invalid_form(("attachments", "Must be 10 or fewer in length."))
        return result

    # ----- interactions -----
    async def callback(self, record: RecordedRequest, interaction_id: str, token: str):
        result = self.sim.interactions_by_token.get(token)
        if result is None or str(result.id) != interaction_id:
            raise unknown("interaction", 10062)
        body = record.body if isinstance(record.body, dict) else {}
        kind = int(body.get("type", 0))
        if result.callback_type is not None:
            result.rejected.append((40060, "already acknowledged"))
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - result.created > self.sim.ack_deadline:
            late = time.monotonic() - result.created
            result.rejected.append((10062, f"acknowledged after {late:.2f}s"))
            raise unknown("interaction", 10062)
        allowed = {
            APPLICATION_COMMAND: {4, 5, 9},
            MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            AUTOCOMPLETE: {8},
            MODAL_SUBMIT: {4, 5, 6, 7} if result.source is not None else {4, 5},
        }[result.type]
        if kind not in allowed:
            result.rejected.append((50035, f"callback type {kind} not allowed"))
            raise invalid_form(("type", f"Callback type {kind} is invalid for this interaction"))
        data = body.get("data") or {}
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message_type = 20 if result.type == APPLICATION_COMMAND else 19
        if kind == 4:
            result.response = self.create_message(
                result.channel,
                record,
                body=data,
                interaction=result,
                ephemeral=ephemeral,
                type=message_type,
            )
        elif kind == 5:
            placeholder = Message(
                channel=result.channel,
                author=self.sim.bot_user,
                flags=LOADING | (EPHEMERAL if ephemeral else 0),
                interaction_id=result.id,
                interaction_user=result.user,
                webhook_id=self.sim.application_id,
                visible_to=result.user if ephemeral else None,
                type=message_type,
            )
            self.sim.add_message(placeholder)
            result.response = placeholder
        elif kind in (6, 7):
            assert result.source is not None
            if result.source.deleted:
                raise unknown("Message", 10008)
            result.response = result.source
            if kind == 7:
                self.edit_message(result.source, record, data)
        elif kind == 8:
            choices = data.get("choices")
            if not isinstance(choices, list) or len(choices) > 25:
                raise invalid_form(("data.choices", "Must be a list of 25 or fewer choices"))
            result.choices = choices
        elif kind == 9:
            components = data.get("components") or []
            if not data.get("custom_id") or not data.get("title") or not 1 <= len(components) <= 5:
                raise invalid_form(("data", "A modal needs a custom_id, a title, 1-5 components"))
            if len(data["title"]) > 45:
                raise invalid_form(("data.title", "Must be 45 or fewer in length."))
            result.modal = data
        result.callback_type = kind
        result.callback_at = time.monotonic()
        if "with_response" not in record.query:
            return web.Response(status=204)
        info: dict[str, Any] = {"id": str(result.id), "type": result.type}
        payload: dict[str, Any] = {"interaction": info}
        if kind in (4, 5, 7) and result.response is not None:
            info.update(
                response_message_id=str(result.response.id),
                response_message_loading=result.response.loading,
                response_message_ephemeral=result.response.ephemeral,
            )
            payload["resource"] = {"type": kind, "message": result.response.to_json()}
        return json_response(payload)

    async def followup(self, record: RecordedRequest, app_id: str, token: str):
        result = self._interaction(token)
        if result.callback_type is None:
            raise unknown("Webhook", 10015)
        body = record.body if isinstance(record.body, dict) else {}
        original = result.response
        if (
            result.callback_type == 5
            and original is not None
            and original.loading
            and not result.original_deleted
        ):
            # The first followup after a "thinking" defer fills the deferred message.
            self.edit_message(original, record, body)
            message = original
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            message = self.create_message(
                result.channel, record, interaction=result, ephemeral=ephemeral
            )
            result.followups.append(message)
        return json_response(message.to_json())

    def _webhook_message(self, result: InteractionResult, message_id: str) -> Message:
        if message_id == "@original":
            if result.response is None or result.original_deleted or result.response.deleted:
                raise unknown("Message", 10008)
            return result.response
        for message in result.followups:
            if str(message.id) == message_id and not message.deleted:
                return message
        if result.response is not None and str(result.response.id) == message_id:
            return result.response
        raise unknown("Message", 10008)

    async def get_webhook_message(self, record: RecordedRequest, app_id, token, message_id):
        result = self._interaction(token)
        return json_response(self._webhook_message(result, message_id).to_json())

    async def edit_webhook_message(self, record: RecordedRequest, app_id, token, message_id):
        result = self._interaction(token)
        message = self._webhook_message(result, message_id)
        self.edit_message(message, record)
        return json_response(message.to_json())

    async def delete_webhook_message(self, record: RecordedRequest, app_id, token, message_id):
        result = self._interaction(token)
        message = self._webhook_message(result, message_id)
        if message is result.response:
            result.original_deleted = True
        self.sim.delete(message)
        return web.Response(status=204)


async def _read_body(request: web.Request) -> tuple[Any, list[tuple[str, str, bytes]]]:
    files: list[tuple[str, str, bytes]] = []
    if request.content_type.startswith("multipart/"):
        body: Any = {}
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = await part.read()  # type: ignore[union-attr]
                files.append((part.name or "", part.filename or "", bytes(data)))  # type: ignore[union-attr]
        return body, files
    raw = await request.read()
    if not raw:
        return None, files
    try:
        return json.loads(raw), files
    except ValueError:
        return raw.decode(errors="replace"), files
