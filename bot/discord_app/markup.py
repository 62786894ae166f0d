"""Text only Discord understands: jump links, timestamps every reader sees in their own time
zone, mentions, and the server and channel names the bot sees."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from ..core.ratings import RatingChange
from ..core.records import GameInfo
from ..text.present import player_name, player_names
from ..text.ratings import change_line
from ..text.when import relative


def stamp(locale: str, when: datetime, now: datetime) -> str:
    """`when` relative to `now` for a reader of `locale`: a Discord timestamp, which Discord
    renders in every reader's own time zone and language, or, in a language Discord has no
    client in (Persian), the span written in words (`text.when.relative`)."""
    return relative(locale, when, now)


def jump_link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    where = f"{guild_id or '@me'}/{channel_id}"
    return f"https://discord.com/channels/{where}" + (f"/{message_id}" if message_id else "")


def turn_link(game: GameInfo, shown: tuple[int, int] | None) -> str:
    """A link to the game's turn message on show (`shown`: channel and message ids), or to its
    channel if there is none."""
    if shown is None:
        return jump_link(game.guild_id, game.channel_id)
    return jump_link(game.guild_id, shown[0], shown[1])


def place_of(client: discord.Client, game: GameInfo) -> tuple[str, str]:
    """(server name, channel name) as the bot sees them, with ids as a fallback."""
    guild = client.get_guild(game.guild_id) if game.guild_id else None
    channel = client.get_channel(game.channel_id)
    server = guild.name if guild is not None else str(game.guild_id or "DM")
    name = getattr(channel, "name", None) or str(game.channel_id)
    return server, name


def mention_of(game: GameInfo, seat: int | None, locale: str) -> str:
    """A ping for a human at `seat`, the name in bold for a computer player."""
    player = next((s for s in game.seats if s.seat == seat), None) if seat is not None else None
    if player is None:
        return ""
    if player.user_id is not None:
        return f"<@{player.user_id}>"
    return f"**{inert(player_name(locale, player))}**"


def inert(text: str) -> str:
    """A player's text (a display name) shown as typed but unable to mention anyone."""
    return discord.utils.escape_mentions(text)


def public_names(game: GameInfo, locale: str) -> list[str]:
    """The players' names in turn order, for public messages in `locale` (a computer player's
    level in its words): a name that looks like a mention stays text."""
    return [inert(name) for name in player_names(locale, game)]


def pinging(*user_ids: int | None) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly these users (nobody else, whatever the text says)."""
    users = [discord.Object(u) for u in user_ids if u is not None]
    return discord.AllowedMentions(users=users, roles=False, everyone=False, replied_user=False)


def button(
    custom_id: str,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
    disabled: bool = False,
) -> discord.ui.Button[discord.ui.View]:
    """A component button as the bot's persistent items make them: the label cut to the 80
    characters Discord takes, grey unless the item says otherwise."""
    return discord.ui.Button(
        label=label[:80], style=style, custom_id=custom_id, row=row, disabled=disabled
    )


def ratings_line(
    locale: str,
    game: GameInfo,
    changes: Sequence[RatingChange],
    ranks: Sequence[int] | None = None,
) -> str:
    """How a rated game moved its players' ratings: the players in the order they finished
    (`ranks` per seat), or, for a game that ended without a finish, the biggest gain first; one
    whose seat a computer took is named by mention (the bot never pings in these posts)."""
    names = public_names(game, locale)
    moved = {c.user_id: c.delta for c in changes}
    seated = [s for s in game.seats if s.seat is not None and s.user_id is not None]
    if ranks is not None:
        seated.sort(key=lambda s: (ranks[s.seat] if s.seat is not None else 0, s.seat))
    else:
        seated.sort(key=lambda s: (-moved.get(s.user_id or 0, 0), s.seat))
    by_user = {s.user_id: names[s.seat] for s in seated if s.user_id and s.seat is not None}
    return change_line(locale, changes[0].season, by_user, changes)
