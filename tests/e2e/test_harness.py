"""Tests of the fake Discord harness itself, driven by a small throwaway discord.py bot.

The bot below exercises what the real one will: a slash command group with a subcommand group
and options, choices, autocomplete, a deferred reply with an embed and a PNG, persistent
DynamicItem buttons carrying data in their custom id, a select menu, a modal, DMs, edits and
deletes. The tests check that the fake answers like Discord and records what the bot did.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake_discord import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeDiscord,
    InteractionNotAnswered,
    SimulationError,
    snowflake_time,
)
from PIL import Image

CELLS = ["A1", "A2", "B1", "B2", "C3"]
JAPANESE = {"Start a new game": "新しいゲームを始める", "Rules for holes": "穴のルール"}


def board_png(width: int = 64, height: int = 48) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 40, 40)).save(out, format="PNG")
    return out.getvalue()


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"t:(?P<game>\d+):join"):
    """Persistent: works after a restart because the game id lives in the custom id."""

    def __init__(self, game: int, count: int = 1) -> None:
        self.game = game
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.success, custom_id=f"t:{game}:join"
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: HarnessBot = interaction.client  # type: ignore[assignment]
        players = bot.games.setdefault(self.game, [])
        players.append(interaction.user.name)
        await interaction.response.edit_message(content=f"Game {self.game}: {', '.join(players)}")


class LeaveView(discord.ui.View):
    """A plain in-memory view: forgotten when the bot restarts."""

    @discord.ui.button(label="Leave", custom_id="t:leave")
    async def leave(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("You left.", ephemeral=True)


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="t:pick",
        placeholder="Pick buildings",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=n, value=n.lower()) for n in ("Tower", "Garden")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"picked {'+'.join(select.values)}")


class RenameModal(discord.ui.Modal, title="Rename the game"):
    name = discord.ui.TextInput(label="Name", custom_id="t:name", max_length=20)
    note = discord.ui.TextInput(label="Note", required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value} ({self.note.value})")


class Translator(app_commands.Translator):
    async def translate(self, string, locale, context):
        return JAPANESE.get(string.message) if locale is discord.Locale.japanese else None


class Lobby(app_commands.Group, name="alhambra", description="Play Alhambra"):
    settings = app_commands.Group(name="settings", description="Game settings")

    @app_commands.command(name="new", description=app_commands.locale_str("Start a new game"))
    @app_commands.describe(holes=app_commands.locale_str("Rules for holes"), players="Seats")
    @app_commands.choices(
        holes=[
            app_commands.Choice(name="Strict", value="strict"),
            app_commands.Choice(name="Lenient", value="lenient"),
        ]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        holes: str,
        players: app_commands.Range[int, 2, 6] = 3,
    ) -> None:
        view = LeaveView(timeout=None)
        view.add_item(JoinButton(len(interaction.client.games) + 1))  # type: ignore[attr-defined]
        await interaction.response.send_message(
            f"New game ({holes}, {players}p) by {interaction.user.name} "
            f"[{interaction.locale.value}/{interaction.guild_locale}]",
            view=view,
        )

    @app_commands.command(name="place", description="Place a building")
    async def place(self, interaction: discord.Interaction, cell: str, rotate: bool = False):
        await interaction.response.send_message(f"placed at {cell} rotate={rotate}", ephemeral=True)

    @place.autocomplete("cell")
    async def cell_choices(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=c, value=c) for c in CELLS if c.startswith(current)]

    @app_commands.command(name="board", description="Show the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        embed = discord.Embed(title="The board").set_image(url="attachment://board.png")
        file = discord.File(
            io.BytesIO(board_png()), filename="board.png", description="The board: 3 towers"
        )
        await interaction.followup.send(embed=embed, file=file, view=PickView(timeout=None))
        await interaction.followup.send("your hand: 3 coins", ephemeral=True)

    @app_commands.command(name="rename", description="Rename the game")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @app_commands.command(name="remind", description="DM me")
    async def remind(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("It is your turn!")
        except discord.Forbidden as e:
            await interaction.response.send_message(f"cannot DM you ({e.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @app_commands.command(name="countdown", description="Edit then delete")
    async def countdown(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("3")
        await interaction.edit_original_response(content="2")
        note = await interaction.channel.send("note")  # type: ignore[union-attr]
        await note.edit(content="note (edited)")
        await interaction.delete_original_response()

    @app_commands.command(name="slow", description="Answers too late")
    async def slow(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.4)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as e:
            interaction.client.events.append(("late", e.code))  # type: ignore[attr-defined]

    @app_commands.command(name="long", description="Too long a message")
    async def long(self, interaction: discord.Interaction) -> None:
        codes = []
        too_long: list[dict[str, Any]] = [
            {"content": "x" * 2001},
            {"file": discord.File(io.BytesIO(board_png()), "b.png", description="d" * 1025)},
        ]
        for message in too_long:
            try:
                await interaction.channel.send(**message)  # type: ignore[union-attr]
            except discord.HTTPException as e:
                codes.append(str(e.code))
        await interaction.response.send_message(f"refused {' '.join(codes)}", ephemeral=True)

    @app_commands.command(name="thread", description="Open a thread")
    async def thread(self, interaction: discord.Interaction) -> None:
        events = interaction.client.events  # type: ignore[attr-defined]
        events.append(("app_permissions", interaction.app_permissions.value))
        await interaction.response.send_message("table")
        message = await interaction.original_response()
        try:
            thread = await message.create_thread(name="Game 1", auto_archive_duration=10080)
        except discord.HTTPException as e:
            events.append(("create_thread", e.status, e.code))
            return
        try:
            await thread.send("welcome to the table")
        except discord.HTTPException as e:
            events.append(("send", e.status, e.code))
        else:
            events.append("sent")

    @settings.command(name="language", description="Set the language")
    async def language(self, interaction: discord.Interaction, code: str) -> None:
        await interaction.response.send_message(f"language={code}", ephemeral=True)


class HarnessBot(commands.Bot):
    def __init__(self, *, guild_id: int | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
        )
        self.guild_id = guild_id
        self.games: dict[int, list[str]] = {}
        self.events: list[Any] = []

    async def setup_hook(self) -> None:
        await self.tree.set_translator(Translator())
        self.tree.add_command(Lobby())

        @app_commands.command(name="reset", description="Reset everything")
        @app_commands.default_permissions(manage_guild=True)
        async def reset(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("reset", ephemeral=True)

        self.tree.add_command(reset)
        self.add_dynamic_items(JoinButton)
        if self.guild_id is None:
            await self.tree.sync()
        else:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def on_resumed(self) -> None:
        self.events.append("resumed")


class ShardedHarnessBot(HarnessBot, commands.AutoShardedBot):
    """The harness bot on as many shards as /gateway/bot recommends (discord.py's own way)."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # not discord.py's 5 s between shards: the fake does not limit them


@pytest.fixture
def world(sim: FakeDiscord):
    guild = sim.guild("Granada", locale="es-ES")
    chan = sim.channel(guild, "games")
    alice = sim.user("alice", locale="ja")
    bob = sim.user("bob")
    return guild, chan, alice, bob


@pytest.fixture
async def bot(run_bot, world):
    async with run_bot(HarnessBot) as client:
        yield client


# ----- start-up, sync, isolation -----


async def test_bot_logs_in_identifies_with_guild_intent_and_syncs(sim, bot, world):
    guild = world[0]
    assert sim.api_base == discord.http.Route.BASE
    assert sim.api_base.startswith("http://127.0.0.1:")
    assert all(r.authorization == f"Bot {sim.token}" for r in sim.requests_to("GET", "/users"))
    assert sim.gateway.identifies[0]["intents"] == discord.Intents(guilds=True).value
    assert bot.get_guild(guild.id) is not None
    assert [c.name for c in bot.get_guild(guild.id).text_channels] == ["games"]

    names = {c["name"] for c in sim.synced_commands()}
    assert names == {"alhambra", "reset"}
    assert sim.synced_commands(guild) == []
    group = sim.synced_command("alhambra")
    assert group["description"] == "Play Alhambra"
    subs = {o["name"]: o for o in group["options"]}
    assert subs["settings"]["type"] == 2  # a subcommand group
    assert subs["settings"]["options"][0]["name"] == "language"
    new = subs["new"]
    assert new["description_localizations"] == {"ja": "新しいゲームを始める"}
    holes, players = new["options"]
    assert (holes["name"], holes["type"], holes["required"]) == ("holes", 3, True)
    assert [c["value"] for c in holes["choices"]] == ["strict", "lenient"]
    assert holes["description_localizations"] == {"ja": "穴のルール"}
    assert (players["type"], players["min_value"], players["max_value"]) == (4, 2, 6)
    assert subs["place"]["options"][0]["autocomplete"] is True
    reset = sim.synced_command("reset")
    assert int(reset["default_member_permissions"]) == MANAGE_GUILD
    assert group["default_member_permissions"] is None


async def test_nothing_leaves_the_machine(sim, blocked_hosts):
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectorError):
            await session.get("https://discord.com/api/v10/gateway")
    assert blocked_hosts == ["discord.com"]
    blocked_hosts.clear()


