"""Settings from the environment and a .env file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


def test_defaults_work_with_no_configuration(tmp_path: Path) -> None:
    settings = load_settings({}, dotenv=tmp_path / ".env")
    assert settings.token is None and settings.dev_guild is None
    assert (settings.db_path, settings.log_level, settings.db_sync) == (
        "alhambra.sqlite3",
        "INFO",
        "FULL",
    )
    assert settings.undo_window_s == 10  # Board Game Arena counts down a few seconds too
    assert load_settings({"ALHAMBRA_UNDO_WINDOW": "0"}, dotenv=None).undo_window_s == 0
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        settings.require_token()


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# a comment\nDISCORD_TOKEN='from-file'\nexport ALHAMBRA_DB=games.db\n"
        "ALHAMBRA_DEV_GUILD=1234\nALHAMBRA_DB_SYNC=normal\n",
        encoding="utf-8",
    )
    settings = load_settings({"ALHAMBRA_DB": "/data/a.sqlite3"}, dotenv=dotenv)
    assert settings.require_token() == "from-file"
    assert settings.db_path == "/data/a.sqlite3"
    assert settings.dev_guild == 1234 and settings.db_sync == "NORMAL"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("ALHAMBRA_DEV_GUILD", "my-server", "server id"),
        ("ALHAMBRA_LOG_LEVEL", "LOUD", "DEBUG, INFO"),
        ("ALHAMBRA_DB_SYNC", "OFF", "FULL or NORMAL"),
        ("ALHAMBRA_UNDO_WINDOW", "61", "0 to 60 seconds"),
        ("ALHAMBRA_UNDO_WINDOW", "-1", "0 to 60 seconds"),
        ("ALHAMBRA_UNDO_WINDOW", "ten", "0 to 60 seconds"),
        ("ALHAMBRA_UNDO_WINDOW", "\uff11\uff10", "0 to 60 seconds"),  # fullwidth 10
    ],
)
def test_bad_values_are_one_clear_line(tmp_path: Path, name: str, value: str, message: str):
    with pytest.raises(ConfigError, match=message) as raised:
        load_settings({name: value}, dotenv=tmp_path / ".env")
    assert "\n" not in str(raised.value)
