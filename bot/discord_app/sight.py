"""Who may look back at a game from elsewhere in its server: one rule, for a game named by its
number (a replay, a review, following it, the buttons and menus that carry a game's number)
and for the lists and counts (the archive, a record, a head-to-head).

Game numbers are small and consecutive, so anyone can name any game of the server; a game
played in a channel a member cannot see must stay unseen by them. A member may look back at a
game of the interaction's server when

- the interaction comes from the game's own channel or thread (they are there); or
- they sat at its table (they saw all that a replay shows, and their own hand); or
- they can view the game's *view channel*: the game's own channel, or, for a game in a public
  thread, the thread's parent (Discord gives a thread no permissions of its own: who may view
  the parent may view its public threads). A private thread is its own view channel and counts
  as one nobody else can view: Discord shows it only to its members, whom the bot cannot list.

Anything else is refused exactly as a game that does not exist. The view channel is stored
with the game when it is made (`GameInfo.view_channel_id`), so an archived thread, gone from
the cache, needs no request and the archive can be filtered in its query; for a game stored
before that, it is looked up in the cache, else fetched (`view_channel_of`), and a channel
Discord says is gone or forbidden is one nobody can view. `fill_view_channels` records it for
those games once the bot is connected.

Permissions are discord.py's `permissions_for(member)`: the member and their role ids come with
the interaction (the bot has only the guilds intent, so that is the only place members come
from), the server's roles and the channels' overwrites from the guild cache.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from ..core.errors import GuildOnly, NoGameHere
from ..core.records import GameInfo, Sight
from ..core.services import Services
from .context import note_game

#: games whose view channel is looked up per batch when the bot connects
FILL_BATCH = 100


def view_channel(channel: discord.abc.Snowflake) -> int:
    """The view channel of a game played in `channel`: a public thread's parent, else the
    channel itself (a private thread included)."""
    if (
        isinstance(channel, discord.Thread)
        and channel.type is not discord.ChannelType.private_thread
    ):
        return channel.parent_id
    return channel.id


async def view_channel_of(client: discord.Client, channel_id: int) -> int | None:
    """The view channel of a game played in `channel_id`, from the cache or else asked of
    Discord (an archived thread is not cached); None when Discord says the channel is gone or
    the bot may not see it. Any other failure is raised: it says nothing about the channel."""
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return None
    return view_channel(channel)


def _views(member: discord.Member, channel: discord.abc.GuildChannel) -> bool:
    """Discord's View Channel for the member there: their roles (from the interaction) and the
    server's roles and the channel's overwrites (from the cache), as discord.py resolves them."""
    return channel.permissions_for(member).view_channel


def can_view(guild: discord.Guild, member: discord.Member, channel_id: int) -> bool:
    """Whether the member may view this channel of the server (never a thread: a private
    thread is the only view channel that is one)."""
    channel = guild.get_channel(channel_id)
    return channel is not None and _views(member, channel)


def _asker(interaction: discord.Interaction) -> tuple[discord.Guild, discord.Member] | None:
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return None
    return guild, member


async def may_see(interaction: discord.Interaction, game: GameInfo) -> bool:
    """Whether the member interacting may look back at `game` (the rule above)."""
    if interaction.guild_id is None or game.guild_id != interaction.guild_id:
        return False
    if interaction.channel_id == game.channel_id or game.seat_of(interaction.user.id) is not None:
        return True
    asker = _asker(interaction)
    if asker is None:
        return False
    view = game.view_channel_id
    if view is None:
        view = await view_channel_of(interaction.client, game.channel_id)
    return view is not None and can_view(*asker, view)


async def seen_game(interaction: discord.Interaction, game: GameInfo) -> GameInfo:
    """The game, if the member interacting may look back at it; else refused as a game that
    does not exist (a game of another server, or of a channel they cannot see)."""
    if not await may_see(interaction, game):
        raise NoGameHere(variant="unknown")
    note_game(interaction, game.id, game.version)
    return game


def sight_of(interaction: discord.Interaction) -> Sight:
    """What the member interacting may see in lists and counts: the games they sat in, and
    those of this server whose view channel they can view (every channel of the server is in
    the cache; the active public threads are added for the games whose view channel is not
    known yet, and the channel they are in, whatever it is). Refused outside a server."""
    if interaction.guild_id is None:
        raise GuildOnly()
    seen: set[int] = set()
    asker = _asker(interaction)
    if asker is not None:  # else (a server not in the cache yet) only their own games
        guild, member = asker
        seen = {c.id for c in guild.channels if _views(member, c)}
        seen |= {
            t.id
            for t in guild.threads
            if t.type is not discord.ChannelType.private_thread and t.parent_id in seen
        }
    if interaction.channel_id is not None:
        seen.add(interaction.channel_id)
    return Sight(interaction.user.id, interaction.guild_id, frozenset(seen))


async def fill_view_channels(
    client: discord.Client, services: Services, owns: Callable[[int], bool]
) -> int:
    """Record the view channel of the games stored before it was, those of the servers this
    process `owns`: asked of Discord once per game (a channel that is gone, or that the bot may
    not see, records the game's own channel: no one else may see it). A failure leaves the rest
    to the next connection. Returns how many were recorded."""
    done, after = 0, 0
    while batch := await services.archive.games_without_view_channel(after, FILL_BATCH):
        for game_id, guild_id, channel_id in batch:
            after = game_id
            if not owns(guild_id):
                continue  # another process's server
            view = await view_channel_of(client, channel_id)
            await services.archive.set_view_channel(game_id, channel_id if view is None else view)
            done += 1
    return done
