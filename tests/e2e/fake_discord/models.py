"""The fake Discord's world: users, guilds, channels, messages and attachments.

These are plain records owned by :class:`FakeDiscord`; each knows how to render itself as the JSON
Discord would send, so the REST and gateway layers never build payloads by hand.
"""

from __future__ import annotations

import io
import mimetypes
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .ids import iso_now, snowflake

if TYPE_CHECKING:
    from PIL.Image import Image

# Permission bits the tests talk about; values are Discord's.
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
#: What a plain member of a fresh server may do: see, talk, use commands and threads.
EVERYONE_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 31)  # use application commands
    | (1 << 35)  # create public threads
    | (1 << 38)  # send messages in threads
)
ALL_PERMISSIONS = (1 << 50) - 1
#: Every permission that applies in a channel (Discord's "T", "V" and "S" permissions): one who
#: may not view a channel has none of them there.
ALL_CHANNEL_PERMISSIONS = 8555290110197585
#: What one who may not send messages (in a thread: send messages in threads) implicitly loses.
SENDING_PERMISSIONS = (1 << 12) | (1 << 17) | EMBED_LINKS | ATTACH_FILES  # tts, @everyone
#: What an app may do in a DM with a user (Discord sends this as ``app_permissions`` there).
DM_PERMISSIONS = (
    (1 << 6) | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY
)
#: Thread auto-archive durations Discord accepts, in minutes.
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

HAS_THREAD = 1 << 5
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

TEXT_CHANNEL = 0
DM_CHANNEL = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


def _permission_value(value: int | Any) -> int:
    """Accept an int or anything with a ``value`` (such as ``discord.Permissions``)."""
    return int(getattr(value, "value", value))


@dataclass(eq=False)
class User:
    """A Discord account. ``locale`` is the client language sent with each interaction."""

    name: str
    locale: str = "en-US"
    id: int = field(default_factory=snowflake)
    bot: bool = False
    blocks_dms: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Role:
    """A role of a guild (not @everyone, which is the guild's own id): the permissions it
    gives its members everywhere, and a target of channel overwrites."""

    name: str
    permissions: int = 0
    id: int = field(default_factory=snowflake)
    position: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    """A user's membership of one guild. ``permissions`` is what the server gives the member
    before any role of ``roles`` (the @everyone role's, or all of them as the test set them);
    the ``roles`` add theirs and are sent with the member, as Discord sends its role ids."""

    user: User
    permissions: int = EVERYONE_PERMISSIONS
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)
    roles: list[Role] = field(default_factory=list)

    def to_json(self, *, with_user: bool = True) -> dict:
        data: dict[str, Any] = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "flags": 0,
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "pending": False,
        }
        if with_user:
            data["user"] = self.user.to_json()
        return data