# ----- slash commands -----


async def test_slash_reply_is_public_and_carries_locales(sim, bot, world):
    _, chan, alice, _ = world
    before = datetime.now(UTC)
    result = await sim.slash(alice, "alhambra new", channel=chan, holes="strict", players=4)
    assert result.callback_type == 4 and not result.ephemeral
    assert result.content == "New game (strict, 4p) by alice [ja/es-ES]"
    assert sim.channel_messages(chan) == [result.response]
    assert result.response.button_labels() == ["Leave", "Join"]
    assert abs(snowflake_time(result.id) - before) < timedelta(seconds=5)
    assert result.ack_seconds is not None and result.ack_seconds < 3
    assert result.payload["data"]["options"][0]["name"] == "new"


async def test_slash_with_subcommand_group_and_defaults(sim, bot, world):
    _, chan, alice, _ = world
    result = await sim.slash(alice, "alhambra settings language", code="fr")
    assert result.content == "language=fr" and result.ephemeral
    assert sim.channel_messages(chan) == []
    option = result.payload["data"]["options"][0]
    assert (option["name"], option["type"]) == ("settings", 2)
    assert option["options"][0]["options"] == [{"name": "code", "type": 3, "value": "fr"}]
    default = await sim.slash(alice, "alhambra new", holes="lenient")
    assert "(lenient, 3p)" in default.content


