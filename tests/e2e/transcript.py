"""A transcript of one whole game: everything the fake Discord saw the bot do, in order.

This is the instrument that shows a change to the bot's insides left what people see alone.
It plays one complete game through the real bot (`AlhambraBot`, real discord.py) against the
local fake Discord, fully deterministic, and records every message the bot created, edited or
deleted: in the server channel, the game's thread, DMs, and the private (ephemeral) answers to
interactions and their followups; and every autocomplete list it offered.

The game: three seats, ana (the host) and bruno, people, and a `normal` computer player, in a
thread of its own (the default). ana plays with the buttons and menus of her private panel and
her turn ends when she presses End turn (`/alhambra settings auto_end_turn:False`); she uses
Undo once. bruno plays with slash commands (as autocomplete offers them), his turn ending at his
last decision; he asks for a hint once (the game is not rated) and, once mid-game, uses
`/alhambra status`, `hand`, `board`, `log` and `scores`. carla, a third member of the server,
follows the game by DM from the lobby. At the end, carla clicks the results' Score sheet, Log
and Every Alhambra.

What is fixed so that two runs are the same: the game's seed (`seed_source`), time (a
`ManualClock`: every countdown and deadline in the messages), the people's decisions (the
`easy` computer player's choice for their seat, seeded by the seat), the computer player's
(seeded by the game), and the pictures (drawn in threads of this process, `workers=0`).

What is recorded, per message state: the text, the embeds (title, description, fields, image
and thumbnail address, footer, author), the components (type, label, custom id, style, emoji,
disabled, placeholder, the options' labels, values and descriptions), whether it is ephemeral
or still "thinking", and its attachments: file name, description (alt text), picture size and
a SHA-256 of the decoded pixels (`Image.open(...).convert("RGBA").tobytes()`, of the first
frame; an animation also gives its frame count).

What is normalised: Discord's snowflake ids, which change from run to run, become stable labels
wherever they appear (texts, links, custom ids, option values): a user becomes their name (a
mention reads `<@ana>`), the server `server:Club`, a channel or thread its name (`#alhambra`,
`#Alhambra · ana`), a DM channel `dm:carla`, a message `m1`, `m2`, ... and an interaction `i1`,
... by order of first appearance, anything else `id1`, .... The fake's own timestamps are not
recorded (every time the bot writes comes from the manual clock).

Ordering. The transcript is a list of steps, one per user action (a command, a click, a pick,
an autocomplete), each waited on until the bot is quiet (`bot.calm()`: the computer player's
turn that follows, DMs, every background task). Within one step the bot's background work may
interleave differently from run to run (a DM and a channel post are independent), so a step
lists the messages it touched in a fixed order: messages seen before, by label; then new ones,
place by place (sorted by place name), in the order they were created there. Each message's
own changes keep their order.

Use:

    python tests/e2e/transcript.py --write    # play it, write tests/e2e/data/transcript.json
    python tests/e2e/transcript.py --twice    # play it twice, say whether both are the same
    python tests/e2e/transcript.py            # play it, say how it differs from the file

`tests/e2e/test_transcript.py` plays it and compares it with the committed file. **Regenerate
the file only when a change visible to users is intended** (new words, a changed picture,
another button), and read the diff of `transcript.json` in review as the record of what
users will see differently. A refactoring that should change nothing users see must pass the
test against the committed file unchanged. The pixel hashes depend on Pillow and the fonts:
the file records Pillow's version, and under another version only picture sizes are compared.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import difflib
import hashlib
import io
import json
import logging
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script: fake_discord and players live here
    sys.path.insert(0, str(HERE))

import PIL  # noqa: E402
from fake_discord import FakeDiscord, InteractionResult, pointed_at, running_bot  # noqa: E402
from fake_discord.models import DM_CHANNEL, Attachment, Channel, Message, User  # noqa: E402
from PIL import Image  # noqa: E402
from players import Table  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.core.clock import ManualClock  # noqa: E402
from bot.discord_app.client import AlhambraBot  # noqa: E402
from bot.text import i18n  # noqa: E402
from bot.text.present import action_code, action_label, building_name, currency_name  # noqa: E402
from engine import (  # noqa: E402
    Action,
    Buy,
    EndTurn,
    Game,
    GiveToDirk,
    Pass,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    Swap,
    TakeMoney,
    Undo,
)

GOLDEN = HERE / "data" / "transcript.json"
#: the game's seed, and when it is played (the manual clock's start)
SEED = 20240601
T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)
#: the people's decisions: the easy computer player's for their seat, seeded by this + seat
PEOPLE_SEED = 11
LOCALE = "en"
#: how many of ana's turns pass before she undoes her last move once (then plays it again)
UNDO_ON_TURN = 2
#: how many of bruno's turns pass before he asks for a hint and looks at the game
LOOK_ON_TURN = 6
#: give up on a game that does not end (a bug): far more decisions than a game takes
MAX_DECISIONS = 600
SNOWFLAKE = re.compile(r"(?<![0-9])[0-9]{17,20}(?![0-9])")
t = i18n.t


# --- what the fake saw --------------------------------------------------------------------------


@dataclass
class Seen:
    """One thing the bot did to a message, with the message's state right after it (``None``
    for a deletion)."""

    op: str
    message: Message
    state: dict[str, Any] | None


@dataclass
class Step:
    """One user action and what the bot did until it was quiet again."""

    who: User
    does: list[Any]  # words, and Message objects named by their label once known
    seen: list[Seen] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None


class Recorder:
    """Hooks the fake Discord's message store: every creation, edit by the bot and deletion is
    kept, with the message's state at that moment."""

    def __init__(self, sim: FakeDiscord) -> None:
        self.sim = sim
        self.steps: list[Step] = []
        self.loose: list[Seen] = []  # before the first step (nothing is expected there)
        add, delete, edit = sim.add_message, sim.delete, sim.rest.edit_message

        def added(message: Message) -> None:
            add(message)
            self._keep(Seen("create", message, _state(message)))

        def edited(message: Message, record: Any, body: dict | None = None) -> None:
            edit(message, record, body)
            self._keep(Seen("edit", message, _state(message)))

        def deleted(message: Message) -> None:
            delete(message)
            self._keep(Seen("delete", message, None))

        sim.add_message = added  # type: ignore[method-assign]
        sim.delete = deleted  # type: ignore[method-assign]
        sim.rest.edit_message = edited  # type: ignore[method-assign]

    def _keep(self, seen: Seen) -> None:
        (self.steps[-1].seen if self.steps else self.loose).append(seen)


