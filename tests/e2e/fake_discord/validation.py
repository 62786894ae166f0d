"""Discord's own limits, checked so the bot's bugs show up here instead of in production.

Each check returns the first problem as ``(field path, message)``; the REST layer turns it into the
400 "Invalid Form Body" (code 50035) that real Discord answers.
"""

from __future__ import annotations

import re
from typing import Any

from .models import walk_components

Problem = tuple[str, str] | None

_NAME = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
LOCALES = {
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
}  # fmt: skip


def check_message(body: dict[str, Any], *, creating: bool, file_count: int) -> Problem:
    """Limits of a message create or edit payload."""
    content = body.get("content")
    if content is not None and len(str(content)) > 2000:
        return "content", "Must be 2000 or fewer in length."
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        return "embeds", "Must be 10 or fewer in length."
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            if len(embed.get(key) or "") > limit:
                return f"embeds.{i}.{key}", f"Must be {limit} or fewer in length."
        fields = embed.get("fields") or []
        if len(fields) > 25:
            return f"embeds.{i}.fields", "Must be 25 or fewer in length."
        for j, fld in enumerate(fields):
            if not fld.get("name") or not fld.get("value"):
                return f"embeds.{i}.fields.{j}", "This field is required"
            if len(fld["name"]) > 256 or len(fld["value"]) > 1024:
                return f"embeds.{i}.fields.{j}", "Field name or value too long."
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        total += len((embed.get("footer") or {}).get("text", ""))
    if total > 6000:
        return "embeds", "Embed size exceeds maximum size of 6000"
    problem = check_components(body.get("components") or [], int(body.get("flags") or 0))
    if problem:
        return problem
    if creating and not (
        content or embeds or body.get("components") or file_count or body.get("poll")
    ):
        return "", "Cannot send an empty message"
    return None


def check_components(components: list[dict[str, Any]], flags: int = 0) -> Problem:
    v2 = bool(flags & (1 << 15))
    if not v2:
        if len(components) > 5:
            return "components", "Must be 5 or fewer in length."
        for i, row in enumerate(components):
            if row.get("type") != 1:
                return f"components.{i}", "Top-level components must be action rows"
            children = row.get("components") or []
            if not 1 <= len(children) <= 5:
                return f"components.{i}.components", "Must be between 1 and 5 in length."
            if any(c.get("type") != 2 for c in children) and len(children) > 1:
                return f"components.{i}.components", "A select menu must be alone in its row"
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= 100:
                return "custom_id", f"custom_id {custom_id!r} must be 1 to 100 characters"
            if custom_id in seen:
                return "custom_id", f"Component custom id {custom_id!r} cannot be duplicated"
            seen.add(custom_id)
        if component.get("type") == 2:
            if len(component.get("label") or "") > 80:
                return "label", "Button label must be 80 or fewer in length."
            if component.get("style") == 5:
                if not component.get("url"):
                    return "url", "Link buttons need a url"
            elif custom_id is None and component.get("style") != 6:
                return "custom_id", "Buttons other than links need a custom_id"
        if component.get("type") == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= 25:
                return "options", "A select menu needs 1 to 25 options"
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                return "options", "Select option values must be unique"
    return None


def check_commands(commands: list[dict[str, Any]]) -> Problem:
    """The rules of a bulk overwrite of application commands."""
    if len(commands) > 100:
        return "", "Too many commands"
    keys = set()
    for i, command in enumerate(commands):
        key = (command.get("type", 1), command.get("name"))
        if key in keys:
            return f"{i}.name", f"Application command names must be unique: {key[1]!r}"
        keys.add(key)
        problem = _check_command(command, f"{i}", chat_input=command.get("type", 1) == 1)
        if problem:
            return problem
    return None


def _check_localizations(node: dict[str, Any], where: str) -> Problem:
    for key in ("name_localizations", "description_localizations"):
        for locale in node.get(key) or {}:
            if locale not in LOCALES:
                return f"{where}.{key}", f"Invalid locale {locale!r}"
    return None


def _check_command(node: dict[str, Any], where: str, *, chat_input: bool) -> Problem:
    name = node.get("name") or ""
    if chat_input and (not _NAME.match(name) or name != name.lower()):
        return f"{where}.name", f"Invalid command or option name {name!r}"
    if chat_input:
        description = node.get("description") or ""
        if not 1 <= len(description) <= 100:
            return f"{where}.description", f"Description of {name!r} must be 1 to 100 characters"
        for locale, text in (node.get("description_localizations") or {}).items():
            if not 1 <= len(text) <= 100:
                return f"{where}.description_localizations.{locale}", "Must be 1 to 100 long"
        for locale, text in (node.get("name_localizations") or {}).items():
            if not _NAME.match(text) or text != text.lower():
                return f"{where}.name_localizations.{locale}", f"Invalid name {text!r}"
    problem = _check_localizations(node, where)
    if problem:
        return problem
    options = node.get("options") or []
    if len(options) > 25:
        return f"{where}.options", "Must be 25 or fewer in length."
    optional_seen = False
    names: set[str] = set()
    for j, option in enumerate(options):
        here = f"{where}.options.{j}"
        if option.get("name") in names:
            return here, f"Duplicate option name {option.get('name')!r}"
        names.add(option.get("name", ""))
        if option.get("type") in (1, 2):
            problem = _check_command(option, here, chat_input=True)
            if problem:
                return problem
            continue
        if option.get("required"):
            if optional_seen:
                return here, "Required options must be placed before non-required options"
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            return f"{here}.choices", "Must be 25 or fewer in length."
        if choices and option.get("autocomplete"):
            return here, "Autocomplete cannot be set with choices"
        problem = _check_command(option, here, chat_input=True)
        if problem:
            return problem
    return None
