"""Simulated people playing through Discord: they read the game like a player would (their own
view of the stored game) and act only through the bot's buttons, menus and slash commands.

The "brain" is a computer player of `engine.ai` choosing from the seat's view; the hands are
the fake Discord client's clicks, picked by the option labels a person reads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from database import connect as connect_db
from fake_discord import FakeDiscord, InteractionResult
from fake_discord.models import Channel, Message, User

from bot.core.services import Services
from bot.text import i18n
from bot.text.present import action_code, action_label, building_name, currency_name
from engine import (
    Action,
    Buy,
    EndTurn,
    Game,
    GiveToDirk,
    Pass,
    Place,
    PlaceFromReserve,
    PlaceInReserve,
    RemoveToReserve,
    Swap,
    TakeMoney,
    TurnEnded,
    Undo,
    new_game,
)
from engine.ai import make_player


def stored_game(db_path: Path, channel_id: int) -> tuple[int, Game | None, dict[int, int]]:
    """(game id, state, user id by seat) of the channel's latest game, read from the database."""
    with connect_db(db_path) as conn:
        row = conn.execute(
            "SELECT id, snapshot FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        ).fetchone()
        seats = dict(
            conn.execute(
                "SELECT seat, user_id FROM seats WHERE game_id = ? AND seat IS NOT NULL", (row[0],)
            ).fetchall()
        )
    return row[0], (Game.from_json(row[1]) if row[1] else None), seats


async def open_game(
    sim: FakeDiscord, host: User, channel: Channel, **options: Any
) -> InteractionResult:
    """`/alhambra new` with the game played in `channel` itself (`thread:False`), as every game
    was before games had threads of their own: the answer to the command is the lobby. The
    thread a game gets by default has its own tests (test_bot_threads.py)."""
    return await sim.slash(host, "alhambra new", channel=channel, thread=False, **options)


@dataclass
class Table:
    """A game in progress in one channel, played by simulated people."""

    sim: FakeDiscord
    channel: Channel
    db_path: Path
    users: dict[int, User]  # by user id
    seed: int = 1
    locale: str = "en"
    #: each user's own language, where it is not `locale` (their replies are in it)
    locales: dict[int, str] = field(default_factory=dict)
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    actions: int = 0
    interactions: int = 0
    undos: int = 0
    #: placements the bot made for the player, being the only ones they could make
    forced: int = 0
    kinds: dict[str, int] = field(default_factory=dict)

    def state(self) -> tuple[int, Game, dict[int, int]]:
        game_id, game, seats = stored_game(self.db_path, self.channel.id)
        assert game is not None
        return game_id, game, seats

    def turn_message(self) -> Message:
        for message in reversed(self.sim.channel_messages(self.channel)):
            if any(b.get("custom_id", "").startswith("alh:t:") for b in message.buttons()):
                return message
        raise AssertionError("no turn message with buttons in the channel")

    #: share of decisions made at random among all legal moves (redesigns, Dirk...), for coverage
    explore: float = 0.0

    def choose(self, game: Game) -> Action:
        seat = game.current_seat
        assert seat is not None
        if self.explore and self.rng.random() < self.explore:
            legal = [a for a in game.legal_actions() if not isinstance(a, Undo)]
            return self.rng.choice(legal)
        player = make_player("easy", self.seed + seat)
        return player.choose(game.view(seat), [])

    def count(self, action: Action) -> None:
        self.actions += 1
        self.kinds[action.kind] = self.kinds.get(action.kind, 0) + 1


def _option(message: Message, label: str) -> tuple[dict[str, Any], str] | None:
    for select in message.selects():
        for option in select.get("options") or []:
            if option["label"] == label[:100]:
                return select, option["value"]
    return None


async def _settled(table: Table, panel: Message, edits: int) -> None:
    """An action's click is acknowledged at once; the bot redraws the panel when it is done."""
    await table.sim.wait_until(lambda: panel.edits > edits)


async def _pick(table: Table, user: User, panel: Message, label: str, final: bool = False):
    """Pick the option with that label, paging through "More…" if it is not shown yet."""
    for _ in range(20):
        found = _option(panel, label)
        if found is not None:
            select, value = found
            table.interactions += 1
            edits = panel.edits
            result = await table.sim.select(user, panel, select["custom_id"], [value])
            # the panel is redrawn: at once, or after a deferred answer when it draws a picture
            # (final: the move is made first)
            await _settled(table, panel, edits)
            return result
        more = next(
            (
                (s, o["value"])
                for s in panel.selects()
                for o in s.get("options") or []
                if o["label"] == "More…"
            ),
            None,
        )
        if more is None:
            options = [o["label"] for s in panel.selects() for o in s.get("options") or []]
            raise AssertionError(f"no option {label!r} in the panel: {options}")
        table.interactions += 1
        edits = panel.edits
        await table.sim.select(user, panel, more[0]["custom_id"], [more[1]])
        await _settled(table, panel, edits)
    raise AssertionError("too many pages")


async def play_by_buttons(table: Table, action: Action, user: User, game: Game) -> None:
    """Perform one decision the way a person would: turn message button, then the panel."""
    sim = table.sim
    view = game.view(game.current_seat)
    label = action_label(table.locale, action, view)
    turn = table.turn_message()
    if isinstance(action, TakeMoney | Buy | RemoveToReserve | PlaceFromReserve | Swap | Pass):
        button = {"TakeMoney": "Take money", "Buy": "Buy"}.get(type(action).__name__, "Redesign")
        table.interactions += 1
        opened = await sim.click(user, turn, button)
        panel = opened.response
        assert panel is not None and panel.ephemeral, opened.text
        if isinstance(action, Pass):
            table.interactions += 1
            edits = panel.edits
            await sim.click(user, panel, label)
            await _settled(table, panel, edits)
            return
        if isinstance(action, Buy):
            tile = view.market[action.slot]
            slot_label = f"{currency_name('en', action.slot)}: {building_name('en', tile)}"
            if _option(panel, slot_label):
                await _pick(table, user, panel, slot_label)
        if isinstance(action, RemoveToReserve | PlaceFromReserve | Swap):
            kind = {
                "RemoveToReserve": "Move a building to the reserve",
                "PlaceFromReserve": "Build a reserve building",
                "Swap": "Swap a reserve building with one in the Alhambra",
            }[type(action).__name__]
            if _option(panel, kind):  # else the only kind: its menu is open already
                await _pick(table, user, panel, kind)
            if not isinstance(action, RemoveToReserve) and _option(
                panel, building_name("en", action.tile)
            ):
                await _pick(table, user, panel, building_name("en", action.tile))
        await _pick(table, user, panel, label, final=True)
        return
    # placing, ending or undoing: the panel of the current decision
    table.interactions += 1
    # the final placement's turn message has a Place button; otherwise any action button
    # opens the current decision
    labels = turn.button_labels()
    opened = await sim.click(
        user, turn, "Place your buildings" if "Place your buildings" in labels else "Buy"
    )
    panel = opened.response
    assert panel is not None
    if isinstance(action, Place | PlaceInReserve | GiveToDirk):
        if "taken for you" in panel.content:  # the only placement there was: the bot made it
            table.forced += 1
            return
        if _option(panel, building_name("en", action.tile)) and not _option(panel, label):
            await _pick(table, user, panel, building_name("en", action.tile))
        await _pick(table, user, panel, label, final=True)
    elif isinstance(action, EndTurn | Undo):
        table.interactions += 1
        edits = panel.edits
        await sim.click(user, panel, label)
        await _settled(table, panel, edits)
    else:  # pragma: no cover - every decision is covered above
        raise AssertionError(f"cannot play {action!r} by buttons")


async def play_by_commands(table: Table, action: Action, user: User, game: Game) -> None:
    """Perform one decision with slash commands, typing what autocomplete would offer."""
    sim = table.sim
    table.interactions += 1
    if isinstance(action, TakeMoney):
        choices = await sim.autocomplete(user, "alhambra take", "cards", "", channel=table.channel)
        assert action_code(action) in [c["value"] for c in choices]
        result = await sim.slash(
            user, "alhambra take", channel=table.channel, cards=action_code(action)
        )
    elif isinstance(action, Buy):
        result = await sim.slash(
            user,
            "alhambra buy",
            channel=table.channel,
            slot=action.slot + 1,
            payment=action_code(action),
        )
    elif isinstance(action, Place | PlaceInReserve | GiveToDirk):
        choices = await sim.autocomplete(
            user, "alhambra place", "where", "", channel=table.channel, building=str(action.tile)
        )
        assert action_code(action) in [c["value"] for c in choices]
        result = await sim.slash(
            user,
            "alhambra place",
            channel=table.channel,
            where=action_code(action),
            building=str(action.tile),
        )
    elif isinstance(action, RemoveToReserve):
        result = await sim.slash(
            user,
            "alhambra redesign",
            channel=table.channel,
            move="remove",
            building=action_code(action),
        )
    elif isinstance(action, PlaceFromReserve | Swap):
        result = await sim.slash(
            user,
            "alhambra redesign",
            channel=table.channel,
            move="build" if isinstance(action, PlaceFromReserve) else "swap",
            building=str(action.tile),
            cell=action_code(action),
        )
    elif isinstance(action, EndTurn):
        result = await sim.slash(user, "alhambra end-turn", channel=table.channel)
    elif isinstance(action, Undo):
        result = await sim.slash(user, "alhambra undo", channel=table.channel)
    else:
        raise AssertionError(f"no command for {action!r}")
    assert result.ephemeral, result.text
    locale = table.locales.get(user.id, table.locale)
    said = [_lead(locale, "reply.done"), _lead(locale, "reply.undone")]
    assert any(result.text.startswith(words) for words in said), result.text


def _lead(locale: str, key: str) -> str:
    """How a reply starts in the player's language ("Done", "完了しま"; its first words come
    before any placeholder in every language)."""
    return i18n.t(locale, key, next="", action="")[:4]


async def play_to_the_end(
    table: Table, bot: Any, *, by: str = "buttons", max_actions: int = 2000, undo_every: int = 0
) -> Game:
    """Play every human decision until the game is over; returns the final state."""
    while True:
        await bot.idle()  # computer players finish their turns first
        _, game, seats = table.state()
        if game.is_over:
            return game
        seat = game.current_seat
        assert seat is not None
        user = table.users.get(seats.get(seat))  # type: ignore[arg-type]
        if user is None:  # a computer player's turn: it plays by itself
            before = game.to_json()
            await table.sim.wait_until(
                lambda seen=before: table.state()[1].to_json() != seen, timeout=30
            )
            continue
        action = table.choose(game)
        if undo_every and table.actions % undo_every == undo_every - 1 and game.turn_actions:
            action = Undo()
            table.undos += 1
        if by == "buttons":
            await play_by_buttons(table, action, user, game)
        else:
            await play_by_commands(table, action, user, game)
        table.count(action)
        if table.actions > max_actions:
            raise AssertionError("the game did not end")


async def finished_game(
    services: Services, guild: int, channel: int, users: list[int], *, rated: bool = False
) -> int:
    """A game of the two users played to the end through the service by random legal moves
    (quick: no Discord; random play leaves clear mistakes for a review to find)."""
    game = await services.lobby.create_game(
        channel_id=channel, host_id=users[0], host_name="ana", guild_id=guild, rated=rated
    )
    await services.lobby.join(game.id, users[1], "bruno")
    info = (await services.lobby.start(game.id, users[0])).game
    rng = random.Random(game.id)
    while info.status == "active":
        player = info.current_player
        assert player is not None and player.user_id is not None
        legal = (await services.play.view(info.id, player.user_id)).view.legal
        move = rng.choice([a for a in legal if not isinstance(a, Undo)] or list(legal))
        info = (await services.play.act(info.id, player.user_id, move, info.version)).game
    return game.id


async def play_scoring_rounds(services: Services, game_id: int, rounds: int) -> Game:
    """Random legal moves of a running game of people, through the service (quick: no
    Discord), until `rounds` scoring rounds are held; returns the game as it stands then."""
    rng = random.Random(game_id)
    while True:
        async with services.store.read() as tx:
            snapshot = await tx.snapshot(game_id)
        assert snapshot is not None
        state = Game.from_json(snapshot)
        if len(state.scoring_rounds) >= rounds:
            return state
        info = await services.lobby.game(game_id)
        player = info.current_player
        assert not state.is_over and player is not None and player.user_id is not None
        move = rng.choice([a for a in state.legal_actions() if not isinstance(a, Undo)])
        await services.play.act(game_id, player.user_id, move, info.version)


async def engine_steps(services: Services, game_id: int) -> list[Game]:
    """The game after each ended turn (and as dealt), replayed here from the stored log."""
    game = await services.lobby.game(game_id)
    assert game.seed is not None
    state = new_game(len(game.seats), game.seed)
    after = [state.copy()]
    async with services.store.read() as tx:
        rows = await tx.actions(game_id)
    for row in rows:
        if any(isinstance(e, TurnEnded) for e in state.apply(row.action)):
            after.append(state.copy())
    return after
