"""A user's preferences: everything they choose, one registry of settings, one way to read what
they typed.

Each setting is one field of `Preferences`, declared with `setting(...)`: its default, the
table and column(s) it is stored in, and `parse`, which reads what a user typed or picked
(the `/alhambra settings` option of the same name) and refuses anything else with the words a
user reads (`BadSetting` variants, `InvalidRequest`). That one declaration is the whole
registry: the store reads and writes preferences from it (`store.people`), the service changes
them through it (`People.update_preferences`, with `PreferenceChanges`), the settings command
declares its options' descriptions and describes what is in force by the setting's name
(`cmd.settings.<name>.description`; `reply.setting.<name>`, or a placeholder `{<name>}` of
the settings reply). Adding a setting is a field here, a `PreferenceChanges` key, a column (a
migration), an option of the command and its words (docs/ARCHITECTURE.md, "Where a change
belongs").

What the bot notes about a user without their choosing (a refused DM, the last reminder, their
Discord client's language) is a `records.UserNotes`, not a preference.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, Literal, TypedDict, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..config import MAX_UNDO_WINDOW_S
from .clock import from_ms, to_ms
from .errors import BadSetting, InvalidRequest, Typed
from .records import TURN_NOTICES, TurnNotice
from .typed import VacationTooLong, parse_quiet_hours, parse_time_zone, parse_vacation_end

V = TypeVar("V")
#: The tables preferences are stored in, one row per user in each.
Table = Literal["user_settings", "notify_settings"]
HOUR = 3600
#: Defaults for multi-day play: the first reminder half a day into a turn, then one a day.
FIRST_REMINDER_S = 12 * HOUR
REPEAT_REMINDER_S = 24 * HOUR
#: The most hours a user may choose before a reminder: two weeks.
MAX_REMINDER_HOURS = 14 * 24
#: A language code as the catalogue names it ("en", "pt-BR").
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(-[A-Z]{2})?$")
#: The `language` a user picks to follow their Discord client's language again.
FOLLOW_DISCORD = "discord"


@dataclass(frozen=True, slots=True)
class Reading:
    """What reading a typed value may depend on: the time, and the user's preferences as
    changed so far (a vacation ends in their time zone: the new one if both change at once)."""

    now: datetime
    prefs: Preferences


@dataclass(frozen=True, slots=True)
class Setting:
    """One row of the registry: a preference, where it is stored and how it is read."""

    name: str
    default: Any
    table: Table
    columns: tuple[str, ...]
    #: what the user typed or picked -> the value; raises a `ServiceError` for anything else
    parse: Callable[[object, Reading], Any]
    #: the stored columns (not all NULL: that is the default) -> the value
    load: Callable[..., Any]
    #: the value -> its columns, in order
    dump: Callable[[Any], tuple[object, ...]]
    #: a change re-arms the reminders and deadlines of the user's waiting games and tries DMs
    #: they refused before again (it changes when and how they are reminded)
    rearms: bool
    #: other settings a change of this one sets too, unless they are changed with it
    implies: tuple[tuple[str, Any], ...]
    #: the values a user picks from (their words: `choice.<name>.<value>`); empty: typed
    choices: tuple[str, ...]

    def stored(self, values: Sequence[object]) -> Any:
        """The value of this setting's stored columns: the default where nothing is stored."""
        return self.default if all(v is None for v in values) else self.load(*values)


def setting(
    default: V,
    table: Table,
    *columns: str,
    parse: Callable[[object, Reading], V],
    load: Callable[..., V] | None = None,
    dump: Callable[[V], tuple[object, ...]] | None = None,
    rearms: bool = False,
    implies: Mapping[str, object] | None = None,
    choices: tuple[str, ...] = (),
) -> V:
    """A field of `Preferences` that is a setting (see `Setting` for the arguments): typed as
    its value, so the record reads as plain fields."""
    spec = {
        "table": table,
        "columns": columns,
        "parse": parse,
        "load": load or _same,
        "dump": dump or _one,
        "rearms": rearms,
        "implies": tuple((implies or {}).items()),
        "choices": choices,
    }
    return field(default=default, metadata={"setting": spec})


def _same(value: Any) -> Any:
    return value


def _one(value: object) -> tuple[object, ...]:
    return (value,)


# --- reading what a user typed or picked ----------------------------------------------------------


def _flag(raw: object, _: Reading) -> bool:
    if not isinstance(raw, bool):
        raise InvalidRequest(f"{raw!r} is not True or False.")
    return raw


