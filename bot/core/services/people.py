"""The people around the games: their settings (turn and reminder preferences, the language of
their Discord client), who follows a game, and the bot's own notes (message references, meta)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ...config import MAX_UNDO_WINDOW_S
from ..clock import Clock
from ..errors import FollowRefused, InvalidRequest
from ..records import TURN_NOTICES, GameInfo, NotifySettings, TurnNotice, UserSettings
from ..results import MyGame
from ..store import Store
from .guards import Service, need_game, need_watcher

#: How many users' Discord languages a process keeps in mind (`note_discord_locale`).
SEEN_LOCALES = 50_000
_LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Z]{2})?$")
_UNSET: Any = object()
#: how a watcher may follow a game: by DM, or in its thread
FOLLOW_WAYS = ("dm", "thread")
#: the `bot_meta` key saying a user hides their statistics from others
_STATS_HIDDEN = "stats-hidden:{}"


class People(Service):
    """Settings, followers, the bot's message references and notes, and a user's games."""

    def __init__(self, store: Store, clock: Clock) -> None:
        super().__init__(store, clock)
        #: the Discord language of each user as this process last saw (and stored) it
        self._seen_locales: dict[int, str] = {}

    # --- settings ---------------------------------------------------------------------------------

    async def settings(self, user_id: int) -> UserSettings:
        async with self.store.read() as tx:
            settings = await tx.settings(user_id)
            seen = await tx.discord_locale(user_id)
        return replace(settings, discord_locale=seen)

    async def update_settings(
        self,
        user_id: int,
        *,
        locale: str | None = _UNSET,
        dm_on_turn: bool | None = None,
        dm_reminders: bool | None = None,
        auto_end_turn: bool | None = None,
        undo_window_s: int | None = None,
        turn_notice: str | None = None,
    ) -> UserSettings:
        """Change some of a user's preferences; `locale=None` goes back to Discord's language."""
        if locale is not _UNSET and locale is not None and not _LOCALE.match(locale):
            raise InvalidRequest(f"{locale!r} is not a language code such as 'en' or 'pt-BR'.")
        if undo_window_s is not None and (
            type(undo_window_s) is not int or not 0 <= undo_window_s <= MAX_UNDO_WINDOW_S
        ):
            raise InvalidRequest(f"The undo window is 0 to {MAX_UNDO_WINDOW_S} seconds.")
        if turn_notice is not None and turn_notice not in TURN_NOTICES:
            raise InvalidRequest(f"{turn_notice!r} is not one of {', '.join(TURN_NOTICES)}.")
        async with self.store.write() as tx:
            current = await tx.settings(user_id)
            changed = replace(
                current,
                locale=current.locale if locale is _UNSET else locale,
                dm_on_turn=current.dm_on_turn if dm_on_turn is None else bool(dm_on_turn),
                dm_reminders=current.dm_reminders if dm_reminders is None else bool(dm_reminders),
                auto_end_turn=(
                    current.auto_end_turn if auto_end_turn is None else bool(auto_end_turn)
                ),
                undo_window_s=current.undo_window_s if undo_window_s is None else undo_window_s,
                turn_notice=current.turn_notice if turn_notice is None else _notice(turn_notice),
            )
            await tx.save_settings(changed, self._now())
            return changed

    async def notify_settings(self, user_id: int) -> NotifySettings:
        async with self.store.read() as tx:
            return await tx.notify_settings(user_id)

    async def update_notify_settings(
        self,
        user_id: int,
        *,
        first_reminder_s: int | None = _UNSET,
        repeat_reminder_s: int | None = _UNSET,
        quiet_hours: tuple[int, int] | None = _UNSET,
        time_zone: str | None = _UNSET,
        vacation_until: datetime | None = _UNSET,
    ) -> NotifySettings:
        """Change some reminder preferences (None: back to the default). A user who changes
        their settings is around: a DM that failed before is tried again."""
        for label, value in (("first reminder", first_reminder_s), ("repeat", repeat_reminder_s)):
            if (value is not _UNSET and value is not None) and (
                not isinstance(value, int) or not 3600 <= value <= 14 * 86400
            ):
                raise InvalidRequest(f"The {label} must be between 1 hour and 14 days.")
        if quiet_hours is not _UNSET and quiet_hours is not None:
            start, end = quiet_hours
            if not (0 <= start < 1440 and 0 <= end < 1440) or start == end:
                raise InvalidRequest("Quiet hours need a start and a different end in one day.")
        if time_zone is not _UNSET and time_zone is not None:
            _need_time_zone(time_zone)
        if vacation_until not in (_UNSET, None) and vacation_until.tzinfo is None:
            raise InvalidRequest("A vacation end needs a time zone.")
        async with self.store.write() as tx:
            now = self._now()
            current = await tx.notify_settings(user_id)
            quiet = (
                (current.quiet_start, current.quiet_end)
                if quiet_hours is _UNSET
                else (quiet_hours or (None, None))
            )

            def pick(new: Any, old: Any) -> Any:
                return old if new is _UNSET else new

            changed = replace(
                current,
                first_reminder_s=pick(first_reminder_s, current.first_reminder_s),
                repeat_reminder_s=pick(repeat_reminder_s, current.repeat_reminder_s),
                quiet_start=quiet[0],
                quiet_end=quiet[1],
                time_zone=pick(time_zone, current.time_zone),
                vacation_until=pick(vacation_until, current.vacation_until),
                dm_blocked_at=None,
            )
            await tx.save_notify_settings(changed, now)
            return changed

    async def note_discord_locale(self, user_id: int, locale: str) -> bool:
        """Remember the language of a user's Discord client, for their DMs and reminders.

        Called on every interaction, so it costs nothing when nothing changed: written only if
        it differs from the stored one, and not even read again by a process that saw it last
        (a process that missed a change made through another one catches up on the user's next
        change). Returns whether it was written."""
        if not isinstance(locale, str) or not _LOCALE.match(locale):
            raise InvalidRequest(f"{locale!r} is not a language code such as 'en' or 'pt-BR'.")
        if self._seen_locales.get(user_id) == locale:
            return False
        async with self.store.read() as tx:
            stored = await tx.discord_locale(user_id)
        if stored != locale:
            async with self.store.write() as tx:
                await tx.set_discord_locale(user_id, locale, self._now())
        if len(self._seen_locales) >= SEEN_LOCALES:
            self._seen_locales.clear()  # a bound on memory: the next click of each reads once
        self._seen_locales[user_id] = locale
        return stored != locale

    async def stats_hidden(self, user_id: int) -> bool:
        return await self.meta(_STATS_HIDDEN.format(user_id)) == "1"

    async def set_stats_hidden(self, user_id: int, hidden: bool) -> None:
        """Whether others may see this user's statistics (they always see their own)."""
        await self.set_meta(_STATS_HIDDEN.format(user_id), "1" if hidden else "0")

    # --- following a game -------------------------------------------------------------------------

    async def follow(self, game_id: int, user_id: int, how: str) -> GameInfo:
        """Someone without a seat follows a lobby or running game: its public turn summaries by
        DM (`dm`), or in its thread (`thread`), which the adapter adds them to."""
        if how not in FOLLOW_WAYS:
            raise InvalidRequest(f"Follow by {' or '.join(FOLLOW_WAYS)}, not {how!r}.")
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            need_watcher(game, user_id)
            await tx.follow(game_id, user_id, how, self._now())
            return game

    async def following(self, game_id: int, user_id: int) -> tuple[GameInfo, str | None]:
        """The game and how `user_id` follows it (None: not yet), if they may follow it:
        refused as `follow` would."""
        async with self.store.read() as tx:
            game = await need_game(tx, game_id)
            ways = dict(await tx.followers(game_id))
        need_watcher(game, user_id)
        return game, ways.get(user_id)

    async def unfollow(self, game_id: int, user_id: int) -> str:
        """Stop following a game (finished ones too); returns how they followed."""
        async with self.store.write() as tx:
            how = await tx.unfollow(game_id, user_id)
        if how is None:
            raise FollowRefused(variant="not_following")
        return how

    async def followers(self, game_id: int) -> list[tuple[int, str]]:
        """(user id, how) of the game's followers."""
        async with self.store.read() as tx:
            return await tx.followers(game_id)

    # --- the bot's bookkeeping --------------------------------------------------------------------

    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        """Record which message shows a game's `kind` (lobby, turn...), replacing the last one."""
        async with self.store.write() as tx:
            await need_game(tx, game_id)
            await tx.set_message(game_id, kind, channel_id, message_id, self._now())

    async def message_ref(self, game_id: int, kind: str) -> tuple[int, int] | None:
        """(channel id, message id) of the message last remembered for `kind`, if any."""
        async with self.store.read() as tx:
            return await tx.message(game_id, kind)

    async def forget_message(self, game_id: int, kind: str) -> None:
        async with self.store.write() as tx:
            await tx.delete_message(game_id, kind)

    async def game_locale(self, game_id: int) -> str:
        """The language code of a game's public messages, as its server had it when the game
        was created ("en" if it was never recorded)."""
        return await self.meta(f"locale:{game_id}") or "en"

    async def set_game_locale(self, game_id: int, locale: str) -> None:
        await self.set_meta(f"locale:{game_id}", locale)

    async def meta(self, key: str) -> str | None:
        async with self.store.read() as tx:
            return await tx.meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        async with self.store.write() as tx:
            await tx.set_meta(key, value, self._now())

    # --- a user's games ---------------------------------------------------------------------------

    async def my_games(self, user_id: int) -> list[MyGame]:
        """The lobbies and running games a user sits in, the ones waiting on them first."""
        async with self.store.read() as tx:
            ids = await tx.open_games_of(user_id)
            waiting = await tx.games_waiting_on(user_id)
            games = [await need_game(tx, i) for i in ids]
        out = []
        for game in games:
            seat = game.seat_of(user_id)
            assert seat is not None
            out.append(MyGame(game, seat, game.id in waiting))
        order = {game_id: i for i, game_id in enumerate(waiting)}
        out.sort(key=lambda g: (not g.waiting, order.get(g.game.id, 0), g.game.id))
        return out

    async def games_waiting_on(self, user_id: int) -> list[MyGame]:
        """Running games whose current decision is this user's, longest waiting first."""
        return [g for g in await self.my_games(user_id) if g.waiting]


def _need_time_zone(name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidRequest(
            f"{name!r} is not a time zone: use a name such as Europe/Lisbon or Asia/Tokyo."
        ) from None


def _notice(choice: str) -> TurnNotice:
    return next(n for n in TURN_NOTICES if n == choice)
