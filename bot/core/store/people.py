"""Queries of the people around the games: their settings, the Discord language the bot
noted, followers, the bot's message references and its key-value notes (`bot_meta`)."""

from __future__ import annotations

from datetime import datetime

from ..clock import from_ms, to_ms
from ..records import NotifySettings, UserSettings
from .rows import Rows

#: The `bot_meta` key of a user's remembered Discord language.
_DISCORD_LOCALE = "discord-locale:{}"


class PeopleQueries(Rows):
    """User and notify settings, followers, message references and meta."""

    # --- user settings ----------------------------------------------------------------------------

    async def settings(self, user_id: int) -> UserSettings:
        row = await self.row(
            "SELECT locale, dm_on_turn, dm_reminders, auto_end_turn, undo_window_s, turn_notice "
            "FROM user_settings WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return UserSettings(user_id)
        return UserSettings(
            user_id,
            row[0],
            bool(row[1]),
            bool(row[2]),
            bool(row[3]),
            undo_window_s=row[4],
            turn_notice=row[5],
        )

    async def save_settings(self, settings: UserSettings, now: datetime) -> None:
        await self.run(
            "INSERT INTO user_settings (user_id, locale, dm_on_turn, dm_reminders, auto_end_turn, "
            "undo_window_s, turn_notice, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET "
            "locale = excluded.locale, dm_on_turn = excluded.dm_on_turn, "
            "dm_reminders = excluded.dm_reminders, auto_end_turn = excluded.auto_end_turn, "
            "undo_window_s = excluded.undo_window_s, turn_notice = excluded.turn_notice, "
            "updated_at = excluded.updated_at",
            (
                settings.user_id,
                settings.locale,
                int(settings.dm_on_turn),
                int(settings.dm_reminders),
                int(settings.auto_end_turn),
                settings.undo_window_s,
                settings.turn_notice,
                to_ms(now),
            ),
        )

    async def notify_settings(self, user_id: int) -> NotifySettings:
        row = await self.row(
            "SELECT first_reminder_s, repeat_reminder_s, quiet_start, quiet_end, time_zone, "
            "vacation_until, dm_blocked_at, last_reminder_at FROM notify_settings "
            "WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return NotifySettings(user_id)
        return NotifySettings(
            user_id,
            first_reminder_s=row[0],
            repeat_reminder_s=row[1],
            quiet_start=row[2],
            quiet_end=row[3],
            time_zone=row[4],
            vacation_until=from_ms(row[5]),
            dm_blocked_at=from_ms(row[6]),
            last_reminder_at=from_ms(row[7]),
        )

    async def save_notify_settings(self, settings: NotifySettings, now: datetime) -> None:
        def ms(when: datetime | None) -> int | None:
            return None if when is None else to_ms(when)

        await self.run(
            "INSERT INTO notify_settings (user_id, first_reminder_s, repeat_reminder_s, "
            "quiet_start, quiet_end, time_zone, vacation_until, dm_blocked_at, "
            "last_reminder_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET first_reminder_s = excluded.first_reminder_s, "
            "repeat_reminder_s = excluded.repeat_reminder_s, quiet_start = excluded.quiet_start, "
            "quiet_end = excluded.quiet_end, time_zone = excluded.time_zone, "
            "vacation_until = excluded.vacation_until, dm_blocked_at = excluded.dm_blocked_at, "
            "last_reminder_at = excluded.last_reminder_at, updated_at = excluded.updated_at",
            (
                settings.user_id,
                settings.first_reminder_s,
                settings.repeat_reminder_s,
                settings.quiet_start,
                settings.quiet_end,
                settings.time_zone,
                ms(settings.vacation_until),
                ms(settings.dm_blocked_at),
                ms(settings.last_reminder_at),
                to_ms(now),
            ),
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