@pytest.mark.parametrize(
    ("command", "options", "complaint"),
    [
        ("alhambra new", {}, "required"),
        ("alhambra new", {"holes": "chaos"}, "choices"),
        ("alhambra new", {"holes": "strict", "players": 7}, "outside"),
        ("alhambra new", {"holes": "strict", "colour": "red"}, "no option"),
        ("alhambra", {}, "needs a subcommand"),
        ("alhambra fly", {}, "no subcommand"),
        ("chess new", {}, "no synced slash command"),
        ("reset", {}, "cannot see"),
    ],
)
async def test_what_a_discord_client_would_not_send_is_refused(
    sim, bot, world, command, options, complaint
):
    alice = world[2]
    with pytest.raises(SimulationError, match=complaint):
        await sim.slash(alice, command, options=options)
    assert sim.interactions == []


async def test_default_member_permissions_follow_the_member(sim, bot, world):
    guild, _, alice, _ = world
    sim.member(guild, alice, permissions=EVERYONE_PERMISSIONS | MANAGE_GUILD)
    result = await sim.slash(alice, "reset")
    assert result.content == "reset"
    owner_result = await sim.slash(guild.owner, "reset")
    assert owner_result.content == "reset"


async def test_guild_sync_is_recorded_and_used(sim, run_bot, world):
    guild, _, alice, _ = world
    async with run_bot(lambda: HarnessBot(guild_id=guild.id)):
        assert sim.synced_commands() == []
        assert {c["name"] for c in sim.synced_commands(guild)} == {"alhambra", "reset"}
        assert sim.sync_log[-1][0] == guild.id
        result = await sim.slash(alice, "alhambra new", holes="strict")
        assert result.payload["data"]["guild_id"] == str(guild.id)
        assert result.content.startswith("New game")


