"""One notification per turn, the one each player chose (`/alhambra settings notify:`): a DM
(the default), a mention in the game's channel, or both; a mention instead of a DM that cannot
go (refused) or need not (the player is at the table)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fake_discord import FakeDiscord
from players import stored_game

from bot.core.clock import ManualClock
from bot.text.present import action_code
from engine import TakeMoney

T0 = datetime(2024, 6, 3, 9, 0, tzinfo=UTC)


async def table(sim: FakeDiscord, names: list[str]):
    users = [sim.user(n) for n in names]
    guild = sim.guild("Club", owner=users[0])
    for user in users[1:]:
        sim.member(guild, user)
    return sim.channel(guild, "alhambra"), users


def to_play(db_path, channel, users):
    _, game, seats = stored_game(db_path, channel.id)
    return next(u for u in users if u.id == seats[game.current_seat])


async def take_money(sim: FakeDiscord, db_path, channel, user) -> None:
    _, game, _ = stored_game(db_path, channel.id)
    take = next(a for a in game.legal_actions() if isinstance(a, TakeMoney))
    await sim.slash(user, "alhambra take", channel=channel, cards=action_code(take))


def turn_dms(sim: FakeDiscord, user) -> list:
    return [m for m in sim.dms(user) if "It is your turn" in m.content]


async def test_each_player_is_told_once_their_way(sim, run_bot, make_bot, db_path) -> None:
    clock = ManualClock(T0)
    channel, users = await table(sim, ["ana", "bruno", "chiyo"])
    async with run_bot(make_bot(clock=clock)) as bot:
        ana, bruno, chiyo = users
        await sim.slash(bruno, "alhambra settings", channel=channel, notify="mention")
        said = await sim.slash(chiyo, "alhambra settings", channel=channel, notify="both")
        assert "by DM and by a mention" in said.content
        await sim.slash(ana, "alhambra new", channel=channel, thread=False)
        for user in (bruno, chiyo):
            await sim.slash(user, "alhambra join", channel=channel)
        await sim.slash(ana, "alhambra start", channel=channel)
        await bot.calm()
        seen: dict[str, tuple[bool, bool]] = {}
        for _ in range(3):  # each player's first turn, hours apart (nobody is at the table)
            player = to_play(db_path, channel, users)
            turn = sim.channel_messages(channel)[-1]
            assert f"<@{player.id}>" in turn.content  # always named...
            pinged = player.id in turn.pinged()  # ...pinged by choice
            seen[player.name] = (pinged, len(turn_dms(sim, player)) == 1)
            assert turn.pinged() <= {player.id}
            clock.advance(timedelta(hours=2))
            await take_money(sim, db_path, channel, player)
            await bot.calm()
        assert seen == {"ana": (False, True), "bruno": (True, False), "chiyo": (True, True)}
        # the DM brings what the channel does not show: the hand and the money
        [dm] = turn_dms(sim, ana)
        assert [a.filename for a in dm.attachments] == ["hand.png"] and "Your money" in dm.content


async def test_a_dm_that_cannot_or_need_not_go_becomes_a_mention(
    sim, run_bot, make_bot, db_path
) -> None:
    clock = ManualClock(T0)
    channel, users = await table(sim, ["ana", "bruno"])
    ana, bruno = users
    sim.block_dms(bruno)
    async with run_bot(make_bot(clock=clock)) as bot:
        await sim.slash(ana, "alhambra new", channel=channel, thread=False)
        await sim.slash(bruno, "alhambra join", channel=channel)
        await sim.slash(ana, "alhambra start", channel=channel)
        await bot.calm()
        for _ in range(4):  # two rounds, played live: a minute apart
            player = to_play(db_path, channel, users)
            clock.advance(timedelta(minutes=1))
            await take_money(sim, db_path, channel, player)
            await bot.calm()
        # bruno refuses DMs: every turn of his pings him in the channel (the first one after
        # the refused DM, the later ones at once), and no reminder nudges him again
        bruno_turns = [m for m in sim.channel_messages(channel) if bruno.id in m.pinged()]
        assert len(bruno_turns) >= 2
        assert turn_dms(sim, bruno) == []
        # ana is DMed for her first turn; she plays live after it, so her second is a mention
        assert len(turn_dms(sim, ana)) == 1
        assert len([m for m in sim.channel_messages(channel) if ana.id in m.pinged()]) == 1
