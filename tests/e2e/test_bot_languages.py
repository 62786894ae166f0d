"""Each player's DMs in their own language, through the fake Discord: the bot remembers the
language of a user's Discord client from their clicks, and `/alhambra settings language:`
overrides it; refusals keep whose turn it is in every language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from database import connect as connect_db
from fake_discord import FakeDiscord
from players import open_game, stored_game

from bot.core.clock import ManualClock
from bot.text.present import action_code
from engine import TakeMoney

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)

#: The first words of each kind of DM, in each language.
TURN_DM = {
    "en": "It is your turn in Alhambra",
    "ja": "のアルハンブラで、あなたの手番です",
    "pt-BR": "É a sua vez em Alhambra",
}
REMINDER = {
    "en": "Alhambra: 1 game waiting for your move:",
    "ja": "アルハンブラ\uff1aあなたの手番を待っているゲームが1件あります\uff1a",
    "pt-BR": "Alhambra: 1 jogo esperando a sua jogada:",
}


def to_play(db_path, channel, users):
    _, game, seats = stored_game(db_path, channel.id)
    return next(u for u in users if u.id == seats[game.current_seat])


async def take_money(sim: FakeDiscord, db_path, channel, user) -> None:
    _, game, _ = stored_game(db_path, channel.id)
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    done = await sim.slash(user, "alhambra take", channel=channel, cards=action_code(take))
    assert done.ephemeral and not done.content.startswith(("That", "It is")), done.content


async def settle(bot) -> None:
    await bot.timers.started.wait()
    await bot.timers.run_due()
    await bot.calm()


def remembered(db_path, user) -> str | None:
    with connect_db(db_path) as conn:
        row = conn.execute(
            "SELECT value FROM bot_meta WHERE key = ?", (f"discord-locale:{user.id}",)
        ).fetchone()
    return None if row is None else row[0]


async def test_dms_and_reminders_follow_the_users_language(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    ana, bruno = sim.user("ana"), sim.user("bruno", locale="ja")
    guild = sim.guild("Club", owner=ana)  # an English server
    sim.member(guild, bruno)
    channel = sim.channel(guild, "alhambra")
    users = [ana, bruno]
    async with run_bot(make_bot(clock=clock)) as bot:
        await open_game(sim, ana, channel)
        await sim.slash(bruno, "alhambra join", channel=channel)
        assert remembered(db_path, bruno) == "ja"  # from his click, in an English server
        await sim.slash(ana, "alhambra start", channel=channel)
        await bot.calm()

        # the turn DM: in Japanese, with what ana did since
        if to_play(db_path, channel, users) is ana:
            clock.advance(timedelta(hours=1))
            await take_money(sim, db_path, channel, ana)
            await bot.calm()
        assert to_play(db_path, channel, users) is bruno
        dm = sim.dms(bruno)[-1]
        assert TURN_DM["ja"] in dm.content and TURN_DM["en"] not in dm.content
        assert "Club" in dm.content
        if "前回のあなたの手番以降" in dm.content:
            assert "anaが" in dm.content and "を取りました。" in dm.content
        assert all(TURN_DM["en"] in m.content for m in sim.dms(ana))  # ana's stay English

        # the reminder: in Japanese too
        clock.advance(timedelta(hours=12))
        await settle(bot)
        assert REMINDER["ja"] in sim.dms(bruno)[-1].content

        # his choice overrides his client's language (the reply is in his client's)
        saved = await sim.slash(bruno, "alhambra settings", channel=channel, language="pt-BR")
        assert saved.ephemeral and "Português (Brasil)" in saved.content
        assert "DMとリマインダーの言語" in saved.content
        clock.advance(timedelta(hours=1))
        await take_money(sim, db_path, channel, bruno)  # a click from his Japanese client
        await bot.calm()
        # not his turn: the refusal says whose it is, in Japanese, as English would
        turn = sim.channel_messages(channel)[-1]
        refused = await sim.click(bruno, turn, "Take money")
        assert refused.ephemeral and refused.content.startswith("今はanaの手番です。")
        clock.advance(timedelta(hours=1))
        await take_money(sim, db_path, channel, ana)
        await bot.calm()
        dm = sim.dms(bruno)[-1]
        assert TURN_DM["pt-BR"] in dm.content and TURN_DM["ja"] not in dm.content
        assert "Desde a sua última vez" in dm.content and "ana pegou" in dm.content
        clock.advance(timedelta(hours=12))
        await settle(bot)
        assert REMINDER["pt-BR"] in sim.dms(bruno)[-1].content
        assert remembered(db_path, bruno) == "ja"  # remembered apart, not overwritten

        # and back to following his Discord client
        back = await sim.slash(bruno, "alhambra settings", channel=channel, language="discord")
        assert "日本語\uff08Discordの言語\uff09" in back.content
        await take_money(sim, db_path, channel, bruno)
        clock.advance(timedelta(hours=1))
        await take_money(sim, db_path, channel, ana)
        await bot.calm()
        assert TURN_DM["ja"] in sim.dms(bruno)[-1].content


async def test_persian_chosen_in_the_settings_reaches_replies_panels_and_dms(
    sim, run_bot, make_bot, db_path
) -> None:
    """Discord has no Persian client: a user who chooses `fa` in an English server, with an
    English client, gets Persian replies, panels and DMs; the channel stays English."""
    from bot.text import i18n

    clock = ManualClock(T0)
    ana, darya = sim.user("ana"), sim.user("darya")  # both English clients
    guild = sim.guild("Club", owner=ana)
    sim.member(guild, darya)
    channel = sim.channel(guild, "alhambra")
    users = [ana, darya]
    async with run_bot(make_bot(clock=clock)) as bot:
        saved = await sim.slash(darya, "alhambra settings", channel=channel, language="fa")
        shown = i18n.plain(saved.content)
        assert saved.ephemeral and "فارسی" in shown and "تنظیمات ذخیره شد." in shown
        assert "Settings saved" not in shown
        await open_game(sim, ana, channel)
        joined = await sim.slash(darya, "alhambra join", channel=channel)
        assert i18n.plain(joined.content) == i18n.plain(i18n.t("fa", "reply.joined"))
        await sim.slash(ana, "alhambra start", channel=channel)
        await bot.calm()
        if to_play(db_path, channel, users) is ana:
            clock.advance(timedelta(hours=1))
            await take_money(sim, db_path, channel, ana)
            await bot.calm()
        assert to_play(db_path, channel, users) is darya
        # her turn DM: Persian
        dm = i18n.plain(sim.dms(darya)[-1].content)
        assert "در الحمرا در **Club** \u203a **#alhambra** نوبت شماست" in dm
        assert TURN_DM["en"] not in dm
        # her panel, from the English turn message: Persian
        turn = sim.channel_messages(channel)[-1]
        panel = await sim.click(darya, turn, "Take money")
        assert panel.ephemeral
        assert i18n.plain(i18n.t("fa", "panel.take")) in i18n.plain(panel.content)
        # the channel stays in the server's language
        assert not any("نوبت" in m.content for m in sim.channel_messages(channel))
        # ana's replies stay English
        refused = await sim.click(ana, turn, "Take money")
        assert refused.content.startswith("It is darya's turn")
        # back to following her (English) Discord: English replies again
        back = await sim.slash(darya, "alhambra settings", channel=channel, language="discord")
        assert "English" in back.content and "Settings saved" in back.content