async def test_autocomplete_returns_the_bots_choices(sim, bot, world):
    alice = world[2]
    choices = await sim.autocomplete(alice, "alhambra place", "cell", "A")
    assert [c["value"] for c in choices] == ["A1", "A2"]
    assert await sim.autocomplete(alice, "alhambra place", "cell", "Z") == []
    with pytest.raises(SimulationError, match="no autocomplete"):
        await sim.autocomplete(alice, "alhambra place", "rotate", "t")
    placed = await sim.slash(alice, "alhambra place", cell="B2", rotate=True)
    assert placed.content == "placed at B2 rotate=True"


# ----- defer, followups, files, ephemeral -----


async def test_deferred_reply_is_filled_by_followup_with_embed_and_png(sim, bot, world):
    _, chan, alice, bob = world
    result = await sim.slash(alice, "alhambra board")
    assert result.callback_type == 5
    board = result.response
    assert not board.loading and not board.ephemeral
    assert board.embed["title"] == "The board"
    assert board.embed["image"]["url"] == "attachment://board.png"
    assert board.attachment("board.png").description == "The board: 3 towers"
    image = board.attachment("board.png").image()
    assert (image.format, image.size) == ("PNG", (64, 48))
    assert sim.channel_messages(chan) == [board]

    await result.wait_followups(1)
    hand = result.followups[0]
    assert hand.ephemeral and hand.content == "your hand: 3 coins"
    assert sim.ephemeral_to(alice) == [hand]
    assert sim.ephemeral_to(bob) == []
    async with aiohttp.ClientSession() as session, session.get(board.attachment().url) as response:
        assert await response.read() == board.attachment().data


async def test_ephemeral_messages_are_hidden_from_others_and_from_history(sim, bot, world):
    _, chan, alice, bob = world
    secret = await sim.slash(alice, "alhambra place", cell="A1")
    public = await sim.slash(bob, "alhambra new", holes="strict")
    assert sim.ephemeral_to(alice) == [secret.response]
    assert sim.channel_messages(chan) == [public.response]
    history = [m.id async for m in bot.get_channel(chan.id).history()]
    assert history == [public.response.id]
    with pytest.raises(SimulationError, match="cannot see"):
        await sim.click(bob, secret.response, "anything")


async def test_edit_and_delete_of_original_and_channel_messages(sim, bot, world):
    _, chan, alice, _ = world
    result = await sim.slash(alice, "alhambra countdown")
    await result.wait(lambda r: r.original_deleted)
    assert result.response.history[0]["content"] == "3"
    assert result.response.content == "2" and result.response.edits == 1
    assert result.messages == []
    (note,) = sim.channel_messages(chan)
    assert note.content == "note (edited)" and note.edited_timestamp is not None
    assert note.interaction_id is None


async def test_bot_can_open_a_thread_and_post_in_it(sim, bot, world):
    guild, chan, alice, _ = world
    result = await sim.slash(alice, "alhambra thread")
    await sim.wait_until(lambda: any(c.is_thread for c in guild.channels))
    thread = next(c for c in guild.channels if c.is_thread)
    assert thread.id == result.response.id and thread.parent is chan
    await sim.wait_until(lambda: sim.channel_messages(thread))
    assert sim.last_message(thread).content == "welcome to the table"
    inside = await sim.slash(alice, "alhambra new", channel=thread, holes="strict")
    assert inside.response.channel is thread


def _not_admin(sim: FakeDiscord, guild) -> None:
    """The bot with a plain member's permissions: the channel's overwrites now count for it."""
    sim.member(guild, sim.bot_user, permissions=EVERYONE_PERMISSIONS)