def _undo_window(raw: object, _: Reading) -> int | None:
    if type(raw) is not int or not 0 <= raw <= MAX_UNDO_WINDOW_S:
        raise InvalidRequest(f"The undo window is 0 to {MAX_UNDO_WINDOW_S} seconds.")
    return raw


def _notice(raw: object, _: Reading) -> TurnNotice:
    for notice in TURN_NOTICES:
        if raw == notice:
            return notice
    raise InvalidRequest(f"{raw!r} is not one of {', '.join(TURN_NOTICES)}.")


def _hours(label: str) -> Callable[[object, Reading], int]:
    def parse(raw: object, _: Reading) -> int:
        if type(raw) is not int or not 1 <= raw <= MAX_REMINDER_HOURS:
            raise InvalidRequest(f"The {label} must be between 1 hour and 14 days.")
        return raw * HOUR

    return parse


def _quiet_hours(raw: object, _: Reading) -> tuple[int, int] | None:
    try:
        return parse_quiet_hours(raw)
    except ValueError:
        raise BadSetting(variant="bad_quiet_hours", text=_typed(raw)) from None


def _time_zone(raw: object, _: Reading) -> str | None:
    try:
        return parse_time_zone(raw)
    except ValueError:
        raise BadSetting(variant="bad_time_zone", text=_typed(raw)) from None


def _vacation(raw: object, reading: Reading) -> datetime | None:
    try:
        away = parse_vacation_end(raw, reading.prefs, now=reading.now)
    except VacationTooLong:
        raise BadSetting(variant="date_too_far", text=_typed(raw)) from None
    except ValueError:
        raise BadSetting(variant="bad_date", text=_typed(raw)) from None
    if away is not None and away <= reading.now:
        raise BadSetting(variant="date_passed", text=_typed(raw))
    return away


def _language(raw: object, _: Reading) -> str | None:
    if raw == FOLLOW_DISCORD:
        return None
    if not isinstance(raw, str) or not LANGUAGE_CODE.match(raw):
        raise InvalidRequest(f"{raw!r} is not a language code such as 'en' or 'pt-BR'.")
    return raw


def _typed(raw: object) -> Typed:
    return Typed(raw if isinstance(raw, str) else repr(raw))


# --- how values are stored ------------------------------------------------------------------------


def _bool_column(value: bool) -> tuple[object, ...]:
    return (int(value),)


def _both_flags(value: bool) -> tuple[object, ...]:
    return (int(value), int(value))


def _dms_stored(on_turn: object, reminders: object) -> bool:
    return bool(on_turn) and bool(reminders)


def _quiet_columns(value: tuple[int, int] | None) -> tuple[object, ...]:
    return (None, None) if value is None else value


def _quiet_stored(start: int | None, end: int | None) -> tuple[int, int] | None:
    return None if start is None or end is None else (start, end)


def _ms_column(value: datetime | None) -> tuple[object, ...]:
    return (None if value is None else to_ms(value),)


