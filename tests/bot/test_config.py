"""Settings from the environment and a .env file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import DEFAULT_STARTUP_TRIES, ConfigError, cluster_shards, load_settings


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


def test_without_sharding_the_bot_is_one_connection(tmp_path: Path) -> None:
    settings = load_settings({"ALHAMBRA_SHARDS": " "}, dotenv=tmp_path / ".env")
    assert (settings.shards, settings.clusters, settings.cluster) == (None, 1, 0)
    assert not settings.sharded and settings.shard_ids() is None


def test_auto_sharding_asks_discord_and_connects_every_shard(tmp_path: Path) -> None:
    settings = load_settings({"ALHAMBRA_SHARDS": "Auto"}, dotenv=tmp_path / ".env")
    assert settings.shards == "auto" and settings.sharded
    assert settings.shard_ids() is None  # discord.py learns the count from /gateway/bot


def test_each_cluster_runs_its_contiguous_range_of_the_shards(tmp_path: Path) -> None:
    one = load_settings({"ALHAMBRA_SHARDS": "4"}, dotenv=tmp_path / ".env")
    assert one.shard_ids() == [0, 1, 2, 3]
    env = {"ALHAMBRA_SHARDS": "10", "ALHAMBRA_CLUSTERS": "3"}
    ranges = [
        load_settings(env | {"ALHAMBRA_CLUSTER": str(k)}, dotenv=None).shard_ids() for k in range(3)
    ]
    assert ranges == [[0, 1, 2], [3, 4, 5], [6, 7, 8, 9]]
    for shards in range(1, 40):
        for clusters in range(1, shards + 1):
            covered = [
                shard for k in range(clusters) for shard in cluster_shards(shards, clusters, k)
            ]
            assert covered == list(range(shards))  # each shard once, in order, none empty
            assert all(len(cluster_shards(shards, clusters, k)) for k in range(clusters))


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"ALHAMBRA_SHARDS": "0"}, "auto or a number of shards from 1"),
        ({"ALHAMBRA_SHARDS": "two"}, "auto or a number of shards from 1"),
        ({"ALHAMBRA_SHARDS": "-2"}, "auto or a number of shards from 1"),
        ({"ALHAMBRA_SHARDS": "1000000"}, "auto or a number of shards from 1"),
        ({"ALHAMBRA_CLUSTERS": "0", "ALHAMBRA_SHARDS": "2"}, "ALHAMBRA_CLUSTERS must be"),
        ({"ALHAMBRA_CLUSTERS": "2"}, "needs ALHAMBRA_SHARDS .* not unset"),
        (
            {"ALHAMBRA_CLUSTERS": "2", "ALHAMBRA_SHARDS": "auto"},
            "needs ALHAMBRA_SHARDS .* not auto",
        ),
        ({"ALHAMBRA_CLUSTERS": "3", "ALHAMBRA_SHARDS": "2"}, "fewer than ALHAMBRA_CLUSTERS=3"),
        ({"ALHAMBRA_CLUSTER": "1"}, r"from 0 to 0 \(ALHAMBRA_CLUSTERS is 1\)"),
        (
            {"ALHAMBRA_SHARDS": "4", "ALHAMBRA_CLUSTERS": "2", "ALHAMBRA_CLUSTER": "2"},
            "from 0 to 1",
        ),
        ({"ALHAMBRA_SHARDS": "4", "ALHAMBRA_CLUSTERS": "2", "ALHAMBRA_CLUSTER": "-1"}, "0 to 1"),
    ],
)
def test_bad_sharding_is_one_clear_line(tmp_path: Path, env: dict[str, str], message: str):
    with pytest.raises(ConfigError, match=message) as raised:
        load_settings(env, dotenv=tmp_path / ".env")
    assert "\n" not in str(raised.value)


def test_startup_tries_are_a_small_positive_number() -> None:
    assert load_settings({}, dotenv=None).startup_tries == DEFAULT_STARTUP_TRIES
    assert load_settings({"ALHAMBRA_STARTUP_TRIES": "2"}, dotenv=None).startup_tries == 2
    for bad in ("0", "many", "-1", "101"):
        with pytest.raises(ConfigError, match="ALHAMBRA_STARTUP_TRIES"):
            load_settings({"ALHAMBRA_STARTUP_TRIES": bad}, dotenv=None)
