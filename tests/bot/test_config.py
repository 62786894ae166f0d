"""Settings from the environment and a .env file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import (
    DEFAULT_STARTUP_TRIES,
    ConfigError,
    address_password,
    cluster_shards,
    db_address,
    load_settings,
)
from bot.core.db import redact


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


# --- the database address and its password --------------------------------------------------

#: every character with a meaning in an address
AWKWARD = "p@ss/w:o%rd#1?"


def test_a_password_given_apart_goes_into_the_address_encoded_and_nowhere_visible(
    tmp_path: Path,
) -> None:
    env = {
        "ALHAMBRA_DB": "postgresql://alhambra@db/alhambra",
        "ALHAMBRA_DB_PASSWORD": AWKWARD,
    }
    settings = load_settings(env, dotenv=tmp_path / ".env")
    assert settings.db_path == "postgresql://alhambra:p%40ss%2Fw%3Ao%25rd%231%3F@db/alhambra"
    assert settings.db_password == AWKWARD
    assert AWKWARD in settings.secrets() and "p%40ss%2Fw%3Ao%25rd%231%3F" in settings.secrets()
    assert "p%40ss" not in repr(settings) and AWKWARD not in repr(settings)
    assert redact(settings.db_path) == "postgresql://alhambra:***@db/alhambra"
    # an address without a user takes the password too (the role is then PostgreSQL's default)
    assert db_address("postgresql://db/x", "a b") == "postgresql://:a%20b@db/x"
    # a file path has no password to take
    assert db_address("/data/alhambra.sqlite3", AWKWARD) == "/data/alhambra.sqlite3"


def test_the_password_may_come_from_a_file_a_docker_secret(tmp_path: Path) -> None:
    secret = tmp_path / "db_password"
    secret.write_text(AWKWARD + "\n", encoding="utf-8")
    env = {"ALHAMBRA_DB": "postgres://u@h/d", "ALHAMBRA_DB_PASSWORD_FILE": str(secret)}
    assert load_settings(env, dotenv=None).db_password == AWKWARD
    with pytest.raises(ConfigError, match="both set"):
        load_settings(env | {"ALHAMBRA_DB_PASSWORD": "x"}, dotenv=None)
    for missing in (tmp_path / "nowhere", tmp_path):
        with pytest.raises(ConfigError, match="ALHAMBRA_DB_PASSWORD_FILE: cannot read"):
            load_settings(env | {"ALHAMBRA_DB_PASSWORD_FILE": str(missing)}, dotenv=None)
    secret.write_text("\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="is empty"):
        load_settings(env, dotenv=None)


def test_an_address_keeps_its_own_password_and_the_old_forms_work() -> None:
    """`ALHAMBRA_DB=postgresql://user:pass@host/db` is a contract: unchanged, and its password
    wins over ALHAMBRA_DB_PASSWORD; a raw `@` (or space) in it, which can only belong to the
    password, is encoded; an encoded one is left alone."""
    own = "postgresql://alhambra:secret@db:5432/alhambra?sslmode=require"
    assert db_address(own, "other") == own
    assert address_password(own) == "secret"
    assert db_address("postgresql://u:p@ss@h/d") == "postgresql://u:p%40ss@h/d"
    assert db_address("postgresql://u:a b:c@h/d") == "postgresql://u:a%20b:c@h/d"
    assert db_address("postgresql://u:p%40ss@h/d") == "postgresql://u:p%40ss@h/d"
    assert address_password("postgresql://u:p%40ss@h/d") == "p@ss"
    assert db_address("postgresql://u@[::1]:5432/d", "x") == "postgresql://u:x@[::1]:5432/d"


@pytest.mark.parametrize("raw", ["ss/w#1", "a/b", "a?b", "a#b", AWKWARD])
def test_a_raw_password_that_hides_the_host_is_refused_without_showing_it(raw: str) -> None:
    with pytest.raises(ConfigError, match="percent-encoded") as refused:
        load_settings({"ALHAMBRA_DB": f"postgresql://alh:{raw}@db/alhambra"}, dotenv=None)
    message = str(refused.value)
    assert "\n" not in message and raw not in message and "ALHAMBRA_DB_PASSWORD" in message


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "postgresql://alh2:ss/w#1@127.0.0.1:45039/alhambra",
            "postgresql://alh2:***@127.0.0.1:45039/alhambra",
        ),
        (
            "cannot connect to postgres://u:p@ss@h/d: refused",
            "cannot connect to postgres://u:***@h/d: refused",
        ),
        ("postgresql://u:p%40ss%2F%23@h/d", "postgresql://u:***@h/d"),
        ("postgresql://u:a b@h/d", "postgresql://u:***@h/d"),
        ("postgresql://user@server:pw@h/d", "postgresql://user@server:***@h/d"),
        (
            "postgresql://h/d?sslmode=require&password=pw#x",
            "postgresql://h/d?sslmode=require&password=***#x",
        ),
        ("postgresql://u@h:5432/d", "postgresql://u@h:5432/d"),
        ("/data/alhambra.sqlite3", "/data/alhambra.sqlite3"),
    ],
)
def test_addresses_are_shown_without_their_password(text: str, shown: str) -> None:
    assert redact(text) == shown
