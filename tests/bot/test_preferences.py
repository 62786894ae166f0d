"""A user's preferences: one record, one registry of settings, one way to change them.

The registry is complete (every setting has a default, words in every language, an option of
the settings command, and survives the store on both engines); the one update path reads and
checks what a user typed, refuses bad input with the words users read and writes nothing then,
and keeps every change made at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import typing
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.clock import ManualClock
from bot.core.errors import BadSetting, InvalidRequest, ServiceError
from bot.core.preferences import (
    SETTINGS,
    PreferenceChanges,
    Preferences,
    rearms,
)
from bot.core.services import Services
from bot.core.store import Store
from bot.text import i18n
from bot.text.present import error_text
from bot.text.settings import SUMMARY, summarised

USER = 77
NOW = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)  # 18:00 in Tokyo

#: A value other than the default for each setting, as stored (the record's values).
STORED: dict[str, object] = {
    "auto_end_turn": False,
    "undo_window": 7,
    "notify": "both",
    "dms": False,
    "first_reminder": 3 * 3600,
    "repeat": 5 * 3600,
    "quiet_hours": (22 * 60 + 30, 7 * 60),
    "timezone": "Asia/Tokyo",
    "vacation_until": datetime(2024, 6, 30, 15, 0, tzinfo=UTC),
    "language": "ja",
}
#: The same, as a user types or picks them (the settings command's options).
TYPED: PreferenceChanges = {
    "auto_end_turn": False,
    "undo_window": 7,
    "notify": "both",
    "dms": False,
    "first_reminder": 3,
    "repeat": 5,
    "quiet_hours": "22:30-7",
    "timezone": "Asia/Tokyo",
    "vacation_until": "2024-06-30",
    "language": "ja",
}


# --- the registry -------------------------------------------------------------------------------


def test_every_field_of_the_record_is_a_setting_with_a_default() -> None:
    names = [f.name for f in dataclasses.fields(Preferences) if f.name != "user_id"]
    assert [s.name for s in SETTINGS] == names
    defaults = Preferences(USER)
    for setting in SETTINGS:
        assert getattr(defaults, setting.name) == setting.default
        assert setting.columns and setting.table in ("user_settings", "notify_settings")
    assert set(typing.get_type_hints(PreferenceChanges)) == set(names)
    assert set(STORED) == set(TYPED) == set(names), "give the new setting a sample here"


@pytest.mark.parametrize("locale", i18n.SUPPORTED)
def test_every_setting_has_words_in_every_language(locale: str) -> None:
    words = i18n.catalogue(locale)
    shown = summarised()
    for setting in SETTINGS:
        assert f"cmd.settings.{setting.name}.description" in words, setting.name
        if setting.name not in shown:  # a line of its own in the settings reply
            assert i18n.placeholders(words[f"reply.setting.{setting.name}"]) == {"value"}
        for value in setting.choices:
            assert f"choice.{setting.name}.{value}" in words
    for key in SUMMARY:  # the reply's summary names settings, and only settings
        assert i18n.placeholders(words[key]) <= {s.name for s in SETTINGS}


def test_the_settings_command_has_an_option_per_setting() -> None:
    from bot.discord_app.group import AlhambraCog

    command = next(c for c in AlhambraCog.__cog_app_commands__ if c.name == "settings")
    assert [p.name for p in command.parameters] == [s.name for s in SETTINGS]


async def test_every_setting_round_trips_through_the_store(store: Store) -> None:
    async with store.read() as tx:
        assert await tx.preferences(USER) == Preferences(USER)  # nothing stored: the defaults
    for setting in SETTINGS:  # each alone, then all of them
        one = dataclasses.replace(Preferences(USER + 1), **{setting.name: STORED[setting.name]})
        async with store.write() as tx:
            await tx.save_preferences(one, [setting], NOW)
        async with store.read() as tx:
            assert await tx.preferences(USER + 1) == one, setting.name
        async with store.write() as tx:
            await tx.save_preferences(Preferences(USER + 1), [setting], NOW)
    everything = Preferences(USER, **STORED)  # type: ignore[arg-type]
    async with store.write() as tx:
        await tx.save_preferences(everything, SETTINGS, NOW)
    async with store.read() as tx:
        assert await tx.preferences(USER) == everything
        assert await tx.preferences(USER + 1) == Preferences(USER + 1)


# --- the one update path ------------------------------------------------------------------------


@pytest.fixture
def people(services: Services, clock: ManualClock):  # type: ignore[no-untyped-def]
    clock.set(NOW)
    return services.people


async def test_what_a_user_types_is_read_into_the_record(people) -> None:  # type: ignore[no-untyped-def]
    saved = await people.update_preferences(USER, TYPED)
    assert saved == Preferences(USER, **STORED)  # type: ignore[arg-type]
    assert await people.preferences(USER) == saved


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ({"quiet_hours": "late"}, "error.bad_quiet_hours"),
        ({"quiet_hours": "25-99"}, "error.bad_quiet_hours"),
        ({"timezone": "Mars/Olympus"}, "error.bad_time_zone"),
        ({"vacation_until": "next week"}, "error.bad_date"),
        ({"vacation_until": "2024-06-01"}, "error.date_passed"),
        ({"vacation_until": "2031-01-01"}, "error.date_too_far"),
    ],
)
@pytest.mark.parametrize("locale", ["en", "ja"])
async def test_bad_input_is_refused_in_the_users_words_and_nothing_is_written(
    people, typed: dict[str, str], key: str, locale: str
) -> None:  # type: ignore[no-untyped-def]
    before = await people.preferences(USER)
    with pytest.raises(BadSetting) as refused:  # with a good change: neither is written
        await people.update_preferences(USER, {"dms": False, "notify": "both", **typed})
    (text,) = typed.values()
    assert error_text(refused.value, locale) == i18n.t(locale, key, text=text)
    assert await people.preferences(USER) == before


async def test_what_was_typed_is_echoed_inert_and_short(people) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadSetting) as refused:
        await people.update_preferences(USER, {"timezone": "@everyone " + "y" * 3000})
    text = error_text(refused.value, "en")
    assert "@\u200beveryone" in text and len(text) < 400


@pytest.mark.parametrize(
    "typed",
    [
        {"undo_window": 61},
        {"undo_window": True},
        {"notify": "loud"},
        {"dms": "yes"},
        {"first_reminder": 0},
        {"repeat": 337},
        {"language": "Klingon!"},
        {"colour": "red"},
    ],
)
async def test_other_bad_values_are_refused_and_nothing_is_written(people, typed) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidRequest):
        await people.update_preferences(USER, {"auto_end_turn": False, **typed})
    assert await people.preferences(USER) == Preferences(USER)


async def test_a_setting_left_out_or_none_is_kept(people) -> None:  # type: ignore[no-untyped-def]
    await people.update_preferences(USER, TYPED)
    unchanged = await people.update_preferences(USER, dict.fromkeys(TYPED))  # type: ignore[arg-type]
    assert unchanged == Preferences(USER, **STORED)  # type: ignore[arg-type]
    off = await people.update_preferences(
        USER, {"quiet_hours": "off", "timezone": "なし", "vacation_until": "off"}
    )
    assert (off.quiet_hours, off.timezone, off.vacation_until) == (None, None, None)
    assert (off.notify, off.repeat) == ("both", 5 * 3600)
    assert (await people.update_preferences(USER, {"language": "discord"})).language is None


async def test_two_changes_in_one_call_are_read_together(people) -> None:  # type: ignore[no-untyped-def]
    """The vacation ends at midnight in the time zone chosen with it."""
    saved = await people.update_preferences(
        USER, {"timezone": "Asia/Tokyo", "vacation_until": "2024-06-10"}
    )
    assert saved.vacation_until == datetime(2024, 6, 10, 15, 0, tzinfo=UTC)
    # a window is a choice that the turn ends by itself, unless that is chosen with it
    await people.update_preferences(USER, {"auto_end_turn": False})
    assert (await people.update_preferences(USER, {"undo_window": 5})).auto_end_turn is True
    both = await people.update_preferences(USER, {"auto_end_turn": False, "undo_window": 3})
    assert (both.auto_end_turn, both.undo_window) == (False, 3)


async def test_two_changes_at_once_are_both_kept(services: Services) -> None:
    """Two clicks at the same moment (two devices, two processes) on different settings."""
    people = services.people
    for round_ in range(5):
        user = USER + round_
        results = await asyncio.gather(
            people.update_preferences(user, {"quiet_hours": "22-7"}),
            people.update_preferences(user, {"notify": "mention"}),
            people.update_preferences(user, {"first_reminder": 2}),
            return_exceptions=True,
        )
        assert not [r for r in results if isinstance(r, BaseException)]
        kept = await people.preferences(user)
        assert (kept.quiet_hours, kept.notify, kept.first_reminder) == (
            (1320, 420),
            "mention",
            7200,
        )


async def test_a_change_to_reminders_tries_refused_dms_again(services: Services) -> None:
    people = services.people
    await services.schedule.note_dm_blocked(USER)
    await people.update_preferences(USER, {"notify": "both", "language": "ja"})
    assert (await people.notes(USER)).dm_blocked_at is not None  # not about DMs: kept
    assert rearms({"quiet_hours": "22-7"}) and not rearms({"notify": "both"})
    await people.update_preferences(USER, {"quiet_hours": "22-7"})
    assert (await people.notes(USER)).dm_blocked_at is None


async def test_notes_are_not_preferences(services: Services, clock: ManualClock) -> None:
    """What the bot notes (a reminder sent) and what the user chose never overwrite each
    other: each is written to its own columns."""
    people = services.people
    await people.update_preferences(USER, {"first_reminder": 2})
    assert await services.schedule.claim_reminder(USER, timedelta(hours=3)) is not None
    await services.schedule.note_reminded(USER)
    await people.update_preferences(USER, {"repeat": 4})
    prefs, notes = await people.preferences_and_notes(USER)
    assert (prefs.first_reminder, prefs.repeat) == (7200, 4 * 3600)
    assert notes.last_reminder_at == clock.now()


def test_a_refusal_of_a_setting_is_a_service_error() -> None:
    assert issubclass(BadSetting, ServiceError)
    for variant, english in BadSetting.variants.items():
        words = i18n.catalogue("en")[f"error.{variant}"]
        assert i18n.placeholders(words) == {"text"} and words == english