def _state(message: Message) -> dict[str, Any]:
    """The raw state of a message now (copied: the fake changes its messages in place)."""
    return {
        "content": message.content,
        "embeds": copy.deepcopy(message.embeds),
        "components": copy.deepcopy(message.components),
        "attachments": list(message.attachments),
        "ephemeral": message.ephemeral,
        "loading": message.loading,
    }


# --- labels and the canonical form --------------------------------------------------------------


class Labels:
    """Stable names for everything that has a Discord id, by order of first appearance."""

    def __init__(self, sim: FakeDiscord) -> None:
        self.sim = sim
        self.messages: dict[int, str] = {}  # by id(message)
        self.by_id: dict[int, str] = {}  # snowflake -> label (messages, interactions, others)
        self._others = self._interactions = 0

    def message(self, message: Message) -> str:
        key = id(message)
        if key not in self.messages:
            label = f"m{len(self.messages) + 1}"
            self.messages[key] = label
            self.by_id.setdefault(message.id, label)
        return self.messages[key]

    def named(self, value: int) -> str:
        """The label of a snowflake: a user, the server, a channel, a message seen, or a new
        label for anything else."""
        user = self.sim.users_by_id.get(value)
        if user is not None:
            return user.name
        for guild in self.sim.guilds:
            if guild.id == value:
                return f"server:{guild.name}"
        channel = self.sim.channels_by_id.get(value)
        if channel is not None:
            return place(channel)
        if value in self.by_id:
            return self.by_id[value]
        if any(interaction.id == value for interaction in self.sim.interactions):
            self._interactions += 1
            label = f"i{self._interactions}"
        else:
            self._others += 1
            label = f"id{self._others}"
        self.by_id[value] = label
        return label

    def text(self, value: str) -> str:
        return SNOWFLAKE.sub(lambda m: self.named(int(m[0])), value)


