"""How a turn ends and how its player is told: the notification policy (one per turn, the one
the player chose, a mention when a DM cannot or need not go) and the settings' validation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.errors import InvalidRequest
from bot.core.records import TURN_NOTICES, NotifySettings
from bot.core.services import Services
from bot.turns.policy import DM_RETRY, LIVE_WINDOW, turn_notice

NOW = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)
PREFS = NotifySettings(1)


def notice(choice, *, dms_on=True, prefs=PREFS, last=None):
    return turn_notice(choice, dms_on=dms_on, prefs=prefs, now=NOW, last_action=last)


def test_the_default_is_one_dm_and_no_ping() -> None:
    told = notice("dm")
    assert told.dm and not told.mention


def test_a_mention_instead_when_a_dm_cannot_or_need_not_go() -> None:
    blocked = NotifySettings(1, dm_blocked_at=NOW - timedelta(days=1))
    for told in (
        notice("dm", dms_on=False),  # DMs switched off
        notice("dm", prefs=blocked),  # refused lately
        notice("dm", last=NOW - timedelta(minutes=2)),  # at the table: playing live
    ):
        assert told.mention and not told.dm
    # a refusal long ago is tried again
    assert notice("dm", prefs=NotifySettings(1, dm_blocked_at=NOW - DM_RETRY * 2)).dm
    assert notice("dm", last=NOW - LIVE_WINDOW * 2).dm


def test_mention_and_both() -> None:
    assert notice("mention") == notice("mention", last=NOW)  # never a DM
    assert notice("mention").mention and not notice("mention").dm
    both = notice("both")
    assert both.dm and both.mention


def test_nobody_is_told_on_vacation() -> None:
    away = NotifySettings(1, vacation_until=NOW + timedelta(days=3))
    for choice in TURN_NOTICES:
        told = notice(choice, prefs=away)
        assert not told.dm and not told.mention


@given(
    choice=st.sampled_from(TURN_NOTICES),
    dms_on=st.booleans(),
    blocked_ago=st.none() | st.timedeltas(timedelta(0), timedelta(days=30)),
    last_ago=st.none() | st.timedeltas(timedelta(0), timedelta(hours=2)),
)
def test_one_notification_unless_both_were_chosen(choice, dms_on, blocked_ago, last_ago) -> None:
    prefs = NotifySettings(1, dm_blocked_at=None if blocked_ago is None else NOW - blocked_ago)
    last = None if last_ago is None else NOW - last_ago
    told = notice(choice, dms_on=dms_on, prefs=prefs, last=last)
    assert told.dm or told.mention  # nobody is left untold
    if choice != "both":
        assert not (told.dm and told.mention)
    if choice == "mention":
        assert not told.dm


async def test_settings_are_checked_before_anything_changes(services: Services) -> None:
    saved = await services.people.update_settings(7, undo_window_s=5, turn_notice="both")
    assert (saved.undo_window_s, saved.turn_notice) == (5, "both")
    for bad in (
        {"undo_window_s": 61},
        {"undo_window_s": -1},
        {"undo_window_s": True},
        {"undo_window_s": 2.5},
        {"turn_notice": "loud"},
        {"turn_notice": "DM"},
    ):
        with pytest.raises(InvalidRequest):
            await services.people.update_settings(7, **bad)  # type: ignore[arg-type]
    kept = await services.people.settings(7)
    assert (kept.undo_window_s, kept.turn_notice, kept.auto_end_turn) == (5, "both", True)
    fresh = await services.people.settings(8)
    assert (fresh.undo_window_s, fresh.turn_notice) == (None, "dm")
