"""Playing: the turn buttons, the private panel, the slash commands for every decision, and the
public messages a finished turn produces (summary, scoring rounds, results, the next turn).

Thin, like the rest of the bot: every decision goes through `GameService.act`, whose engine
checks the rules; this module only chooses words and pictures.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

import render
from engine import (
    TILES,
    Action,
    Buy,
    EndTurn,
    Event,
    GiveToDirk,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    ScoringHeld,
    SeatView,
    Swap,
    TakeMoney,
    TurnEnded,
    Undo,
    Undone,
)

from .. import i18n, notify
from ..computer import play_computer_step
from ..errors import GameOver, InvalidRequest, NotAPlayer, NotYourTurn, Outdated, ServiceError
from ..present import (
    CodeError,
    action_code,
    action_label,
    building_name,
    cards_text,
    parse_money,
    pick_cards,
    results_lines,
    scoring_lines,
    turn_summary,
)
from ..results import ActResult, ViewResult
from ..store import GameInfo
from ..translator import T
from ..ui.panel import panel_message
from ..ui.respond import channel_locale, handling, reply, user_locale
from ..ui.turn import BoardSelect, names_by_seat, scores_file, turn_message
from .asynchronous import save_settings, time_zone_choices
from .lobby import current_game

if TYPE_CHECKING:
    from ..app import AlhambraBot

log = logging.getLogger("alhambra.play")
MAX_CHOICES = 25


class BadCode(ServiceError):
    code = "bad_code"
    default = "I could not read that."


class NoSuchChoice(ServiceError):
    code = "no_such_choice"
    default = "That is not one of your choices now. Pick one of the suggestions."


# --- whose turn -----------------------------------------------------------------------------


def _acting(result: ViewResult, user_id: int) -> SeatView:
    """The viewer's view if it is their decision; a clear refusal otherwise."""
    view = result.view
    if result.seat is None:
        raise NotAPlayer()
    if view.is_over:
        raise GameOver()
    if view.current_seat != result.seat:
        names = names_by_seat(result.game)
        current = names[view.current_seat] if view.current_seat is not None else "?"
        raise NotYourTurn(f"It is {current}'s turn, not yours.")
    return view


async def _my_view(bot: AlhambraBot, interaction: discord.Interaction, game_id: int) -> ViewResult:
    interaction.extras["game_id"] = game_id
    return await bot.service.view(game_id, interaction.user.id)


def _name(game: GameInfo, seat: int | None) -> str:
    names = names_by_seat(game)
    return names[seat] if seat is not None and seat < len(names) else "?"


# --- doing something ---------------------------------------------------------------------------


async def perform(
    bot: AlhambraBot, interaction: discord.Interaction, game: GameInfo, action: Action, version: int
) -> ActResult:
    """Apply one decision of the interacting user, end the turn for them if they asked for that,
    and tell the channel about a finished turn."""
    result = await bot.service.act(game.id, interaction.user.id, action, version)
    steps, end = result.turn_events, result.events if result.turn_ended else []
    if not result.turn_ended and result.state.phase == "confirm":
        settings = await bot.service.settings(interaction.user.id)
        if settings.auto_end_turn:
            result = await bot.service.end_turn(game.id, interaction.user.id, result.version)
            steps, end = result.turn_events, result.events
    if result.turn_ended or result.state.is_over:
        await announce_turn(bot, result, steps, end, channel_locale(interaction))
        bot.spawn(play_computers(bot, game.id, channel_locale(interaction)))
    return result


