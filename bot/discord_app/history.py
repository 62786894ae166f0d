"""`/alhambra-history`: what a game leaves behind, in a command of its own.

`/alhambra` holds the play (22 of Discord's 25 subcommands, 3,100 of a command's 4,000
characters), so looking back gets its own top-level command: `replay` steps through a game turn
by turn, the table as it stood after each, `games` lists the server's finished games (or a
player's, a page of 10 at a time), `review` shows where the strongest computer judgement
disagreed with a player's moves, and `stats` is a player's record with a picture of it, or
with `versus` two players' games together (a player may hide their record from others).
Everything is shown in an answer only the asker sees, so stepping through a replay does not
fill the channel: the public table, and to a player of the game their own hand as it was
then (never anyone else's). Only the games the asker could see are shown, listed or counted: a
game of a channel they cannot view is "no such game" (`sight`).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engine import Building, GameStarted

from ..core.errors import GameNotStarted, GuildOnly, NoGameHere, NotAPlayer, StatsHidden, VersusSelf
from ..core.results import ArchivedGame, ReplayStep
from ..core.stats import HeadToHead, PlayerStats
from ..text import i18n
from ..text.present import log_paragraphs, player_names, results_lines, review_lines, start_lines
from ..turns import computers
from .components import GameItem
from .context import (
    BaseBot,
    acknowledge,
    bot_of,
    bounded,
    handling,
    redraw,
    reply,
    selected,
    shown_game,
    user_locale,
)
from .markup import button, inert
from .pictures import TABLE_FILE, hand_file, review_file, scores_file, stats_file, table_file
from .sight import seen_game, sight_of
from .translator import T

#: games listed by `games`
ARCHIVE_SIZE = 10


def replay_text(locale: str, step: ReplayStep) -> str:
    game = step.log.game
    names = player_names(locale, game)
    if step.step == 0:
        head = i18n.t(locale, "replay.title_start", game=game.id, steps=step.steps)
        started = next(e for e in step.log.setup if isinstance(e, GameStarted))
        body = "\n".join(start_lines(locale, names, started))
    else:
        head = i18n.t(locale, "replay.title", game=game.id, step=step.step, steps=step.steps)
        body = log_paragraphs(locale, names, step.log)[step.step - 1]
    standing = ", ".join(f"{rank}. {names[seat]} {score}" for rank, seat, score in step.ranking)
    text = f"**{head}**\n{body}\n{i18n.t(locale, 'replay.standing', standing=standing)}"
    if step.step == step.steps and step.view.is_over:  # the end: the results, as they were told
        title = i18n.t(locale, "results.title")
        text += "\n\n" + "\n".join([f"**{title}**", *results_lines(locale, names, step.view)])
    return bounded(text)


async def show_replay(
    interaction: discord.Interaction, game_id: int, step: int | None, *, turn: bool = False
) -> None:
    """A game after its `step`-th turn (the last if None), with buttons to step through it;
    `turn`: a button was pressed, so its message changes."""
    locale = user_locale(interaction)
    service = bot_of(interaction).service
    game = await seen_game(interaction, await service.game(game_id))
    if game.seed is None:
        raise GameNotStarted()
    await acknowledge(interaction, update=turn)  # checked: now the replay and its picture
    shown = await service.replay(game.id, step, user_id=interaction.user.id)
    pictures = [await table_file(shown.view, player_names(locale, game), locale)]
    embed: discord.Embed | None = None
    if shown.own is not None and shown.seat is not None:  # the asker's own hand, never another's
        pictures.append(await hand_file(shown.own, game.name_at(shown.seat), locale))
        # two pictures side by side would each be shown at half size and cropped: the table
        # goes into an embed, as in a turn message (it is drawn for that box), and the hand
        # is the message's one picture
        embed = discord.Embed().set_image(url=f"attachment://{TABLE_FILE}")
    ui = discord.ui.View(timeout=None)
    targets = (
        ("button.replay_first", 0),
        ("button.replay_back", shown.step - 1),
        ("button.replay_next", shown.step + 1),
        ("button.replay_last", shown.steps),
    )
    for slot, (key, target) in enumerate(targets):
        ui.add_item(
            ReplayButton(
                game.id,
                max(0, min(target, shown.steps)),
                i18n.t(locale, key),
                disabled=not 0 <= target <= shown.steps or target == shown.step,
                slot=slot,
            )
        )
    ui.add_item(SheetButton(game.id, shown.step, i18n.t(locale, "button.scores")))
    text = replay_text(locale, shown)
    if turn:
        await redraw(interaction, content=text, embed=embed, attachments=pictures, view=ui)
    else:
        await reply(interaction, text, embed=embed, files=pictures, view=ui)


async def show_sheet(interaction: discord.Interaction, game_id: int, step: int) -> None:
    """The score sheet of a game of this server as it stood after its `step`-th turn (the
    last round held in detail), as a new private answer beside the replay."""
    locale = user_locale(interaction)
    service = bot_of(interaction).service
    game = await seen_game(interaction, await service.game(game_id))
    if game.seed is None:
        raise GameNotStarted()
    await acknowledge(interaction)
    shown = await service.replay(game.id, step)
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
    """Steps a replay to another turn: the custom id names the game and the step (and which of
    the four buttons it is, as Discord wants the ids of a message to differ)."""

    def __init__(
        self,
        game_id: int,
        step: int,
        label: str = "…",
        *,
        disabled: bool = False,
        slot: int = 0,
    ) -> None:
        self.game_id, self.step = game_id, step
        super().__init__(
            button(
                self.custom_id_for(game_id=game_id, step=step, slot=slot), label, disabled=disabled
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "replay:step"):
            await show_replay(interaction, self.game_id, self.step, turn=True)


async def show_review(
    interaction: discord.Interaction, game_id: int | None, player: discord.User | None
) -> None:
    """Where the strongest judgement disagreed with a player (the asker by default) in a
    finished game of this server: text and a bar chart, only to the asker. Everything in it is
    what the table saw (the actions, and hands the public log shows to everyone)."""
    locale = user_locale(interaction)
    service = bot_of(interaction).service
    if game_id is None:
        game_id = (await shown_game(interaction)).id
    game = await seen_game(interaction, await service.game(game_id))
    await service.finished_log(game.id)  # refused at once for a running game
    whose = player or interaction.user
    mine = game.seat_of(whose.id)
    if mine is None or mine.seat is None:
        if player is None:
            raise NotAPlayer()
        raise NotAPlayer(variant="review", name=inert(whose.display_name))
    await acknowledge(interaction)  # the replay and the look-ahead take a second or two
    done, turns = await computers.review(service, game.id, mine.seat)
    name = player_names(locale, game)[mine.seat]
    text = "\n".join(review_lines(locale, game.id, name, done))
    picture = await review_file(done, name, turns, locale)
    await reply(interaction, bounded(text), file=picture)


def archive_line(locale: str, entry: ArchivedGame) -> str:
    game = entry.game
    names = player_names(locale, game)
    ended = int(game.ended_at.timestamp()) if game.ended_at else 0
    result = ", ".join(f"{rank}. {names[seat]} {score}" for rank, seat, score in entry.ranking)
    return i18n.t(
        locale,
        "archive.line",
        game=game.id,
        when=f"<t:{ended}:d>",
        channel=f"<#{game.channel_id}>",
        result=result,
        moves=entry.moves,
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
    page = await bot_of(interaction).service.finished_games(
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
        lines = [archive_line(locale, entry) for entry in page.games]
        hint = i18n.t(locale, "archive.hint")
        text = bounded(f"**{title}**\n" + "\n".join(lines) + f"\n{hint}")
        ui = ui or discord.ui.View(timeout=None)
        ui.add_item(
            OpenGameSelect(
                page.offset,
                [(e, archive_choice(locale, e)) for e in page.games],
                i18n.t(locale, "archive.open"),
            )
        )
    else:
        text = f"**{title}**\n{i18n.t(locale, 'archive.empty')}"
    if turn:
        await redraw(interaction, content=text, view=ui)
    else:
        await reply(interaction, text, view=ui)


def archive_choice(locale: str, entry: ArchivedGame) -> str:
    """A game in the archive's menu: its number and who won."""
    names = player_names(locale, entry.game)
    first = ", ".join(names[seat] for rank, seat, _ in entry.ranking if rank == 1)
    return i18n.t(locale, "archive.choice", game=entry.game.id, winner=first)


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
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "leaderboard"):
            locale = user_locale(interaction)
            assert interaction.guild_id is not None
            board = await bot_of(interaction).service.leaderboard(interaction.guild_id)
            title = f"**{i18n.t(locale, 'leaderboard.title')}**"
            if not board:
                await reply(interaction, f"{title}\n{i18n.t(locale, 'leaderboard.empty')}")
                return
            lines = [
                i18n.t(
                    locale,
                    "leaderboard.line",
                    rank=rank,
                    name=f"<@{user_id}>",  # a reply only they see: names, never a ping
                    rating=f"{rating.ordinal:.1f}",
                    count=rating.games,
                )
                for rank, (user_id, rating) in enumerate(board, start=1)
            ]
            note = i18n.t(locale, "leaderboard.note")
            await reply(interaction, bounded("\n".join([title, *lines, note])))

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
            service = bot_of(interaction).service
            me = interaction.user
            if hide is not None:  # about one's own record only, whoever else was named
                await service.set_stats_hidden(me.id, hide)
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
            hidden = await service.stats_hidden(whose.id)
            if hidden and whose.id != me.id:
                raise StatsHidden(variant="named", name=name)
            sight = sight_of(interaction)  # only the games the asker could see
            await acknowledge(interaction)  # replaying the games takes a moment
            record = await service.player_stats(whose.id, guild_id=guild_id, sight=sight)
            text = stats_text(locale, name, record, everywhere=everywhere)
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
    service = bot_of(interaction).service
    if other.id == whose.id:
        raise VersusSelf()
    for person in (whose, other):
        if person.id != interaction.user.id and await service.stats_hidden(person.id):
            raise StatsHidden(variant="named", name=inert(person.display_name))
    sight = sight_of(interaction)  # only the games the asker could see
    await acknowledge(interaction)  # replaying the games takes a moment
    record = await service.head_to_head(whose.id, other.id, guild_id=guild_id, sight=sight)
    names = inert(whose.display_name), inert(other.display_name)
    text = versus_text(locale, *names, record, everywhere=guild_id is None)
    if guild_id is None and interaction.user.id not in (whose.id, other.id):
        text += f"\n{i18n.t(locale, 'stats.everywhere_seen')}"
    await reply(interaction, bounded(text))


