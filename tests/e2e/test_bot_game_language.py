"""A game has a language, through the fake Discord: the host chooses it when opening the game
(`/alhambra new language:`), the lobby shows it, and every public post of the game (the opening
line, the lobby, the turn messages with their pictures and alt texts, the scoring rounds, the
results) speaks it, whatever the server's language, also after the server changes it; each
player's private replies, panels and DMs stay in their own language."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from database import connect as connect_db
from fake_discord import FakeDiscord
from fake_discord.models import Message
from players import Table, play_to_the_end, stored_game

from bot.core.clock import ManualClock
from bot.text import i18n
from bot.text.present import action_code
from engine import TakeMoney

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)

#: Arabic-script letters: Persian words.
PERSIAN = re.compile("[\u0600-\u06ff]")


def words_of(message: Message) -> list[str]:
    """Every text of a message a reader sees or hears: its content, its embeds, the labels
    of its buttons and menus and its pictures' descriptions."""
    texts = [message.content]
    for embed in message.embeds:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [(embed.get("footer") or {}).get("text") or ""]
        for embed_field in embed.get("fields") or []:
            texts += [embed_field["name"], embed_field["value"]]
    texts += [b.get("label") or "" for b in message.buttons()]
    for select in message.selects():
        texts.append(select.get("placeholder") or "")
        texts += [o["label"] for o in select.get("options") or []]
    texts += [a.description or "" for a in message.attachments]
    return [i18n.plain(t) for t in texts if t]