async def announce_turn(
    bot: AlhambraBot,
    result: ActResult,
    steps: tuple[Event, ...] | list[Event],
    end: list[Event],
    locale: str,
) -> None:
    """The public side of a finished turn: summary, scoring rounds, results or the next turn."""
    game, state = result.game, result.state
    names = names_by_seat(game)
    channel = bot.get_partial_messageable(game.channel_id)
    summary = turn_summary(locale, names, steps, end)
    scorings = [e for e in end if isinstance(e, ScoringHeld)]
    public = state.view(None)
    if scorings or state.is_over:
        lines = list(summary)
        for held in scorings:
            lines += scoring_lines(locale, names, held)
        if state.is_over:
            lines.append("")
            lines.append(f"**{i18n.t(locale, 'results.title')}**")
            lines += results_lines(locale, names, public)
        await channel.send(
            "\n".join(lines)[:2000],
            file=await scores_file(public, names, locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        summary = []
    previous = await bot.service.message_ref(game.id, "turn")
    if state.is_over:
        await bot.service.forget_message(game.id, "turn")
    else:
        payload = await turn_message(game, state, locale, intro="\n".join(summary) or None)
        message = await channel.send(**payload)  # type: ignore[arg-type]
        await bot.service.remember_message(game.id, "turn", game.channel_id, message.id)
    if previous is not None:  # cosmetic, and Discord may retry it for seconds: in the background
        bot.spawn(_retire(bot, previous))
    await notify.turn_started(bot, game.id, locale)  # timers for the new turn, the player's DM


async def _retire(bot: AlhambraBot, ref: tuple[int, int]) -> None:
    """Take the buttons off an old turn message (its clicks are refused anyway)."""
    channel_id, message_id = ref
    try:
        await (
            bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None)
        )
    except discord.HTTPException:
        log.info("could not retire turn message %s", message_id)


async def play_computers(bot: AlhambraBot, game_id: int, locale: str) -> None:
    """Let computer players take their turns, announcing each, until a human is to play."""
    try:
        async with bot.computer_lock(game_id):
            while True:
                step = await play_computer_step(bot.service, game_id)
                if step is None:
                    return
                if step.turn_ended or step.state.is_over:
                    await announce_turn(bot, step, step.turn_events, step.events, locale)
    except ServiceError as exc:  # a human acted meanwhile, or the game ended: nothing to do
        log.info("computer player of game %s stopped: %s", game_id, exc.code)
    except Exception:
        log.exception("computer player of game %s failed", game_id)


# --- the turn message's buttons ---------------------------------------------------------------


async def turn_button_clicked(
    bot: AlhambraBot, interaction: discord.Interaction, game_id: int, version: int, op: str
) -> None:
    async with handling(interaction, f"turn:{op}"):
        interaction.extras["game_id"] = game_id
        current = await bot.service.message_ref(game_id, "turn")
        if interaction.message is not None and (
            current is None or current[1] != interaction.message.id
        ):
            raise Outdated(i18n.t("en", "reply.stale"))
        if op in ("take", "buy", "redesign"):
            await open_panel(bot, interaction, game_id, op)
        elif op == "hand":
            await show_hand(bot, interaction, game_id)
        elif op == "board":
            game = await bot.service.game(game_id)
            names = names_by_seat(game)
            ui = discord.ui.View(timeout=None)
            ui.add_item(
                BoardSelect(game_id, names, i18n.t(user_locale(interaction), "panel.board"))
            )
            await reply(interaction, i18n.t(user_locale(interaction), "panel.board"), view=ui)
        else:
            await show_log(bot, interaction, game_id)


async def open_panel(
    bot: AlhambraBot, interaction: discord.Interaction, game_id: int, focus: str
) -> None:
    result = await _my_view(bot, interaction, game_id)
    view = _acting(result, interaction.user.id)
    kwargs = await panel_message(
        result.game, view, user_locale(interaction), focus, _name(result.game, result.seat)
    )
    await interaction.response.send_message(ephemeral=True, **kwargs)  # type: ignore[arg-type]


async def panel_choice(
    bot: AlhambraBot, interaction: discord.Interaction, game_id: int, version: int, value: str
) -> None:
    """A button or menu option of the private panel: open a menu (`f...`) or act (`a<i>`)."""
    async with handling(interaction, "panel"):
        locale = user_locale(interaction)
        result = await _my_view(bot, interaction, game_id)
        view = _acting(result, interaction.user.id)
        name = _name(result.game, result.seat)
        if value.startswith("f"):  # navigation redraws at the current version
            kwargs = await panel_message(result.game, view, locale, value[1:], name)
            kwargs["attachments"] = kwargs.pop("files")
            await interaction.response.edit_message(**kwargs)  # type: ignore[arg-type]
            return
        index = int(value[1:])
        if version != result.game.version or index >= len(view.legal):
            raise Outdated()
        await interaction.response.defer()
        done = await perform(bot, interaction, result.game, view.legal[index], version)
        await _redraw_panel(bot, interaction, done, locale, name)


async def _redraw_panel(
    bot: AlhambraBot, interaction: discord.Interaction, done: ActResult, locale: str, name: str
) -> None:
    state, seat = done.state, done.seat.seat
    if state.is_over or state.current_seat != seat or done.turn_ended:
        await interaction.edit_original_response(
            content=i18n.t(locale, "panel.done"), view=None, attachments=[]
        )
        return
    kwargs = await panel_message(done.game, state.view(seat), locale, "main", name)
    kwargs["attachments"] = kwargs.pop("files")
    await interaction.edit_original_response(**kwargs)  # type: ignore[arg-type]


async def board_selected(
    bot: AlhambraBot, interaction: discord.Interaction, game_id: int, seat: int
) -> None:
    async with handling(interaction, "board"):
        result = await _my_view(bot, interaction, game_id)
        names = names_by_seat(result.game)
        if not 0 <= seat < len(names):
            raise InvalidRequest()
        png = await _alhambra_png(result.view, seat, names[seat], user_locale(interaction))
        await interaction.response.edit_message(
            content=names[seat], attachments=[discord.File(io.BytesIO(png), "alhambra.png")]
        )


async def _alhambra_png(view: SeatView, seat: int, name: str, locale: str) -> bytes:
    labels = i18n.image_labels(locale)
    return await asyncio.to_thread(render.render_alhambra, view, seat, name=name, labels=labels)


async def show_hand(bot: AlhambraBot, interaction: discord.Interaction, game_id: int) -> None:
    result = await _my_view(bot, interaction, game_id)
    if result.seat is None:
        raise NotAPlayer()
    locale = user_locale(interaction)
    view = result.view
    name = _name(result.game, result.seat)
    labels = i18n.image_labels(locale)
    png = await asyncio.to_thread(render.render_hand, view, name=name, labels=labels)
    text = (
        i18n.t(locale, "reply.hand", cards=cards_text(locale, view.hand))
        if view.hand
        else i18n.t(locale, "reply.hand_empty")
    )
    await reply(interaction, text, file=discord.File(io.BytesIO(png), filename="hand.png"))


async def show_log(bot: AlhambraBot, interaction: discord.Interaction, game_id: int) -> None:
    locale = user_locale(interaction)
    game_log = await bot.service.log(game_id)
    names = names_by_seat(game_log.game)
    turns = log_turns(locale, names, game_log)
    text = "\n\n".join(turns[-8:]) if turns else i18n.t(locale, "log.empty")
    await reply(interaction, f"**{i18n.t(locale, 'log.title')}**\n{text}"[:2000])


def log_turns(locale: str, names: list[str], game_log) -> list[str]:
    """Each finished turn as a short paragraph, rebuilt from the action log (undo aware)."""
    out: list[str] = []
    steps: list[list[Event]] = []
    turn = 1
    for entry in game_log.entries:
        if isinstance(entry.action, Undo):
            if steps:
                steps.pop()
            continue
        if any(isinstance(e, TurnEnded) for e in entry.events):
            lines = turn_summary(locale, names, [e for s in steps for e in s], list(entry.events))
            for event in entry.events:
                if isinstance(event, ScoringHeld):
                    lines += scoring_lines(locale, names, event)
            header = i18n.t(locale, "log.turn", turn=turn)
            out.append(f"__{header}__\n" + "\n".join(lines))
            steps = []
            turn += 1
        else:
            steps.append(list(entry.events))
    return out


# --- slash commands ----------------------------------------------------------------------------


async def _command_view(bot: AlhambraBot, interaction: discord.Interaction) -> ViewResult:
    game = await current_game(bot, interaction)
    return await bot.service.view(game.id, interaction.user.id)


def _legal(view: SeatView, kind: type | tuple[type, ...]) -> list[Action]:
    return [a for a in view.legal if isinstance(a, kind)]


def _choices(
    locale: str, view: SeatView, actions: list[Action], current: str
) -> list[app_commands.Choice[str]]:
    needle = current.strip().lower()
    out = []
    for action in actions:
        code = action_code(action)
        label = action_label(locale, action, view)
        if needle and needle not in code.lower() and needle not in label.lower():
            continue
        out.append(app_commands.Choice(name=label[:100], value=code[:100]))
        if len(out) == MAX_CHOICES:
            break
    return out


async def _autocomplete_view(bot: AlhambraBot, interaction: discord.Interaction) -> SeatView | None:
    try:
        result = await _command_view(bot, interaction)
        return _acting(result, interaction.user.id)
    except ServiceError:
        return None


def _cell_of(code: str) -> tuple[int, int]:
    try:
        return render.parse_cell_code(code)
    except ValueError as exc:
        raise BadCode(str(exc)) from None


async def _slash_act(
    bot: AlhambraBot, interaction: discord.Interaction, result: ViewResult, action: Action
) -> None:
    locale = user_locale(interaction)
    view = _acting(result, interaction.user.id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    done = await perform(bot, interaction, result.game, action, result.game.version)
    undone = next((e.action for e in done.events if isinstance(e, Undone)), None)
    if undone is not None:
        text = i18n.t(locale, "reply.undone", action=action_label(locale, undone, view))
    else:
        text = i18n.t(locale, "reply.done", next=_next_hint(locale, done))
    await interaction.followup.send(text, ephemeral=True)


def _next_hint(locale: str, done: ActResult) -> str:
    state, seat = done.state, done.seat.seat
    if done.turn_ended or state.is_over or state.current_seat != seat:
        return i18n.t(locale, "reply.next.turn_over")
    if state.phase == "place":
        return i18n.t(locale, "reply.next.place")
    if state.phase == "confirm":
        return i18n.t(locale, "reply.next.confirm")
    return i18n.t(locale, "reply.next.action")


def _bad(locale: str, reason: str) -> BadCode:
    return BadCode(i18n.t(locale, "error.bad_code", reason=reason))


class PlayCommands:
    """Mixed into the `/alhambra` group cog (`bot.cogs.AlhambraCog`)."""

    bot: AlhambraBot

    @app_commands.command(name=T("cmd.take.name"), description=T("cmd.take.description"))
    @app_commands.describe(cards=T("cmd.take.cards.description"))
    async def take(self, interaction: discord.Interaction, cards: str) -> None:
        async with handling(interaction, "take"):
            locale = user_locale(interaction)
            result = await _command_view(self.bot, interaction)
            view = _acting(result, interaction.user.id)
            try:
                picked = pick_cards(parse_money(cards), view.pool)
            except CodeError as exc:
                raise _bad(locale, str(exc)) from None
            if picked is None:
                raise _bad(locale, f"{cards} is not in the money pool")
            await _slash_act(self.bot, interaction, result, TakeMoney(tuple(picked)))

    @take.autocomplete("cards")
    async def _take_cards(self, interaction: discord.Interaction, current: str):
        view = await _autocomplete_view(self.bot, interaction)
        if view is None:
            return []
        return _choices(user_locale(interaction), view, _legal(view, TakeMoney), current)

    @app_commands.command(name=T("cmd.buy.name"), description=T("cmd.buy.description"))
    @app_commands.describe(
        slot=T("cmd.buy.slot.description"), payment=T("cmd.buy.payment.description")
    )
    async def buy(
        self,
        interaction: discord.Interaction,
        slot: app_commands.Range[int, 1, 4],
        payment: str,
    ) -> None:
        async with handling(interaction, "buy"):
            locale = user_locale(interaction)
            result = await _command_view(self.bot, interaction)
            view = _acting(result, interaction.user.id)
            try:
                picked = pick_cards(parse_money(payment), view.hand)
            except CodeError as exc:
                raise _bad(locale, str(exc)) from None
            if picked is None:
                raise _bad(locale, f"you do not hold {payment}")
            await _slash_act(self.bot, interaction, result, Buy(slot - 1, tuple(picked)))

    @buy.autocomplete("payment")
    async def _buy_payment(self, interaction: discord.Interaction, current: str):
        view = await _autocomplete_view(self.bot, interaction)
        if view is None:
            return []
        slot = getattr(interaction.namespace, "slot", None)
        buys = [a for a in _legal(view, Buy) if slot is None or a.slot == int(slot) - 1]
        return _choices(user_locale(interaction), view, buys, current)

    @app_commands.command(name=T("cmd.place.name"), description=T("cmd.place.description"))
    @app_commands.describe(
        where=T("cmd.place.where.description"), building=T("cmd.place.building.description")
    )
    async def place(
        self, interaction: discord.Interaction, where: str, building: str | None = None
    ) -> None:
        async with handling(interaction, "place"):
            locale = user_locale(interaction)
            result = await _command_view(self.bot, interaction)
            view = _acting(result, interaction.user.id)
            tile = _pending_tile(locale, view, building)
            target = where.strip().lower()
            action: Action
            if target == "reserve":
                action = PlaceInReserve(tile)
            elif target == "dirk":
                action = GiveToDirk(tile)
            else:
                x, y = _cell_of(where)
                action = Place(tile, x, y)
            await _slash_act(self.bot, interaction, result, action)

    @place.autocomplete("building")
    async def _place_building(self, interaction: discord.Interaction, current: str):
        view = await _autocomplete_view(self.bot, interaction)
        if view is None:
            return []
        locale = user_locale(interaction)
        return [
            app_commands.Choice(name=building_name(locale, t), value=str(t)) for t in view.pending
        ][:MAX_CHOICES]

    @place.autocomplete("where")
    async def _place_where(self, interaction: discord.Interaction, current: str):
        view = await _autocomplete_view(self.bot, interaction)
        if view is None or not view.pending:
            return []
        locale = user_locale(interaction)
        chosen = getattr(interaction.namespace, "building", None)
        try:
            tile = _pending_tile(locale, view, chosen)
        except ServiceError:
            tile = view.pending[0]
        actions = [
            a
            for a in _legal(view, (Place, PlaceInReserve, GiveToDirk))
            if a.tile == tile  # type: ignore[union-attr]
        ]
        return _choices(locale, view, actions, current)

    @app_commands.command(name=T("cmd.redesign.name"), description=T("cmd.redesign.description"))
    @app_commands.describe(
        move=T("cmd.redesign.move.description"),
        building=T("cmd.redesign.building.description"),
        cell=T("cmd.redesign.cell.description"),
    )
    @app_commands.choices(
        move=[
            app_commands.Choice(name=T("choice.move.remove"), value="remove"),
            app_commands.Choice(name=T("choice.move.build"), value="build"),
            app_commands.Choice(name=T("choice.move.swap"), value="swap"),
        ]
    )
    async def redesign(
        self,
        interaction: discord.Interaction,
        move: str,
        building: str,
        cell: str | None = None,
    ) -> None:
        async with handling(interaction, "redesign"):
            locale = user_locale(interaction)
            result = await _command_view(self.bot, interaction)
            _acting(result, interaction.user.id)
            action: Action
            if move == "remove":
                x, y = _cell_of(building)
                action = RemoveToReserve(x, y)
            else:
                tile = _tile_number(locale, building)
                if not cell:
                    raise _bad(locale, "name the cell too (the cell option)")
                x, y = _cell_of(cell)
                action = PlaceFromReserve(tile, x, y) if move == "build" else Swap(tile, x, y)
            await _slash_act(self.bot, interaction, result, action)

    @redesign.autocomplete("building")
    async def _redesign_building(self, interaction: discord.Interaction, current: str):
        view = await _autocomplete_view(self.bot, interaction)
        if view is None:
            return []
        locale = user_locale(interaction)
        move = getattr(interaction.namespace, "move", None)
        if move == "remove":
            return _choices(locale, view, _legal(view, RemoveToReserve), current)
        kind = PlaceFromReserve if move == "build" else Swap
        tiles = sorted({a.tile for a in _legal(view, kind)})  # type: ignore[attr-defined]
        return [app_commands.Choice(name=building_name(locale, t), value=str(t)) for t in tiles][
            :MAX_CHOICES
        ]

    @redesign.autocomplete("cell")
    async def _redesign_cell(self, interaction: discord.Interaction, current: str):
        view = await _autocomplete_view(self.bot, interaction)
        if view is None:
            return []
        move = getattr(interaction.namespace, "move", None)
        building = getattr(interaction.namespace, "building", None)
        kind = PlaceFromReserve if move == "build" else Swap
        actions = [
            a
            for a in _legal(view, kind)
            if building is None or str(a.tile) == str(building)  # type: ignore[attr-defined]
        ]
        return _choices(user_locale(interaction), view, actions, current)

    @app_commands.command(name=T("cmd.undo.name"), description=T("cmd.undo.description"))
    async def undo(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "undo"):
            result = await _command_view(self.bot, interaction)
            _acting(result, interaction.user.id)
            await _slash_act(self.bot, interaction, result, Undo())

    @app_commands.command(name=T("cmd.end_turn.name"), description=T("cmd.end_turn.description"))
    async def end_turn(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "end-turn"):
            result = await _command_view(self.bot, interaction)
            _acting(result, interaction.user.id)
            await _slash_act(self.bot, interaction, result, EndTurn())

    @app_commands.command(name=T("cmd.hand.name"), description=T("cmd.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "hand"):
            game = await current_game(self.bot, interaction)
            await show_hand(self.bot, interaction, game.id)

    @app_commands.command(name=T("cmd.board.name"), description=T("cmd.board.description"))
    @app_commands.describe(player=T("cmd.board.player.description"))
    async def board(self, interaction: discord.Interaction, player: str | None = None) -> None:
        async with handling(interaction, "board"):
            locale = user_locale(interaction)
            result = await _command_view(self.bot, interaction)
            names = names_by_seat(result.game)
            if player is None:
                seat = result.seat if result.seat is not None else result.view.current_seat or 0
            else:
                matches = [s for s, n in enumerate(names) if n.lower() == player.strip().lower()]
                if not matches:
                    raise InvalidRequest(i18n.t(locale, "error.unknown_player", name=player))
                seat = matches[0]
            png = await _alhambra_png(result.view, seat, names[seat], locale)
            await reply(
                interaction, names[seat], file=discord.File(io.BytesIO(png), "alhambra.png")
            )

    @board.autocomplete("player")
    async def _board_player(self, interaction: discord.Interaction, current: str):
        try:
            game = await current_game(self.bot, interaction)
        except ServiceError:
            return []
        return [
            app_commands.Choice(name=n[:100], value=n[:100])
            for n in names_by_seat(game)
            if current.lower() in n.lower()
        ][:MAX_CHOICES]

    @app_commands.command(name=T("cmd.log.name"), description=T("cmd.log.description"))
    async def log(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "log"):
            game = await current_game(self.bot, interaction)
            await show_log(self.bot, interaction, game.id)

    @app_commands.command(name=T("cmd.scores.name"), description=T("cmd.scores.description"))
    async def scores(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "scores"):
            result = await _command_view(self.bot, interaction)
            names = names_by_seat(result.game)
            locale = user_locale(interaction)
            await reply(interaction, file=await scores_file(result.view, names, locale))

    @app_commands.command(name=T("cmd.settings.name"), description=T("cmd.settings.description"))
    @app_commands.describe(
        auto_end_turn=T("cmd.settings.auto_end_turn.description"),
        dms=T("cmd.settings.dms.description"),
        first_reminder=T("cmd.settings.first_reminder.description"),
        repeat=T("cmd.settings.repeat.description"),
        quiet_hours=T("cmd.settings.quiet_hours.description"),
        timezone=T("cmd.settings.timezone.description"),
        vacation_until=T("cmd.settings.vacation_until.description"),
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        auto_end_turn: bool | None = None,
        dms: bool | None = None,
        first_reminder: app_commands.Range[int, 1, 336] | None = None,
        repeat: app_commands.Range[int, 1, 336] | None = None,
        quiet_hours: str | None = None,
        timezone: str | None = None,
        vacation_until: str | None = None,
    ) -> None:
        """Turn and reminder preferences (the reminder part: bot/cogs/asynchronous.py)."""
        async with handling(interaction, "settings"):
            text = await save_settings(
                self.bot,
                interaction,
                auto_end_turn=auto_end_turn,
                dms=dms,
                first_reminder=first_reminder,
                repeat=repeat,
                quiet_hours=quiet_hours,
                timezone=timezone,
                vacation_until=vacation_until,
            )
            await reply(interaction, text)

    @settings.autocomplete("timezone")
    async def _settings_timezone(self, interaction: discord.Interaction, current: str):
        return await time_zone_choices(current)


def _pending_tile(locale: str, view: SeatView, chosen: str | None) -> int:
    if not view.pending:
        raise NoSuchChoice(i18n.t(locale, "error.no_such_choice"))
    if chosen is None or not str(chosen).strip():
        return view.pending[0]
    tile = _tile_number(locale, chosen)
    if tile not in view.pending:
        raise NoSuchChoice(i18n.t(locale, "error.no_such_choice"))
    return tile


def _tile_number(locale: str, text: str) -> int:
    text = str(text).strip()
    if not text.isdigit() or not 1 <= int(text) < len(TILES):
        raise _bad(locale, f"'{text}' is not a building: pick one of the suggestions")
    return int(text)


__all__ = ["PlayCommands", "announce_turn", "play_computers"]