def _share(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def _duration(locale: str, seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return i18n.t(locale, "stats.minutes", count=minutes)
    return i18n.t(locale, "stats.hours", hours=minutes // 60, minutes=minutes % 60)


def stats_text(locale: str, name: str, stats: PlayerStats, *, everywhere: bool) -> str:
    title = i18n.t(locale, "stats.title_everywhere" if everywhere else "stats.title", name=name)
    if not stats.games:
        return f"**{title}**\n{i18n.t(locale, 'stats.none')}"
    tables = ", ".join(
        i18n.t(locale, "stats.table", players=n, wins=wins, games=games)
        for n, (games, wins) in sorted(stats.by_players.items())
    )
    rounds = " · ".join(
        i18n.t(locale, "stats.round", round=r, points=f"{average:.1f}")
        for r in (1, 2, 3)
        if (average := stats.average_round(r)) is not None
    )
    lines = [
        f"**{title}**",
        i18n.t(
            locale,
            "stats.games",
            games=stats.games,
            wins=stats.wins,
            share=_share(stats.wins, stats.games),
        ),
        i18n.t(locale, "stats.by_players", tables=tables),
        i18n.t(
            locale, "stats.points", average=f"{stats.average_points:.1f}", best=max(stats.points)
        ),
        i18n.t(locale, "stats.rounds", rounds=rounds),
        i18n.t(
            locale,
            "stats.play",
            wall=stats.longest_wall,
            exact=stats.exact_purchases,
            purchases=stats.purchases,
            money=stats.money_taken,
            redesigns=stats.redesigns,
        ),
    ]
    types = " · ".join(
        i18n.t(
            locale,
            "stats.type",
            building=i18n.t(locale, f"building.{b.label}"),
            points=f"{stats.average_building(b):.1f}",
        )
        for b in Building
    )
    lines.append(i18n.t(locale, "stats.types", types=types))
    median, average = stats.median_turn_seconds, stats.average_turn_seconds
    if median is not None and average is not None:
        lines.append(
            i18n.t(
                locale,
                "stats.time",
                median=_duration(locale, median),
                average=_duration(locale, average),
            )
        )
    lines.append(i18n.t(locale, "stats.hints", count=stats.hints))
    return bounded("\n".join(lines))


def versus_text(locale: str, name: str, other: str, record: HeadToHead, *, everywhere: bool) -> str:
    """Two players over their finished games together: how many, who finished ahead how often
    (and the ties), and each one's average points in those games."""
    key = "stats.versus_title_everywhere" if everywhere else "stats.versus_title"
    title = f"**{i18n.t(locale, key, name=name, other=other)}**"
    if not record.games:
        return f"{title}\n{i18n.t(locale, 'stats.versus_none')}"
    lines = [
        title,
        i18n.t(locale, "stats.versus_games", count=record.games),
        i18n.t(
            locale,
            "stats.versus_ahead",
            name=name,
            other=other,
            ahead=record.ahead,
            behind=record.behind,
            ties=record.ties,
        ),
        i18n.t(
            locale,
            "stats.versus_points",
            name=name,
            other=other,
            average=f"{record.average_points:.1f}",
            other_average=f"{record.other_average_points:.1f}",
        ),
    ]
    return bounded("\n".join(lines))
