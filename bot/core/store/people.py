"""Queries of the people around the games: their preferences (read and written from the
registry, `core.preferences`), what the bot notes about them (a refused DM, the last reminder,
their Discord language), followers, the bot's message references and its key-value notes
(`bot_meta`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..clock import from_ms, to_ms
from ..preferences import SETTINGS, TABLES, Preferences, Setting, from_columns, to_columns
from ..records import UserNotes
from .rows import Rows

#: The `bot_meta` key of a user's remembered Discord language.
_DISCORD_LOCALE = "discord-locale:{}"


_COLUMNS = [c for s in SETTINGS for c in s.columns]
#: One statement reads every preference: each table's row of the user, if any (`preferences`).
_READ_PREFERENCES = (
    "SELECT "
    + ", ".join(f"{s.table}.{c}" for s in SETTINGS for c in s.columns)
    + " FROM (SELECT CAST(? AS BIGINT) AS user_id) AS who"
    + "".join(f" LEFT JOIN {t} ON {t}.user_id = who.user_id" for t in TABLES)
)


class PeopleQueries(Rows):
    """Preferences and notes, followers, message references and meta."""

    # --- preferences: the registry's columns -----------------------------------------------------

    async def preferences(self, user_id: int) -> Preferences:
        """A user's preferences; the default of each setting not stored."""
        row = await self.row(_READ_PREFERENCES, (user_id,))
        assert row is not None  # the outer query always has its one row
        return from_columns(user_id, {c: row[i] for i, c in enumerate(_COLUMNS)})

    async def save_preferences(
        self, prefs: Preferences, settings: Sequence[Setting], now: datetime
    ) -> None:
        """Store the `settings` that changed, one upsert per table: a new row takes every
        setting of its table from `prefs`, an existing one only those, so a change made at
        the same time to another setting is kept."""
        for table in TABLES:
            mine = [s for s in SETTINGS if s.table == table]
            changing = [s for s in settings if s.table == table]
            if not changing:
                continue
            row = to_columns(prefs, mine)
            updated = [c for s in changing for c in s.columns] + ["updated_at"]
            names = ["user_id", *row, "updated_at"]
            await self.run(
                f"INSERT INTO {table} ({', '.join(names)}) "
                f"VALUES ({', '.join('?' for _ in names)}) ON CONFLICT (user_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in updated),
                (prefs.user_id, *row.values(), to_ms(now)),
            )

    # --- what the bot notes about a user ---------------------------------------------------------

    async def notes(self, user_id: int) -> UserNotes:
        row = await self.row(
            "SELECT dm_blocked_at, last_reminder_at FROM notify_settings WHERE user_id = ?",
            (user_id,),
        )
        seen = await self.discord_locale(user_id)
        if row is None:
            return UserNotes(user_id, discord_locale=seen)
        return UserNotes(user_id, from_ms(row[0]), from_ms(row[1]), seen)

    async def save_notes(self, notes: UserNotes, now: datetime) -> None:
        """Store when a DM was refused and when the last reminder went out (the Discord
        language is noted apart: `set_discord_locale`)."""
        await self.run(
            "INSERT INTO notify_settings (user_id, dm_blocked_at, last_reminder_at, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
            "dm_blocked_at = excluded.dm_blocked_at, "
            "last_reminder_at = excluded.last_reminder_at, updated_at = excluded.updated_at",
            (notes.user_id, _ms(notes.dm_blocked_at), _ms(notes.last_reminder_at), to_ms(now)),
        )

    async def retry_dms(self, user_id: int) -> None:
        """Forget a refused DM: the next one is tried."""
        await self.run(
            "UPDATE notify_settings SET dm_blocked_at = NULL WHERE user_id = ?", (user_id,)
        )

    async def discord_locale(self, user_id: int) -> str | None:
        """The language of a user's Discord client as last remembered (`bot_meta`: a fact the
        bot notes, not a setting the user makes)."""
        return await self.meta(_DISCORD_LOCALE.format(user_id))

    async def set_discord_locale(self, user_id: int, locale: str, now: datetime) -> None:
        await self.set_meta(_DISCORD_LOCALE.format(user_id), locale, now)

    # --- followers --------------------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int, how: str, now: datetime) -> None:
        """`user_id` follows the game (`how`: dm, thread); following again changes how."""
        await self.run(
            "INSERT INTO followers (game_id, user_id, how, since) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO UPDATE SET how = excluded.how",
            (game_id, user_id, how, to_ms(now)),
        )

    async def unfollow(self, game_id: int, user_id: int) -> str | None:
        """Stop following; returns how they followed (None: they did not)."""
        rows = await self.rows(
            "DELETE FROM followers WHERE game_id = ? AND user_id = ? RETURNING how",
            (game_id, user_id),
        )
        return str(rows[0][0]) if rows else None

    async def followers(self, game_id: int) -> list[tuple[int, str]]:
        """(user id, how) of the game's followers, in the order they began."""
        rows = await self.rows(
            "SELECT user_id, how FROM followers WHERE game_id = ? ORDER BY since, user_id",
            (game_id,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    # --- the bot's messages and bookkeeping -------------------------------------------------------

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, now: datetime
    ) -> None:
        await self.run(
            "INSERT INTO game_messages (game_id, kind, channel_id, message_id, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
            "channel_id = excluded.channel_id, message_id = excluded.message_id, "
            "updated_at = excluded.updated_at",
            (game_id, kind, channel_id, message_id, to_ms(now)),
        )

    async def message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        row = await self.row(
            "SELECT channel_id, message_id FROM game_messages WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def delete_message(self, game_id: int, kind: str) -> None:
        await self.run("DELETE FROM game_messages WHERE game_id = ? AND kind = ?", (game_id, kind))

    async def meta(self, key: str) -> str | None:
        row = await self.row("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str, now: datetime) -> None:
        await self.run(
            "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) "
            "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (key, value, to_ms(now)),
        )


def _ms(when: datetime | None) -> int | None:
    return None if when is None else to_ms(when)
