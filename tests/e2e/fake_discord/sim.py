"""FakeDiscord: the server's state and the test API, in the words tests use.

A test builds a small world (``sim.guild``, ``sim.channel``, ``sim.user``), starts a bot against
the server, acts as users (``slash``, ``click``, ``select``, ``submit_modal``, ``autocomplete``)
and reads back what the bot did (``channel_messages``, ``ephemeral_to``, ``dms``,
``synced_commands``). Every user action waits for the bot's answer on a state-change signal, so
tests never sleep.

A bot may connect on several shards (``FakeDiscord(shards=2)`` is what /gateway/bot recommends):
``sim.guild(name, shard=1)`` makes a server whose events go to shard 1, and
``result.shard`` says which shard's connection an interaction reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from .errors import InteractionNotAnswered, SimulationError
from .faults import Fault
from .gateway import Gateway
from .ids import snowflake, snowflake_on_shard
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionResult,
    command_data,
    find_button,
    find_select,
    modal_submission,
    select_values,
)
from .models import (
    ADMINISTRATOR,
    ALL_CHANNEL_PERMISSIONS,
    ALL_PERMISSIONS,
    DM_CHANNEL,
    DM_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SENDING_PERMISSIONS,
    TEXT_CHANNEL,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    _permission_value,
)
from .rest import RecordedRequest, RestApi

GUILD_MESSAGES_INTENT = 1 << 9


def _union(values: Any) -> int:
    total = 0
    for value in values:
        total |= value
    return total


DIRECT_MESSAGES_INTENT = 1 << 12


class FakeDiscord:
    """A local Discord with state: REST on ``/api/v10``, a gateway on ``/gateway``."""

    def __init__(
        self,
        *,
        token: str = "fake-token",
        bot_name: str = "Alhambra",
        ack_deadline: float = 3.0,
        reply_timeout: float = 5.0,
        shards: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        self.token = token
        self.bot_user = User(bot_name, bot=True)
        self.application_id = self.bot_user.id
        #: Discord drops an interaction not acknowledged within this many seconds.
        self.ack_deadline = ack_deadline
        #: How long the test API waits for the bot before failing the test.
        self.reply_timeout = reply_timeout
        #: What GET /gateway/bot answers: the shard count Discord recommends, and how many
        #: sessions may start per 5 seconds (one per bucket, ``shard_id % max_concurrency``).
        self.shards = shards
        self.max_concurrency = max_concurrency
        #: and the daily budget of session starts: how many are left, and in how many
        #: milliseconds it resets (a test spends it by setting these)
        self.session_starts_total = 1000
        self.session_starts_remaining = 999
        self.session_starts_reset_after = 0
        self.guilds: list[Guild] = []
        self.users_by_id: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.channels_by_id: dict[int, Channel] = {}
        self.messages_by_id: dict[int, Message] = {}
        self.messages: list[Message] = []
        self.dm_channels: dict[int, Channel] = {}
        self.uploads: dict[int, Attachment] = {}
        #: Synced commands by scope: None for global, else a guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        #: Every bulk overwrite as the bot sent it: (guild id or None, payload).
        self.sync_log: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.interactions: list[InteractionResult] = []
        self.interactions_by_token: dict[str, InteractionResult] = {}
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.faults: list[Fault] = []
        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._tick = asyncio.Event()

    # ----- lifecycle -----
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must point at."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        attachment = self.uploads.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type)

    # ----- change notification -----
    def notify(self) -> None:
        """Wake everything waiting in :meth:`wait_until`."""
        self._tick.set()
        self._tick = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float | None = None) -> None:
        """Wait until ``predicate()`` is true; TimeoutError after ``timeout``.

        Woken at once by every change to the fake's state; also re-checked every 20 ms so a
        predicate on the bot's own state (which the fake cannot see change) works too.
        """
        async with asyncio.timeout(self.reply_timeout if timeout is None else timeout):
            while not predicate():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._tick.wait(), 0.02)

    # ----- building the world -----
    def user(self, name: str, *, locale: str = "en-US", blocks_dms: bool = False) -> User:
        user = User(name, locale=locale, blocks_dms=blocks_dms)
        self.users_by_id[user.id] = user
        return user

    def guild(
        self,
        name: str = "Test Server",
        *,
        owner: User | None = None,
        locale="en-US",
        shard: int | None = None,
    ):
        """A server with the bot in it (announced with GUILD_CREATE if a bot is connected);
        with ``shard``, one whose events go to that shard of ``self.shards``."""
        owner = owner or self.user(f"{name} owner")
        guild = Guild(name, owner=owner, locale=locale)
        if shard is not None:
            if not 0 <= shard < self.shards:
                raise SimulationError(f"shard {shard} is not one of the {self.shards} shards")
            guild.id = snowflake_on_shard(shard, self.shards)
        guild.members[self.bot_user.id] = Member(self.bot_user, permissions=ALL_PERMISSIONS)
        guild.members[owner.id] = Member(owner, permissions=ALL_PERMISSIONS)
        self.guilds.append(guild)
        self.gateway.dispatch("GUILD_CREATE", guild.to_json(self.bot_user))
        self.notify()
        return guild

    def guild_by_id(self, guild_id: int) -> Guild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def member(
        self,
        guild: Guild,
        user: User,
        *,
        permissions: int | Any | None = None,
        roles: list[Role] | None = None,
    ) -> Member:
        """Make ``user`` a member of ``guild`` (or update it); permissions as int or Permissions,
        ``roles`` the roles they have (sent with their interactions, as Discord does: a bot
        with only the guilds intent hears of members' roles nowhere else)."""
        member = guild.members.get(user.id)
        if member is None:
            member = guild.members[user.id] = Member(user)
        if permissions is not None:
            member.permissions = _permission_value(permissions)
        if roles is not None:
            member.roles = list(roles)
        return member

    def role(self, guild: Guild, name: str, *, permissions: int | Any = 0) -> Role:
        """A new role of ``guild`` (announced with GUILD_ROLE_CREATE, which the guilds intent
        receives); give it to members with ``sim.member(guild, user, roles=[...])``."""
        role = Role(name, _permission_value(permissions), position=len(guild.roles) + 1)
        guild.roles.append(role)
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_json()}
        )
        self.notify()
        return role

    def channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(name, type=TEXT_CHANNEL, guild=guild, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels_by_id[channel.id] = channel
        self.gateway.dispatch("CHANNEL_CREATE", channel.to_json())
        self.notify()
        return channel

    def thread(
        self,
        parent: Channel,
        name: str,
        *,
        type: int = PUBLIC_THREAD,
        owner: User | None = None,
        id: int | None = None,
    ) -> Channel:
        assert parent.guild is not None, "threads live in guild text channels"
        thread = Channel(
            name,
            type=type,
            guild=parent.guild,
            parent=parent,
            owner=owner or parent.guild.owner,
            id=id or snowflake(),
        )
        parent.guild.channels.append(thread)
        self.channels_by_id[thread.id] = thread
        self.gateway.dispatch("THREAD_CREATE", thread.to_json() | {"newly_created": True})
        self.notify()
        return thread

    def overwrite(
        self,
        channel: Channel,
        target: User | Guild | Role,
        *,
        allow: int | Any = 0,
        deny: int | Any = 0,
    ) -> None:
        """Set the permission overwrite of a member (a user), a role or @everyone (the guild) in
        ``channel``, as a moderator would in the channel's settings (threads take their
        parent's: set it on the parent)."""
        if channel.is_thread or channel.is_dm:
            raise SimulationError("Discord keeps permission overwrites on the parent channel")
        channel.overwrites[target.id] = (_permission_value(allow), _permission_value(deny))
        if isinstance(target, Role):
            channel.role_targets.add(target.id)
        self.gateway.dispatch("CHANNEL_UPDATE", channel.to_json())
        self.notify()

    def permissions_in(self, user: User, channel: Channel) -> int:
        """What ``user`` may do in ``channel``, computed the way Discord does: the member's
        permissions in the server (what the test set, and what its roles give), then the
        channel's overwrites for @everyone, then those of the member's roles together (all
        their denies, then all their allows), then the member's own (deny before allow); a
        thread's are its parent channel's. The owner and an administrator may do everything."""
        if channel.is_dm:
            return DM_PERMISSIONS
        guild = channel.guild
        assert guild is not None
        member = guild.members.get(user.id)
        if member is None:
            return 0
        have = member.permissions
        for role in member.roles:
            have |= role.permissions
        if guild.owner is user or have & ADMINISTRATOR:
            return ALL_PERMISSIONS
        home = channel.parent if channel.is_thread and channel.parent is not None else channel
        allow, deny = home.overwrites.get(guild.id, (0, 0))
        have = (have & ~deny) | allow
        roles = [home.overwrites.get(role.id, (0, 0)) for role in member.roles]
        have &= ~_union(deny for _, deny in roles)
        have |= _union(allow for allow, _ in roles)
        allow, deny = home.overwrites.get(user.id, (0, 0))
        have = (have & ~deny) | allow
        # Discord's implicit permissions: nothing without View Channel, no files or embeds
        # where one may not send
        if not have & (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES):
            have &= ~SENDING_PERMISSIONS
        if not have & VIEW_CHANNEL:
            have &= ~ALL_CHANNEL_PERMISSIONS
        return have

    def archive_thread(self, thread: Channel) -> None:
        """A thread archived (left inactive for its auto-archive duration, or by a moderator):
        THREAD_UPDATE says so, and it is no longer among the guild's active threads."""
        if not thread.is_thread:
            raise SimulationError(f"{thread!r} is not a thread")
        thread.archived = True
        self.gateway.dispatch("THREAD_UPDATE", thread.to_json())
        self.notify()

    def delete_channel(self, channel: Channel) -> None:
        """A channel or thread deleted (its messages go with it)."""
        channel.deleted = True
        if channel.guild is not None and channel in channel.guild.channels:
            channel.guild.channels.remove(channel)
        self.channels_by_id.pop(channel.id, None)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        data = channel.to_json()
        if channel.is_thread:
            data = {k: data[k] for k in ("id", "guild_id", "parent_id", "type")}
        self.gateway.dispatch(event, data)
        self.notify()

    def dm_channel(self, user: User) -> Channel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(f"dm-{user.name}", type=DM_CHANNEL, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels_by_id[channel.id] = channel
        return channel

    def block_dms(self, user: User, blocked: bool = True) -> None:
        """The user refuses DMs from the bot: sending one answers 403, code 50007."""
        user.blocks_dms = blocked

    @property
    def default_channel(self) -> Channel:
        for guild in self.guilds:
            for channel in guild.channels:
                if channel.type == TEXT_CHANNEL:
                    return channel
        raise SimulationError("create a guild and a channel first: sim.channel(sim.guild(), ...)")

    # ----- messages -----
    def add_message(self, message: Message) -> None:
        self.messages.append(message)
        self.messages_by_id[message.id] = message
        self._message_event("MESSAGE_CREATE", message)
        self.notify()

    def message_changed(self, message: Message) -> None:
        self._message_event("MESSAGE_UPDATE", message)
        self.notify()

    def delete(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral and self._wants_messages(message.channel):
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
            self.gateway.dispatch("MESSAGE_DELETE", data)
        self.notify()

    def _wants_messages(self, channel: Channel) -> bool:
        session = next(iter(self.gateway.sessions.values()), None)
        intents = int(session.identify.get("intents", 0)) if session else 0
        needed = DIRECT_MESSAGES_INTENT if channel.is_dm else GUILD_MESSAGES_INTENT
        return bool(intents & needed)

    def _message_event(self, event: str, message: Message) -> None:
        if not message.ephemeral and not message.loading and self._wants_messages(message.channel):
            self.gateway.dispatch(event, message.to_json())

    def register_upload(self, attachment: Attachment) -> None:
        attachment.url = f"{self.base_url}/attachments/{attachment.id}/{attachment.filename}"
        self.uploads[attachment.id] = attachment

    def channel_messages(self, channel: Channel | None = None) -> list[Message]:
        """What everyone sees in the channel, oldest first (no ephemeral or deleted messages)."""
        channel = channel or self.default_channel
        return [
            m
            for m in self.messages
            if m.channel is channel and not m.deleted and not m.ephemeral and not m.loading
        ]

    def last_message(self, channel: Channel | None = None) -> Message:
        messages = self.channel_messages(channel)
        if not messages:
            raise LookupError(f"no messages in {channel or self.default_channel!r}")
        return messages[-1]

    def ephemeral_to(self, user: User) -> list[Message]:
        """The ephemeral messages only ``user`` can see, oldest first."""
        return [m for m in self.messages if m.visible_to is user and not m.deleted]

    def dms(self, user: User) -> list[Message]:
        """The messages the bot sent to ``user`` in private, oldest first."""
        channel = self.dm_channels.get(user.id)
        return [] if channel is None else self.channel_messages(channel)

    # ----- commands -----
    def synced_commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The commands as last synced (globally, or to ``guild``), with their ids."""
        return list(self.commands.get(guild.id if guild else None, []))

    def synced_command(self, name: str, guild: Guild | None = None) -> dict[str, Any]:
        for command in self.synced_commands(guild):
            if command["name"] == name:
                return command
        raise LookupError(f"no synced command {name!r}")

    def check_can_use(self, user: User, channel: Channel, command: dict[str, Any]) -> None:
        """Discord hides a command from users lacking its default_member_permissions."""
        if channel.is_dm:
            contexts = command.get("contexts")
            if (contexts is not None and 1 not in contexts) or command.get("dm_permission") is (
                False
            ):
                raise SimulationError(f"/{command['name']} cannot be used in DMs")
            return
        required = command.get("default_member_permissions")
        if required is None:
            return
        assert channel.guild is not None
        member = self.member(channel.guild, user)
        have = _union([member.permissions, *(role.permissions for role in member.roles)])
        if channel.guild.owner is user or have & ADMINISTRATOR:
            return
        if int(required) == 0 or int(required) & have != int(required):
            raise SimulationError(
                f"{user.name} cannot see /{command['name']}: needs permissions {required}"
            )

    # ----- faults -----
    def fail_next(
        self,
        route: str,
        *,
        status: int = 500,
        count: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> Fault:
        """Fail the next ``count`` requests to ``route`` (see faults.ALIASES) with ``status``."""
        fault = Fault(route, status, count, retry_after=retry_after, is_global=is_global)
        self.faults.append(fault)
        return fault

    async def drop_gateway(
        self, *, resumable: bool = True, wait: bool = True, timeout: float = 15.0, shard: int = 0
    ) -> None:
        """Cut a shard's gateway connection; by default wait until the bot is back.

        With ``resumable=False`` the session is invalidated: the bot's RESUME is refused (op 9)
        and it must IDENTIFY again (discord.py waits 5 s before re-identifying).
        """
        resumes = self.gateway.resumed
        identifies = len(self.gateway.identifies)
        await self.gateway.drop(resumable=resumable, shard_id=shard)
        if not wait:
            return
        if resumable:
            await self.wait_until(
                lambda: self.gateway.resumed > resumes and self.gateway.is_connected(shard),
                timeout,
            )
        else:
            await self.wait_until(
                lambda: (
                    len(self.gateway.identifies) > identifies and self.gateway.is_connected(shard)
                ),
                timeout,
            )

    # ----- users acting -----
    def _interaction(
        self,
        type: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        source: Message | None = None,
    ) -> InteractionResult:
        result = InteractionResult(self, type, user, channel, data, source=source)
        result.id = snowflake()  # a snowflake of now: discord.py computes expiry from it
        result.token = f"tok-{result.id}-{secrets.token_hex(8)}"
        payload: dict[str, Any] = {
            "id": str(result.id),
            "application_id": str(self.application_id),
            "type": type,
            "token": result.token,
            "version": 1,
            "data": data,
            "locale": user.locale,
            "app_permissions": str(self.permissions_in(self.bot_user, channel)),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,  # POC pitfall 9
            "channel_id": str(channel.id),
            "channel": channel.to_json(),
        }
        if channel.guild is not None:
            member = self.member(channel.guild, user)
            allowed = str(self.permissions_in(user, channel))
            payload.update(
                guild_id=str(channel.guild.id),
                guild_locale=channel.guild.locale,
                member=member.to_json() | {"permissions": allowed},
                authorizing_integration_owners={"0": str(channel.guild.id)},
                context=0,
            )
            payload["channel"]["permissions"] = allowed
        else:
            payload.update(
                user=user.to_json(),
                authorizing_integration_owners={"0": str(user.id)},
                context=1,
            )
        if source is not None:
            payload["message"] = source.to_json()  # POC pitfall 6
        result.payload = payload
        self.interactions.append(result)
        self.interactions_by_token[result.token] = result
        return result

    async def _send(
        self, result: InteractionResult, *, settle: bool, timeout: float | None
    ) -> InteractionResult:
        if not self.gateway.sessions:
            raise SimulationError("no bot is connected to the fake gateway")
        result.created = time.monotonic()
        self.gateway.dispatch("INTERACTION_CREATE", result.payload)
        timeout = self.reply_timeout if timeout is None else timeout
        try:
            await self.wait_until(lambda: result.acknowledged or result.rejected, timeout)
            if not result.acknowledged:
                raise InteractionNotAnswered(f"{result.describe()}: refused {result.rejected}")
            if settle and result.callback_type == 5:
                await self.wait_until(
                    lambda: (
                        result.response is None
                        or not result.response.loading
                        or result.original_deleted
                    ),
                    timeout,
                )
        except TimeoutError:
            state = "deferred but never answered" if result.acknowledged else "not acknowledged"
            raise InteractionNotAnswered(
                f"{result.describe()}: {state} within {timeout}s; last requests: "
                f"{self.requests[-5:]}"
            ) from None
        return result

    async def slash(
        self,
        user: User,
        command: str,
        *,
        channel: Channel | None = None,
        options: dict[str, Any] | None = None,
        settle: bool = True,
        timeout: float | None = None,
        **kw_options: Any,
    ) -> InteractionResult:
        """Run ``/command sub [options]`` as ``user`` and wait for the bot's answer.

        Options come as keywords (or ``options=`` for names that are not identifiers). With
        ``settle`` a "thinking" defer is waited on until the bot fills it.
        """
        channel = channel or self.default_channel
        data = command_data(self, channel, user, command, {**(options or {}), **kw_options})
        result = self._interaction(APPLICATION_COMMAND, user, channel, data)
        return await self._send(result, settle=settle, timeout=timeout)

    async def autocomplete(
        self,
        user: User,
        command: str,
        option: str,
        typed: str,
        *,
        channel: Channel | None = None,
        timeout: float | None = None,
        **other_options: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``user`` types ``typed`` into ``option``."""
        channel = channel or self.default_channel
        options = {**other_options, option: typed}
        data = command_data(self, channel, user, command, options, focused=option)
        result = self._interaction(AUTOCOMPLETE, user, channel, data)
        await self._send(result, settle=False, timeout=timeout)
        return result.choices or []

    def _check_visible(self, user: User, message: Message) -> None:
        if message.deleted:
            raise SimulationError(f"{message!r} was deleted")
        if message.visible_to is not None and message.visible_to is not user:
            raise SimulationError(f"{user.name} cannot see the ephemeral {message!r}")

    async def click(
        self,
        user: User,
        message: Message,
        button: str,
        *,
        settle: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Press the button with that label (or custom_id) on ``message``."""
        self._check_visible(user, message)
        found = find_button(message, button)
        data = {"custom_id": found["custom_id"], "component_type": 2}
        result = self._interaction(MESSAGE_COMPONENT, user, message.channel, data, source=message)
        return await self._send(result, settle=settle, timeout=timeout)

    async def select(
        self,
        user: User,
        message: Message,
        select: str,
        values: list[Any],
        *,
        settle: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Pick ``values`` in the select menu with that custom_id (or placeholder)."""
        self._check_visible(user, message)
        found = find_select(message, select)
        picked, resolved = select_values(found, list(values))
        data: dict[str, Any] = {
            "custom_id": found["custom_id"],
            "component_type": found["type"],
            "values": picked,
        }
        if resolved:
            data["resolved"] = resolved
        result = self._interaction(MESSAGE_COMPONENT, user, message.channel, data, source=message)
        return await self._send(result, settle=settle, timeout=timeout)

    async def forge(
        self,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        source: Message | None = None,
        settle: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Send a component interaction Discord's own checks would stop (a custom id or value
        not on the message, from another channel or server): apps must check it themselves."""
        result = self._interaction(MESSAGE_COMPONENT, user, channel, data, source=source)
        return await self._send(result, settle=settle, timeout=timeout)

    async def forge_command(
        self,
        user: User,
        command: str,
        *,
        channel: Channel | None = None,
        forged: dict[str, Any],
        settle: bool = True,
        timeout: float | None = None,
        **kw_options: Any,
    ) -> InteractionResult:
        """Run ``/command sub [options]`` with the ``forged`` option values put in as they
        are, past Discord's own checks (a value that is not one of an option's choices): what
        a hand-made request can send, and apps must refuse themselves."""
        channel = channel or self.default_channel
        data = command_data(self, channel, user, command, kw_options)
        leaf = data
        while leaf.get("options") and leaf["options"][0].get("type") in (1, 2):
            leaf = leaf["options"][0]  # down the subcommand (group) to its own options
        given = [o for o in leaf.setdefault("options", []) if o["name"] not in forged]
        leaf["options"] = given + [{"name": k, "type": 3, "value": v} for k, v in forged.items()]
        result = self._interaction(APPLICATION_COMMAND, user, channel, data)
        return await self._send(result, settle=settle, timeout=timeout)

    async def submit_modal(
        self,
        user: User,
        opened: InteractionResult,
        values: dict[str, Any],
        *,
        settle: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``opened``."""
        if opened.modal is None:
            raise SimulationError(f"{opened.describe()} opened no modal")
        if opened.user is not user:
            raise SimulationError(f"only {opened.user.name} sees that modal")
        data = {
            "custom_id": opened.modal["custom_id"],
            "components": modal_submission(opened.modal, values),
        }
        result = self._interaction(MODAL_SUBMIT, user, opened.channel, data, source=opened.source)
        return await self._send(result, settle=settle, timeout=timeout)

    def requests_to(self, method: str, path_prefix: str) -> list[RecordedRequest]:
        """Recorded REST requests, e.g. ``sim.requests_to("POST", "/webhooks/")``."""
        return [r for r in self.requests if r.method == method and r.path.startswith(path_prefix)]

    def __repr__(self) -> str:
        return f"<FakeDiscord {self.base_url} guilds={len(self.guilds)}>"


__all__ = ["EVERYONE_PERMISSIONS", "FakeDiscord"]