def place(channel: Channel) -> str:
    """Where a message is, by name: the channel, the thread, or the DM with whom."""
    if channel.type == DM_CHANNEL and channel.recipient is not None:
        return f"dm:{channel.recipient.name}"
    return f"#{channel.name}"


def where(message: Message) -> str:
    shown = place(message.channel)
    if message.visible_to is not None:
        return f"{shown} (only {message.visible_to.name} sees it)"
    return shown


_PICTURES: dict[str, dict[str, Any]] = {}


def picture(attachment: Attachment) -> dict[str, Any]:
    """An attachment as recorded: name, alt text, and for a picture its size and pixel hash."""
    key = hashlib.sha256(attachment.data).hexdigest()
    found = _PICTURES.get(key)
    if found is None:
        found = {}
        try:
            image = Image.open(io.BytesIO(attachment.data))
            image.load()
        except Exception:  # not a picture: its bytes stand for it
            found["bytes"] = key
        else:
            found["size"] = f"{image.width}x{image.height}"
            found["pixels"] = hashlib.sha256(image.convert("RGBA").tobytes()).hexdigest()
            frames = getattr(image, "n_frames", 1)
            if frames > 1:
                found["frames"] = frames
        _PICTURES[key] = found
    # a panel's picture is named by a digest of its bytes (so a redraw keeps the one shown),
    # which depends on Pillow and the fonts as the pixel hash does: recorded without it
    out: dict[str, Any] = {"file": re.sub(r"-[0-9a-f]{8}(\.\w+)$", r"-#\1", attachment.filename)}
    if attachment.description is not None:
        out["alt"] = attachment.description
    return out | found


_EMBED_KEYS = ("title", "description", "url", "color")
_COMPONENT_KEYS = (
    "type",
    "style",
    "label",
    "custom_id",
    "url",
    "placeholder",
    "disabled",
    "min_values",
    "max_values",
    "content",
)


