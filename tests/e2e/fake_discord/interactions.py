"""Interactions: what a user's action looks like on the wire, and what the bot did with it.

The option and component payloads are built from what the bot itself declared (the synced
command tree, the components on the message, the modal it opened), so a test cannot send
something a real Discord client would not let a user send.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import SimulationError
from .models import Attachment, Channel, Message, User, walk_components

if TYPE_CHECKING:
    from .sim import FakeDiscord

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
OPTION_TYPE_NAMES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


@dataclass(eq=False)
class InteractionResult:
    """One interaction and everything the bot answered to it, kept live as the bot acts.

    ``response`` is the original response message (for an update of a component's message, that
    message), ``followups`` the followup messages; ``choices`` and ``modal`` hold autocomplete
    choices and an opened modal. ``rejected`` lists what the fake refused (late or double acks).
    """

    sim: FakeDiscord
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    source: Message | None = None
    id: int = 0
    token: str = ""
    created: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    callback_at: float | None = None
    response: Message | None = None
    followups: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    original_deleted: bool = False
    rejected: list[tuple[int, str]] = field(default_factory=list)
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def shard(self) -> int | None:
        """The shard whose gateway connection the interaction was sent to (None: none yet)."""
        return self.sim.gateway.interaction_shards.get(self.id)

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        return self.response is not None and self.response.ephemeral

    @property
    def ack_seconds(self) -> float | None:
        """How long the bot took to acknowledge (Discord allows 3 seconds)."""
        return None if self.callback_at is None else self.callback_at - self.created

    @property
    def messages(self) -> list[Message]:
        """The original response and the followups that still exist."""
        found = [] if self.response is None or self.original_deleted else [self.response]
        return [m for m in found + self.followups if not m.deleted]

    @property
    def content(self) -> str:
        """Text of the original response (``""`` if none): the usual thing to assert on."""
        return self.response.content if self.response is not None else ""

    @property
    def text(self) -> str:
        """All the visible text of the answer: contents, embed titles, descriptions, fields."""
        parts: list[str] = []
        for message in self.messages:
            parts.append(message.content)
            for embed in message.embeds:
                parts += [embed.get("title") or "", embed.get("description") or ""]
                for fld in embed.get("fields") or []:
                    parts += [fld.get("name", ""), fld.get("value", "")]
        return "\n".join(p for p in parts if p)

    async def wait(self, predicate, timeout: float | None = None) -> InteractionResult:
        """Wait until ``predicate(self)`` holds (woken by every change to the fake's state)."""
        await self.sim.wait_until(lambda: predicate(self), timeout=timeout)
        return self

    async def wait_followups(self, count: int = 1, timeout: float | None = None):
        return await self.wait(lambda r: len(r.followups) >= count, timeout)

    async def wait_edit(self, edits: int = 1, timeout: float | None = None):
        """Wait until the original response has been edited ``edits`` times in all."""
        return await self.wait(
            lambda r: r.response is not None and r.response.edits >= edits, timeout
        )

    def describe(self) -> str:
        name = self.data.get("name") or self.data.get("custom_id")
        return f"interaction {self.id} (type {self.type}, {name!r}) by {self.user.name}"

    def __repr__(self) -> str:
        return f"<InteractionResult {self.describe()} callback={self.callback_type}>"


# ----- slash commands -----


def find_command(sim: FakeDiscord, channel: Channel, name: str) -> tuple[dict, int | None]:
    """The synced command a user in ``channel`` sees under ``name`` (guild ones first)."""
    guild_id = channel.guild.id if channel.guild else None
    scopes: list[int | None] = [guild_id, None] if guild_id is not None else [None]
    for scope in scopes:
        for command in sim.commands.get(scope, []):
            if command.get("type", 1) == 1 and command["name"] == name:
                return command, scope
    seen = sorted({c["name"] for s in scopes for c in sim.commands.get(s, [])})
    raise SimulationError(f"no synced slash command /{name} here (synced: {seen})")


def _leaf(command: dict, path: list[str]) -> tuple[dict, list[dict], list[dict]]:
    """Walk subcommand groups; returns (leaf node, the option chain payload, leaf options)."""
    node = command
    chain: list[dict] = []
    root_options: list[dict] = []
    current = root_options
    for part in path:
        sub = next(
            (o for o in node.get("options") or [] if o["name"] == part and o["type"] in (1, 2)),
            None,
        )
        if sub is None:
            subs = [o["name"] for o in node.get("options") or [] if o["type"] in (1, 2)]
            raise SimulationError(f"/{command['name']} has no subcommand {part!r} (has {subs})")
        entry: dict[str, Any] = {"name": part, "type": sub["type"], "options": []}
        current.append(entry)
        current = entry["options"]
        chain.append(entry)
        node = sub
    if any(o["type"] in (1, 2) for o in node.get("options") or []):
        subs = [o["name"] for o in node["options"]]
        raise SimulationError(f"{' '.join([command['name'], *path])} needs a subcommand: {subs}")
    return node, root_options, current


def _convert(sim: FakeDiscord, option: dict, value: Any, resolved: dict) -> Any:
    kind = option["type"]
    name = option["name"]
    if kind == 3:
        if not isinstance(value, str):
            raise SimulationError(f"option {name!r} takes text, not {value!r}")
        if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise SimulationError(f"option {name!r}: length of {value!r} out of bounds")
    elif kind == 4:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SimulationError(f"option {name!r} takes a whole number, not {value!r}")
    elif kind == 10:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SimulationError(f"option {name!r} takes a number, not {value!r}")
    elif kind == 5:
        if not isinstance(value, bool):
            raise SimulationError(f"option {name!r} takes True or False, not {value!r}")
    elif kind in (6, 9):
        if not isinstance(value, User):
            raise SimulationError(f"option {name!r} takes a sim user, not {value!r}")
        resolved.setdefault("users", {})[str(value.id)] = value.to_json()
        return str(value.id)
    elif kind == 7:
        if not isinstance(value, Channel):
            raise SimulationError(f"option {name!r} takes a sim channel, not {value!r}")
        resolved.setdefault("channels", {})[str(value.id)] = value.to_json() | {
            "permissions": str((1 << 50) - 1)
        }
        return str(value.id)
    elif kind == 11:
        if isinstance(value, tuple):
            value = Attachment(filename=value[0], data=value[1])
        if not isinstance(value, Attachment):
            raise SimulationError(f"option {name!r} takes (filename, bytes), not {value!r}")
        sim.register_upload(value)
        resolved.setdefault("attachments", {})[str(value.id)] = value.to_json()
        return str(value.id)
    else:
        raise SimulationError(f"option type {kind} ({name!r}) is not simulated")
    if kind in (4, 10):
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise SimulationError(f"option {name!r}: {value} is outside [{low}, {high}]")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        offered = [c["value"] for c in choices]
        raise SimulationError(f"option {name!r}: {value!r} is not one of the choices {offered}")
    return value


def command_data(
    sim: FakeDiscord,
    channel: Channel,
    user: User,
    command_line: str,
    options: dict[str, Any],
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND (or AUTOCOMPLETE, with ``focused``) interaction."""
    name, *path = command_line.strip().lstrip("/").split()
    command, scope = find_command(sim, channel, name)
    sim.check_can_use(user, channel, command)
    leaf, root_options, leaf_options = _leaf(command, path)
    declared = {o["name"]: o for o in leaf.get("options") or []}
    resolved: dict[str, Any] = {}
    for key, value in options.items():
        if key not in declared:
            raise SimulationError(f"/{command_line} has no option {key!r} (has {sorted(declared)})")
        option = declared[key]
        if key == focused:
            if not option.get("autocomplete"):
                raise SimulationError(f"option {key!r} of /{command_line} has no autocomplete")
            entry = {"name": key, "type": option["type"], "value": str(value), "focused": True}
        else:
            entry = {"name": key, "type": option["type"]}
            entry["value"] = _convert(sim, option, value, resolved)
        leaf_options.append(entry)
    if focused is None:
        missing = [n for n, o in declared.items() if o.get("required") and n not in options]
        if missing:
            raise SimulationError(f"/{command_line} needs the required options {missing}")
    elif focused not in options:
        raise SimulationError(f"the focused option {focused!r} needs a value")
    data: dict[str, Any] = {
        "id": str(command["id"]),
        "name": name,
        "type": 1,
        "options": root_options,
    }
    if resolved:
        data["resolved"] = resolved
    if scope is not None:
        data["guild_id"] = str(scope)
    return data


# ----- components -----


def find_button(message: Message, label_or_id: str) -> dict[str, Any]:
    buttons = message.buttons()
    matches = [b for b in buttons if b.get("custom_id") == label_or_id]
    if not matches:
        matches = [b for b in buttons if b.get("label") == label_or_id]
    if not matches:
        shown = [(b.get("label"), b.get("custom_id")) for b in buttons]
        raise SimulationError(f"no button {label_or_id!r} on {message!r}; buttons: {shown}")
    if len(matches) > 1:
        ids = [b.get("custom_id") for b in matches]
        raise SimulationError(f"{len(matches)} buttons labelled {label_or_id!r}: use one of {ids}")
    button = matches[0]
    if button.get("disabled"):
        raise SimulationError(f"button {label_or_id!r} is disabled")
    if button.get("style") in (5, 6) or "custom_id" not in button:
        raise SimulationError(f"button {label_or_id!r} is a link, the bot never hears of it")
    return button


def find_select(message: Message, id_or_placeholder: str) -> dict[str, Any]:
    selects = message.selects()
    matches = [s for s in selects if s.get("custom_id") == id_or_placeholder] or [
        s for s in selects if s.get("placeholder") == id_or_placeholder
    ]
    if len(matches) != 1:
        shown = [(s.get("placeholder"), s.get("custom_id")) for s in selects]
        raise SimulationError(f"no single select {id_or_placeholder!r} on {message!r}: {shown}")
    if matches[0].get("disabled"):
        raise SimulationError(f"select {id_or_placeholder!r} is disabled")
    return matches[0]


def select_values(select: dict[str, Any], values: list[Any]) -> tuple[list[str], dict]:
    """Check the picked values like the Discord client would; returns (values, resolved)."""
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not low <= len(values) <= high:
        raise SimulationError(f"select {select.get('custom_id')!r} takes {low}..{high} values")
    resolved: dict[str, Any] = {}
    if select["type"] == 3:
        offered = [o["value"] for o in select.get("options") or []]
        for value in values:
            if value not in offered:
                raise SimulationError(f"{value!r} is not an option of the select ({offered})")
        return [str(v) for v in values], resolved
    out = []
    for value in values:
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.to_json()
        elif isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = value.to_json() | {
                "permissions": str((1 << 50) - 1)
            }
        else:
            raise SimulationError(f"pick sim users or channels in this select, not {value!r}")
        out.append(str(value.id))
    return out, resolved


# ----- modals -----


def modal_submission(modal: dict[str, Any], values: dict[str, Any]) -> list[dict[str, Any]]:
    """The components of a MODAL_SUBMIT, echoing the modal's structure with the user's input.

    ``values`` is keyed by an input's custom_id or its label; text inputs take strings, selects
    inside labels take lists.
    """
    used: set[str] = set()

    def field_value(component: dict[str, Any], label: str | None) -> Any:
        for key in (component.get("custom_id"), label, component.get("label")):
            if key is not None and key in values:
                used.add(key)
                return values[key]
        return None

    def text_input(component: dict[str, Any], label: str | None) -> dict[str, Any]:
        value = field_value(component, label)
        value = "" if value is None else str(value)
        name = label or component.get("label") or component["custom_id"]
        if component.get("required", True) and not value:
            raise SimulationError(f"the modal field {name!r} is required")
        if value and not component.get("min_length", 0) <= len(value) <= component.get(
            "max_length", 4000
        ):
            raise SimulationError(f"the modal field {name!r} has a bad length")
        return {"type": 4, "custom_id": component["custom_id"], "value": value}

    def submitted(component: dict[str, Any], label: str | None) -> dict[str, Any]:
        if component["type"] == 4:
            return text_input(component, label)
        value = field_value(component, label)
        picked, _ = select_values(component, list(value or []))
        return {"type": component["type"], "custom_id": component["custom_id"], "values": picked}

    out: list[dict[str, Any]] = []
    for top in modal.get("components") or []:
        if top["type"] == 1:
            children = [submitted(c, None) for c in top.get("components") or []]
            out.append({"type": 1, "components": children})
        elif top["type"] == 18:
            out.append({"type": 18, "component": submitted(top["component"], top.get("label"))})
    unknown = set(values) - used
    if unknown:
        names = [
            c.get("custom_id") or c.get("label")
            for c in walk_components(modal.get("components") or [])
        ]
        raise SimulationError(f"the modal has no field {sorted(unknown)} (fields: {names})")
    return out
