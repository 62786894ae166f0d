"""`/alhambra-history`: what a game leaves behind, in a command of its own.

`/alhambra` holds the play (23 of Discord's 25 subcommands), so looking back gets its own
top-level command: `replay` steps through a game turn
by turn, the table as it stood after each, `games` lists the server's finished games (or a
player's, a page of 10 at a time), `review` shows where the strongest computer judgement
disagreed with a player's moves, `export` attaches a finished game as a file
(`core.game_file`, for `python -m bot replay`), and `stats` is a player's record with a
picture of it, or with `versus` two players' games together (a player may hide their record
from others).
Its words are `text.history`'s. Everything is shown in an answer only the asker sees, so
stepping through a replay does not fill the channel: the public table and every Alhambra as
they stood (`render.boards`, what anyone saw), and to a player of the game, a button away,
their own hand as it was then (never anyone else's). Each turn a review lists has a button that
opens the replay where that turn began. Only the games the asker could see
are shown, listed or counted: a game of a channel they cannot view is "no such game" (`sight`).
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from ..core import game_file
from ..core.errors import (
    GameNotOver,
    GameNotStarted,
    GuildOnly,
    InvalidRequest,
    NoGameHere,
    NotAPlayer,
    SeasonRefused,
    StatsHidden,
    VersusSelf,
)
from ..core.results import ArchivedGame, GameLog
from ..text import i18n
from ..text.history import archive_choice, archive_line, replay_text, stats_text, versus_text
from ..text.present import bounded, player_names, review_lines
from ..text.ratings import command as season_command
from ..text.ratings import leaderboard_text, rating_line
from ..turns import computers
from .components import GameItem
from .context import (
    BaseBot,
    acknowledge,
    bot_of,
    handling,
    redraw,
    reply,
    selected,
    shown_game,
    user_locale,
)
from .markup import button, inert
from .pictures import (
    TABLE_FILE,
    boards_file,
    hand_file,
    review_file,
    scores_file,
    stats_file,
    table_file,
)
from .sight import seen_game, sight_of
from .translator import T

#: games listed by `games`
ARCHIVE_SIZE = 10


async def show_replay(
    interaction: discord.Interaction,
    game_id: int,
    step: int | None,
    *,
    turn: bool = False,
    exact: bool = False,
    hand: bool = False,
    before: int | None = None,
) -> None:
    """A game after its `step`-th turn (the last if None), with buttons to step through it:
    the table, and every Alhambra as it stood then (or, with `hand`, the asker's own hand, if
    they played). `turn`: a button was pressed, so its message changes; `exact`: the step was
    named by a button, so a step past the game's end is refused, not clamped; `before`: opened
    from a review's line about that turn (the position it was played in)."""
    locale = user_locale(interaction)
    services = bot_of(interaction).services
    game = await seen_game(interaction, await services.lobby.game(game_id))
    if game.seed is None:
        raise GameNotStarted()
    await acknowledge(interaction, update=turn)  # checked: now the replay and its picture
    shown = await services.archive.replay(game.id, step, user_id=interaction.user.id, exact=exact)
    if before is not None and before > shown.steps:  # a review's turn the game never had
        raise InvalidRequest(variant="replay_step", game=game.id, steps=shown.steps)
    names = player_names(locale, game)
    pictures = [await table_file(shown.view, names, locale)]
    mine = shown.own is not None and shown.seat is not None
    hand = hand and mine
    if hand and shown.own is not None and shown.seat is not None:
        # the asker's own hand, never another's
        pictures.append(await hand_file(shown.own, game.name_at(shown.seat), locale))
    else:  # every Alhambra as it stood then: what anyone saw of the boards
        pictures.append(await boards_file(shown.view, names, locale))
    # two pictures side by side would each be shown at half size and cropped: the table goes
    # into an embed, as in a turn message (it is drawn for that box), and the other picture is
    # the message's one file, shown at the attachment's size (both are drawn for theirs)
    embed = discord.Embed().set_image(url=f"attachment://{TABLE_FILE}")
    ui = discord.ui.View(timeout=None)
    stepper = ReplayHandButton if hand else ReplayButton
    targets = (
        ("button.replay_first", 0),
        ("button.replay_back", shown.step - 1),
        ("button.replay_next", shown.step + 1),
        ("button.replay_last", shown.steps),
    )
    for slot, (key, target) in enumerate(targets):
        ui.add_item(
            stepper(
                game.id,
                max(0, min(target, shown.steps)),
                i18n.t(locale, key),
                disabled=not 0 <= target <= shown.steps or target == shown.step,
                slot=slot,
            )
        )
    ui.add_item(SheetButton(game.id, shown.step, i18n.t(locale, "button.scores")))
    if mine:  # a player switches between every Alhambra and their own hand, at the same step
        other = ReplayButton if hand else ReplayHandButton
        key = "button.boards" if hand else "button.replay_hand"
        ui.add_item(other(game.id, shown.step, i18n.t(locale, key), slot=4, row=1))
    text = replay_text(locale, shown)
    if before is not None and shown.step == before - 1:
        text = bounded(f"-# {i18n.t(locale, 'replay.from_review', turn=before)}\n{text}")
    if turn:
        await redraw(interaction, content=text, embed=embed, attachments=pictures, view=ui)
    else:
        await reply(interaction, text, embed=embed, files=pictures, view=ui)


