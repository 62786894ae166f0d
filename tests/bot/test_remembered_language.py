"""Each user's DMs are in their language: the one they chose, else their Discord client's as the
bot last saw it, else the game's. Remembering it costs no write on an ordinary click."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.core.clock import ManualClock
from bot.core.errors import InvalidRequest
from bot.core.records import UserSettings
from bot.core.services import Services
from bot.core.store import Store

USER = 4242


def count_writes(store: Store, monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """How many write transactions the store has begun since."""
    begun: list[int] = []
    real = store.write

    def counted() -> Any:
        begun.append(1)
        return real()

    monkeypatch.setattr(store, "write", counted)
    return lambda: len(begun)


async def test_the_discord_language_is_written_only_when_it_changed(
    services: Services, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes = count_writes(store, monkeypatch)
    assert (await services.people.settings(USER)).discord_locale is None
    assert await services.people.note_discord_locale(USER, "ja")
    assert writes() == 1
    for _ in range(20):  # every click of the same user
        assert not await services.people.note_discord_locale(USER, "ja")
    assert writes() == 1
    assert (await services.people.settings(USER)).discord_locale == "ja"
    assert await services.people.note_discord_locale(USER, "pt-BR")  # they switched their client
    assert writes() == 2
    assert (await services.people.settings(USER)).discord_locale == "pt-BR"


async def test_another_process_reads_the_stored_language_once_and_writes_nothing(
    services: Services, store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await services.people.note_discord_locale(USER, "ja")
    other = Services.build(store, clock)  # a second process on the same database
    writes = count_writes(store, monkeypatch)
    assert not await other.people.note_discord_locale(USER, "ja")
    assert not await other.people.note_discord_locale(USER, "ja")
    assert writes() == 0


async def test_a_chosen_language_is_kept_whatever_the_client_says(services: Services) -> None:
    await services.people.note_discord_locale(USER, "ja")
    await services.people.update_settings(USER, locale="pt-BR")
    await services.people.note_discord_locale(USER, "en")  # a later click from an English client
    settings = await services.people.settings(USER)
    assert (settings.locale, settings.discord_locale) == ("pt-BR", "en")
    assert settings.dm_locale("ja") == "pt-BR"
    await services.people.update_settings(USER, locale=None)  # back to following Discord
    assert (await services.people.settings(USER)).dm_locale("ja") == "en"


def test_the_language_of_dms_falls_back_from_choice_to_client_to_game() -> None:
    assert UserSettings(USER).dm_locale("ja") == "ja"
    assert UserSettings(USER, discord_locale="pt-BR").dm_locale("ja") == "pt-BR"
    assert UserSettings(USER, locale="en", discord_locale="pt-BR").dm_locale("ja") == "en"


async def test_a_language_that_is_not_a_code_is_refused(services: Services) -> None:
    with pytest.raises(InvalidRequest):
        await services.people.note_discord_locale(USER, "'; DROP TABLE games; --")
    assert (await services.people.settings(USER)).discord_locale is None
