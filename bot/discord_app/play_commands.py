"""Playing by slash command: `/alhambra take, buy, place, redesign, undo, end-turn, hint, hand,
board, log, scores`, with autocomplete that offers exactly the legal choices. Board, log and
scores show the channel's last finished game when none is running there.

Every decision goes through the turn flow (`TurnFlow.act`), whose engine checks the rules; this
module reads what was typed, and words the answer.
"""

from __future__ import annotations

from typing import TypeVar

import discord
from discord import app_commands
from discord.ext import commands

import render
from engine import (
    TILES,
    Action,
    Buy,
    EndTurn,
    GiveToDirk,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    SeatView,
    Swap,
    TakeMoney,
    Undo,
    Undone,
)

from ..core.errors import BadCode, InvalidRequest, NoSuchChoice, ServiceError
from ..core.results import ActResult, ViewResult
from ..core.services import HINT_LEVELS
from ..text import i18n
from ..text.present import (
    CodeError,
    action_code,
    action_label,
    building_name,
    echo,
    parse_money,
    pick_cards,
    player_names,
    read_number,
)
from ..turns.computers import HINT_LEVEL
from .context import (
    BaseBot,
    acknowledge,
    bot_of,
    current_game,
    handling,
    note_saved,
    now_of,
    reply,
    shown_game,
    user_locale,
)
from .panel import panel_message, show_hint
from .pictures import alhambra_file
from .plan_panel import plan_button
from .replies import LOG_MAX_PAGE, show_hand, show_log, show_scores
from .translator import T

MAX_CHOICES = 25
A = TypeVar("A", bound=Action)
Choices = list[app_commands.Choice[str]]


async def _decision(interaction: discord.Interaction) -> tuple[ViewResult, SeatView]:
    """The channel's game as the user sees it, refused unless the decision is theirs."""
    result = await _command_view(interaction)
    return result, result.own_decision()


async def _command_view(interaction: discord.Interaction) -> ViewResult:
    game = await current_game(interaction)
    return await bot_of(interaction).services.play.view(game.id, interaction.user.id)


async def _shown_view(interaction: discord.Interaction) -> ViewResult:
    """The running game as the user sees it, else the channel's last finished game."""
    game = await shown_game(interaction)
    return await bot_of(interaction).services.play.view(game.id, interaction.user.id)


def _legal(view: SeatView, kind: type[A]) -> list[A]:
    return [a for a in view.legal if isinstance(a, kind)]


def _choices(locale: str, view: SeatView, actions: list[Action], current: str) -> Choices:
    needle = current.strip().lower()
    out: Choices = []
    for action in actions:
        code = action_code(action)
        label = action_label(locale, action, view)
        if needle and needle not in code.lower() and needle not in label.lower():
            continue
        out.append(app_commands.Choice(name=label[:100], value=code[:100]))
        if len(out) == MAX_CHOICES:
            break
    return out


async def _autocomplete_view(interaction: discord.Interaction) -> SeatView | None:
    try:
        return (await _decision(interaction))[1]
    except ServiceError:
        return None


def _cell_of(locale: str, code: str) -> tuple[int, int]:
    try:
        return render.parse_cell_code(code)
    except ValueError as exc:
        raise _bad(locale, str(exc)) from None