def embed(labels: Labels, data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in _EMBED_KEYS:
        if key in data:
            out[key] = labels.text(data[key]) if isinstance(data[key], str) else data[key]
    if data.get("fields"):
        out["fields"] = [
            {
                "name": labels.text(f.get("name", "")),
                "value": labels.text(f.get("value", "")),
                **({"inline": True} if f.get("inline") else {}),
            }
            for f in data["fields"]
        ]
    for key in ("image", "thumbnail"):
        if isinstance(data.get(key), dict) and "url" in data[key]:
            out[key] = labels.text(data[key]["url"])
    if isinstance(data.get("footer"), dict):
        out["footer"] = labels.text(data["footer"].get("text", ""))
    if isinstance(data.get("author"), dict):
        out["author"] = labels.text(data["author"].get("name", ""))
    return out


def component(labels: Labels, data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in _COMPONENT_KEYS:
        if key in data:
            value = data[key]
            out[key] = labels.text(value) if isinstance(value, str) else value
    if data.get("emoji"):
        out["emoji"] = data["emoji"].get("name")
    if data.get("options"):
        out["options"] = [
            {
                "label": labels.text(o.get("label", "")),
                "value": labels.text(str(o.get("value", ""))),
                **({"description": labels.text(o["description"])} if o.get("description") else {}),
                **({"default": True} if o.get("default") else {}),
            }
            for o in data["options"]
        ]
    children = [component(labels, c) for c in data.get("components") or []]
    if children:
        out["components"] = children
    for key in ("accessory", "component"):
        if isinstance(data.get(key), dict):
            out[key] = component(labels, data[key])
    return out


def state(labels: Labels, raw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if raw["loading"]:
        out["thinking"] = True
    if raw["content"]:
        out["content"] = labels.text(raw["content"])
    if raw["embeds"]:
        out["embeds"] = [embed(labels, e) for e in raw["embeds"]]
    if raw["components"]:
        out["components"] = [component(labels, c) for c in raw["components"]]
    if raw["attachments"]:
        out["attachments"] = [picture(a) for a in raw["attachments"]]
    return out


def canonical(labels: Labels, step: Step) -> dict[str, Any]:
    """A step in its fixed order (see the module's docstring), every id a label."""
    touched: dict[int, tuple[Message, list[Seen]]] = {}
    for seen in step.seen:
        touched.setdefault(id(seen.message), (seen.message, []))[1].append(seen)
    known = sorted(
        (m for m, _ in touched.values() if id(m) in labels.messages),
        key=lambda m: int(labels.messages[id(m)][1:]),
    )
    fresh: dict[str, list[Message]] = {}
    for message, _ in touched.values():
        if id(message) not in labels.messages:
            fresh.setdefault(where(message), []).append(message)
    new = [m for key in sorted(fresh) for m in fresh[key]]
    does = " ".join(labels.message(p) if isinstance(p, Message) else str(p) for p in step.does)
    for message in new:
        labels.message(message)
    out: dict[str, Any] = {"who": step.who.name, "does": labels.text(does)}
    if step.choices is not None:
        out["offered"] = [
            {"name": labels.text(c["name"]), "value": labels.text(str(c["value"]))}
            for c in step.choices
        ]
    messages = []
    for message in [*known, *new]:
        events = []
        for seen in touched[id(message)][1]:
            event: dict[str, Any] = {"op": seen.op}
            if seen.state is not None:
                event |= state(labels, seen.state)
            events.append(event)
        messages.append(
            {
                "message": labels.message(message),
                "where": labels.text(where(message)),
                **({"ephemeral": True} if message.ephemeral else {}),
                "events": events,
            }
        )
    out["messages"] = messages
    return out


def canonical_transcript(sim: FakeDiscord, recorder: Recorder) -> dict[str, Any]:
    labels = Labels(sim)
    if recorder.loose:
        raise AssertionError(f"the bot posted before anyone acted: {recorder.loose}")
    return {
        "pillow": PIL.__version__,
        "steps": [canonical(labels, step) for step in recorder.steps],
    }


# --- the people ---------------------------------------------------------------------------------


class Hands:
    """The game being played, and the people's hands on the fake Discord."""

    def __init__(self, sim: FakeDiscord, bot: AlhambraBot, recorder: Recorder, db: Path) -> None:
        self.sim, self.bot, self.recorder, self.db = sim, bot, recorder, db
        self.table: Table | None = None
        self.interactions = 0

    async def _step(
        self, who: User, does: list[Any], act: Callable[[], Awaitable[InteractionResult]]
    ) -> InteractionResult:
        self.recorder.steps.append(Step(who, does))
        self.interactions += 1
        result = await act()
        await self.bot.calm()
        return result

    async def slash(
        self, who: User, command: str, channel: Channel, **options: Any
    ) -> InteractionResult:
        said = " ".join(f"{k}:{v}" for k, v in options.items())
        return await self._step(
            who,
            [f"/{command}", said] if said else [f"/{command}"],
            lambda: self.sim.slash(who, command, channel=channel, **options),
        )

    async def offered(
        self, who: User, command: str, option: str, channel: Channel, **others: Any
    ) -> list[dict[str, Any]]:
        step = Step(who, [f"/{command} {option}:… (autocomplete)"])
        self.recorder.steps.append(step)
        self.interactions += 1
        choices = await self.sim.autocomplete(who, command, option, "", channel=channel, **others)
        await self.bot.calm()
        step.choices = choices
        return choices

    async def click(self, who: User, message: Message, label: str) -> InteractionResult:
        return await self._step(
            who,
            ["clicks", repr(label), "on", message],
            lambda: self.sim.click(who, message, label),
        )

    async def pick(self, who: User, message: Message, label: str) -> InteractionResult:
        select, value = _option(message, label) or (None, None)
        assert select is not None, f"no option {label!r} on {message!r}"
        return await self._step(
            who,
            ["picks", repr(label), "on", message],
            lambda: self.sim.select(who, message, select["custom_id"], [value]),
        )

    def state(self) -> tuple[Game, User | None]:
        assert self.table is not None
        _, game, seats = self.table.state()
        return game, self.table.users.get(seats.get(game.current_seat))  # type: ignore[arg-type]


def _option(message: Message, label: str) -> tuple[dict[str, Any], str] | None:
    for select in message.selects():
        for option in select.get("options") or []:
            if option["label"] == label[:100]:
                return select, option["value"]
    return None


def _shown(message: Message, label: str) -> str | None:
    """How the panel offers `label`: as a "button", an "option", or not at all."""
    if label in message.button_labels():
        return "button"
    if _option(message, label) is not None:
        return "option"
    return None


def _route(action: Action, view: Any) -> list[str]:
    """What a person reads in the panel on the way to `action`: the menus that lead to it,
    nearest first (the panel may be at any of them)."""
    if isinstance(action, TakeMoney):
        return [t(LOCALE, "button.take")]
    if isinstance(action, Buy):
        tile = view.market[action.slot]
        slot = t(
            LOCALE,
            "panel.slot",
            currency=currency_name(LOCALE, action.slot),
            building=building_name(LOCALE, tile),
        )
        return [slot, t(LOCALE, "button.buy")]
    if isinstance(action, RemoveToReserve | PlaceFromReserve | Swap):
        kind = {RemoveToReserve: "remove", PlaceFromReserve: "build", Swap: "swap"}[type(action)]
        tile = [] if isinstance(action, RemoveToReserve) else [building_name(LOCALE, action.tile)]
        return [*tile, t(LOCALE, f"panel.redesign.{kind}"), t(LOCALE, "button.redesign")]
    if isinstance(action, Place | PlaceInReserve | GiveToDirk):
        return [building_name(LOCALE, action.tile), t(LOCALE, "button.place")]
    return []


async def panel_turn(play: Hands, user: User, turn_message: Message, undo: bool) -> None:
    """One of ana's turns, in one private panel: opened from the turn message, every decision
    picked there, the turn ended with End turn (after an Undo and the same move again, once)."""
    game, _ = play.state()
    seat = game.current_seat
    assert seat is not None
    first = play.table.choose(game)  # type: ignore[union-attr]
    opener = {
        TakeMoney: "button.take",
        Buy: "button.buy",
        RemoveToReserve: "button.redesign",
        PlaceFromReserve: "button.redesign",
        Swap: "button.redesign",
    }.get(type(first), "button.take")
    labels = turn_message.button_labels()
    if t(LOCALE, "button.place_received") in labels:
        opener = "button.place_received"
    panel = (await play.click(user, turn_message, t(LOCALE, opener))).response
    assert panel is not None and panel.ephemeral, "the panel opens privately"
    undone = not undo
    while True:
        game, mover = play.state()
        if game.is_over or mover is not user:
            return
        view = game.view(seat)
        action = play.table.choose(game)  # type: ignore[union-attr]
        if game.phase == "confirm":
            action = EndTurn() if undone else Undo()
            undone = True
        await panel_decision(play, user, panel, action, view)


async def panel_decision(play: Hands, user: User, panel: Message, action: Action, view) -> None:
    """Make `action` in the open panel as a person reads it: the button or option with its
    label if shown, else the menu on the way to it (`_route`), the next page, or Back."""
    label = action_label(LOCALE, action, view)
    if isinstance(action, EndTurn):
        label = t(LOCALE, "action.end_turn")
    elif isinstance(action, Undo):
        label = t(LOCALE, "action.undo")
    elif isinstance(action, Pass):
        label = t(LOCALE, "action.pass")
    route = _route(action, view)
    for _ in range(12):
        how = _shown(panel, label)
        if how == "button":
            await play.click(user, panel, label)
            return
        if how == "option":
            await play.pick(user, panel, label)
            return
        for step in route:
            how = _shown(panel, step)
            if how is not None:
                await (play.click if how == "button" else play.pick)(user, panel, step)
                break
        else:
            more = t(LOCALE, "button.more")
            back = t(LOCALE, "button.back")
            if _shown(panel, more):
                await play.pick(user, panel, more)
            elif _shown(panel, back):
                await play.click(user, panel, back)
            else:
                raise AssertionError(f"cannot reach {label!r} in the panel: {panel.content!r}")
    raise AssertionError(f"lost in the panel looking for {label!r}")


async def command_decision(play: Hands, user: User, channel: Channel, action: Action) -> None:
    """One of bruno's decisions, typed as a slash command with what autocomplete offers."""
    if isinstance(action, TakeMoney):
        await play.offered(user, "alhambra take", "cards", channel)
        await play.slash(user, "alhambra take", channel, cards=action_code(action))
    elif isinstance(action, Buy):
        await play.slash(
            user, "alhambra buy", channel, slot=action.slot + 1, payment=action_code(action)
        )
    elif isinstance(action, Place | PlaceInReserve | GiveToDirk):
        await play.offered(user, "alhambra place", "where", channel, building=str(action.tile))
        await play.slash(
            user,
            "alhambra place",
            channel,
            where=action_code(action),
            building=str(action.tile),
        )
    elif isinstance(action, RemoveToReserve):
        await play.slash(
            user, "alhambra redesign", channel, move="remove", building=action_code(action)
        )
    elif isinstance(action, PlaceFromReserve | Swap):
        await play.slash(
            user,
            "alhambra redesign",
            channel,
            move="build" if isinstance(action, PlaceFromReserve) else "swap",
            building=str(action.tile),
            cell=action_code(action),
        )
    elif isinstance(action, EndTurn):
        await play.slash(user, "alhambra end-turn", channel)
    else:
        raise AssertionError(f"no command for {action!r}")


# --- the game -----------------------------------------------------------------------------------


async def play_game(sim: FakeDiscord, db_path: Path) -> tuple[Recorder, int]:
    """Play the whole game against `sim`; returns what was recorded and the interactions sent."""
    ana = sim.user("ana")
    bruno = sim.user("bruno")
    carla = sim.user("carla")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, bruno)
    sim.member(guild, carla)
    channel = sim.channel(guild, "alhambra")
    clock = ManualClock(T0)
    settings = Settings(
        token=None,
        db_path=str(db_path),
        dev_guild=None,
        log_level="WARNING",
        undo_window_s=0,
        workers=0,
    )
    recorder = Recorder(sim)

    def factory() -> AlhambraBot:
        bot = AlhambraBot(settings, clock=clock, seed_source=lambda: SEED)
        # the minute's sweep of waiting games changes nothing users see, but on a slow machine
        # it would run in the middle of some step: kept out of the way
        bot.sweep_every_s = 10**6
        return bot

    async with running_bot(sim, factory) as bot:
        play = Hands(sim, bot, recorder, db_path)
        opened = await play.slash(ana, "alhambra new", channel)
        assert opened.response is not None and opened.response.thread is not None
        thread = opened.response.thread
        (lobby,) = sim.channel_messages(thread)
        asked = await play.click(carla, lobby, t(LOCALE, "button.follow"))
        assert asked.response is not None
        await play.click(carla, asked.response, t(LOCALE, "button.follow_dm"))
        await play.click(bruno, lobby, t(LOCALE, "button.join"))
        await play.slash(ana, "alhambra add-bot", thread, level="normal")
        await play.slash(ana, "alhambra settings", thread, auto_end_turn=False)
        await play.click(ana, lobby, t(LOCALE, "button.start"))

        table = Table(sim, thread, db_path, {ana.id: ana, bruno.id: bruno}, seed=PEOPLE_SEED)
        play.table = table
        turns = {ana.id: 0, bruno.id: 0}
        decisions = 0
        while True:
            game, mover = play.state()
            if game.is_over:
                break
            assert mover is not None, "the computer player's turns are over by now"
            decisions += 1
            assert decisions < MAX_DECISIONS, "the game does not end"
            if mover is ana:
                turns[ana.id] += 1
                await panel_turn(play, ana, table.turn_message(), turns[ana.id] == UNDO_ON_TURN)
                continue
            if not game.turn_actions:
                turns[bruno.id] += 1
                if turns[bruno.id] == LOOK_ON_TURN:
                    await look_around(play, bruno, ana, thread)
            await command_decision(play, bruno, thread, table.choose(game))

        results = next(
            m for m in reversed(sim.channel_messages(thread)) if "The game is over!" in m.content
        )
        for button in ("button.scores", "button.log", "button.boards"):
            await play.click(carla, results, t(LOCALE, button))
        return recorder, play.interactions


async def look_around(play: Hands, bruno: User, ana: User, thread: Channel) -> None:
    """bruno, at the start of a turn mid-game: a hint, then every way of looking at the game."""
    await play.slash(bruno, "alhambra hint", thread)
    await play.slash(bruno, "alhambra status", thread)
    await play.slash(bruno, "alhambra hand", thread)
    await play.offered(bruno, "alhambra board", "player", thread)
    await play.slash(bruno, "alhambra board", thread, player=ana.name)
    await play.slash(bruno, "alhambra log", thread)
    await play.slash(bruno, "alhambra scores", thread)


async def record(db_dir: Path) -> dict[str, Any]:
    """Play the game against a fresh fake Discord; returns the transcript (canonical form)."""
    sim = FakeDiscord()
    await sim.start()
    try:
        with pointed_at(sim):
            recorder, interactions = await play_game(sim, db_dir / "transcript.sqlite3")
        if sim.unhandled:
            raise AssertionError(f"the bot used routes the fake does not know: {sim.unhandled}")
        transcript = canonical_transcript(sim, recorder)
        transcript["interactions"] = interactions
        return transcript
    finally:
        await sim.stop()


def dumps(value: Any) -> str:
    """JSON with one line per value that fits in one (a button, an option, a short text),
    nested ones indented: small enough to keep, and a diff shows what changed."""
    return _pretty(value, 0) + "\n"


#: the longest line a value is put on whole
_WIDTH = 120


def _pretty(value: Any, level: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + level <= _WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    inner = " " * (level + 1)
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(k, ensure_ascii=False)}: {_pretty(v, level + 1).lstrip()}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * level + "}"
    items = [inner + _pretty(v, level + 1).lstrip() for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * level + "]"


def without_pixels(value: Any) -> Any:
    """The transcript with every picture's pixel hash left out (another Pillow draws others)."""
    if isinstance(value, dict):
        return {k: without_pixels(v) for k, v in value.items() if k not in ("pixels", "pillow")}
    if isinstance(value, list):
        return [without_pixels(v) for v in value]
    return value


def differences(expected: dict[str, Any], got: dict[str, Any], limit: int = 60) -> str | None:
    """Where two transcripts first differ, as a short unified diff of the first differing step
    (None: they are the same)."""
    if expected == got:
        return None
    old, new = expected.get("steps", []), got.get("steps", [])
    for index, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            diff = difflib.unified_diff(
                dumps(a).splitlines(),
                dumps(b).splitlines(),
                f"expected step {index}",
                f"this run's step {index}",
                lineterm="",
            )
            lines = list(diff)
            cut = "" if len(lines) <= limit else f"\n… {len(lines) - limit} more lines"
            return (
                f"step {index} ({b.get('who')}: {b.get('does')}):\n"
                + "\n".join(lines[:limit])
                + cut
            )
    if len(old) != len(new):
        agree = min(len(old), len(new))
        return f"{len(old)} steps expected, {len(new)} recorded (the first {agree} agree)"
    rest = {k: v for k, v in expected.items() if k != "steps"}
    mine = {k: v for k, v in got.items() if k != "steps"}
    return f"the header differs: {rest} != {mine}"


async def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {GOLDEN.name}")
    parser.add_argument("--twice", action="store_true", help="play twice and compare the runs")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        got = await record(Path(tmp))
    took = time.perf_counter() - started
    steps = len(got["steps"])
    print(f"played in {took:.1f} s: {got['interactions']} interactions, {steps} steps")
    if args.twice:
        with tempfile.TemporaryDirectory() as tmp:
            again = await record(Path(tmp))
        problem = differences(got, again)
        print("the two runs are the same" if problem is None else f"the runs differ: {problem}")
        return 0 if problem is None else 1
    if args.write:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(dumps(got), encoding="utf-8")
        print(f"wrote {GOLDEN.relative_to(HERE.parents[1])}")
        return 0
    if not GOLDEN.exists():
        print(f"no {GOLDEN} yet: run with --write")
        return 1
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    problem = differences(expected, got)
    print("the same as the committed transcript" if problem is None else problem)
    return 0 if problem is None else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(_main()))