@dataclass(eq=False)
class Guild:
    name: str
    owner: User
    locale: str = "en-US"
    id: int = field(default_factory=snowflake)
    members: dict[int, Member] = field(default_factory=dict)
    channels: list[Channel] = field(default_factory=list)
    #: the roles besides @everyone
    roles: list[Role] = field(default_factory=list)

    def to_json(self, bot_user: User) -> dict[str, Any]:
        """GUILD_CREATE payload as a bot with only the guilds intent receives it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "preferred_locale": self.locale,
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "joined_at": iso_now(),
            "roles": [
                {
                    "id": str(self.id),
                    "name": "@everyone",
                    "permissions": str(EVERYONE_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                },
                *(role.to_json() for role in self.roles),
            ],
            "channels": [c.to_json() for c in self.channels if not c.is_thread],
            # the active threads only: an archived one is fetched when wanted
            "threads": [c.to_json() for c in self.channels if c.is_thread and not c.archived],
            "members": [self.members[bot_user.id].to_json()] if bot_user.id in self.members else [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"


@dataclass(eq=False)
class Channel:
    """A text channel, a thread (``parent`` set) or a DM channel (``recipient`` set).

    ``overwrites`` are the channel's permission overwrites, ``(allow, deny)`` by target id: the
    guild's id for the @everyone role, a role's id, or a member's user id (``roles`` says which
    ids are roles). A thread has none of its own: Discord computes a thread's permissions from
    its parent channel.
    """

    name: str
    type: int = TEXT_CHANNEL
    guild: Guild | None = None
    parent: Channel | None = None
    recipient: User | None = None
    owner: User | None = None
    id: int = field(default_factory=snowflake)
    position: int = 0
    overwrites: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: the targets of ``overwrites`` that are roles (the others are @everyone or members)
    role_targets: set[int] = field(default_factory=set)
    auto_archive_duration: int = 1440
    #: an archived thread: Discord leaves it out of the guild's active threads
    archived: bool = False
    deleted: bool = False
    #: a thread's members (user ids), as added by the bot or by joining
    members: set[int] = field(default_factory=set)

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    def to_json(self) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM_CHANNEL,
                "recipients": [self.recipient.to_json()],
                "last_message_id": None,
            }
        assert self.guild is not None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild.id),
            "position": self.position,
            "permission_overwrites": [
                {
                    "id": str(target),
                    "type": 0 if target == self.guild.id or target in self.role_targets else 1,
                    "allow": str(allow),
                    "deny": str(deny),
                }
                for target, (allow, deny) in self.overwrites.items()
            ],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": str(self.parent.id) if self.parent else None,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner.id) if self.owner else None,
                message_count=0,
                member_count=len(self.members) + 1,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                },
            )
        return data

    def __repr__(self) -> str:
        return f"<Channel #{self.name} {self.id}>"


@dataclass(eq=False)
class Attachment:
    """A file a message carries; the bytes are kept so tests can open the image."""

    filename: str
    data: bytes
    description: str | None = None
    id: int = field(default_factory=snowflake)
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def content_type(self) -> str:
        return mimetypes.guess_type(self.filename)[0] or "application/octet-stream"

    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def image(self) -> Image:
        """Decode the bytes with Pillow (raises if they are not a valid image)."""
        from PIL import Image

        image = Image.open(io.BytesIO(self.data))
        image.load()
        return image

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description:
            data["description"] = self.description
        return data


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a tree of rows, containers, sections and labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


@dataclass(eq=False)
class Message:
    """A message as the fake stores it; edits change it in place and bump ``edits``."""

    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    #: The only user who can see it (ephemeral interaction replies), else None.
    visible_to: User | None = None
    #: The interaction this message answers, if any.
    interaction_id: int | None = None
    interaction_user: User | None = None
    webhook_id: int | None = None
    type: int = 0
    id: int = field(default_factory=snowflake)
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    edits: int = 0
    deleted: bool = False
    #: Earlier versions (content, embeds, components) before each edit, oldest first.
    history: list[dict[str, Any]] = field(default_factory=list)
    #: The allowed_mentions the message was created with (None: Discord's default, ping all).
    allowed_mentions: dict[str, Any] | None = None
    #: The thread started from this message, if any (it has the message's id).
    thread: Channel | None = None

    def pinged(self) -> set[int]:
        """The users Discord would notify for this message: user mentions in its content,
        filtered by allowed_mentions as Discord filters them."""
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", self.content)}
        allowed = self.allowed_mentions
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users") or []}

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "thinking…" placeholder that has not been filled yet."""
        return bool(self.flags & LOADING)

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def button_labels(self) -> list[str]:
        return [b.get("label", "") for b in self.buttons()]

    def attachment(self, filename: str | None = None) -> Attachment:
        """The attachment with that name (or the only one); a clear error if missing."""
        if filename is None:
            if len(self.attachments) != 1:
                raise LookupError(f"message {self.id} has {len(self.attachments)} attachments")
            return self.attachments[0]
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        names = [a.filename for a in self.attachments]
        raise LookupError(f"message {self.id} has no attachment {filename!r} (has {names})")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "content": self.content,
            "author": self.author.to_json(),
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.to_json() for a in self.attachments],
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "flags": self.flags | (HAS_THREAD if self.thread is not None else 0),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
        }
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.thread is not None:
            data["thread"] = self.thread.to_json()
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": 2,
                "user": self.interaction_user.to_json(),
                "authorizing_integration_owners": {},
            }
        return data

    def __repr__(self) -> str:
        text = self.content[:40] or (self.embed or {}).get("title", "")
        return f"<Message {self.id} in #{self.channel.name} {text!r}>"
