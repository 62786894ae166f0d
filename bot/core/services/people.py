"""The people around the games: their preferences (one record, one way to change it: the
registry of `core.preferences`), what the bot notes about them (a refused DM, the language of
their Discord client), who follows a game, and the bot's own notes (message references, meta)."""

from __future__ import annotations

from ..clock import Clock
from ..errors import FollowRefused, InvalidRequest
from ..preferences import LANGUAGE_CODE, PreferenceChanges, Preferences, changed, given
from ..records import GameInfo, UserNotes
from ..results import MyGame
from ..store import Store
from .guards import Service, need_game, need_watcher

#: How many users' Discord languages a process keeps in mind (`note_discord_locale`).
SEEN_LOCALES = 50_000
#: how a watcher may follow a game: by DM, or in its thread
FOLLOW_WAYS = ("dm", "thread")
#: the `bot_meta` key saying a user hides their statistics from others
_STATS_HIDDEN = "stats-hidden:{}"


class People(Service):
    """Preferences, followers, the bot's message references and notes, and a user's games."""

    def __init__(self, store: Store, clock: Clock) -> None:
        super().__init__(store, clock)
        #: the Discord language of each user as this process last saw (and stored) it
        self._seen_locales: dict[int, str] = {}

    # --- preferences ------------------------------------------------------------------------------

    async def preferences(self, user_id: int) -> Preferences:
        """Everything the user chose, each setting's default where they chose nothing."""
        async with self.store.read() as tx:
            return await tx.preferences(user_id)

    async def notes(self, user_id: int) -> UserNotes:
        """What the bot noted about the user: a refused DM, the last reminder, their Discord
        client's language."""
        async with self.store.read() as tx:
            return await tx.notes(user_id)

    async def preferences_and_notes(self, user_id: int) -> tuple[Preferences, UserNotes]:
        """Both, read at once: what the user chose and what the bot noted (how a turn is told
        depends on both)."""
        async with self.store.read() as tx:
            return await tx.preferences(user_id), await tx.notes(user_id)

    async def dm_locale(self, user_id: int, fallback: str) -> str:
        """The language of the user's DMs: the one they chose, else their Discord client's,
        else `fallback` (the game's)."""
        async with self.store.read() as tx:
            prefs = await tx.preferences(user_id)
            seen = await tx.discord_locale(user_id)
        return prefs.dm_locale(fallback, seen)

    async def update_preferences(self, user_id: int, changes: PreferenceChanges) -> Preferences:
        """Change some of a user's preferences, given as they typed or picked them (a setting
        left out or None stays as it is): each read and checked by the registry, refused with
        the words a user reads before anything is written, then all saved in one transaction.
        A change to their reminders tries DMs they refused before again: they are around."""
        given(changes)  # an unknown setting is refused before anything is read
        async with self.store.write() as tx:
            now = self._now()
            current = await tx.preferences(user_id)
            new, touched = changed(current, changes, now)
            await tx.save_preferences(new, touched, now)
            if any(s.rearms for s in touched):
                await tx.retry_dms(user_id)
            return new

    async def note_discord_locale(self, user_id: int, locale: str) -> bool:
        """Remember the language of a user's Discord client, for their DMs and reminders.

        Called on every interaction, so it costs nothing when nothing changed: written only if
        it differs from the stored one, and not even read again by a process that saw it last
        (a process that missed a change made through another one catches up on the user's next
        change). Returns whether it was written."""
        if not isinstance(locale, str) or not LANGUAGE_CODE.match(locale):
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
        """The language code of a game's public messages, chosen when it was opened and kept
        with the game (`GameInfo.locale`): changing the server's language does not change it.
        English for a game that is not there (a timer outliving it says nothing in any case)."""
        async with self.store.read() as tx:
            game = await tx.game(game_id)
        return "en" if game is None else game.locale

    async def game_locales(self, game_ids: list[int]) -> dict[int, str]:
        """`game_locale` of many games in one read (English for those not there)."""
        async with self.store.read() as tx:
            found = await tx.game_locales(game_ids)
        return {game_id: found.get(game_id, "en") for game_id in game_ids}

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