async def show_sheet(interaction: discord.Interaction, game_id: int, step: int) -> None:
    """The score sheet of a game of this server as it stood after its `step`-th turn (the
    last round held in detail), as a new private answer beside the replay."""
    locale = user_locale(interaction)
    services = bot_of(interaction).services
    game = await seen_game(interaction, await services.lobby.game(game_id))
    if game.seed is None:
        raise GameNotStarted()
    await acknowledge(interaction)
    shown = await services.archive.replay(game.id, step, exact=True)
    held = shown.view.scoring_rounds
    sheet = await scores_file(
        shown.view,
        player_names(locale, game),
        locale,
        detail=held[-1].round_no if held else None,
    )
    await reply(interaction, file=sheet)


class SheetButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:rs:{game_id}:{step}",
    step=r"\d{1,4}",
):
    """The score sheet at a replay's step, in an answer of its own."""

    def __init__(self, game_id: int, step: int, label: str = "…") -> None:
        self.game_id, self.step = game_id, step
        super().__init__(button(self.custom_id_for(game_id=game_id, step=step), label, row=1))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "replay:scores"):
            await show_sheet(interaction, self.game_id, self.step)


class ReplayButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:r:{game_id}:{step}:{slot}",
    step=r"\d{1,4}",
    slot=r"\d",
):
    """Steps a replay to another turn, showing every Alhambra: the custom id names the game
    and the step (and which of the buttons it is, as Discord wants the ids of a message to
    differ). A step past the game's end is refused, the message left as it was."""

    def __init__(
        self,
        game_id: int,
        step: int,
        label: str = "…",
        *,
        disabled: bool = False,
        slot: int = 0,
        row: int | None = None,
    ) -> None:
        self.game_id, self.step = game_id, step
        super().__init__(
            button(
                self.custom_id_for(game_id=game_id, step=step, slot=slot),
                label,
                disabled=disabled,
                row=row,
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "replay:step"):
            await show_replay(interaction, self.game_id, self.step, turn=True, exact=True)


class ReplayHandButton(
    ReplayButton,
    custom_id="alh:rh:{game_id}:{step}:{slot}",
    step=r"\d{1,4}",
    slot=r"\d",
):
    """Steps a replay to another turn showing the asker's own hand beside the table (to a
    player of the game; anyone else is shown every Alhambra, as nothing of theirs is there)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "replay:step"):
            await show_replay(
                interaction, self.game_id, self.step, turn=True, exact=True, hand=True
            )


class PositionButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:rp:{game_id}:{turn}",
    turn=r"\d{1,4}",
):
    """A review line's position: the replay, in an answer of its own, as the game stood when
    that turn began (after the turn before it), with every Alhambra."""

    def __init__(self, game_id: int, turn: int, label: str = "…", *, row: int = 0) -> None:
        self.game_id, self.turn = game_id, turn
        super().__init__(button(self.custom_id_for(game_id=game_id, turn=turn), label, row=row))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "review:position"):
            if self.turn < 1:  # turns are counted from 1: a forged id
                raise InvalidRequest()
            await show_replay(
                interaction, self.game_id, self.turn - 1, exact=True, before=self.turn
            )


#: the review's Show position buttons: Discord's five rows of five
POSITIONS_MAX = 25


def position_buttons(game_id: int, turns: list[int], locale: str) -> discord.ui.View | None:
    """One Show position button per turn a review lists, five to a row."""
    if not turns:
        return None
    ui = discord.ui.View(timeout=None)
    for index, number in enumerate(turns[:POSITIONS_MAX]):
        label = i18n.t(locale, "button.show_position", turn=number)
        ui.add_item(PositionButton(game_id, number, label, row=index // 5))
    return ui


async def show_review(
    interaction: discord.Interaction, game_id: int | None, player: discord.User | None
) -> None:
    """Where the strongest judgement disagreed with a player (the asker by default) in a
    finished game of this server: text and a bar chart, only to the asker. Everything in it is
    what the table saw (the actions, and hands the public log shows to everyone)."""
    locale = user_locale(interaction)
    services = bot_of(interaction).services
    if game_id is None:
        game_id = (await shown_game(interaction)).id
    game = await seen_game(interaction, await services.lobby.game(game_id))
    await services.play.finished_log(game.id)  # refused at once for a running game
    whose = player or interaction.user
    mine = game.seat_of(whose.id)
    if mine is None or mine.seat is None:
        if player is None:
            raise NotAPlayer()
        raise NotAPlayer(variant="review", name=inert(whose.display_name))
    await acknowledge(interaction)  # the closest calls played to the end: a few seconds
    done, turns = await computers.review(services, game.id, mine.seat)
    name = player_names(locale, game)[mine.seat]
    text = "\n".join(review_lines(locale, game.id, name, done))
    picture = await review_file(done, name, turns, locale)
    positions = position_buttons(game.id, [d.turn for d in done.top], locale)
    await reply(interaction, bounded(text), file=picture, view=positions)


def _game_file_text(log: GameLog) -> str:
    """A finished game's file (`core.game_file`): replayed for its results (off the loop)."""
    actions = [entry.action for entry in log.entries]
    final = game_file.record(log.game, actions).replay()
    return game_file.dumps(game_file.record(log.game, actions, final))


async def show_export(interaction: discord.Interaction, game_id: int | None) -> None:
    """A finished game of this server as a file (docs/game-file.md), only to the asker: what
    the table saw in the end (the deal follows from the seed, and every hand was public), and
    refused for a running game, whose seed would tell the cards still to come."""
    locale = user_locale(interaction)
    services = bot_of(interaction).services
    if game_id is None:
        game_id = (await shown_game(interaction)).id
    game = await seen_game(interaction, await services.lobby.game(game_id))
    if game.status not in ("finished", "abandoned"):
        raise GameNotOver(variant="export")
    log = await services.play.finished_log(game.id)  # an abandoned game: refused as over
    await acknowledge(interaction)
    text = await asyncio.to_thread(_game_file_text, log)
    name = f"alhambra-game-{game.id}.json"
    attached = discord.File(io.BytesIO(text.encode()), filename=name)
    await reply(
        interaction, i18n.t(locale, "game_file.attached", game=game.id, file=name), file=attached
    )


async def show_archive(
    interaction: discord.Interaction,
    user_id: int | None,
    offset: int = 0,
    *,
    name: str | None = None,
    turn: bool = False,
) -> None:
    """A page of this server's finished games, the latest first (only `user_id`'s if given),
    with buttons to the newer and older pages. The server is always the interaction's, never
    a button's. `name`: the player as the command named them (a button names them as they sat
    in the games listed). `turn`: a page button was pressed, so its message turns the page; a
    page past the end is refused before anything changes."""
    locale = user_locale(interaction)
    if interaction.guild_id is None:
        raise GuildOnly()
    page = await bot_of(interaction).services.archive.finished_games(
        interaction.guild_id,
        user_id=user_id,
        limit=ARCHIVE_SIZE,
        offset=offset,
        sight=sight_of(interaction),  # only the games of channels the asker can see
    )
    if user_id is None:
        title = i18n.t(locale, "archive.title")
    else:
        if name is None:
            seat = next((s for e in page.games if (s := e.game.seat_of(user_id))), None)
            name = inert(seat.name) if seat is not None else f"<@{user_id}>"
        title = i18n.t(locale, "archive.title_player", name=name)
    ui: discord.ui.View | None = None
    if page.offset or page.more:
        title += f" · {i18n.t(locale, 'archive.page', page=page.number)}"
        ui = discord.ui.View(timeout=None)
        whose = user_id or 0
        ui.add_item(
            ArchiveButton(
                max(0, page.offset - page.size),
                whose,
                i18n.t(locale, "button.archive_newer"),
                disabled=not page.offset,
            )
        )
        ui.add_item(
            ArchiveButton(
                page.offset + page.size,
                whose,
                i18n.t(locale, "button.archive_older"),
                disabled=not page.more,
            )
        )
    if page.games:
        lines = [archive_entry(locale, entry) for entry in page.games]
        hint = i18n.t(locale, "archive.hint")
        text = bounded(f"**{title}**\n" + "\n".join(lines) + f"\n{hint}")
        ui = ui or discord.ui.View(timeout=None)
        ui.add_item(
            OpenGameSelect(
                page.offset,
                [(e, archive_label(locale, e)) for e in page.games],
                i18n.t(locale, "archive.open"),
            )
        )
    else:
        text = f"**{title}**\n{i18n.t(locale, 'archive.empty')}"
    if turn:
        await redraw(interaction, content=text, view=ui)
    else:
        await reply(interaction, text, view=ui)


def archive_entry(locale: str, entry: ArchivedGame) -> str:
    """A game's line in the archive; a rated game abandoned while it ran says so."""
    line = archive_line(locale, entry)
    if entry.game.status == "abandoned":
        return i18n.t(locale, "archive.abandoned", line=line)
    return line


def archive_label(locale: str, entry: ArchivedGame) -> str:
    """A game in the archive's menu; an abandoned game has no winner."""
    if entry.game.status == "abandoned":
        return i18n.t(locale, "archive.choice_abandoned", game=entry.game.id)
    return archive_choice(locale, entry)


class OpenGameSelect(
    GameItem[discord.ui.Select[discord.ui.View]],
    custom_id="alh:ag:{offset}",
    offset=r"0|[1-9]\d{0,6}",
):
    """Opens one of a page's games: its replay at the end (the results, the score sheet a
    button away), in an answer of its own. The game named is checked to be this server's."""

    def __init__(
        self,
        offset: int,
        games: list[tuple[ArchivedGame, str]] | None = None,
        placeholder: str = "…",
    ) -> None:
        self.offset = offset
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=self.custom_id_for(offset=offset),
            placeholder=placeholder[:150],
            options=[
                discord.SelectOption(label=label[:100], value=str(entry.game.id))
                for entry, label in games or []
            ]
            or [discord.SelectOption(label="…", value="0")],
            row=2,
        )
        super().__init__(select)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "games:open"):
            values = selected(interaction)
            value = values[0] if values else ""
            if not (value.isascii() and value.isdigit() and 1 <= len(value) <= 18):
                raise NoGameHere(variant="unknown")  # not a game number at all
            await show_replay(interaction, int(value), None)


class ArchiveButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:a:{offset}:{user_id}",
    offset=r"0|[1-9]\d{0,6}",
    user_id=r"0|[1-9]\d{0,18}",
):
    """Turns the archive to another page: the custom id names the page's offset (games
    before it) and whose games are listed (a user id, 0 for the whole server). The server is
    the interaction's: a button pressed elsewhere lists that server's games."""

    def __init__(
        self, offset: int, user_id: int, label: str = "…", *, disabled: bool = False
    ) -> None:
        self.offset, self.user_id = offset, user_id
        super().__init__(
            button(self.custom_id_for(offset=offset, user_id=user_id), label, disabled=disabled)
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "games:page"):
            await show_archive(interaction, self.user_id or None, self.offset, turn=True)


def manages_server(interaction: discord.Interaction) -> bool:
    """A server's moderator, as the bot counts them for moderators' actions (abandoning
    anyone's game, starting a season): a member with Manage Server."""
    return bool(interaction.permissions and interaction.permissions.manage_guild)


class SeasonButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:season:{season}",
    season=r"[1-9]\d{0,3}",
):
    """Confirms `/alhambra-history new-season`: closes season `season` of the server where it
    is pressed (the interaction's, never the button's), for a moderator, once (pressed again,
    or after another moderator started one, it says the season has ended)."""

    def __init__(self, season: int, label: str = "…") -> None:
        self.season = season
        super().__init__(
            button(self.custom_id_for(season=season), label, style=discord.ButtonStyle.danger)
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "new-season:confirm"):
            locale = user_locale(interaction)
            if interaction.guild_id is None:
                raise GuildOnly()
            started = await bot_of(interaction).services.archive.new_season(
                interaction.guild_id,
                interaction.user.id,
                self.season,
                is_manager=manages_server(interaction),
            )
            text = i18n.t(
                locale,
                "season.started",
                season=started,
                closed=self.season,
                command=season_command(locale, self.season),
            )
            await redraw(interaction, content=text, view=None)


