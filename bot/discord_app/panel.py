"""The acting player's private panel in Discord: the menu model of `text.menus` as buttons and
selects, and what a click on them does.

Every component's custom id carries the game id and the version the panel was drawn for, so the
components keep working after a restart and a click on an outdated panel changes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime

import discord

from engine import Action, GiveToDirk, Place, PlaceInReserve, SeatView, Undo

from ..core.errors import InvalidRequest, Outdated
from ..core.records import GameInfo
from ..core.results import ActResult
from ..text import i18n
from ..text.menus import HINT_FOCUS, Choice, Option, PanelSpec, Tone, build_panel
from ..text.present import action_label, hint_text, turn_summary
from ..turns import computers
from .components import GameItem
from .context import (
    acknowledge,
    bot_of,
    handling,
    my_view,
    note_saved,
    now_of,
    redraw,
    reply,
    selected,
    user_locale,
)
from .markup import public_names, stamp
from .pictures import hand_file, panel_file
from .plan_panel import plan_button

STYLES: dict[Tone, discord.ButtonStyle] = {
    Tone.PRIMARY: discord.ButtonStyle.primary,
    Tone.SECONDARY: discord.ButtonStyle.secondary,
    Tone.SUCCESS: discord.ButtonStyle.success,
    Tone.DANGER: discord.ButtonStyle.danger,
}


class PanelButton(
    GameItem[discord.ui.Button[discord.ui.View]],
    custom_id="alh:b:{game_id}:{version}:{value}",
    value=r"[af][a-z0-9~-]{1,40}",
):
    def __init__(
        self, game_id: int, version: int, value: str, label: str = "…", tone: Tone = Tone.SECONDARY
    ) -> None:
        self.game_id, self.version, self.value = game_id, version, value
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=STYLES[tone],
                custom_id=self.custom_id_for(game_id=game_id, version=version, value=value),
            )
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await panel_choice(interaction, self.game_id, self.version, self.value)


class PanelSelect(
    GameItem[discord.ui.Select[discord.ui.View]],
    custom_id="alh:s:{game_id}:{version}:{menu}",
    menu=r"[a-z0-9~-]{1,40}",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        menu: str,
        placeholder: str = "…",
        options: list[Option] | None = None,
    ) -> None:
        self.game_id, self.version = game_id, version
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=self.custom_id_for(game_id=game_id, version=version, menu=menu),
            placeholder=placeholder[:150],
            options=[
                discord.SelectOption(
                    label=o.label[:100], value=o.value, description=(o.description or None)
                )
                for o in (options or [])
            ]
            or [discord.SelectOption(label="…", value="fmain")],
        )
        super().__init__(select)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = selected(interaction)
        await panel_choice(
            interaction, self.game_id, self.version, values[0] if values else "fmain"
        )


def panel_parts(
    game: GameInfo,
    view: SeatView,
    locale: str,
    focus: str,
    *,
    ends: datetime | None = None,
    did: Sequence[str] = (),
    now: datetime | None = None,
) -> tuple[PanelSpec, discord.ui.View]:
    """The ephemeral panel's text and components. `ends`: the turn is held for its undo window
    until then (a countdown every reader's client shows in their own words, or the time left
    in words from `now`, the bot's clock, where Discord has no client in the reader's
    language); `did`: what the turn did, in words, said above it."""
    held = None if ends is None else stamp(locale, ends, ends if now is None else now)
    spec = build_panel(view, locale, focus, ends=held, hint=not game.rated, did=did)
    ui = discord.ui.View(timeout=None)
    for menu_id, hint, options in spec.menus:
        ui.add_item(PanelSelect(game.id, game.version, menu_id, hint, options))
    for label, value, tone in spec.buttons:
        ui.add_item(PanelButton(game.id, game.version, value, label, tone))
    return spec, ui


def draws_picture(spec: PanelSpec) -> bool:
    return spec.picture is not None or spec.money


async def panel_files(
    view: SeatView, spec: PanelSpec, name: str, locale: str
) -> list[discord.File]:
    """The panel's picture: the Alhambra with the legal cells labelled when the choice is
    about cells, else the hand when it is about money. Its name carries a digest of its
    pixels, so a redraw can tell the picture already shown from a new one (`kept`)."""
    picture = await panel_file(view, spec, name, locale)
    if picture is None and spec.money:  # the hand, as the player decides what to do with it
        picture = await hand_file(view, name, locale)
    return [_named_by_content(picture)] if picture is not None else []


def _named_by_content(file: discord.File) -> discord.File:
    data = file.fp.read()
    file.fp.seek(0)
    digest = hashlib.blake2b(data, digest_size=4).hexdigest()
    stem, _, ext = file.filename.rpartition(".")
    file.filename = f"{stem}-{digest}.{ext}"
    return file


def kept(
    interaction: discord.Interaction, files: list[discord.File]
) -> list[discord.File | discord.Attachment]:
    """`files`, with those the panel already shows (the same name, so the same picture) kept
    as they are instead of uploaded again: a menu step that leaves the hand as it was does not
    send it again, and the panel does not jump on a phone while it is laid out anew."""
    shown = {a.filename: a for a in interaction.message.attachments} if interaction.message else {}
    return [shown.get(f.filename, f) for f in files]


async def panel_message(
    game: GameInfo,
    view: SeatView,
    locale: str,
    focus: str,
    name: str,
    *,
    ends: datetime | None = None,
    did: Sequence[str] = (),
    now: datetime | None = None,
) -> tuple[str, discord.ui.View, list[discord.File]]:
    """The panel's text, components and files, for an interaction already answered."""
    spec, ui = panel_parts(game, view, locale, focus, ends=ends, did=did, now=now)
    return spec.text, ui, await panel_files(view, spec, name, locale)


