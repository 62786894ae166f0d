"""Private channels stay private: a game played where a member cannot look (View Channel denied
to @everyone, allowed to a role or to the players) is, to that member, no game at all, from any
other channel of the server: its replay (every Alhambra and the hand), score sheet, review and
its positions, following it (by command, button or a forged one), the archive, a record and a
head-to-head. Whoever can view the channel (by their role, or as the players) still can, also
once the game's thread is archived and gone from the bot's cache, and also for a game stored
before the bot recorded who may see it."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from database import connect as connect_db
from fake_discord import VIEW_CHANNEL, FakeDiscord, snowflake
from fake_discord.models import Channel, Guild, User

from bot.core.services import Services
from engine import Undo

NO_SUCH_GAME = "There is no such game."
#: a game number no game has
NOBODY_S = 10**12


@dataclass
class Club:
    guild: Guild
    ana: User  # plays both games, has the staff role
    bruno: User  # plays both games, has the staff role
    carla: User  # has the staff role, plays nothing
    olga: User  # a plain member
    staff_only: Channel  # View Channel: denied to @everyone, allowed to the staff role
    pair: Channel  # View Channel: denied to @everyone, allowed to ana and bruno themselves
    scratch: Channel  # a channel everyone sees


def _club(sim: FakeDiscord) -> Club:
    owner = sim.user("owner")
    guild = sim.guild("Club", owner=owner)
    staff = sim.role(guild, "staff")
    ana, bruno, carla, olga = (sim.user(n) for n in ("ana", "bruno", "carla", "olga"))
    for user in (ana, bruno, carla):
        sim.member(guild, user, roles=[staff])
    sim.member(guild, olga)
    staff_only, pair, scratch = (sim.channel(guild, n) for n in ("staff-only", "pair", "scratch"))
    sim.overwrite(staff_only, guild, deny=VIEW_CHANNEL)
    sim.overwrite(staff_only, staff, allow=VIEW_CHANNEL)
    sim.overwrite(pair, guild, deny=VIEW_CHANNEL)
    for user in (ana, bruno):
        sim.overwrite(pair, user, allow=VIEW_CHANNEL)
    assert not sim.permissions_in(olga, staff_only) & VIEW_CHANNEL
    assert not sim.permissions_in(carla, pair) & VIEW_CHANNEL
    return Club(guild, ana, bruno, carla, olga, staff_only, pair, scratch)


def _game_in(db_path, channel: Channel) -> int:
    with connect_db(db_path) as conn:
        row = conn.execute(
            "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel.id,)
        ).fetchone()
    return int(row[0])


async def _open(sim: FakeDiscord, club: Club, channel: Channel, **options) -> Channel:
    """ana opens a game in `channel` (in a thread of it by default), bruno joins, ana starts:
    all through Discord, where they are. Returns where the game is played."""
    opened = await sim.slash(club.ana, "alhambra new", channel=channel, **options)
    home = channel
    if options.get("thread", True):
        await opened.wait_followups(1)
        home = opened.response.thread
        assert home is not None and home.parent is channel
    await sim.slash(club.bruno, "alhambra join", channel=home)
    await sim.slash(club.ana, "alhambra start", channel=home)
    return home


async def _play_to_the_end(services: Services, game_id: int) -> None:
    """The players' moves, random and legal, until the game is over (through the service: what
    is played is not what these tests are about)."""
    rng = random.Random(game_id)
    info = await services.lobby.game(game_id)
    while info.status == "active":
        player = info.current_player
        assert player is not None and player.user_id is not None
        legal = (await services.play.view(game_id, player.user_id)).view.legal
        move = rng.choice([a for a in legal if not isinstance(a, Undo)] or list(legal))
        info = (await services.play.act(game_id, player.user_id, move, info.version)).game


async def _refused_everything(sim: FakeDiscord, club: Club, who: User, game_id: int) -> None:
    """`who`, in #scratch, is answered for `game_id` exactly as for a game that does not exist,
    whatever way they name it."""
    where = club.scratch
    nothing = await sim.slash(who, "alhambra-history replay", channel=where, game=NOBODY_S)
    assert nothing.response.content == NO_SUCH_GAME

    def forge(data: dict):
        """A component naming the game, as a modified client could send it: on a copy of a
        message of the bot's in #scratch (discord.py hears only of components on a message)."""
        component = {"type": data["component_type"], "custom_id": data["custom_id"]}
        if "values" in data:
            component["options"] = [{"label": "…", "value": v} for v in data["values"]]
        else:
            component |= {"style": 2, "label": "…"}
        source = dataclasses.replace(
            nothing.response, id=snowflake(), components=[{"type": 1, "components": [component]}]
        )
        return sim.forge(who, where, data, source=source)

    asks = [
        lambda: sim.slash(who, "alhambra-history replay", channel=where, game=game_id),
        lambda: sim.slash(who, "alhambra-history replay", channel=where, game=game_id, turn=3),
        lambda: sim.slash(who, "alhambra follow", channel=where, game=game_id),
        lambda: sim.slash(who, "alhambra follow", channel=where, game=game_id, how="thread"),
        lambda: sim.slash(who, "alhambra follow", channel=where, game=game_id, how="stop"),
        lambda: forge({"custom_id": f"alh:r:{game_id}:1:2", "component_type": 2}),
        lambda: forge({"custom_id": f"alh:rs:{game_id}:1", "component_type": 2}),
        lambda: forge({"custom_id": f"alh:rh:{game_id}:1:4", "component_type": 2}),
        lambda: forge({"custom_id": f"alh:rp:{game_id}:2", "component_type": 2}),
        lambda: forge({"custom_id": "alh:ag:0", "component_type": 3, "values": [str(game_id)]}),
    ]
    asks += [
        lambda op=op: forge({"custom_id": f"alh:f:{game_id}:{op}", "component_type": 2})
        for op in ("ask", "dm", "thread", "stop")
    ]
    for ask in asks:
        result = await ask()
        assert result.response.content == NO_SUCH_GAME, result.describe()
        assert not result.response.attachments
    assert sim.dms(who) == []


