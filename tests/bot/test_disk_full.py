"""A full disk, for real: SQLite's `max_page_count` makes every write past it fail with
SQLITE_FULL, as a full volume does. Every move is then either saved or refused with a clear
message, nothing half-written remains, and play goes on once there is room."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from service_helpers import act_as_current, sqlite_only, started, state

from bot.core.errors import StorageFull
from bot.core.services import Services
from bot.core.verify import verify_database
from bot.text.present import error_text
from engine import Undo

pytestmark = sqlite_only  # PostgreSQL has no page limit to fill; its disk-full error maps to
# the same StorageFull refusal (core.db.postgres)


async def test_a_full_disk_refuses_moves_cleanly_and_play_resumes(
    services: Services, db_path: Path
) -> None:
    games = [await started(services, humans=2, channel=c) for c in (1, 2, 3)]
    conn = services.store.conn
    pages = (await conn.execute_fetchall("PRAGMA page_count"))[0][0]
    await conn.execute(f"PRAGMA max_page_count = {pages + 2}")
    rng = random.Random(3)
    saved = refused = 0
    for _ in range(400):
        game = await services.lobby.game(rng.choice(games).id)
        legal = [a for a in (await state(services, game.id)).legal_actions()]
        move = rng.choice([a for a in legal if not isinstance(a, Undo)])
        try:
            result = await act_as_current(services, game, move)
        except StorageFull as exc:
            refused += 1
            assert (await services.lobby.game(game.id)).version == game.version  # nothing changed
            assert "not saved" in error_text(exc, "en") and error_text(exc, "ja")
        else:
            saved += 1
            assert result.version == game.version + 1
            assert (await services.lobby.game(game.id)).version == result.version
        assert not conn.in_transaction
    assert saved > 0 and refused > 0, (saved, refused)
    # reads keep working, and once there is room again the games go on
    await conn.execute("PRAGMA max_page_count = 1073741823")
    game = await services.lobby.game(games[0].id)
    move = next(
        a for a in (await state(services, game.id)).legal_actions() if not isinstance(a, Undo)
    )
    assert (await act_as_current(services, game, move)).version == game.version + 1
    report = verify_database(db_path)
    assert report.ok, report.problems


async def test_other_writes_refuse_cleanly_too(services: Services) -> None:
    conn = services.store.conn
    pages = (await conn.execute_fetchall("PRAGMA page_count"))[0][0]
    await conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StorageFull):
        for channel in range(1, 200):
            await services.lobby.create_game(channel_id=channel, host_id=1, host_name="x" * 30)
    assert not conn.in_transaction