async def test_creating_a_public_thread_needs_the_permission_in_the_channel(sim, bot, world):
    guild, chan, alice, _ = world
    _not_admin(sim, guild)
    sim.overwrite(chan, sim.bot_user, deny=CREATE_PUBLIC_THREADS)
    result = await sim.slash(alice, "alhambra thread")
    await sim.wait_until(lambda: ("create_thread", 403, 50013) in bot.events)
    assert not int(bot.events[0][1]) & CREATE_PUBLIC_THREADS  # and the bot was told so
    assert not any(c.is_thread for c in guild.channels)
    assert result.response.thread is None
    # the overwrite on @everyone counts too, and a member overwrite can allow it again
    sim.overwrite(chan, guild, deny=CREATE_PUBLIC_THREADS)
    sim.overwrite(chan, sim.bot_user, allow=CREATE_PUBLIC_THREADS)
    await sim.slash(alice, "alhambra thread")
    await sim.wait_until(lambda: "sent" in bot.events)
    thread = next(c for c in guild.channels if c.is_thread)
    assert thread.auto_archive_duration == 10080 and thread.to_json()["parent_id"] == str(chan.id)


async def test_posting_in_a_thread_needs_send_messages_in_threads_from_the_parent(sim, bot, world):
    guild, chan, alice, _ = world
    _not_admin(sim, guild)
    sim.overwrite(chan, sim.bot_user, deny=SEND_MESSAGES_IN_THREADS)
    result = await sim.slash(alice, "alhambra thread")
    await sim.wait_until(lambda: ("send", 403, 50013) in bot.events)
    thread = result.response.thread
    assert thread is not None and sim.channel_messages(thread) == []
    with pytest.raises(SimulationError):
        sim.overwrite(thread, sim.bot_user, allow=SEND_MESSAGES_IN_THREADS)  # none of its own


async def test_an_interaction_in_a_thread_carries_the_thread_and_its_parents_permissions(
    sim, bot, world
):
    guild, chan, alice, _ = world
    thread = sim.thread(chan, "chat")
    _not_admin(sim, guild)
    sim.overwrite(chan, sim.bot_user, deny=ATTACH_FILES)
    result = await sim.slash(alice, "alhambra thread", channel=thread)
    payload = result.payload
    assert payload["channel_id"] == str(thread.id)
    assert payload["channel"]["type"] == 11 and payload["channel"]["parent_id"] == str(chan.id)
    app = int(payload["app_permissions"])
    assert not app & ATTACH_FILES and app & SEND_MESSAGES_IN_THREADS
    assert int(payload["member"]["permissions"]) == EVERYONE_PERMISSIONS  # alice: no overwrite
    await sim.wait_until(lambda: ("create_thread", 400, 50024) in bot.events)  # not in a thread


