"""`/alhambra-history export`: a finished game attached as a file (docs/game-file.md), in the
asker's language, that replays to exactly the state the bot stored; refused, attaching
nothing, for a running game and for a game of a channel the asker cannot view (as for every
other history command: "no such game")."""

from __future__ import annotations

import pytest
from fake_discord import VIEW_CHANNEL, FakeDiscord
from players import finished_game

from bot.core.errors import GameNotOver, NoGameHere
from bot.core.game_file import FORMAT, load
from bot.text import i18n
from bot.text.present import error_text

#: the Discord client language of each catalogue language (Persian is chosen in the settings)
CLIENT = {"en": "en-US", "ja": "ja", "pt-BR": "pt-BR", "fa": "en-US"}


@pytest.mark.parametrize("locale", ["en", "ja", "pt-BR", "fa"])
async def test_a_finished_game_is_attached_as_a_file_only_to_who_may_see_it(
    sim: FakeDiscord, run_bot, make_bot, locale: str
) -> None:
    ana = sim.user("ana", locale=CLIENT[locale])
    bruno, olga = sim.user("bruno"), sim.user("olga", locale=CLIENT[locale])
    guild = sim.guild("Club", owner=sim.user("owner"))
    for user in (ana, bruno, olga):
        sim.member(guild, user)
    public, pair = sim.channel(guild, "alhambra"), sim.channel(guild, "pair")
    sim.overwrite(pair, guild, deny=VIEW_CHANNEL)
    for user in (ana, bruno):
        sim.overwrite(pair, user, allow=VIEW_CHANNEL)
    async with run_bot(make_bot()) as bot:
        services = bot.services
        if locale == "fa":
            for user in (ana, olga):
                await sim.slash(user, "alhambra settings", channel=public, language="fa")
        game_id = await finished_game(services, guild.id, public.id, [ana.id, bruno.id])

        answer = (
            await sim.slash(ana, "alhambra-history export", channel=public, game=game_id)
        ).response
        assert answer.ephemeral
        name = f"alhambra-game-{game_id}.json"
        assert answer.content == i18n.t(locale, "game_file.attached", game=game_id, file=name)
        data = answer.attachment(name).data
        file = load(data)
        assert data.decode().count(FORMAT) == 1 and file.game == game_id
        assert sorted(file.names) == ["ana", "bruno"] and file.status == "finished"
        assert str(ana.id) not in data.decode() and str(guild.id) not in data.decode()
        async with services.store.read() as tx:
            snapshot = await tx.snapshot(game_id)
        assert file.replay().to_json() == snapshot  # byte for byte the stored state

        # by default: this channel's last game; olga may look at a game of a channel she sees
        again = await sim.slash(olga, "alhambra-history export", channel=public)
        assert again.response.attachment(name).data == data

        # a game of a channel olga cannot view: no such game, and no file
        hidden = await finished_game(services, guild.id, pair.id, [ana.id, bruno.id])
        refused = await sim.slash(olga, "alhambra-history export", channel=public, game=hidden)
        assert refused.response.content == error_text(NoGameHere(variant="unknown"), locale)
        assert not refused.response.attachments
        mine = await sim.slash(ana, "alhambra-history export", channel=public, game=hidden)
        assert mine.response.attachment(f"alhambra-game-{hidden}.json")  # the players may

        # a running game: its seed would tell the cards to come
        running = await services.lobby.create_game(
            channel_id=public.id, host_id=ana.id, host_name="ana", guild_id=guild.id
        )
        await services.lobby.join(running.id, bruno.id, "bruno")
        await services.lobby.start(running.id, ana.id)
        early = await sim.slash(ana, "alhambra-history export", channel=public, game=running.id)
        assert early.response.content == error_text(GameNotOver(variant="export"), locale)
        assert not early.response.attachments
