"""The discord.py application: the composition root of the Discord adapter.

It opens the store and wires the rooms together (services → reminders and turn flow with the
Discord announcer and messenger → timer dispatcher with one handler per timer kind), adds the
`/alhambra` cog and the persistent buttons, and shuts all of it down in order. Nothing imports
this module but `run.py` and the tests: handlers see the bot as a `context.BaseBot`.

Intents are the minimum slash commands need (guilds): no message content, no members. Commands
are synced with Discord explicitly (`python -m bot sync`) or at start-up only when the command
tree differs from the one last synced (its hash is kept in the database), so restarts do not
spend Discord's sync rate limit.

With `ALHAMBRA_SHARDS` set, `build_bot` makes a `ShardedAlhambraBot` (discord.py's
`AutoShardedBot`): one process holds all the shards, or its cluster's range of them. Several
processes coordinate through the shared database only: at start-up only cluster 0 syncs the
commands, under the `sync-commands` lease, and every IDENTIFY first takes the lease of its
`max_concurrency` bucket for 5 seconds, so processes never start sessions faster than Discord
allows. Without sharding the bot is a plain `commands.Bot`, exactly as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import logging
import os
import socket
from collections.abc import Callable
from datetime import timedelta
from typing import Any, Literal

import discord
import yarl
from discord import app_commands
from discord.ext import commands

import render

from ..config import Settings
from ..core import workers
from ..core.clock import Clock
from ..core.records import Shards, TimerRow
from ..core.services import Services
from ..core.store import Store
from ..core.workers import Workers
from ..ops import metrics
from ..turns.deadlines import deadline_passed
from ..turns.flow import TurnFlow
from ..turns.reminders import Reminders
from ..turns.timers import TimerDispatcher
from .announcer import ChannelAnnouncer
from .context import BaseBot, report
from .followers import FollowButton
from .group import AlhambraCog
from .help import HelpButton
from .history import (
    ArchiveButton,
    HistoryCommands,
    OpenGameSelect,
    PositionButton,
    ReplayButton,
    ReplayHandButton,
    SeasonButton,
    SheetButton,
)
from .lobby_message import LobbyButton
from .messenger import DiscordMessenger
from .observe import Observer, http_trace
from .panel import PanelButton, PanelSelect
from .plan_panel import PlanButton, PlanSelect
from .plans import PlanCommands
from .replies import BoardSelect, LogPageButton
from .results_message import ResultsButton
from .sight import fill_view_channels
from .translator import CatalogueTranslator
from .turn_message import TurnButton

log = logging.getLogger("alhambra")

#: The lease held while the commands are synced (by cluster 0, one process at a time).
SYNC_LEASE = "sync-commands"
#: How long a sync may hold it before another process may take over (a sync takes a second).
SYNC_LEASE_S = 120.0
#: Discord lets `max_concurrency` sessions start per 5 seconds, one per bucket
#: (`shard_id % max_concurrency`): each IDENTIFY holds its bucket's lease this long.
IDENTIFY_SPACING_S = 5.0
#: How often a shard waiting for its bucket asks the database again.
IDENTIFY_POLL_S = 0.25
#: Session starts (IDENTIFYs) of Discord's daily budget a start never spends: below this many
#: (plus the sessions it would start) it waits for the budget to reset instead.
SESSION_RESERVE = 10
#: While waiting for the budget, ask Discord again at least this often (seconds).
SESSION_RECHECK_S = 300.0
#: How often every game waiting on a computer player is looked at, in case nothing drives it.
SWEEP_EVERY_S = 60.0

SyncMode = Literal["auto", "force", "never"]
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    TurnButton,
    PanelButton,
    PanelSelect,
    BoardSelect,
    ResultsButton,
    LogPageButton,
    ReplayButton,
    ReplayHandButton,
    PositionButton,
    FollowButton,
    HelpButton,
    ArchiveButton,
    OpenGameSelect,
    SheetButton,
    SeasonButton,
    PlanButton,
    PlanSelect,
)


def intents() -> discord.Intents:
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class AlhambraBot(BaseBot):
    def __init__(
        self,
        settings: Settings,
        *,
        sync: SyncMode = "auto",
        clock: Clock | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        super().__init__(
            settings,
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            http_trace=http_trace(),
            **self.gateway_options(settings),
        )
        #: who this process is in the database's leases: host, process and cluster
        self.lease_owner = f"{socket.gethostname()}:{os.getpid()}:cluster{settings.cluster}"
        self.sync_mode: SyncMode = sync
        self._clock = clock
        self._seed_source = seed_source
        self.store: Store | None = None
        self.synced: bool = False
        self.workers = Workers(
            settings.workers, timeout=settings.work_timeout_s, initializer=render.warm_up
        )
        self.observer = Observer(self, settings.metrics_port)
        self._closing: asyncio.Future[None] | None = None
        #: tasks that run as long as the bot does: the pool's health, the computers' sweep
        self._housekeeping: list[asyncio.Task[None]] = []
        self.sweep_every_s = SWEEP_EVERY_S
        #: whether this process's start-up recovery was begun (on the first READY)
        self._recovered = False

    @classmethod
    def gateway_options(cls, settings: Settings) -> dict[str, Any]:
        """What discord.py's client is told about shards: nothing, for one connection."""
        return {}

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process's connection receives the server's events (every server's,
        without sharding)."""
        shards = self.served_shards()
        return shards is None or shards.owns(guild_id)

    def served_shards(self) -> Shards | None:
        """The shards this process serves (None: every server's games are its own)."""
        return None

    def sessions_to_start(self) -> int:
        """How many gateway sessions this process starts: one per shard it holds."""
        return 1

    async def open_store(self) -> Store:
        """Create or upgrade the database and open it: `run` does it before logging in, so a
        new container is healthy as soon as its storage is and a database problem is told
        before any Discord traffic; a bot started another way gets it in `setup_hook`."""
        if self.store is None:
            self.store = await Store.open(
                self.settings.db_path,
                synchronous="NORMAL" if self.settings.db_sync == "NORMAL" else "FULL",
            )
        return self.store

    async def setup_hook(self) -> None:
        # pictures and computer players go to worker processes from now on (core.workers)
        self.workers.start()
        workers.install(self.workers)
        await self.observer.start()
        store = await self.open_store()
        services = Services.build(store, clock=self._clock, seed_source=self._seed_source)
        self._services = services
        messenger = DiscordMessenger(self, services.clock.now)
        reminders = Reminders(services, messenger, spawn=self.spawn)
        announcer = ChannelAnnouncer(self, self.spawn)
        flow = TurnFlow(
            services,
            announcer,
            spawn=self.spawn,
            reminders=reminders,
            messenger=messenger,
            undo_window=timedelta(seconds=self.settings.undo_window_s),
        )
        self._reminders, self._flow = reminders, flow

        async def deadline(timer: TimerRow) -> None:
            await deadline_passed(flow, timer)

        self.timers = TimerDispatcher(
            services,
            {
                "reminder": reminders.remind,
                "deadline": deadline,
                "announce": flow.deliver,
                "end_turn": flow.end_held_turn,
                "computer": flow.computers_due,
            },
            ready=self.wait_until_ready,
        )
        reminders.wake = flow.wake = self.timers.wake
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]  # discord.py's documented hook
        await self.add_cog(AlhambraCog(self))
        await self.add_cog(HistoryCommands(self))
        await self.add_cog(PlanCommands(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.timers.start()
        loop = asyncio.get_running_loop()
        self._housekeeping = [
            loop.create_task(self.workers.supervise(), name="workers"),
            loop.create_task(self._sweep(), name="sweep"),
        ]
        if self.sync_mode == "force" or (self.sync_mode == "auto" and self.settings.cluster == 0):
            self.synced = await sync_commands(self, force=self.sync_mode == "force")
        elif self.sync_mode == "auto":
            log.info("cluster %d leaves syncing the commands to cluster 0", self.settings.cluster)

    async def on_ready(self) -> None:
        if not self._recovered:  # once per process: later READYs are reconnections
            self._recovered = True
            self.spawn(self._start_up())
        self.spawn(self._fill_view_channels())

    async def _fill_view_channels(self) -> None:
        """Games stored before their view channel was get it now (`sight.fill_view_channels`),
        those of this process's servers, so the archive and the counts show them to whoever may
        see them."""
        filled = await fill_view_channels(self, self.services, self.owns_guild)
        if filled:
            log.info("recorded the view channel of %d earlier games", filled)

    async def _start_up(self) -> None:
        """What the stop owes the games of this process's servers, and only those: turns
        without timers armed, computer players moved, held turns ended (`TurnFlow.start_up`:
        a few queries, tried again with back-off if the database is away)."""
        began = asyncio.get_running_loop().time()
        done = await self.flow.start_up(self.served_shards(), stop=self.is_closed)
        if done is not None:
            armed, started, ended = done
            log.info(
                "start-up recovery: %d turn(s) armed, %d computer player(s) set going, "
                "%d held turn(s) ended, in %.1f s",
                armed,
                started,
                ended,
                asyncio.get_running_loop().time() - began,
            )

    async def _sweep(self) -> None:
        """Every minute: every game of this process waiting on a computer player that nothing
        moves is set going, and every turn left without its timers (arming them failed) gets
        them: a game never waits for a restart, whatever stopped it."""
        await self.wait_until_ready()
        while not self.is_closed():
            await asyncio.sleep(self.sweep_every_s)
            try:
                shards = self.served_shards()
                waiting = await self.services.schedule.games_waiting_on_computers(shards)
                started = await self.flow.sweep_computers(waiting)
                armed = await self.reminders.recover(shards)
            except Exception:
                log.exception("the sweep of waiting games failed")
            else:
                if started or armed:
                    log.info(
                        "sweep: %d computer player(s) set going, %d turn(s) armed", started, armed
                    )

    async def close(self) -> None:
        """Stop everything once, however many times it is asked: a signal handler and the
        end of `async with bot` both ask, and the second must wait for the first to finish
        (not find the store half closed and leave its thread running)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_once())
        await asyncio.shield(self._closing)

    async def __aexit__(self, *exc: Any) -> None:
        # discord.py skips close() here when a signal handler's close() has already shut the
        # gateway: wait for the rest of it (workers, store) before the event loop ends, or
        # the loop's end would cancel it and leave the database's thread running.
        await super().__aexit__(*exc)
        if self._closing is not None:
            await asyncio.shield(self._closing)

    async def _close_once(self) -> None:
        for task in self._housekeeping:
            task.cancel()
        await asyncio.gather(*self._housekeeping, return_exceptions=True)
        try:
            if self.timers is not None:
                await self.timers.stop()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._quiet.wait(), timeout=10)
            if self._tasks:
                await asyncio.wait(list(self._tasks), timeout=10)
            await super().close()
        finally:
            await self.observer.stop()
            if workers.current() is self.workers:
                workers.install(Workers(0))
            await self.workers.close()
            if self.store is not None:
                await self.store.close()
                self.store = None

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Errors that escape a command's own handling (argument conversion, checks)."""
        original = getattr(error, "original", error)
        await report(interaction, original)


class ShardedAlhambraBot(AlhambraBot, commands.AutoShardedBot):
    """The bot on several gateway connections (`ALHAMBRA_SHARDS`): all of Discord's shards, or
    this cluster's contiguous range of them; everything else is `AlhambraBot`'s.

    A session starts only when its `max_concurrency` bucket is free in every process: its
    IDENTIFY takes the bucket's lease for `IDENTIFY_SPACING_S` and leaves it to expire
    (discord.py's own hook sleeps 5 seconds between shards, which spaces nothing between
    processes). A shard's first connection waits for its slot before it connects, so the wait
    neither holds an idle connection open nor counts against discord.py's connect timeout,
    and a stop meanwhile ends it quietly; a session lost later waits in `before_identify_hook`.
    """

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(settings, **kwargs)
        self._max_concurrency: int | None = None
        self._identifies = itertools.count(1)
        #: until when (event loop time) the slot taken for a shard about to connect is its own
        self._slots: dict[int, float] = {}

    @classmethod
    def gateway_options(cls, settings: Settings) -> dict[str, Any]:
        if not isinstance(settings.shards, int):
            return {}  # "auto": discord.py asks /gateway/bot how many, and runs them all
        return {"shard_count": settings.shards, "shard_ids": settings.shard_ids()}

    def sessions_to_start(self) -> int:
        if self.shard_ids is not None:
            return len(self.shard_ids)
        return self.shard_count or 1

    def served_shards(self) -> Shards | None:
        if self.shard_ids is None or self.shard_count is None:
            return None
        return Shards(self.shard_count, frozenset(self.shard_ids))

    async def launch_shard(
        self, gateway: yarl.URL, shard_id: int, *, initial: bool = False
    ) -> None:
        if not await self._identify_slot(shard_id):
            return  # stopped while waiting: nothing to connect
        # connecting takes milliseconds: the slot is still this shard's when it identifies
        self._slots[shard_id] = asyncio.get_running_loop().time() + IDENTIFY_SPACING_S - 1
        await super().launch_shard(gateway, shard_id, initial=initial)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        shard = shard_id or 0
        until = self._slots.pop(shard, None)
        if until is not None and asyncio.get_running_loop().time() < until:
            return  # the slot `launch_shard` took for this connection a moment ago
        await self._identify_slot(shard)  # a session lost and started again

    async def _identify_slot(self, shard: int) -> bool:
        """Wait for and take the IDENTIFY slot of the shard's bucket: False if the bot was
        stopped meanwhile. Without the database, wait 5 seconds as discord.py does."""
        if self.is_closed():
            return False
        bucket = shard % await self.max_concurrency()
        # a name per attempt, so a lease this process still holds is never merely renewed
        owner = f"{self.lease_owner}:shard{shard}:{next(self._identifies)}"
        try:
            waited = await identify_slot(self.services, bucket, owner, stop=self.is_closed)
        except Exception as exc:
            if self.is_closed():
                return False
            log.warning("no IDENTIFY slot from the database (%s): waiting 5 s instead", exc)
            await asyncio.sleep(IDENTIFY_SPACING_S)
            return True
        if waited is None:
            return False
        log.info("shard %d identifies (bucket %d, waited %.1fs)", shard, bucket, waited)
        return True

    async def max_concurrency(self) -> int:
        """How many sessions may start together: Discord's `session_start_limit`, asked once
        (1, the strictest, if Discord cannot say)."""
        if self._max_concurrency is None:
            try:
                limits = await self.fetch_session_start_limits()
                self._max_concurrency = max(1, limits.max_concurrency)
            except discord.DiscordException as exc:
                log.warning("no session start limits from Discord (%s): one at a time", exc)
                return 1
        return self._max_concurrency


async def session_budget(
    bot: AlhambraBot, *, reserve: int = SESSION_RESERVE, recheck: float = SESSION_RECHECK_S
) -> bool:
    """Before connecting: wait while Discord's daily budget of session starts
    (`session_start_limit` of GET /gateway/bot) cannot pay for this process's sessions and
    keep `reserve` left, logging why, until it resets; a crash loop then waits instead of
    spending the budget (when it runs out Discord resets the bot's token). Returns False if
    the bot was closed meanwhile. If Discord cannot say, it goes on (and says so)."""
    while not bot.is_closed():
        try:
            _, _, raw = await bot.http.get_bot_gateway()
            limits = discord.SessionStartLimits(**raw)
        except (discord.DiscordException, KeyError, TypeError) as exc:
            log.warning("no session start limits from Discord (%s): connecting anyway", exc)
            return True
        metrics.SESSION_STARTS_REMAINING.set(limits.remaining)
        needed = bot.sessions_to_start()
        if limits.remaining >= needed + reserve:
            return True
        wait = max(1.0, limits.reset_after / 1000)
        log.warning(
            "Discord's daily budget of session starts is nearly spent (%d of %d left; this "
            "process starts %d and keeps %d in reserve): waiting %s for it to reset instead of "
            "connecting. When it runs out Discord resets the bot's token: look for a process "
            "that restarts in a loop",
            limits.remaining,
            limits.total,
            needed,
            reserve,
            timedelta(seconds=round(wait)),
        )
        until = asyncio.get_running_loop().time() + min(wait, recheck)
        while not bot.is_closed() and asyncio.get_running_loop().time() < until:
            await asyncio.sleep(min(1.0, until - asyncio.get_running_loop().time()))
    return False


def build_bot(settings: Settings, **kwargs: Any) -> AlhambraBot:
    """The bot `settings` ask for: on one gateway connection, or sharded."""
    kind = ShardedAlhambraBot if settings.sharded else AlhambraBot
    return kind(settings, **kwargs)


async def identify_slot(
    services: Services,
    bucket: int,
    owner: str,
    *,
    spacing: float = IDENTIFY_SPACING_S,
    poll: float = IDENTIFY_POLL_S,
    stop: Callable[[], bool] = lambda: False,
) -> float | None:
    """Wait until the lease `identify:<bucket>` is free and take it for `spacing` seconds;
    returns the seconds waited, or None if `stop()` came true first. The lease is left to
    expire: that is the spacing."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    name = f"identify:{bucket}"
    while not (
        await services.schedule.lease_holder(name) is None
        and await services.schedule.take_lease(name, owner, spacing)
    ):
        if stop():
            return None
        await asyncio.sleep(poll)
    return loop.time() - started


async def command_payload(
    bot: commands.Bot, guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    translator = bot.tree.translator
    assert translator is not None
    return [
        await cmd.get_translated_payload(bot.tree, translator)
        for cmd in bot.tree.get_commands(guild=guild)
    ]


async def sync_commands(bot: AlhambraBot, *, force: bool = False) -> bool:
    """Sync the command tree (to the development server if configured, else globally) when it
    changed since the last sync, or always with `force`. Returns whether it synced.

    Without `force` the sync holds the `sync-commands` lease, so of two processes starting
    together (a rolling deploy) one syncs and the other finds the tree synced or leaves it."""
    guild = discord.Object(bot.settings.dev_guild) if bot.settings.dev_guild else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    payload = await command_payload(bot, guild)
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    key = f"commands:{'guild:' + str(guild.id) if guild else 'global'}"
    where = f"to guild {guild.id}" if guild else "globally"
    if force:
        await bot.tree.sync(guild=guild)
        await bot.services.people.set_meta(key, digest)
        log.info("synced %d commands %s", len(payload), where)
        return True
    if await bot.services.people.meta(key) == digest:
        log.info("commands unchanged since the last sync: not syncing")
        return False
    if not await bot.services.schedule.take_lease(SYNC_LEASE, bot.lease_owner, SYNC_LEASE_S):
        holder = await bot.services.schedule.lease_holder(SYNC_LEASE)
        log.info("%s is syncing the commands: not syncing", holder or "another process")
        return False
    try:
        if await bot.services.people.meta(key) == digest:
            log.info("commands synced by another process meanwhile: not syncing")
            return False
        await bot.tree.sync(guild=guild)
        await bot.services.people.set_meta(key, digest)
    finally:
        await bot.services.schedule.drop_lease(SYNC_LEASE, bot.lease_owner)
    log.info("synced %d commands %s", len(payload), where)
    return True
