"""A local fake Discord (REST + gateway on 127.0.0.1) that the real discord.py client talks to.

Tests act as users through :class:`FakeDiscord` and read back what the bot did; see sim.py for
the test API and bot_runner.py for starting a client against it.
"""

from .bot_runner import cli_script, pointed_at, running_bot
from .errors import InteractionNotAnswered, SimulationError
from .faults import ALIASES as FAULT_ROUTES
from .faults import Fault
from .ids import snowflake, snowflake_time
from .interactions import InteractionResult
from .models import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
)
from .rest import RecordedRequest
from .sim import FakeDiscord

__all__ = [
    "ADMINISTRATOR",
    "ALL_PERMISSIONS",
    "ATTACH_FILES",
    "CREATE_PUBLIC_THREADS",
    "EMBED_LINKS",
    "EVERYONE_PERMISSIONS",
    "FAULT_ROUTES",
    "MANAGE_GUILD",
    "MANAGE_THREADS",
    "READ_MESSAGE_HISTORY",
    "SEND_MESSAGES",
    "SEND_MESSAGES_IN_THREADS",
    "VIEW_CHANNEL",
    "Attachment",
    "Channel",
    "FakeDiscord",
    "Fault",
    "Guild",
    "InteractionNotAnswered",
    "InteractionResult",
    "Member",
    "Message",
    "RecordedRequest",
    "Role",
    "SimulationError",
    "User",
    "cli_script",
    "pointed_at",
    "running_bot",
    "snowflake",
    "snowflake_time",
]