async def test_roles_and_overwrites_resolve_in_discord_py_as_the_fake_computes_them(
    sim, bot, world
):
    """A role made after the bot connected reaches it (GUILD_ROLE_CREATE), a member's roles come
    with their interactions, and discord.py's `permissions_for` over the cached guild, from the
    member an interaction carries, agrees with the fake in every channel: @everyone denied,
    a role allowed, a member denied again; a thread as its parent."""
    guild, chan, alice, bob = world
    carol = sim.user("carol")
    staff = sim.role(guild, "staff")
    helpers = sim.role(guild, "helpers", permissions=MANAGE_THREADS)
    for user, roles in ((alice, [staff]), (bob, [staff, helpers]), (carol, [])):
        sim.member(guild, user, roles=roles)
    private = sim.channel(guild, "staff-only")
    sim.overwrite(private, guild, deny=VIEW_CHANNEL)
    sim.overwrite(private, staff, allow=VIEW_CHANNEL)
    sim.overwrite(private, bob, deny=VIEW_CHANNEL)
    thread = sim.thread(private, "a game")
    await sim.wait_until(lambda: bot.get_guild(guild.id).get_thread(thread.id) is not None)
    cached = bot.get_guild(guild.id)
    assert cached.get_role(helpers.id).permissions.manage_threads
    for user, sees_private in ((alice, True), (bob, False), (carol, False)):
        result = await sim.slash(user, "alhambra board", channel=chan)
        assert result.payload["member"]["roles"] == [
            str(r.id) for r in guild.members[user.id].roles
        ]
        member = discord.Member(data=result.payload["member"], guild=cached, state=bot._connection)
        for channel in (chan, private, thread):
            theirs = cached.get_channel_or_thread(channel.id).permissions_for(member)
            assert theirs.value == sim.permissions_in(user, channel), (user, channel)
        assert sim.permissions_in(user, chan) & VIEW_CHANNEL
        assert bool(sim.permissions_in(user, private) & VIEW_CHANNEL) is sees_private
    assert sim.permissions_in(bob, chan) & MANAGE_THREADS  # the role's own permission

    # an archived thread leaves the active threads; the bot can still fetch it
    sim.archive_thread(thread)
    await sim.wait_until(lambda: cached.get_thread(thread.id) is None)
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived
    assert fetched.parent_id == private.id


async def test_thread_made_by_a_user_reaches_the_bot(sim, bot, world):
    _, chan, alice, _ = world
    thread = sim.thread(chan, "chat")
    result = await sim.slash(alice, "alhambra new", channel=thread, holes="strict")
    assert sim.channel_messages(thread) == [result.response]
    assert bot.get_channel(thread.id) is not None


# ----- components and modals -----


async def test_dynamic_button_survives_a_restart_but_a_plain_view_does_not(sim, run_bot, world):
    _, _, alice, bob = world
    carol = sim.user("carol")
    async with run_bot(HarnessBot):
        lobby = (await sim.slash(alice, "alhambra new", holes="strict")).response
        click = await sim.click(bob, lobby, "Join")
        assert click.callback_type == 7 and click.response is lobby
        assert lobby.content == "Game 1: bob" and lobby.edits == 1
        left = await sim.click(bob, lobby, "t:leave")
        assert left.content == "You left." and left.ephemeral
    async with run_bot(HarnessBot) as restarted:
        await sim.click(carol, lobby, "Join")
        assert lobby.content == "Game 1: carol"
        assert restarted.games == {1: ["carol"]}
        with pytest.raises(InteractionNotAnswered):
            await sim.click(carol, lobby, "Leave", timeout=0.3)
    assert len(sim.gateway.identifies) == 2


async def test_clicks_a_real_client_could_not_make_are_refused(sim, bot, world):
    _, _, alice, bob = world
    lobby = (await sim.slash(alice, "alhambra new", holes="strict")).response
    with pytest.raises(SimulationError, match="no button"):
        await sim.click(bob, lobby, "Start")
    lobby.components[0]["components"][1]["disabled"] = True
    with pytest.raises(SimulationError, match="disabled"):
        await sim.click(bob, lobby, "Join")


async def test_select_menu_with_deferred_update_and_edit(sim, bot, world):
    _, _, alice, _ = world
    board = (await sim.slash(alice, "alhambra board")).response
    result = await sim.select(alice, board, "Pick buildings", ["tower", "garden"])
    assert result.callback_type == 6
    await result.wait_edit(1)
    assert board.content == "picked tower+garden"
    with pytest.raises(SimulationError, match="not an option"):
        await sim.select(alice, board, "t:pick", ["moat"])
    with pytest.raises(SimulationError, match=r"1\.\.2 values"):
        await sim.select(alice, board, "t:pick", [])


