"""`/alhambra-history review`: where the strongest judgement disagreed with a player in a
finished game, as text and bars; the same every time, about the asked player's turns only, and
refused for a running game or another server's game."""

from __future__ import annotations

import re

from fake_discord import FakeDiscord
from players import finished_game

#: A review plays its closest calls to the end of the game in sampled worlds: a few seconds of
#: CPU, more on a busy machine (Discord allows 15 minutes after the deferral).
REVIEW_WAIT = 60.0


def _turns(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\*\*Turn (\d+)\*\*", text)]


async def test_a_review_lists_the_player_s_worst_turns_the_same_every_time(
    sim: FakeDiscord, run_bot, make_bot
) -> None:
    ana, bruno, watcher = sim.user("ana"), sim.user("bruno"), sim.user("watcher")
    guild = sim.guild("Club", owner=ana)
    for user in (bruno, watcher):
        sim.member(guild, user)
    channel = sim.channel(guild, "alhambra")
    async with run_bot(make_bot()) as bot:
        services = bot.services
        game_id = await finished_game(services, guild.id, channel.id, [ana.id, bruno.id])
        game = await services.lobby.game(game_id)
        ana_seat = game.seat_of(ana.id).seat
        game_log = await services.play.log(game_id)
        # the turn numbers of each seat, as the replay counts them
        seat_turns: dict[int, set[int]] = {0: set(), 1: set()}
        for number, turn in enumerate(game_log.turns(), start=1):
            seat_turns[turn.seat].add(number)

        first = (
            await sim.slash(ana, "alhambra-history review", channel=channel, timeout=REVIEW_WAIT)
        ).response
        assert first.ephemeral
        text = first.content
        assert f"Review of game #{game_id} for ana: where the hard level disagreed most" in text
        listed = _turns(text)
        assert 1 <= len(listed) <= 5
        assert set(listed) <= seat_turns[ana_seat]  # ana's turns only
        stakes = [float(p) for p in re.findall(r"About ([\d.]+) points at stake", text)]
        assert stakes == sorted(stakes, reverse=True) and all(p >= 0.5 for p in stakes)
        assert "decisions looked at" in text
        assert first.attachment("review.png").is_png()

        again = (
            await sim.slash(ana, "alhambra-history review", channel=channel, timeout=REVIEW_WAIT)
        ).response
        assert again.content == text  # deterministic: the same review every time

        # another player's review, asked by someone who watched: bruno's turns only
        theirs = await sim.slash(
            watcher,
            "alhambra-history review",
            channel=channel,
            game=game_id,
            player=bruno,
            timeout=REVIEW_WAIT,
        )
        other = theirs.response.content
        assert f"Review of game #{game_id} for bruno" in other
        assert set(_turns(other)) <= seat_turns[1 - ana_seat]

        # someone who did not play, a game of another server, a game still running: refused
        nobody = await sim.slash(
            ana, "alhambra-history review", channel=channel, game=game_id, player=watcher
        )
        assert "watcher did not play in that game." in nobody.response.content
        elsewhere = sim.guild("Other", owner=watcher)
        forged = await sim.slash(
            watcher, "alhambra-history review", channel=sim.channel(elsewhere, "x"), game=game_id
        )
        assert "no such game" in forged.response.content.lower()
        running = await services.lobby.create_game(
            channel_id=channel.id, host_id=ana.id, host_name="ana", guild_id=guild.id
        )
        await services.lobby.join(running.id, bruno.id, "bruno")
        await services.lobby.start(running.id, ana.id)
        early = await sim.slash(ana, "alhambra-history review", channel=channel, game=running.id)
        assert "not finished yet" in early.response.content
        by_default = await sim.slash(ana, "alhambra-history review", channel=channel)
        assert "not finished yet" in by_default.response.content  # the channel's running game
