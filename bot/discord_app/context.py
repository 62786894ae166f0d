"""What every handler of the Discord adapter stands on: the bot as its handlers see it, the
language of a reply, and the one place where interactions are answered when something goes
wrong, and logged.

`BaseBot` holds the parts of the running bot that handlers use (the service, the turn flow,
background tasks); `client.AlhambraBot` only wires them up, so no handler imports the client.

Every command and component callback runs its body inside `handling(...)`: a `ServiceError`
(the user's mistake) becomes a short ephemeral reply in the user's language; anything else is
logged with the game id and interaction id and answered with an apology. Either way the game is
untouched, because the service writes nothing for a refused or failed request. One log line per
interaction records the command, game, latency and outcome (never the token or message text).
It also notes the language of the user's Discord client, which their DMs follow, and answers
in the language they chose when Discord has no client in it (Persian).

Everything logged while an interaction is handled, by any room, carries its interaction id and
command, its server, channel and user ids, and the game (and its version) once `note_game`
learned it: `handling` opens the `logs.bound` scope.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Coroutine, Iterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, cast

import discord
from discord.ext import commands

from ..config import Settings
from ..core.errors import GuildOnly, InvalidRequest, NoGameHere, ServiceError
from ..core.records import GameInfo
from ..core.results import ViewResult
from ..core.services import Services
from ..ops import logs, tasks
from ..text import i18n
from ..text.present import bounded, echo, error_text
from ..turns.flow import TurnFlow
from ..turns.reminders import Reminders
from ..turns.timers import TimerDispatcher

log = logging.getLogger("alhambra.interactions")


class BaseBot(commands.Bot):
    """The bot's state that handlers use; set up by `client.AlhambraBot.setup_hook`."""

    settings: Settings
    #: reminders and turn deadlines, running once the bot is set up
    timers: TimerDispatcher | None
    _services: Services | None
    _flow: TurnFlow | None
    _reminders: Reminders | None

    def __init__(self, settings: Settings, **options: Any) -> None:
        super().__init__(**options)
        self.settings = settings
        self.timers = None
        self._services = self._flow = self._reminders = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._busy = 0
        #: the Discord language last noted per user (`remember_language`)
        self.noted_locales: dict[int, str] = {}
        #: the language each user chose in their settings, and when it was read (`chosen_language`)
        self.chosen_locales: dict[int, tuple[float, str | None]] = {}
        self._quiet = asyncio.Event()
        self._quiet.set()

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the bot is not set up yet (setup_hook has not run)")
        return self._services

    @property
    def flow(self) -> TurnFlow:
        if self._flow is None:
            raise RuntimeError("the bot is not set up yet (setup_hook has not run)")
        return self._flow

    @property
    def reminders(self) -> Reminders:
        if self._reminders is None:
            raise RuntimeError("the bot is not set up yet (setup_hook has not run)")
        return self._reminders

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run background work (computer players' turns, DMs) that close() waits for."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)
        return task

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Counts interactions being handled, so shutdown lets them finish their writes."""
        self._busy += 1
        self._quiet.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._quiet.set()

    async def idle(self) -> None:
        """Wait until background work is done (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def calm(self) -> None:
        """Wait until no interaction is being handled and no background work is left (the end
        of an interaction may start some: a slash command is answered before its turn DM is
        queued)."""
        while True:
            await self._quiet.wait()
            await self.idle()
            await asyncio.sleep(0.01)
            if self._quiet.is_set() and not self._tasks:
                return


def _log_failure(task: asyncio.Task[None]) -> None:
    """Background work that failed says so in the log (asyncio would only complain at exit)."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)


def bot_of(interaction: discord.Interaction) -> BaseBot:
    """The bot an interaction reached: always ours, as only `AlhambraBot` registers handlers."""
    return cast(BaseBot, interaction.client)


def now_of(interaction: discord.Interaction) -> datetime:
    """The bot's clock, which a time written in words ("in 10 seconds") is counted from."""
    return bot_of(interaction).services.clock.now()


def user_locale(interaction: discord.Interaction) -> str:
    """The language for replies to this user: their Discord client's, else English; or the one
    they chose in their settings when Discord has no client in it (Persian: `chosen_language`).
    (Their DMs follow the language they chose in any case, else this one: `remember_language`.)"""
    override = interaction.extras.get("locale")
    return override or i18n.normalise(interaction.locale)


def server_locale(interaction: discord.Interaction) -> str:
    """The server's preferred language (its Discord "community" locale): only the default of a
    new game's language. A game's public side speaks `GameInfo.locale`, chosen when it was
    opened and kept, never this (a server's locale cannot be Persian, and may change)."""
    return i18n.normalise(interaction.guild_locale or interaction.locale)


def game_language(interaction: discord.Interaction, chosen: str | None) -> str:
    """The language of a game being opened: the host's `chosen` one of the catalogue's, else
    the server's. Anything else (a forged option) is refused before anything is posted."""
    if chosen is None:
        return server_locale(interaction)
    if chosen not in i18n.SUPPORTED:
        raise InvalidRequest(variant="language", language=echo(chosen))
    return chosen


def channel_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise GuildOnly()
    return interaction.channel_id


def note_game(interaction: discord.Interaction, game_id: int, version: int | None = None) -> None:
    """The interaction is about this game: its log line says so, and so does everything logged
    from now until it is handled (`version`: the game's as last read, when known)."""
    interaction.extras["game_id"] = game_id
    logs.bind(game=game_id, version=version)


async def current_game(interaction: discord.Interaction) -> GameInfo:
    """The lobby or running game of the interaction's channel (refused outside a server)."""
    game = await bot_of(interaction).services.lobby.game_in_channel(channel_id_of(interaction))
    note_game(interaction, game.id, game.version)
    return game


async def shown_game(interaction: discord.Interaction) -> GameInfo:
    """The game whose score sheet, log and boards the channel shows: the running one, else the
    last one that finished there (refused outside a server)."""
    game = await bot_of(interaction).services.lobby.game_to_show(channel_id_of(interaction))
    note_game(interaction, game.id, game.version)
    return game


def here(interaction: discord.Interaction, game: GameInfo) -> GameInfo:
    """The game, if the interaction comes from its own channel (or thread) and server. A
    component's custom id names its game, but a forged one can come from anywhere: refused as
    if there were no game here, so nothing of another channel's game is shown or changed."""
    if interaction.channel_id != game.channel_id or interaction.guild_id != game.guild_id:
        raise NoGameHere()
    note_game(interaction, game.id, game.version)
    return game


async def my_view(interaction: discord.Interaction, game_id: int) -> ViewResult:
    """What the interacting user may see of the game of this channel."""
    result = await bot_of(interaction).services.play.view(game_id, interaction.user.id)
    here(interaction, result.game)
    return result


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    file: discord.File | None = None,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Answer ephemerally, whether or not the interaction was already acknowledged. The text is
    cut to Discord's 2,000 characters: a longer one would not be sent at all."""
    extra: dict[str, Any] = {}
    if content is not None:
        extra["content"] = bounded(content)
    if embed is not None:
        extra["embed"] = embed
    if file is not None:
        extra["file"] = file
    if files:
        extra["files"] = files
    if view is not None:
        extra["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **extra)
    else:
        await interaction.response.send_message(ephemeral=True, **extra)


async def acknowledge(interaction: discord.Interaction, *, update: bool = False) -> None:
    """Tell Discord an answer is coming, before slow work (a picture, a computer's move): an
    interaction not answered within 3 seconds fails for the user, and pictures wait for a
    worker. `update`: the answer will redraw the message the component is on (a panel), else
    it is a new private message."""
    if interaction.response.is_done():
        return
    if update:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def redraw(interaction: discord.Interaction, **message: Any) -> None:
    """Replace the message the component is on, whether or not it was acknowledged first
    (`content`, `view`, `attachments` as discord.py takes them)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**message)
    else:
        await interaction.response.edit_message(**message)


async def report(interaction: discord.Interaction, error: BaseException) -> str:
    """Tell the user what went wrong; returns the outcome word for the log line."""
    locale = user_locale(interaction)
    if isinstance(error, ServiceError):
        text, outcome = error_text(error, locale), f"refused:{error.code}"
    else:
        log.error(
            "interaction failed: game=%s interaction=%s",
            interaction.extras.get("game_id"),
            interaction.id,
            exc_info=error,
        )
        text, outcome = i18n.t(locale, "error.unexpected"), "error"
    if interaction.extras.get("saved"):  # the move stands: never tell it as failed
        text = i18n.t(locale, "error.saved_anyway")
    try:
        await reply(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell the user about a failed interaction %s", interaction.id)
    return outcome


#: Users whose language a process remembers before it starts again from an empty memory.
NOTED_LOCALES_MAX = 100_000


async def remember_language(bot: BaseBot, interaction: discord.Interaction) -> None:
    """Note the language of the user's Discord client, for the DMs and reminders the bot sends
    them later (the service writes it only when it changed). Never raises: a language not
    remembered must not cost the user their answer."""
    try:
        locale = i18n.normalise(interaction.locale)
        user = interaction.user.id
        if bot.noted_locales.get(user) == locale:
            return  # noted already by this process: no database read on every click
        await bot.services.people.note_discord_locale(user, locale)
        if len(bot.noted_locales) >= NOTED_LOCALES_MAX:
            bot.noted_locales.clear()
        bot.noted_locales[user] = locale
    except Exception:
        log.warning("could not remember the language of user %s", interaction.user.id)


#: Seconds a process trusts the language it read from a user's settings: a choice made through
#: another process reaches this one's replies within this time (this process's own at once).
CHOSEN_FOR_S = 60.0


async def chosen_language(bot: BaseBot, interaction: discord.Interaction) -> None:
    """Reply to a user who chose a language Discord offers no client for (`i18n.CHOSEN_ONLY`:
    Persian) in that language: their interactions carry their client's, which is never it.
    Read from their settings at most once a minute per user. Never raises: a reply in the
    client's language is better than none."""
    try:
        user = interaction.user.id
        now = time.monotonic()
        seen = bot.chosen_locales.get(user)
        if seen is None or now - seen[0] > CHOSEN_FOR_S:
            locale = (await bot.services.people.preferences(user)).language
            if len(bot.chosen_locales) >= NOTED_LOCALES_MAX:
                bot.chosen_locales.clear()
            bot.chosen_locales[user] = (now, locale)
        else:
            locale = seen[1]
        note_choice(bot, interaction, locale)
    except Exception:
        log.warning("could not read the chosen language of user %s", interaction.user.id)


def note_choice(bot: BaseBot, interaction: discord.Interaction, locale: str | None) -> None:
    """The language a user chose (None: their Discord client's), from now on for this
    interaction's replies and, in this process, for their next ones."""
    bot.chosen_locales[interaction.user.id] = (time.monotonic(), locale)
    if locale in i18n.CHOSEN_ONLY:
        interaction.extras["locale"] = locale
    elif interaction.extras.get("locale") in i18n.CHOSEN_ONLY:
        del interaction.extras["locale"]


@asynccontextmanager
async def handling(interaction: discord.Interaction, command: str) -> AsyncIterator[None]:
    started = time.perf_counter()
    outcome = "ok"
    client = interaction.client
    busy = client.busy() if isinstance(client, BaseBot) else contextlib.nullcontext()
    with logs.bound(
        interaction=interaction.id,
        command=command,
        guild=interaction.guild_id,
        channel=interaction.channel_id,
        user=interaction.user.id,
        game=interaction.extras.get("game_id"),
    ):
        try:
            with busy:
                if isinstance(client, BaseBot):
                    await remember_language(client, interaction)
                    await chosen_language(client, interaction)
                yield
        except (Exception, asyncio.CancelledError) as exc:
            if isinstance(exc, asyncio.CancelledError) and tasks.being_cancelled():
                raise  # the bot is stopping: nobody to answer
            # the log says what the user was meant to see, even if telling them fails
            outcome = f"refused:{exc.code}" if isinstance(exc, ServiceError) else "error"
            outcome = await report(interaction, exc)
        finally:
            latency_ms = round((time.perf_counter() - started) * 1000, 1)
            log.info(
                "interaction command=%s game=%s user=%s latency_ms=%.1f outcome=%s",
                command,
                interaction.extras.get("game_id", "-"),
                interaction.user.id,
                latency_ms,
                outcome,
                # the same facts as fields of their own, for the JSON lines
                extra={"latency_ms": latency_ms, "outcome": outcome},
            )


def note_saved(interaction: discord.Interaction) -> None:
    """The user's move is in the store: whatever fails after this (a picture, an edit) is
    told as such, never as a move that failed."""
    interaction.extras["saved"] = True


def selected(interaction: discord.Interaction) -> list[str]:
    """The values a select sent (a forged interaction may send none, or not strings)."""
    data: Any = interaction.data or {}
    values = data.get("values") if isinstance(data, dict) else None
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []
