"""What happens later: durable timers (claimed with a lease, handled once), the announcement a
turn still owes the channel, leases for work one process at a time may do, reminder claims,
nudges and the deadline rules."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Literal

from ..errors import NoGameHere
from ..records import DeadlineRules, Shards, TimerKind, TimerRow, UserNotes
from .guards import Service, need_game


class Schedule(Service):
    """Timers, the pending announcement, leases, reminders and deadlines."""

    # --- timers -----------------------------------------------------------------------------------

    async def due_timers(self, limit: int = 100) -> list[TimerRow]:
        """Timers of running games whose time has come, soonest first."""
        async with self.store.read() as tx:
            return await tx.due_timers(self._now(), limit)

    async def next_timer_due(self) -> datetime | None:
        """When a timer is next due, or the lease holding it runs out (when this process may
        take over a dead claimant's timer)."""
        async with self.store.read() as tx:
            return await tx.next_timer_due()

    def timer_listener(
        self, heard: Callable[[datetime | None], None]
    ) -> Coroutine[Any, Any, None] | None:
        """Hears of timers every process writes (`Store.timer_listener`); None on SQLite."""
        return self.store.timer_listener(heard)

    async def claim_timers(
        self, owner: str, *, lease: timedelta, limit: int = 50
    ) -> list[TimerRow]:
        """Due timers, claimed for `owner` for `lease` (see `Tx.claim_timers`)."""
        now = self._now()
        async with self.store.write() as tx:
            return await tx.claim_timers(now, owner, now + lease, limit)

    async def holds_timer(self, timer_id: int, owner: str) -> bool:
        async with self.store.read() as tx:
            return await tx.holds_timer(timer_id, owner)

    async def finish_timer(self, timer_id: int, owner: str) -> bool:
        async with self.store.write() as tx:
            return await tx.finish_timer(timer_id, owner)

    async def retry_timer(self, timer_id: int, owner: str, due: datetime, attempts: int) -> bool:
        """A claimed timer's handler failed: due again at `due`, with `attempts` failures."""
        async with self.store.write() as tx:
            return await tx.retry_timer(timer_id, owner, due, attempts)

    async def release_timers(self, owner: str) -> int:
        async with self.store.write() as tx:
            return await tx.release_timers(owner)

    async def delete_timer(self, timer_id: int) -> bool:
        async with self.store.write() as tx:
            return await tx.delete_timer(timer_id)

    async def computers_later(self, game_id: int, due: datetime, attempts: int) -> None:
        """A computer player's decision or move failed (a worker down, a full disk, a database
        blip): its game's one `computer` timer tries again at `due`, durably, so the game goes
        on without a restart; `attempts` counts the failures so far."""
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            await tx.delete_timers_of(game_id, ("computer",))
            if game.status == "active":
                await tx.insert_timer(
                    game_id,
                    kind="computer",
                    due_at=due,
                    seat=game.current_seat,
                    version=game.version,
                    now=self._now(),
                    attempts=attempts,
                )

    async def set_turn_timers(
        self,
        game_id: int,
        timers: list[tuple[TimerKind, datetime, int | None]],
        kinds: tuple[TimerKind, ...] = ("reminder", "deadline"),
    ) -> list[int]:
        """Replace a running game's timers of `kinds` by `timers` (kind, due, seat) in one
        transaction; a game that is over keeps none."""
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            await tx.delete_timers_of(game_id, kinds)
            if game.status != "active":
                return []
            now = self._now()
            return [
                await tx.insert_timer(
                    game_id, kind=kind, due_at=due, seat=seat, version=game.version, now=now
                )
                for kind, due, seat in timers
                if kind in kinds
            ]

    async def held_until(self, game_id: int) -> datetime | None:
        """When the current turn, waiting for its confirmation, ends by itself (None: it is
        not held: it waits for the player, or is not waiting for a confirmation at all)."""
        held = [t for t in await self.timers_of(game_id) if t.kind == "end_turn"]
        return held[0].due_at if held else None

    async def timers_of(self, game_id: int) -> list[TimerRow]:
        async with self.store.read() as tx:
            return await tx.timers_of(game_id)

    # --- telling the channel ----------------------------------------------------------------------

    async def announced(self, game_id: int, version: int) -> None:
        """The channel has been told about the game up to `version`."""
        async with self.store.write() as tx:
            await tx.announced(game_id, version)

    async def turn_told(
        self,
        game_id: int,
        *,
        version: int,
        turn_started_at: datetime | None,
        message: tuple[int, int] | Literal["kept"] | None,
        timers: Sequence[tuple[TimerKind, datetime, int | None]] = (),
    ) -> None:
        """What follows telling the turn that ended at `version`, in one transaction: the turn
        message now on show (None: none; "kept": the channel was not told, it stays as it
        was) and the turn noted as told, then the new turn's reminder and deadline timers. The
        message and the timers are the turn's only while it lasts (`turn_started_at`): a turn
        told late never overwrites what a later one wrote."""
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            current = game.status == "active" and game.turn_started_at == turn_started_at
            if message != "kept":
                await tx.announced(game_id, version)
                if message is None and (current or game.status != "active"):
                    await tx.delete_message(game_id, "turn")
                elif message is not None and current:
                    await tx.set_message(game_id, "turn", message[0], message[1], self._now())
            if current:
                await tx.delete_timers_of(game_id, ("reminder", "deadline"))
                now = self._now()
                for kind, due, seat in timers:
                    await tx.insert_timer(
                        game_id, kind=kind, due_at=due, seat=seat, version=game.version, now=now
                    )

    async def announce_later(self, game_id: int, version: int, due: datetime) -> None:
        """Telling the channel about the turn that ended at `version` failed: try again then."""
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            if game.status in ("active", "finished"):
                await tx.replace_announcement(game_id, version, due, self._now())

    # --- leases: work one process at a time may do ------------------------------------------------

    async def take_lease(self, name: str, owner: str, seconds: float) -> bool:
        """Hold the lease `name` for `seconds` (renewing it if `owner` holds it already): True
        if `owner` holds it now. Work that one process of several may do at a time (syncing
        commands, a gateway IDENTIFY slot) goes through a lease in the shared database."""
        now = self._now()
        async with self.store.write() as tx:
            return await tx.take_lease(name, owner, now + timedelta(seconds=seconds), now)

    async def drop_lease(self, name: str, owner: str) -> bool:
        """Give a lease back before it expires; False if `owner` did not hold it."""
        async with self.store.write() as tx:
            return await tx.drop_lease(name, owner)

    async def lease_holder(self, name: str) -> str | None:
        async with self.store.read() as tx:
            return await tx.lease_holder(name, self._now())

    # --- reminders and nudges ---------------------------------------------------------------------

    async def claim_reminder(self, user_id: int, gap: timedelta) -> UserNotes | None:
        """Take the right to send `user_id` a reminder now: None if one was sent (or is being
        sent, by this process or another) within `gap`; else the notes as they were, to
        put back with `unclaim_reminder` if the DM then fails on the way."""
        now = self._now()
        async with self.store.write() as tx:
            before = await tx.notes(user_id)
            return before if await tx.claim_reminder(user_id, now, now - gap) else None

    async def unclaim_reminder(self, before: UserNotes) -> None:
        async with self.store.write() as tx:
            current = await tx.notes(before.user_id)
            await tx.save_notes(
                replace(current, last_reminder_at=before.last_reminder_at), self._now()
            )

    async def note_reminded(self, user_id: int) -> None:
        async with self.store.write() as tx:
            current = await tx.notes(user_id)
            now = self._now()
            await tx.save_notes(replace(current, last_reminder_at=now, dm_blocked_at=None), now)

    async def note_dm_blocked(self, user_id: int, blocked: bool = True) -> None:
        """Remember that the user refuses DMs (or that a DM went through again)."""
        async with self.store.write() as tx:
            current = await tx.notes(user_id)
            when = self._now() if blocked else None
            if current.dm_blocked_at != when:
                await tx.save_notes(replace(current, dm_blocked_at=when), self._now())

    async def nudge_once(self, game_id: int, seat: int, turn_key: int) -> bool:
        """True the first time it is asked for this turn of this seat, False afterwards."""
        async with self.store.write() as tx:
            return await tx.add_nudge(game_id, seat, turn_key, self._now())

    async def last_action_at(self, game_id: int, user_id: int) -> datetime | None:
        async with self.store.read() as tx:
            last = await tx.last_action_by(game_id, user_id)
        return None if last is None else last[1]

    # --- games that span days ---------------------------------------------------------------------

    async def deadline_rules(self, game_id: int) -> DeadlineRules:
        async with self.store.read() as tx:
            rules = await tx.deadline_rules(game_id)
        if rules is None:
            raise NoGameHere(variant="unknown")
        return rules

    async def games_waiting_on_humans(
        self, *, untimed: bool = False, shards: Shards | None = None, mid_turn: bool = False
    ) -> list[int]:
        """Running games waiting on a person (see `Tx.active_games_waiting_on_humans`), of the
        servers on `shards` only if given: one query."""
        async with self.store.read() as tx:
            return await tx.active_games_waiting_on_humans(
                untimed=untimed, shards=shards, mid_turn=mid_turn
            )

    async def games_waiting_on_computers(self, shards: Shards | None = None) -> list[int]:
        """Running games whose computer player is to move (to resume them after a restart), of
        the servers on `shards` only if given: one query."""
        async with self.store.read() as tx:
            return await tx.games_waiting_on_computers(shards)

    async def count_open_games(self) -> int:
        """Games in a lobby or being played: a gauge for operators, and proof that the
        database answers (the health check)."""
        async with self.store.peek() as tx:
            return await tx.count_open_games()