def latin_words(text: str, names: tuple[str, ...]) -> list[str]:
    """The Latin words of a text once what is never translated is taken out: the players'
    names, mentions, links, cell codes (B3, as typed) and the command names."""
    text = re.sub(r"<[@#][!&]?\d+>|https?://\S+|`[^`]*`", " ", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = re.sub(r"\b[A-Z]-?\d+\b", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


def in_persian(message: Message, names: tuple[str, ...]) -> list[str]:
    """What of a public message is not Persian (empty: all of it is)."""
    problems = []
    for text in words_of(message):
        if latin := latin_words(text, names):
            problems.append(f"{latin}: {text[:120]!r}")
        # what is typed (a command's `game:12`) keeps its Latin digits, as cell codes do
        elif re.search(
            r"(?<![A-Za-z0-9])[0-9]", re.sub(r"<[@#]\d+>|https?://\S+|`[^`]*`", "", text)
        ):
            problems.append(f"ASCII digits: {text[:120]!r}")
    return problems


async def test_a_persian_game_in_an_english_server_with_english_and_portuguese_players(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    ana = sim.user("ana")  # an English client
    bruno = sim.user("bruno", locale="pt-BR")  # a Brazilian Portuguese client
    guild = sim.guild("Club", owner=ana)  # an English server
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot(clock=clock, undo_window=0)) as bot:
        opened = await sim.slash(ana, "alhambra new", channel=channel, language="fa")
        await opened.wait_followups(1)
        assert opened.response is not None and opened.response.thread is not None
        home = opened.response.thread
        # the host is told where the game is in her own language
        assert "thread" in opened.followups[0].content.lower() or "<#" in (
            opened.followups[0].content
        )
        assert not PERSIAN.search(opened.followups[0].content)
        lobby = sim.channel_messages(home)[0]
        shown = "\n".join(words_of(lobby))
        assert i18n.plain(i18n.t("fa", "lobby.language", language="فارسی")) in shown
        joined = await sim.click(bruno, lobby, i18n.plain(i18n.t("fa", "button.join")))
        assert joined.response is None or not joined.response.ephemeral
        added = await sim.slash(ana, "alhambra add-bot", channel=home, level="normal")
        assert added.response is not None and not added.response.ephemeral
        started = await sim.click(ana, lobby, i18n.plain(i18n.t("fa", "button.start")))
        await started.wait_followups(1)
        await bot.idle()
        # the server's language changes while the game runs: the game's does not
        guild.locale = "ja"
        users = {ana.id: ana, bruno.id: bruno}
        table = Table(sim, home, db_path, users, seed=3, locale="en")
        table.locales = {ana.id: "en", bruno.id: "pt-BR"}
        # a panel opened from the Persian turn message is in the player's own language
        await sim.wait_until(lambda: _to_play(table) is not None, timeout=30)
        await bot.idle()
        user = _to_play(table)
        assert user is not None
        mine = "en" if user is ana else "pt-BR"
        opened_panel = await sim.click(
            user, table.turn_message(), i18n.plain(i18n.t("fa", "button.take"))
        )
        panel = opened_panel.response
        assert panel is not None and panel.ephemeral
        assert i18n.t(mine, "panel.take") in panel.content and not PERSIAN.search(panel.content)
        final = await play_to_the_end(table, bot, by="commands")
        await bot.idle()
        game_id, _, _ = stored_game(db_path, home.id)
    assert final.is_over

    with connect_db(db_path) as conn:
        (language,) = conn.execute("SELECT locale FROM games WHERE id = ?", (game_id,)).fetchone()
    assert language == "fa"
    names = ("ana", "bruno", "Bot Zaida", "Club", "alhambra", "Alhambra")
    posts = [*sim.channel_messages(channel), *sim.channel_messages(home)]
    assert len(posts) > 20
    for post in posts:
        assert not post.ephemeral
        assert in_persian(post, names) == [], (in_persian(post, names), post.content[:200])
    # the results and a scoring round are there, in Persian, with their pictures described
    described = [a.description for m in posts for a in m.attachments]
    assert described and all(d and PERSIAN.search(d) for d in described)
    assert any(i18n.plain(i18n.t("fa", "results.title")) in "\n".join(words_of(m)) for m in posts)
    # every private reply and DM in the player's own language, none in Persian
    for user, words in ((ana, "It is your turn"), (bruno, "É a sua vez")):
        private = [*sim.ephemeral_to(user), *sim.dms(user)]
        assert private
        for message in private:
            # the game's thread is named in the game's language: a DM names it as it is
            texts = [re.sub(r"\*\*#[^*]*\*\*", "", t) for t in words_of(message)]
            assert not any(PERSIAN.search(t) for t in texts), message.content
        assert any(words in m.content for m in sim.dms(user)), [m.content for m in sim.dms(user)]
    assert any("Feito" in m.content for m in sim.ephemeral_to(bruno))
    assert any("Done" in m.content for m in sim.ephemeral_to(ana))


async def forged_language(sim: FakeDiscord, user, channel, language: str):
    """`/alhambra new language:…` with a value Discord's own client would not send (not one
    of the choices): a forged request, built as the client builds one, then altered."""
    from fake_discord.interactions import APPLICATION_COMMAND, command_data

    data = command_data(sim, channel, user, "alhambra new", {"language": "en"})
    for option in data["options"][0]["options"]:
        if option["name"] == "language":
            option["value"] = language
    result = sim._interaction(APPLICATION_COMMAND, user, channel, data)
    return await sim._send(result, settle=True, timeout=None)


def _to_play(table: Table):
    _, game, seats = table.state()
    return table.users.get(seats.get(game.current_seat))


async def test_a_language_that_is_not_offered_is_refused_and_opens_nothing(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    ana = sim.user("ana", locale="pt-BR")
    guild = sim.guild("Club", owner=ana, locale="pt-BR")
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()):
        for forged in ("de", "xx-YY", "fa; DROP TABLE games", "", "FA"):
            refused = await forged_language(sim, ana, channel, forged)
            assert refused.ephemeral, refused.text
            assert "não é um dos idiomas" in refused.text, refused.text  # her own language
        assert sim.channel_messages(channel) == []
        assert not [c for c in sim.channels_by_id.values() if c.parent is channel]
        with connect_db(db_path) as conn:
            assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
        # the host is offered the languages, each by its own name
        offered = await sim.autocomplete(ana, "alhambra new", "language", "", channel=channel)
        assert [(c["name"], c["value"]) for c in offered] == [
            ("English", "en"),
            ("日本語", "ja"),
            ("Português (Brasil)", "pt-BR"),
            ("فارسی", "fa"),
        ]
        typed = await sim.autocomplete(ana, "alhambra new", "language", "port", channel=channel)
        assert [c["value"] for c in typed] == ["pt-BR"]
        # a language that is offered opens the game
        opened = await sim.slash(ana, "alhambra new", channel=channel, language="ja", thread=False)
        lobby = opened.response
        assert lobby is not None and "言語\uff1a日本語" in "\n".join(words_of(lobby))
        # without one, the game speaks the server's language (Portuguese here)
        await sim.slash(ana, "alhambra abandon", channel=channel)
        opened = await sim.slash(ana, "alhambra new", channel=channel, thread=False)
        assert opened.response is not None
        assert "Idioma: Português (Brasil)" in "\n".join(words_of(opened.response))


async def _take(sim: FakeDiscord, db_path, channel, user):
    _, game, _ = stored_game(db_path, channel.id)
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    return await sim.slash(user, "alhambra take", channel=channel, cards=action_code(take))


def _whose(db_path, channel, users):
    _, game, seats = stored_game(db_path, channel.id)
    return next(u for u in users if u.id == seats[game.current_seat])


async def test_persian_times_are_written_in_words(sim: FakeDiscord, run_bot, make_bot, db_path):
    """Discord renders `<t:…:R>` in the reader's client language, and has no Persian client:
    a Persian reader gets the time in words (the deadline of a turn DM, the turn held for the
    undo window, the reminder, `/alhambra mygames`); an English one keeps Discord's."""
    clock = ManualClock(T0)
    ana, darya = sim.user("ana"), sim.user("darya")
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, darya)
    channel = sim.channel(guild, "alhambra")
    users = [ana, darya]

    def words(key: str, count: int) -> str:
        return i18n.plain(i18n.t("fa", key, count=count))

    async with run_bot(make_bot(clock=clock, undo_window=0)) as bot:
        await sim.slash(darya, "alhambra settings", channel=channel, language="fa")
        await sim.slash(darya, "alhambra settings", channel=channel, undo_window=10)
        await sim.slash(ana, "alhambra new", channel=channel, thread=False, deadline=24)
        await sim.slash(darya, "alhambra join", channel=channel)
        await sim.slash(ana, "alhambra start", channel=channel)
        await bot.calm()
        if _whose(db_path, channel, users) is ana:
            clock.advance(timedelta(hours=1))
            await _take(sim, db_path, channel, ana)
            await bot.calm()
        assert _whose(db_path, channel, users) is darya
        # the deadline of her turn DM: "in 1 day", in Persian words and digits
        dm = i18n.plain(sim.dms(darya)[-1].content)
        assert "<t:" not in dm and words("time.in.day", 1) in dm, dm
        assert words("time.in.day", 1) == "\u06f1 روز دیگر"
        # her turn held for her undo window: "10 seconds from now"
        held = await _take(sim, db_path, channel, darya)
        shown = i18n.plain(held.followups[-1].content if held.followups else held.text)
        assert "<t:" not in shown and words("time.in.second", 10) in shown, shown
        clock.advance(timedelta(seconds=11))
        await bot.timers.run_due()
        await bot.calm()
        assert _whose(db_path, channel, users) is ana
        clock.advance(timedelta(hours=1))
        await _take(sim, db_path, channel, ana)
        await bot.calm()
        assert _whose(db_path, channel, users) is darya
        # twelve hours later: the reminder says since when, in words
        clock.advance(timedelta(hours=12))
        await bot.timers.run_due()
        await bot.calm()
        reminder = i18n.plain(sim.dms(darya)[-1].content)
        assert "<t:" not in reminder and words("time.ago.hour", 12) in reminder, reminder
        # and so does /alhambra mygames, with the deadline
        mine = i18n.plain((await sim.slash(darya, "alhambra mygames", channel=channel)).text)
        assert "<t:" not in mine and words("time.ago.hour", 12) in mine, mine
        assert words("time.in.hour", 12) in mine, mine
        # ana reads English: Discord writes her times in her own client's words
        assert "<t:" in sim.dms(ana)[-1].content