async def test_modal_opens_and_submits(sim, bot, world):
    _, _, alice, bob = world
    opened = await sim.slash(alice, "alhambra rename")
    assert opened.callback_type == 9
    assert opened.modal["title"] == "Rename the game"
    with pytest.raises(SimulationError, match="required"):
        await sim.submit_modal(alice, opened, {"Note": "x"})
    with pytest.raises(SimulationError, match="only alice"):
        await sim.submit_modal(bob, opened, {"Name": "Granada"})
    with pytest.raises(SimulationError, match="no field"):
        await sim.submit_modal(alice, opened, {"Name": "Granada", "Colour": "red"})
    submitted = await sim.submit_modal(alice, opened, {"Name": "Granada", "Note": "hi"})
    assert submitted.content == "renamed to Granada (hi)"


# ----- DMs -----


async def test_dm_is_delivered_or_refused_with_50007(sim, bot, world):
    _, _, alice, bob = world
    sent = await sim.slash(alice, "alhambra remind")
    assert sent.content == "sent"
    assert [m.content for m in sim.dms(alice)] == ["It is your turn!"]
    sim.block_dms(bob)
    refused = await sim.slash(bob, "alhambra remind")
    assert refused.content == "cannot DM you (50007)"
    assert sim.dms(bob) == []


# ----- Discord's rules and injected faults -----


async def test_late_acknowledgement_is_refused_like_discord(sim, bot, world):
    sim.ack_deadline = 0.2
    with pytest.raises(InteractionNotAnswered, match="10062"):
        await sim.slash(world[2], "alhambra slow")
    await sim.wait_until(lambda: bot.events)
    assert bot.events == [("late", 10062)]
    assert sim.channel_messages(world[1]) == []


async def test_second_acknowledgement_and_oversized_messages_are_refused(sim, bot, world):
    result = await sim.slash(world[2], "alhambra place", cell="A1")
    url = f"{sim.api_base}/interactions/{result.id}/{result.token}/callback"
    payload = {"type": 4, "data": {"content": "again"}}
    async with aiohttp.ClientSession() as session, session.post(url, json=payload) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 40060
    long = await sim.slash(world[2], "alhambra long")
    assert long.content == "refused 50035 50035"  # the text, and a file's description


async def test_429_with_retry_after_is_retried(sim, bot, world):
    fault = sim.fail_next("callback", status=429, retry_after=0.1)
    post = sim.fail_next("send_message", status=429, retry_after=0.1)
    result = await sim.slash(world[2], "alhambra countdown")
    await result.wait(lambda r: r.original_deleted)
    assert fault.hits == 1 and post.hits == 1
    callbacks = sim.requests_to("POST", "/interactions/")
    assert [r.status for r in callbacks] == [429, 200]
    assert [m.content for m in sim.channel_messages(world[1])] == ["note (edited)"]


async def test_500_on_a_followup_is_retried_and_nothing_is_lost(sim, bot, world):
    fault = sim.fail_next("POST /webhooks/{application_id}/{token}", status=500)
    result = await sim.slash(world[2], "alhambra board")
    assert fault.hits == 1
    assert result.response.embed["title"] == "The board"
    assert [r.status for r in sim.requests_to("POST", "/webhooks/")][:2] == [500, 200]


async def test_fault_rules_are_checked(sim):
    with pytest.raises(ValueError):
        sim.fail_next("callback", status=404)
    other = sim.fail_next("PATCH /channels/{channel_id}/messages/{message_id}", count=2)
    assert other.matches("PATCH", "/channels/1/messages/2")
    assert not other.matches("POST", "/channels/1/messages")
    assert not other.matches("PATCH", "/channels/1/messages/2/threads")


# ----- gateway -----


async def test_dropped_gateway_is_resumed_and_missed_events_replayed(sim, bot, world):
    _, _, alice, _ = world
    session = sim.gateway.session
    await sim.drop_gateway(resumable=True)
    assert sim.gateway.resumes[-1]["session_id"] == session.id
    assert len(sim.gateway.identifies) == 1
    await sim.wait_until(lambda: "resumed" in bot.events)

    await sim.gateway.drop()  # now an interaction arrives while the bot is away
    result = await sim.slash(alice, "alhambra place", cell="C3")
    assert result.content == "placed at C3 rotate=False"
    assert sim.gateway.resumed == 2


