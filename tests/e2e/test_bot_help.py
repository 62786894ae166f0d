"""Help that finds it all: `/alhambra help` and the Help button of the lobby and the results
answer privately, in the asker's own language, with every feature and an example of each; the
results point to the game's replay and review, and the rules to plans."""

from __future__ import annotations

import re

import pytest
from fake_discord import FakeDiscord
from fake_discord.errors import InteractionNotAnswered
from players import open_game

from bot.text import i18n
from bot.text.help import TOPICS

#: what each language's help must mention, besides its title
LANGUAGES = ("en", "ja", "pt-BR", "fa")


def _help_of(result, locale: str) -> dict:
    assert result.ephemeral, "help is for the one who asked"
    embed = result.response.embed
    assert embed is not None and embed["title"] == i18n.t(locale, "help.title")
    return embed


def _assert_complete(embed: dict, locale: str) -> None:
    """Every topic, each with a body and an example command, within Discord's embed limits."""
    fields = embed["fields"]
    assert [f["name"] for f in fields] == [i18n.t(locale, f"help.{t}.title") for t in TOPICS]
    for topic, field in zip(TOPICS, fields, strict=True):
        assert i18n.t(locale, f"help.{topic}.body") in field["value"]
        example = re.search(r"`/alhambra[-\w]* [^`]+`", field["value"])
        assert example, (topic, field["value"])
        assert len(field["value"]) <= 1024
    size = len(embed["title"]) + len(embed["description"]) + len(embed["footer"]["text"])
    size += sum(len(f["name"]) + len(f["value"]) for f in fields)
    assert size <= 6000
    # what a new player does not find alone is all there, by the names they would type
    text = "\n".join(f["value"] for f in fields)
    for key in ("cmd.new.name", "cmd.hint.name", "cmd.follow.name", "cmd.settings.name"):
        assert f"/alhambra {i18n.t(locale, key)}" in text, key
    for group, key in (
        ("alhambra-plan", "cmd.plan_add.name"),
        ("alhambra-history", "cmd.replay.name"),
        ("alhambra-history", "cmd.review.name"),
        ("alhambra-history", "cmd.stats.name"),
        ("alhambra-history", "cmd.leaderboard.name"),
    ):
        assert f"/{group} {i18n.t(locale, key)}" in text, key


async def test_help_in_every_language_to_the_one_who_asked(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana = sim.user("ana")
    guild = sim.guild("Club", owner=ana)
    channel = sim.channel(guild, "alhambra")
    users = {"en": ana}
    for locale, name in (("ja", "kenji"), ("pt-BR", "bruna"), ("fa", "darya")):
        users[locale] = sim.user(name, locale="en-US" if locale == "fa" else locale)
        sim.member(guild, users[locale])
    async with run_bot(make_bot()):
        # Discord has no Persian client: a Persian reader chooses it in their settings
        await sim.slash(users["fa"], "alhambra settings", channel=channel, language="fa")
        for locale, user in users.items():
            answer = await sim.slash(user, "alhambra help", channel=channel)
            embed = _help_of(answer, locale)
            _assert_complete(embed, locale)
            assert embed["description"] == i18n.t(locale, "help.intro")
            assert embed["footer"]["text"] == i18n.t(locale, "help.footer")
        # nothing was posted in the channel: help is private
        assert not [m for m in sim.channel_messages(channel) if m.embed and "fields" in m.embed]


async def test_the_lobby_offers_help_in_the_clickers_language(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, kenji = sim.user("ana"), sim.user("kenji", locale="ja")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, kenji)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()):
        lobby = (await open_game(sim, ana, channel)).response
        assert "Help" in lobby.button_labels()  # the lobby speaks the game's language
        answer = await sim.click(kenji, lobby, "Help")
        _assert_complete(_help_of(answer, "ja"), "ja")
        # the same click again, as Discord would send it after a restart of the bot
        data = {"custom_id": "alh:help", "component_type": 2}
        again = await sim.forge(kenji, channel, data, source=lobby)
        _assert_complete(_help_of(again, "ja"), "ja")


@pytest.mark.parametrize("custom_id", ["alh:help:1", "alh:helpx", "alh:hel"])
async def test_a_forged_help_id_is_not_the_help_button(
    sim: FakeDiscord, run_bot, make_bot, custom_id: str
) -> None:
    """Only the exact id is the button's: anything else is no item of this bot, and Discord's
    own "interaction failed" is what a forger gets (nothing is posted, nothing changes)."""
    ana = sim.user("ana")
    channel = sim.channel(sim.guild("Club", owner=ana), "alhambra")
    async with run_bot(make_bot()):
        lobby = (await open_game(sim, ana, channel)).response
        posted = len(sim.channel_messages(channel))
        data = {"custom_id": custom_id, "component_type": 2}
        with pytest.raises(InteractionNotAnswered):
            await sim.forge(ana, channel, data, source=lobby, timeout=2)
        assert len(sim.channel_messages(channel)) == posted


async def test_the_rules_point_to_plans_in_every_language(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana = sim.user("ana")
    guild = sim.guild("Club", owner=ana)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()):
        for locale in LANGUAGES:
            user = sim.user(f"reader-{locale}", locale="en-US" if locale == "fa" else locale)
            sim.member(guild, user)
            if locale == "fa":
                await sim.slash(user, "alhambra settings", channel=channel, language="fa")
            rules = await sim.slash(user, "alhambra rules", channel=channel)
            fields = {f["name"]: f["value"] for f in rules.response.embed["fields"]}
            plans = fields[i18n.t(locale, "rules.plans.title")]
            assert f"/alhambra-plan {i18n.t(locale, 'cmd.plan_add.name')}" in plans
            assert i18n.t(locale, "button.plan") in plans