async def _held(interaction: discord.Interaction, game_id: int, view: SeatView) -> datetime | None:
    """When the turn on show ends by itself, if it waits for its undo window."""
    if view.phase != "confirm":
        return None
    return await bot_of(interaction).services.schedule.held_until(game_id)


def forced_placement(view: SeatView) -> Action | None:
    """The one placement the player can make, if that is all they can do (a building that fits
    only the reserve, say, in the final placement): a choice that is no choice."""
    moves = [a for a in view.legal if not isinstance(a, Undo)]
    placing = view.phase == "place" and len(moves) == 1
    if placing and isinstance(moves[0], Place | PlaceInReserve | GiveToDirk):
        return moves[0]
    return None


async def open_panel(interaction: discord.Interaction, game_id: int, focus: str) -> None:
    result = await my_view(interaction, game_id)
    view = result.own_decision()
    name = result.game.name_at(result.seat)
    locale = user_locale(interaction)
    forced = forced_placement(view)
    if forced is not None:  # taken for the player, said, and held with Undo like any move
        await acknowledge(interaction)
        done = await bot_of(interaction).flow.act(
            game_id,
            interaction.user.id,
            forced,
            result.game.version,
            locale=result.game.locale,
        )
        note_saved(interaction)
        taken = i18n.t(locale, "panel.forced", choice=action_label(locale, forced, view))
        await _redraw(interaction, done, locale, name, note=taken)
        return
    ends = await _held(interaction, game_id, view)
    spec, ui = panel_parts(result.game, view, locale, focus, ends=ends, now=now_of(interaction))
    if draws_picture(spec):  # a picture waits for a worker: answer Discord first
        await acknowledge(interaction)
    await reply(interaction, spec.text, view=ui, files=await panel_files(view, spec, name, locale))


async def show_hint(
    interaction: discord.Interaction, game_id: int, level: str = computers.HINT_LEVEL
) -> None:
    """What `level` (`hard` unless the player asked another) would do for the user now, and
    why: only to them, only at their decision in a running unrated game (refused at once
    otherwise, as a level a hint cannot come from is), and recorded."""
    services = bot_of(interaction).services
    await my_view(interaction, game_id)  # this channel's game
    await services.play.hint_view(game_id, interaction.user.id, level)  # refusals answer at once
    await acknowledge(interaction)  # the level thinks in a worker: up to a second or two
    given = await computers.hint(services, game_id, interaction.user.id, level)
    locale = user_locale(interaction)
    await reply(interaction, hint_text(locale, given.advice, given.view, given.used))


async def panel_choice(
    interaction: discord.Interaction, game_id: int, version: int, value: str
) -> None:
    """A button or menu option of the private panel: open a menu or act."""
    async with handling(interaction, "panel"):
        locale = user_locale(interaction)
        choice = Choice.parse(value)
        if choice is None:
            raise InvalidRequest()
        if choice.focus == HINT_FOCUS:  # a private answer of its own; the panel stays
            await show_hint(interaction, game_id)
            return
        result = await my_view(interaction, game_id)
        game = result.game
        moved_on = version != game.version and game.current_seat != result.seat
        if choice.index is not None and result.seat is not None and moved_on:
            raise Outdated(variant="turn_over")  # e.g. an undo after the window closed
        view = result.own_decision()
        name = game.name_at(result.seat)
        if choice.focus is not None:  # navigation redraws at the current version
            ends = await _held(interaction, game_id, view)
            spec, ui = panel_parts(
                result.game, view, locale, choice.focus, ends=ends, now=now_of(interaction)
            )
            if draws_picture(spec):
                await acknowledge(interaction, update=True)
            files = await panel_files(view, spec, name, locale)
            await redraw(
                interaction, content=spec.text, view=ui, attachments=kept(interaction, files)
            )
            return
        assert choice.index is not None
        if version != result.game.version or choice.index >= len(view.legal):
            raise Outdated()
        await interaction.response.defer()
        done = await bot_of(interaction).flow.act(
            game_id,
            interaction.user.id,
            view.legal[choice.index],
            version,
            locale=game.locale,
        )
        note_saved(interaction)
        await _redraw(interaction, done, locale, name)


async def _redraw(
    interaction: discord.Interaction,
    done: ActResult,
    locale: str,
    name: str,
    *,
    note: str | None = None,
) -> None:
    """The panel after a move (`note`: a line said first, such as a choice taken for the
    player)."""
    public, seat = done.public, done.seat.seat
    if public.is_over or public.current_seat != seat or done.turn_ended:
        ui = None
        if not public.is_over:  # going away now: the next turn can be planned from here
            ui = discord.ui.View(timeout=None)
            ui.add_item(plan_button(done.game.id, locale))
        over = i18n.t(locale, "panel.done")
        await interaction.edit_original_response(
            content=f"{note}\n{over}" if note else over, view=ui, attachments=[]
        )
        return
    did: list[str] = []
    if done.ends_at is not None:  # held: what the turn did, above the countdown
        names = public_names(done.game, locale)
        did = turn_summary(locale, names, done.turn_events, [])
    text, ui, files = await panel_message(
        done.game,
        done.own,
        locale,
        "main",
        name,
        ends=done.ends_at,
        did=did,
        now=now_of(interaction),
    )
    text = f"{note}\n{text}" if note else text
    await interaction.edit_original_response(
        content=text, view=ui, attachments=kept(interaction, files)
    )
