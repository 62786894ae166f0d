"""The discord.py application: wiring only (database, cogs, persistent buttons, translator).

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
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from .clock import Clock
from .cogs import AlhambraCog
from .config import Settings
from .service import GameService
from .store import Store
from .timers import TimerDispatcher, bot_timers
from .translator import CatalogueTranslator
from .ui.lobby import LobbyButton
from .ui.panel import PanelButton, PanelSelect
from .ui.respond import report
from .ui.turn import BoardSelect, TurnButton

log = logging.getLogger("alhambra")

SyncMode = Literal["auto", "force", "never"]
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem], ...] = (
    LobbyButton,
    TurnButton,
    PanelButton,
    PanelSelect,
    BoardSelect,
)


def intents() -> discord.Intents:
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class AlhambraBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        sync: SyncMode = "auto",
        clock: Clock | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents(), help_command=None
        )
        self.settings = settings
        self.sync_mode: SyncMode = sync
        self._clock = clock
        self._seed_source = seed_source
        self.store: Store | None = None
        self._service: GameService | None = None
        self.synced: bool = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._handling = 0
        self._quiet = asyncio.Event()
        self._quiet.set()
        self._computer_locks: dict[int, asyncio.Lock] = {}
        #: reminders and turn deadlines (bot/timers.py), running once the bot is set up
        self.timers: TimerDispatcher | None = None

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot is not set up yet (setup_hook has not run)")
        return self._service

    async def setup_hook(self) -> None:
        self.store = await Store.open(
            self.settings.db_path,
            synchronous="NORMAL" if self.settings.db_sync == "NORMAL" else "FULL",
        )
        self._service = GameService(self.store, clock=self._clock, seed_source=self._seed_source)
        await self.tree.set_translator(CatalogueTranslator())
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        await self.add_cog(AlhambraCog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.timers = bot_timers(self)
        self.timers.start()
        if self.sync_mode != "never":
            self.synced = await sync_commands(self, force=self.sync_mode == "force")

    async def on_ready(self) -> None:
        self.spawn(self._resume_computers())

    async def _resume_computers(self) -> None:
        """Computer players whose turn came while the bot was down play it now."""
        from .cogs.play import play_computers

        for game_id in await self.service.games_waiting_on_computers():
            self.spawn(play_computers(self, game_id, await self.game_locale(game_id)))

    async def game_locale(self, game_id: int) -> str:
        """The language of a game's public messages: its server's, as seen when it was created."""
        return await self.service.meta(f"locale:{game_id}") or "en"

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run background work (computer players' turns) that close() waits for."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    @contextlib.contextmanager
    def handling(self) -> Iterator[None]:
        """Counts interactions being handled, so shutdown lets them finish their writes."""
        self._handling += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._handling -= 1
            if not self._handling:
                self._quiet.set()

    def computer_lock(self, game_id: int) -> asyncio.Lock:
        """One driver of computer players per game at a time."""
        return self._computer_locks.setdefault(game_id, asyncio.Lock())

    async def idle(self) -> None:
        """Wait until background work is done (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        try:
            if self.timers is not None:
                await self.timers.stop()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._quiet.wait(), timeout=10)
            if self._tasks:
                await asyncio.wait(list(self._tasks), timeout=10)
            await super().close()
        finally:
            if self.store is not None:
                await self.store.close()
                self.store = None

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Errors that escape a command's own handling (argument conversion, checks)."""
        original = getattr(error, "original", error)
        await report(interaction, original)


async def command_payload(bot: commands.Bot, guild: discord.abc.Snowflake | None) -> list[dict]:
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