@app_commands.guild_only()
class HistoryCommands(
    commands.GroupCog,
    group_name="alhambra-history",
    group_description=T("cmd.history.description"),
):
    """The `/alhambra-history` group."""

    def __init__(self, bot: BaseBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=T("cmd.replay.name"), description=T("cmd.replay.description"))
    @app_commands.describe(
        game=T("cmd.replay.game.description"), turn=T("cmd.replay.turn.description")
    )
    async def replay(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 10**15] | None = None,
        turn: app_commands.Range[int, 0, 9999] = 0,
    ) -> None:
        async with handling(interaction, "replay"):
            game_id = game if game is not None else (await shown_game(interaction)).id
            await show_replay(interaction, game_id, turn)  # past the end: the last turn

    @app_commands.command(name=T("cmd.review.name"), description=T("cmd.review.description"))
    @app_commands.describe(
        game=T("cmd.review.game.description"), player=T("cmd.review.player.description")
    )
    async def review(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 10**15] | None = None,
        player: discord.User | None = None,
    ) -> None:
        async with handling(interaction, "review"):
            await show_review(interaction, game, player)

    @app_commands.command(name=T("cmd.export.name"), description=T("cmd.export.description"))
    @app_commands.describe(game=T("cmd.export.game.description"))
    async def export(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, 10**15] | None = None,
    ) -> None:
        async with handling(interaction, "export"):
            await show_export(interaction, game)

    @app_commands.command(name=T("cmd.games.name"), description=T("cmd.games.description"))
    @app_commands.describe(player=T("cmd.games.player.description"))
    async def games(
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        async with handling(interaction, "games"):
            if player is None:
                await show_archive(interaction, None)
            else:
                await show_archive(interaction, player.id, name=inert(player.display_name))

    @app_commands.command(
        name=T("cmd.leaderboard.name"), description=T("cmd.leaderboard.description")
    )
    @app_commands.describe(season=T("cmd.leaderboard.season.description"))
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        season: app_commands.Range[int, 1, 9999] | None = None,
    ) -> None:
        async with handling(interaction, "leaderboard"):
            locale = user_locale(interaction)
            if interaction.guild_id is None:
                raise GuildOnly()
            board = await bot_of(interaction).services.archive.season_board(
                interaction.guild_id, season=season, user_id=interaction.user.id
            )
            await reply(interaction, bounded(leaderboard_text(locale, board, interaction.user.id)))

    @app_commands.command(
        name=T("cmd.new_season.name"), description=T("cmd.new_season.description")
    )
    async def new_season(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "new-season"):
            locale = user_locale(interaction)
            if interaction.guild_id is None:
                raise GuildOnly()
            if not manages_server(interaction):
                raise SeasonRefused()
            season = await bot_of(interaction).services.archive.current_season(interaction.guild_id)
            ui = discord.ui.View(timeout=None)
            label = i18n.t(locale, "button.season_confirm", next=season + 1)
            ui.add_item(SeasonButton(season, label))
            text = i18n.t(
                locale,
                "season.confirm",
                season=season,
                next=season + 1,
                command=season_command(locale, season),
            )
            await reply(interaction, text, view=ui)

    @app_commands.command(name=T("cmd.stats.name"), description=T("cmd.stats.description"))
    @app_commands.describe(
        player=T("cmd.stats.player.description"),
        everywhere=T("cmd.stats.everywhere.description"),
        hide=T("cmd.stats.hide.description"),
        versus=T("cmd.stats.versus.description"),
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        everywhere: bool = False,
        hide: bool | None = None,
        versus: discord.User | None = None,
    ) -> None:
        async with handling(interaction, "stats"):
            locale = user_locale(interaction)
            services = bot_of(interaction).services
            me = interaction.user
            if hide is not None:  # about one's own record only, whoever else was named
                await services.people.set_stats_hidden(me.id, hide)
                await reply(
                    interaction, i18n.t(locale, "stats.hidden_now" if hide else "stats.shown_now")
                )
                return
            whose = player or me
            name = inert(whose.display_name)
            guild_id = None if everywhere else interaction.guild_id
            if versus is not None:
                await show_versus(interaction, whose, versus, guild_id)
                return
            hidden = await services.people.stats_hidden(whose.id)
            if hidden and whose.id != me.id:
                raise StatsHidden(variant="named", name=name)
            sight = sight_of(interaction)  # only the games the asker could see
            await acknowledge(interaction)  # replaying the games takes a moment
            record = await services.archive.player_stats(whose.id, guild_id=guild_id, sight=sight)
            text = stats_text(locale, name, record, everywhere=everywhere)
            if guild_id is not None:  # the leaderboard's figure, where they stand on it
                board = await services.archive.season_board(guild_id, limit=1, user_id=whose.id)
                if board.mine is not None:
                    text += "\n" + rating_line(locale, board.season, board.mine)
            if everywhere and whose.id != me.id:
                text += f"\n{i18n.t(locale, 'stats.everywhere_seen')}"
            if hidden:
                text += f"\n{i18n.t(locale, 'stats.is_hidden')}"
            if not record.games:
                await reply(interaction, bounded(text))
                return
            picture = await stats_file(record, whose.display_name, locale)
            await reply(interaction, bounded(text), file=picture)


async def show_versus(
    interaction: discord.Interaction,
    whose: discord.User | discord.Member,
    other: discord.User | discord.Member,
    guild_id: int | None,
) -> None:
    """`whose` against `other` over their finished games together (those the asker could
    see): refused against oneself, or when either keeps their record hidden and is not the one
    asking."""
    locale = user_locale(interaction)
    services = bot_of(interaction).services
    if other.id == whose.id:
        raise VersusSelf()
    for person in (whose, other):
        if person.id != interaction.user.id and await services.people.stats_hidden(person.id):
            raise StatsHidden(variant="named", name=inert(person.display_name))
    sight = sight_of(interaction)  # only the games the asker could see
    await acknowledge(interaction)  # replaying the games takes a moment
    record = await services.archive.head_to_head(whose.id, other.id, guild_id=guild_id, sight=sight)
    names = inert(whose.display_name), inert(other.display_name)
    text = versus_text(locale, *names, record, everywhere=guild_id is None)
    if guild_id is None and interaction.user.id not in (whose.id, other.id):
        text += f"\n{i18n.t(locale, 'stats.everywhere_seen')}"
    await reply(interaction, bounded(text))