async def test_a_game_of_a_private_channel_is_no_game_to_whoever_cannot_view_it(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    club = _club(sim)
    async with run_bot(make_bot()) as bot:
        services: Services = bot.services
        thread = await _open(sim, club, club.staff_only)  # the default: a thread
        in_thread = _game_in(db_path, thread)
        await _open(sim, club, club.pair, thread=False)  # bound to the channel itself
        in_channel = _game_in(db_path, club.pair)

        # running: olga can neither replay nor follow them, by any way she could name them
        for game_id in (in_thread, in_channel):
            await _refused_everything(sim, club, club.olga, game_id)
        assert (
            await services.people.followers(in_thread)
            == await services.people.followers(in_channel)
            == []
        )
        # carla sees the staff channel (her role), so its game; not the pair's
        shown = await sim.slash(
            club.carla, "alhambra-history replay", channel=club.scratch, game=in_thread
        )
        assert f"Replay of game #{in_thread}" in shown.response.content
        await _refused_everything(sim, club, club.carla, in_channel)
        follows = await sim.slash(
            club.carla, "alhambra follow", channel=club.scratch, game=in_thread
        )
        assert f"You follow game #{in_thread}" in follows.response.content
        await services.people.unfollow(in_thread, club.carla.id)

        for game_id in (in_thread, in_channel):
            await _play_to_the_end(services, game_id)
        sim.archive_thread(thread)  # a finished game's thread: no longer in the bot's cache
        await sim.wait_until(lambda: bot.get_guild(club.guild.id).get_thread(thread.id) is None)

        # finished: no review either, and nothing in the archive or the counts
        for game_id in (in_thread, in_channel):
            await _refused_everything(sim, club, club.olga, game_id)
            review = await sim.slash(
                club.olga,
                "alhambra-history review",
                channel=club.scratch,
                game=game_id,
                player=club.ana,
            )
            assert review.response.content == NO_SUCH_GAME
        await _refused_everything(sim, club, club.carla, in_channel)
        archive = await sim.slash(club.olga, "alhambra-history games", channel=club.scratch)
        assert "No finished games yet." in archive.response.content
        assert not archive.response.selects()
        theirs = await sim.slash(
            club.olga, "alhambra-history games", channel=club.scratch, player=club.ana
        )
        assert "No finished games yet." in theirs.response.content
        for everywhere in (False, True):
            record = await sim.slash(
                club.olga,
                "alhambra-history stats",
                channel=club.scratch,
                player=club.ana,
                everywhere=everywhere,
            )
            assert "No finished games yet." in record.response.content
            assert not record.response.attachments
            versus = await sim.slash(
                club.olga,
                "alhambra-history stats",
                channel=club.scratch,
                player=club.ana,
                versus=club.bruno,
                everywhere=everywhere,
            )
            assert "No finished games together yet." in versus.response.content

        # carla: the staff channel's game only, its thread archived or not
        listed = await sim.slash(club.carla, "alhambra-history games", channel=club.scratch)
        assert f"#{in_thread} " in listed.response.content
        assert f"#{in_channel} " not in listed.response.content
        menu = listed.response.selects()[0]
        assert [o["value"] for o in menu["options"]] == [str(in_thread)]
        record = await sim.slash(
            club.carla, "alhambra-history stats", channel=club.scratch, player=club.ana
        )
        assert "Games: 1 · wins:" in record.response.content
        versus = await sim.slash(
            club.carla,
            "alhambra-history stats",
            channel=club.scratch,
            player=club.ana,
            versus=club.bruno,
        )
        assert "1 finished game together" in versus.response.content
        review = await sim.slash(
            club.carla,
            "alhambra-history review",
            channel=club.scratch,
            game=in_thread,
            player=club.bruno,
            timeout=60,  # a review plays its closest calls to the end: seconds of CPU
        )
        assert f"Review of game #{in_thread} for bruno" in review.response.content

        # the players themselves: both games, everywhere
        mine = await sim.slash(club.ana, "alhambra-history games", channel=club.scratch)
        assert f"#{in_thread} " in mine.response.content
        assert f"#{in_channel} " in mine.response.content
        record = await sim.slash(club.ana, "alhambra-history stats", channel=club.scratch)
        assert "Games: 2 · wins:" in record.response.content
        versus = await sim.slash(
            club.bruno, "alhambra-history stats", channel=club.scratch, versus=club.ana
        )
        assert "2 finished games together" in versus.response.content
        for game_id in (in_thread, in_channel):
            replay = await sim.slash(
                club.bruno, "alhambra-history replay", channel=club.scratch, game=game_id
            )
            assert f"Replay of game #{game_id}" in replay.response.content


async def test_a_game_stored_before_its_view_channel_was_is_checked_and_then_filled_in(
    sim: FakeDiscord, run_bot, make_bot, db_path
) -> None:
    """A game from before the bot stored who may see it: its archived thread is fetched to
    check a replay, and once the bot connects again it records the thread's parent, after
    which the archive shows it to whoever may view that channel."""
    club = _club(sim)
    async with run_bot(make_bot()) as bot:
        thread = await _open(sim, club, club.staff_only)
        game_id = _game_in(db_path, thread)
        await _play_to_the_end(bot.services, game_id)
    sim.archive_thread(thread)
    gone = sim.thread(club.scratch, "a deleted game")
    async with run_bot(make_bot()) as bot:
        await bot.services.lobby.create_game(
            channel_id=gone.id, guild_id=club.guild.id, host_id=club.ana.id, host_name="ana"
        )
    sim.delete_channel(gone)
    with connect_db(db_path) as conn:
        conn.execute("UPDATE games SET view_channel_id = NULL")

    def views() -> dict[int, int | None]:
        with connect_db(db_path) as conn:
            return dict(conn.execute("SELECT channel_id, view_channel_id FROM games"))

    async with run_bot(make_bot()) as bot:
        # the bot connects and fills them in: the archived thread's parent, and for a channel
        # that is gone, the channel itself (nobody can view it)
        await sim.wait_until(lambda: views() == {thread.id: club.staff_only.id, gone.id: gone.id})
        await _refused_everything(sim, club, club.olga, game_id)
        listed = await sim.slash(club.carla, "alhambra-history games", channel=club.scratch)
        assert f"#{game_id} " in listed.response.content
        none = await sim.slash(club.olga, "alhambra-history games", channel=club.scratch)
        assert "No finished games yet." in none.response.content

        # and before it is filled in, a replay asks Discord what the channel is
        with connect_db(db_path) as conn:
            conn.execute("UPDATE games SET view_channel_id = NULL")
        asked = len(sim.requests_to("GET", f"/channels/{thread.id}"))
        await _refused_everything(sim, club, club.olga, game_id)
        shown = await sim.slash(
            club.carla, "alhambra-history replay", channel=club.scratch, game=game_id
        )
        assert f"Replay of game #{game_id}" in shown.response.content
        assert len(sim.requests_to("GET", f"/channels/{thread.id}")) > asked