# --- the registry ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Preferences:
    """Everything a user chooses, each with its default. The field order is the order they
    are read in (a vacation after the time zone it ends in)."""

    user_id: int
    #: end the turn by itself when nothing is left to decide (False: confirm, to keep undo)
    auto_end_turn: bool = setting(
        True, "user_settings", "auto_end_turn", parse=_flag, load=bool, dump=_bool_column
    )
    #: seconds a finished turn waits (undo still possible) before it ends by itself; None: the
    #: operator's default, 0: at once. Only with `auto_end_turn`, so choosing it sets that.
    undo_window: int | None = setting(
        None,
        "user_settings",
        "undo_window_s",
        parse=_undo_window,
        implies={"auto_end_turn": True},
    )
    #: how they are told it is their turn: a DM (the default), a channel mention, or both
    notify: TurnNotice = setting(
        "dm", "user_settings", "turn_notice", parse=_notice, choices=TURN_NOTICES
    )
    #: DMs when their turn starts and reminders
    dms: bool = setting(
        True,
        "user_settings",
        "dm_on_turn",
        "dm_reminders",
        parse=_flag,
        load=_dms_stored,
        dump=_both_flags,
        rearms=True,
    )
    #: seconds into a turn before the first reminder (the user picks hours)
    first_reminder: int = setting(
        FIRST_REMINDER_S,
        "notify_settings",
        "first_reminder_s",
        parse=_hours("first reminder"),
        rearms=True,
    )
    #: seconds between reminders after the first (the user picks hours)
    repeat: int = setting(
        REPEAT_REMINDER_S,
        "notify_settings",
        "repeat_reminder_s",
        parse=_hours("repeat"),
        rearms=True,
    )
    #: no reminders between these minutes after midnight in `timezone` (start, end)
    quiet_hours: tuple[int, int] | None = setting(
        None,
        "notify_settings",
        "quiet_start",
        "quiet_end",
        parse=_quiet_hours,
        load=_quiet_stored,
        dump=_quiet_columns,
        rearms=True,
    )
    #: an IANA zone name such as "Asia/Tokyo"; None: UTC
    timezone: str | None = setting(
        None, "notify_settings", "time_zone", parse=_time_zone, rearms=True
    )
    #: away (no reminders, deadlines paused if the game says so) until then
    vacation_until: datetime | None = setting(
        None,
        "notify_settings",
        "vacation_until",
        parse=_vacation,
        load=from_ms,
        dump=_ms_column,
        rearms=True,
    )
    #: the language of their DMs and reminders; None: follow their Discord client's
    language: str | None = setting(None, "user_settings", "locale", parse=_language)

    @property
    def zone(self) -> ZoneInfo:
        """The user's time zone; UTC when unset or no longer known to this system."""
        try:
            return ZoneInfo(self.timezone or "UTC")
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("UTC")

    def dm_locale(self, fallback: str, seen: str | None = None) -> str:
        """The language of this user's DMs: the one they chose, else their Discord client's
        as last `seen` (`UserNotes.discord_locale`), else `fallback` (the game's)."""
        return self.language or seen or fallback


class PreferenceChanges(TypedDict, total=False):
    """Settings to change, by name, as the user typed or picked them (the settings command's
    options). A setting left out, or None (an option not given), stays as it is."""

    auto_end_turn: bool | None
    undo_window: int | None
    notify: str | None
    dms: bool | None
    first_reminder: int | None
    repeat: int | None
    quiet_hours: str | None
    timezone: str | None
    vacation_until: str | None
    language: str | None


SETTINGS: tuple[Setting, ...] = tuple(
    Setting(name=f.name, default=f.default, **f.metadata["setting"])
    for f in fields(Preferences)
    if "setting" in f.metadata
)
BY_NAME: Mapping[str, Setting] = {s.name: s for s in SETTINGS}
TABLES: tuple[Table, ...] = tuple(dict.fromkeys(s.table for s in SETTINGS))


def given(changes: PreferenceChanges | Mapping[str, object]) -> dict[str, object]:
    """The settings a change names, without those left as they are (None); an unknown name is
    refused before anything is read."""
    out = {name: raw for name, raw in changes.items() if raw is not None}
    unknown = sorted(set(out) - set(BY_NAME))
    if unknown:
        raise InvalidRequest(f"There is no setting {', '.join(unknown)}.")
    return out


def rearms(changes: PreferenceChanges | Mapping[str, object]) -> bool:
    """Whether these changes alter when or how the user is reminded."""
    return any(BY_NAME[name].rearms for name in given(changes))


def changed(
    current: Preferences, changes: PreferenceChanges | Mapping[str, object], now: datetime
) -> tuple[Preferences, tuple[Setting, ...]]:
    """`current` with `changes` read in (in the registry's order, each refused as its setting
    says), and the settings that changed hands: those given, and those they imply."""
    raw = given(changes)
    prefs = current
    touched: dict[str, Setting] = {}
    for item in SETTINGS:
        if item.name in raw:
            value = item.parse(raw[item.name], Reading(now, prefs))
            prefs = replace(prefs, **{item.name: value})
            touched[item.name] = item
    for item in list(touched.values()):
        for name, implied in item.implies:
            if name not in raw:
                prefs = replace(prefs, **{name: implied})
                touched[name] = BY_NAME[name]
    return prefs, tuple(s for s in SETTINGS if s.name in touched)


def from_columns(user_id: int, stored: Mapping[str, object]) -> Preferences:
    """A user's preferences from their stored columns, by column name (absent: nothing
    stored, so the default)."""
    values = {s.name: s.stored([stored.get(c) for c in s.columns]) for s in SETTINGS}
    return Preferences(user_id, **values)


def to_columns(prefs: Preferences, settings: Sequence[Setting]) -> dict[str, object]:
    """The columns of `settings` as `prefs` has them, by column name."""
    out: dict[str, object] = {}
    for item in settings:
        out.update(zip(item.columns, item.dump(getattr(prefs, item.name)), strict=True))
    return out