async def test_invalidated_session_makes_the_bot_identify_again(sim, bot, world):
    await sim.drop_gateway(resumable=False)
    assert len(sim.gateway.identifies) == 2
    assert sim.gateway.session.id != sim.gateway.resumes[-1]["session_id"]
    await bot.wait_until_ready()
    result = await sim.slash(world[2], "alhambra place", cell="A2")
    assert result.content.startswith("placed at A2")


async def test_each_shard_gets_its_own_servers_and_dms_go_to_shard_0(sim, run_bot):
    sim.shards = 2
    guilds = [sim.guild(f"Shard {k}", shard=k) for k in range(2)]
    channels = [sim.channel(g, "games") for g in guilds]
    alice = sim.user("alice")
    async with run_bot(ShardedHarnessBot) as bot:
        assert sorted((i.shard_id, i.shard_count) for i in sim.gateway.identified) == [
            (0, 2),
            (1, 2),
        ]
        assert {g.id for g in bot.guilds} == {g.id for g in guilds}
        for k, channel in enumerate(channels):
            result = await sim.slash(alice, "alhambra place", channel=channel, cell="A1")
            assert (result.shard, result.content) == (k, "placed at A1 rotate=False")
        dm = await sim.slash(alice, "alhambra place", channel=sim.dm_channel(alice), cell="B1")
        assert dm.shard == 0 and dm.content == "placed at B1 rotate=False"
        late = sim.guild("Late", shard=1)  # a server joined meanwhile: told to its shard only
        await sim.wait_until(lambda: bot.get_guild(late.id) is not None)

        def servers(shard: int) -> list[int]:
            frames = [json.loads(f) for _, f in sim.gateway.sessions[shard].events]
            ready = next(f["d"] for f in frames if f["t"] == "READY")
            assert ready["shard"] == [shard, 2]
            return [int(f["d"]["id"]) for f in frames if f["t"] == "GUILD_CREATE"]

        assert servers(0) == [guilds[0].id]
        assert servers(1) == [guilds[1].id, late.id]
        await sim.drop_gateway(shard=1)  # one shard drops and resumes; the other stays
        assert sim.gateway.resumed == 1 and sim.gateway.connected
        again = await sim.slash(alice, "alhambra place", channel=channels[1], cell="C3")
        assert again.shard == 1 and again.content.startswith("placed at C3")


async def test_an_identify_for_a_shard_out_of_range_is_closed_with_4010(sim):
    async with aiohttp.ClientSession() as http, http.ws_connect(sim.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        identify = {"token": sim.token, "intents": 1, "properties": {}, "shard": [2, 2]}
        await ws.send_json({"op": 2, "d": identify})
        closed = await ws.receive()
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 4010
    assert sim.gateway.sessions == {} and sim.gateway.identified == []


# ----- lifecycle -----


async def test_stopping_leaves_no_tasks_or_open_sessions(sim, run_bot, world, recwarn):
    before = asyncio.all_tasks()
    async with run_bot(HarnessBot) as client:
        await sim.slash(world[2], "alhambra place", cell="A1")
        session = client.http._HTTPClient__session
    assert client.is_closed() and session.closed
    await asyncio.sleep(0)
    assert {t for t in asyncio.all_tasks() - before if not t.done()} == set()
    assert not [w for w in recwarn if "nclosed" in str(w.message)]


async def test_a_rejected_token_fails_login(sim, run_bot, world):
    with pytest.raises(discord.LoginFailure):
        async with run_bot(HarnessBot, token="wrong"):
            pass
    assert sim.gateway.identifies == []


async def test_slash_command_in_a_dm_channel(sim, bot, world):
    alice = world[2]
    dm = sim.dm_channel(alice)
    result = await sim.slash(alice, "alhambra place", channel=dm, cell="A1")
    assert "member" not in result.payload and result.payload["user"]["id"] == str(alice.id)
    assert result.content == "placed at A1 rotate=False"
    assert sim.ephemeral_to(alice) == [result.response]
