"""The discord.py application: the composition root of the Discord adapter.

It opens the store and wires the rooms together (service → reminders and turn flow with the
Discord announcer and messenger → timer dispatcher with one handler per timer kind), adds the
`/alhambra` cog and the persistent buttons, and shuts all of it down in order. Nothing imports
this module but `run.py` and the tests: handlers see the bot as a `context.BaseBot`.

Intents are the minimum slash commands need (guilds): no message content, no members. Commands
are synced with Discord explicitly (`python -m bot sync`) or at start-up only when the command
tree differs from the one last synced (its hash is kept in the database), so restarts do not
spend Discord's sync rate limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

import render

from ..config import Settings
from ..core import workers
from ..core.clock import Clock
from ..core.records import TimerRow
from ..core.service import GameService
from ..core.store import Store
from ..core.workers import Workers
from ..turns.deadlines import deadline_passed
from ..turns.flow import TurnFlow
from ..turns.reminders import Reminders
from ..turns.timers import TimerDispatcher
from .announcer import ChannelAnnouncer
from .context import BaseBot, report
from .group import AlhambraCog
from .lobby_message import LobbyButton
from .messenger import DiscordMessenger
from .observe import Observer, http_trace
from .panel import PanelButton, PanelSelect
from .replies import BoardSelect, LogPageButton
from .results_message import ResultsButton
from .translator import CatalogueTranslator
from .turn_message import TurnButton

log = logging.getLogger("alhambra")

SyncMode = Literal["auto", "force", "never"]
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    TurnButton,
    PanelButton,
    PanelSelect,
    BoardSelect,
    ResultsButton,
    LogPageButton,
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
        )
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

    async def setup_hook(self) -> None:
        # pictures and computer players go to worker processes from now on (core.workers)
        self.workers.start()
        workers.install(self.workers)
        await self.observer.start()
        self.store = await Store.open(
            self.settings.db_path,
            synchronous="NORMAL" if self.settings.db_sync == "NORMAL" else "FULL",
        )
        service = GameService(self.store, clock=self._clock, seed_source=self._seed_source)
        self._service = service
        reminders = Reminders(service, DiscordMessenger(self, service), spawn=self.spawn)
        announcer = ChannelAnnouncer(self, service, self.spawn)
        flow = TurnFlow(
            service,
            announcer,
            spawn=self.spawn,
            reminders=reminders,
            undo_window=timedelta(seconds=self.settings.undo_window_s),
        )
        self._reminders, self._flow = reminders, flow

        async def deadline(timer: TimerRow) -> None:
            await deadline_passed(flow, timer)

        self.timers = TimerDispatcher(
            service,
            {
                "reminder": reminders.remind,
                "deadline": deadline,
                "announce": flow.deliver,
                "end_turn": flow.end_held_turn,
            },
            ready=self.wait_until_ready,
            on_start=reminders.recover,
        )
        reminders.wake = flow.wake = self.timers.wake
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]  # discord.py's documented hook
        await self.add_cog(AlhambraCog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.timers.start()
        if self.sync_mode != "never":
            self.synced = await sync_commands(self, force=self.sync_mode == "force")

    async def on_ready(self) -> None:
        self.spawn(self._resume_computers())

    async def _resume_computers(self) -> None:
        """Computer players whose turn came while the bot was down play it now, and a turn left
        waiting for a confirmation its player never wants to give is ended."""
        for game_id in await self.service.games_waiting_on_computers():
            self.flow.drive_computers(game_id, await self.service.game_locale(game_id))
        for game_id in await self.service.games_waiting_on_humans():
            await self.flow.finish_automatic_turn(game_id, await self.service.game_locale(game_id))

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
    changed since the last sync, or always with `force`. Returns whether it synced."""
    guild = discord.Object(bot.settings.dev_guild) if bot.settings.dev_guild else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    payload = await command_payload(bot, guild)
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    key = f"commands:{'guild:' + str(guild.id) if guild else 'global'}"
    if not force and await bot.service.meta(key) == digest:
        log.info("commands unchanged since the last sync: not syncing")
        return False
    await bot.tree.sync(guild=guild)
    await bot.service.set_meta(key, digest)
    log.info("synced %d commands %s", len(payload), f"to guild {guild.id}" if guild else "globally")
    return True