async def _slash_act(
    interaction: discord.Interaction, result: ViewResult, view: SeatView, action: Action
) -> None:
    locale = user_locale(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    done = await bot_of(interaction).flow.act(
        result.game.id,
        interaction.user.id,
        action,
        result.game.version,
        locale=result.game.locale,
    )
    note_saved(interaction)
    undone = next((e.action for e in done.events if isinstance(e, Undone)), None)
    if done.ends_at is not None:  # held for the undo window: the panel offers Undo and End now
        seat = done.seat.seat
        text, ui, files = await panel_message(
            done.game,
            done.own,
            locale,
            "main",
            result.game.name_at(seat),
            ends=done.ends_at,
            now=now_of(interaction),
        )
        await interaction.followup.send(text, view=ui, files=files, ephemeral=True)
        return
    if undone is not None:
        # labelled as the undo left the table: a purchase's building is back in the market
        text = i18n.t(locale, "reply.undone", action=action_label(locale, undone, done.own))
    else:
        text = i18n.t(locale, "reply.done", next=_next_hint(locale, done))
    own, seat = done.own, done.seat.seat
    if not own.is_over and (done.turn_ended or own.current_seat != seat):
        # going away now: the next turn can be planned from here, as from the panel
        ui = discord.ui.View(timeout=None)
        ui.add_item(plan_button(done.game.id, locale))
        await interaction.followup.send(text, view=ui, ephemeral=True)
        return
    await interaction.followup.send(text, ephemeral=True)


def _next_hint(locale: str, done: ActResult) -> str:
    own, seat = done.own, done.seat.seat
    if done.turn_ended or own.is_over or own.current_seat != seat:
        return i18n.t(locale, "reply.next.turn_over")
    if own.phase == "place":
        return i18n.t(locale, "reply.next.place")
    if own.phase == "confirm":
        return i18n.t(locale, "reply.next.confirm")
    return i18n.t(locale, "reply.next.action")


def _bad(locale: str, reason: str) -> BadCode:
    return BadCode(i18n.t(locale, "error.bad_code", reason=reason))


class PlayCommands(commands.Cog):
    """Part of the `/alhambra` group cog (`group.AlhambraCog`)."""

    bot: BaseBot

    @app_commands.command(name=T("cmd.take.name"), description=T("cmd.take.description"))
    @app_commands.describe(cards=T("cmd.take.cards.description"))
    async def take(self, interaction: discord.Interaction, cards: str) -> None:
        async with handling(interaction, "take"):
            locale = user_locale(interaction)
            result, view = await _decision(interaction)
            try:
                picked = pick_cards(parse_money(cards), view.pool)
            except CodeError as exc:
                raise _bad(locale, str(exc)) from None
            if picked is None:
                raise _bad(locale, f"{echo(cards)} is not in the money pool")
            await _slash_act(interaction, result, view, TakeMoney(tuple(picked)))

    @take.autocomplete("cards")
    async def _take_cards(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await _autocomplete_view(interaction)
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
            result, view = await _decision(interaction)
            try:
                picked = pick_cards(parse_money(payment), view.hand)
            except CodeError as exc:
                raise _bad(locale, str(exc)) from None
            if picked is None:
                raise _bad(locale, f"you do not hold {echo(payment)}")
            await _slash_act(interaction, result, view, Buy(slot - 1, tuple(picked)))

    @buy.autocomplete("payment")
    async def _buy_payment(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await _autocomplete_view(interaction)
        if view is None:
            return []
        slot = getattr(interaction.namespace, "slot", None)
        buys: list[Action] = [
            a for a in _legal(view, Buy) if slot is None or str(a.slot + 1) == str(slot)
        ]
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
            result, view = await _decision(interaction)
            tile = _pending_tile(locale, view, building)
            target = str(where).strip().lower()
            action: Action
            if target == "reserve":
                action = PlaceInReserve(tile)
            elif target == "dirk":
                action = GiveToDirk(tile)
            else:
                x, y = _cell_of(locale, where)
                action = Place(tile, x, y)
            await _slash_act(interaction, result, view, action)

    @place.autocomplete("building")
    async def _place_building(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await _autocomplete_view(interaction)
        if view is None:
            return []
        locale = user_locale(interaction)
        return [
            app_commands.Choice(name=building_name(locale, t), value=str(t)) for t in view.pending
        ][:MAX_CHOICES]

    @place.autocomplete("where")
    async def _place_where(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await _autocomplete_view(interaction)
        if view is None or not view.pending:
            return []
        locale = user_locale(interaction)
        chosen = getattr(interaction.namespace, "building", None)
        try:
            tile = _pending_tile(locale, view, chosen)
        except ServiceError:
            tile = view.pending[0]
        actions: list[Action] = [
            a
            for a in view.legal
            if isinstance(a, Place | PlaceInReserve | GiveToDirk) and a.tile == tile
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
            result, view = await _decision(interaction)
            action: Action
            if move == "remove":
                x, y = _cell_of(locale, building)
                action = RemoveToReserve(x, y)
            else:
                tile = _tile_number(locale, building)
                if not cell:
                    raise _bad(locale, "name the cell too (the cell option)")
                x, y = _cell_of(locale, cell)
                action = PlaceFromReserve(tile, x, y) if move == "build" else Swap(tile, x, y)
            await _slash_act(interaction, result, view, action)

    @redesign.autocomplete("building")
    async def _redesign_building(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await _autocomplete_view(interaction)
        if view is None:
            return []
        locale = user_locale(interaction)
        move = getattr(interaction.namespace, "move", None)
        if move == "remove":
            return _choices(locale, view, [*_legal(view, RemoveToReserve)], current)
        moves = _legal(view, PlaceFromReserve) if move == "build" else _legal(view, Swap)
        tiles = sorted({a.tile for a in moves})
        return [app_commands.Choice(name=building_name(locale, t), value=str(t)) for t in tiles][
            :MAX_CHOICES
        ]

    @redesign.autocomplete("cell")
    async def _redesign_cell(self, interaction: discord.Interaction, current: str) -> Choices:
        view = await _autocomplete_view(interaction)
        if view is None:
            return []
        move = getattr(interaction.namespace, "move", None)
        building = getattr(interaction.namespace, "building", None)
        moves = _legal(view, PlaceFromReserve) if move == "build" else _legal(view, Swap)
        actions: list[Action] = [
            a for a in moves if building is None or str(a.tile) == str(building)
        ]
        return _choices(user_locale(interaction), view, actions, current)

    @app_commands.command(name=T("cmd.undo.name"), description=T("cmd.undo.description"))
    async def undo(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "undo"):
            result, view = await _decision(interaction)
            await _slash_act(interaction, result, view, Undo())

    @app_commands.command(name=T("cmd.end_turn.name"), description=T("cmd.end_turn.description"))
    async def end_turn(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "end-turn"):
            result, view = await _decision(interaction)
            await _slash_act(interaction, result, view, EndTurn())

    @app_commands.command(name=T("cmd.hint.name"), description=T("cmd.hint.description"))
    @app_commands.describe(level=T("cmd.hint.level.description"))
    @app_commands.choices(
        level=[
            app_commands.Choice(name=T(f"choice.level.{level}"), value=level)
            for level in HINT_LEVELS
        ]
    )
    async def hint(self, interaction: discord.Interaction, level: str = HINT_LEVEL) -> None:
        async with handling(interaction, "hint"):
            game = await current_game(interaction)
            await show_hint(interaction, game.id, level)  # the service refuses a forged level

    @app_commands.command(name=T("cmd.hand.name"), description=T("cmd.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "hand"):
            game = await current_game(interaction)
            await show_hand(interaction, game.id)

    @app_commands.command(name=T("cmd.board.name"), description=T("cmd.board.description"))
    @app_commands.describe(player=T("cmd.board.player.description"))
    async def board(self, interaction: discord.Interaction, player: str | None = None) -> None:
        async with handling(interaction, "board"):
            locale = user_locale(interaction)
            result = await _shown_view(interaction)
            names = player_names(locale, result.game)
            if player is None:
                seat = result.seat if result.seat is not None else result.view.current_seat or 0
            else:
                wanted = str(player).strip().lower()
                known = [*enumerate(names), *enumerate(result.game.names)]  # shown or stored
                matches = [s for s, n in known if n.lower() == wanted]
                if not matches:
                    raise InvalidRequest(i18n.t(locale, "error.unknown_player", name=echo(player)))
                seat = matches[0]
            await acknowledge(interaction)
            picture = await alhambra_file(result.view, seat, names[seat], locale)
            await reply(interaction, names[seat], file=picture)

    @board.autocomplete("player")
    async def _board_player(self, interaction: discord.Interaction, current: str) -> Choices:
        try:
            game = await shown_game(interaction)
        except ServiceError:
            return []
        return [
            app_commands.Choice(name=n[:100], value=n[:100])
            for n in player_names(user_locale(interaction), game)
            if current.lower() in n.lower()
        ][:MAX_CHOICES]

    @app_commands.command(name=T("cmd.log.name"), description=T("cmd.log.description"))
    @app_commands.describe(page=T("cmd.log.page.description"))
    async def log(
        self,
        interaction: discord.Interaction,
        page: app_commands.Range[int, 1, LOG_MAX_PAGE] | None = None,
    ) -> None:
        async with handling(interaction, "log"):
            game = await shown_game(interaction)
            await show_log(interaction, game.id, page)

    @app_commands.command(name=T("cmd.scores.name"), description=T("cmd.scores.description"))
    async def scores(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "scores"):
            game = await shown_game(interaction)
            await show_scores(interaction, game.id)


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
    number = read_number(str(text).strip())
    if number is None or not 1 <= number < len(TILES):
        raise _bad(locale, f"'{echo(text)}' is not a building: pick one of the suggestions")
    return number
