"""Every use case of the game service, every error it can give, and that errors write nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from service_helpers import (
    BOB,
    CAROL,
    HOST,
    STRANGER,
    act_as_current,
    add_timer,
    dump,
    lobby,
    random_move,
    started,
    state,
)

from bot.core.clock import ManualClock
from bot.core.errors import (
    AlreadyJoined,
    ArchiveEnd,
    GameAlreadyRunning,
    GameAlreadyStarted,
    GameNotStarted,
    GameOver,
    IllegalMove,
    InvalidRequest,
    LobbyFull,
    NoGameHere,
    NotAPlayer,
    NotEnoughPlayers,
    NotHost,
    NotYourTurn,
    Outdated,
    ServiceError,
)
from bot.core.records import DeadlineRules, GameInfo, Sight
from bot.core.services import Services
from bot.core.verify import verify_database
from engine import (
    EndTurn,
    GameStarted,
    MoneyTaken,
    Skip,
    TakeMoney,
    TurnEnded,
    TurnStarted,
    Undo,
    Undone,
    action_from_dict,
    action_to_dict,
    new_game,
)


@pytest.fixture
def refused(db_target: str):
    """`async with refused(ErrorClass):` asserts the error and that the database is unchanged."""

    class Refused:
        def __init__(self, kind: type[ServiceError], match: str | None = None) -> None:
            self.kind, self.match = kind, match

        async def __aenter__(self) -> None:
            self.before = dump(db_target)

        async def __aexit__(self, kind: type | None, exc: BaseException | None, tb: object) -> bool:
            assert kind is self.kind, f"expected {self.kind.__name__}, got {kind!r}: {exc}"
            assert isinstance(exc, ServiceError) and exc.message
            if self.match:
                assert self.match in exc.message, exc.message
            assert dump(db_target) == self.before, "a refused request changed the database"
            return True

    return Refused


# --- lobby --------------------------------------------------------------------------------------


async def test_create_seats_the_host_and_one_game_per_channel(services: Services, refused) -> None:
    game = await services.lobby.create_game(
        channel_id=1, host_id=HOST, host_name=" Ann\n", guild_id=7
    )
    assert game.status == "lobby" and game.version == 0 and game.guild_id == 7
    assert [(s.user_id, s.name, s.kind) for s in game.seats] == [(HOST, "Ann", "human")]
    assert (await services.lobby.game_in_channel(1)).id == game.id
    async with refused(GameAlreadyRunning, "gathering players"):
        await services.lobby.create_game(channel_id=1, host_id=BOB, host_name="Bob")
    other = await services.lobby.create_game(channel_id=2, host_id=BOB, host_name="Bob")
    assert other.id != game.id
    await services.lobby.join(game.id, BOB, "Bob")
    await services.lobby.start(game.id, HOST)
    async with refused(GameAlreadyRunning, "already running"):
        await services.lobby.create_game(channel_id=1, host_id=CAROL, host_name="Carol")


async def test_a_game_keeps_the_language_it_was_opened_in(services: Services, refused) -> None:
    """A game's public language is stored with it: read back with the game, the same on every
    read, English by default; what is not a language code at all is refused, writing nothing."""
    persian = await services.lobby.create_game(
        channel_id=1, host_id=HOST, host_name="Ann", locale="fa"
    )
    assert persian.locale == "fa" and (await services.lobby.game(persian.id)).locale == "fa"
    assert await services.people.game_locale(persian.id) == "fa"
    await services.lobby.join(persian.id, BOB, "Bob")
    started = await services.lobby.start(persian.id, HOST)
    assert started.game.locale == "fa"
    default = await services.lobby.create_game(channel_id=2, host_id=BOB, host_name="Bob")
    assert default.locale == "en" and await services.people.game_locale(999) == "en"
    for bad in ("", "farsi", "fa; DROP TABLE games", "FA"):
        async with refused(InvalidRequest, "languages"):
            await services.lobby.create_game(
                channel_id=3, host_id=CAROL, host_name="Carol", locale=bad
            )


async def test_create_refuses_bad_arguments(services: Services, refused) -> None:
    async with refused(InvalidRequest, "holes"):
        await services.lobby.create_game(
            channel_id=1, host_id=HOST, host_name="Ann", options={"holes": "none"}
        )
    async with refused(InvalidRequest, "options"):
        await services.lobby.create_game(
            channel_id=1, host_id=HOST, host_name="Ann", options={"x": 1}
        )
    async with refused(InvalidRequest, "2 to 6"):
        await services.lobby.create_game(channel_id=1, host_id=HOST, host_name="Ann", max_players=7)
    async with refused(InvalidRequest, "name"):
        await services.lobby.create_game(channel_id=1, host_id=HOST, host_name=" \u200b\n")
    async with refused(InvalidRequest, "at least one hour"):
        await services.lobby.create_game(
            channel_id=1, host_id=HOST, host_name="A", deadline_rules=DeadlineRules(0)
        )
    game = await services.lobby.create_game(
        channel_id=1, host_id=HOST, host_name="A" * 50, options={"holes": "strict"}
    )
    assert game.options == {"holes": "strict"} and game.seats[0].name == "A" * 32


async def test_no_game_here(services: Services, refused) -> None:
    async with refused(NoGameHere):
        await services.lobby.game_in_channel(1)
    async with refused(NoGameHere):
        await services.lobby.join(12345, BOB, "Bob")
    async with refused(NoGameHere):
        await services.play.act(12345, BOB, EndTurn(), 0)
    async with refused(NoGameHere):
        await services.play.view(12345, BOB)


async def test_join_rules(services: Services, refused) -> None:
    game = await services.lobby.create_game(
        channel_id=1, host_id=HOST, host_name="Ann", max_players=3
    )
    async with refused(AlreadyJoined):
        await services.lobby.join(game.id, HOST, "Ann again")
    await services.lobby.join(game.id, BOB, "Bob")
    game = await services.lobby.add_computer(game.id, HOST, "hard")
    assert [s.kind for s in game.seats] == ["human", "human", "computer"]
    assert game.seats[2].level == "hard"
    assert game.seats[2].name.startswith("Bot ") and game.seats[2].name.endswith("(hard)")
    async with refused(LobbyFull, "3 players"):
        await services.lobby.join(game.id, CAROL, "Carol")
    async with refused(LobbyFull):
        await services.lobby.add_computer(game.id, HOST)


async def test_a_lobby_holds_six_at_most(services: Services, refused) -> None:
    game = await lobby(services, humans=4, computers=2)
    assert len(game.seats) == 6
    async with refused(LobbyFull, "6 players"):
        await services.lobby.join(game.id, STRANGER, "Eve")


async def test_add_computer_rules(services: Services, refused) -> None:
    game = await lobby(services, humans=2)
    async with refused(NotHost):
        await services.lobby.add_computer(game.id, BOB)
    async with refused(InvalidRequest, "easy"):
        await services.lobby.add_computer(game.id, HOST, "grandmaster")
    game = await services.lobby.add_computer(game.id, HOST, name="Dirk's cousin")
    assert game.seats[-1].name == "Dirk's cousin"


async def test_leave_hands_over_the_host_and_the_last_human_closes(
    services: Services, refused
) -> None:
    game = await lobby(services, humans=2, computers=1)
    async with refused(NotAPlayer):
        await services.lobby.leave(game.id, STRANGER)
    game = await services.lobby.leave(game.id, HOST)
    assert game.host_id == BOB and [s.user_id for s in game.seats] == [BOB, None]
    game = await services.lobby.leave(game.id, BOB)
    assert game.status == "abandoned" and game.ended_at is not None
    async with refused(NoGameHere):
        await services.lobby.game_in_channel(1)
    async with refused(GameOver):
        await services.lobby.join(game.id, CAROL, "Carol")
    await services.lobby.create_game(channel_id=1, host_id=CAROL, host_name="Carol")


async def test_start_rules(services: Services, refused) -> None:
    game = await services.lobby.create_game(channel_id=1, host_id=HOST, host_name="Ann")
    async with refused(NotEnoughPlayers):
        await services.lobby.start(game.id, HOST)
    await services.lobby.join(game.id, BOB, "Bob")
    async with refused(NotHost):
        await services.lobby.start(game.id, BOB)
    async with refused(GameNotStarted):
        await services.play.view(game.id, HOST)
    async with refused(GameNotStarted):
        await services.play.act(game.id, HOST, EndTurn(), 0)


async def test_start_maps_engine_seats_to_join_order(services: Services, refused) -> None:
    game = await lobby(services, humans=3, computers=2)
    await services.lobby.leave(game.id, CAROL)  # a gap in join order must not matter
    result = await services.lobby.start(game.id, HOST)
    game = result.game
    assert game.status == "active" and game.version == 0 and game.seed == 1000
    assert isinstance(result.events[0], GameStarted)
    assert sorted(s.seat for s in game.seats) == list(range(4))  # type: ignore[type-var]
    joined = sorted(game.seats, key=lambda s: s.join_order)
    for seat in game.seats:
        assert seat.seat is not None
        assert joined[result.public.seating[seat.seat]] == seat
    assert game.current_seat == result.public.current_seat
    assert (await state(services, game.id)).view(None) == result.public
    async with refused(GameAlreadyStarted):
        await services.lobby.join(game.id, CAROL, "Carol")
    async with refused(GameAlreadyStarted):
        await services.lobby.leave(game.id, BOB)
    async with refused(GameAlreadyStarted):
        await services.lobby.start(game.id, HOST)


# --- playing ------------------------------------------------------------------------------------


async def test_act_applies_saves_and_reports(services: Services, clock: ManualClock) -> None:
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    take = (await state(services, game.id)).legal_actions()[0]
    assert isinstance(take, TakeMoney)
    clock.advance(60)
    result = await services.play.act(game.id, player.user_id, action_to_dict(take), 0)
    assert result.version == 1 and result.game.version == 1 and not result.is_over
    assert result.events == [MoneyTaken(player.seat, take.cards)]  # type: ignore[arg-type]
    assert result.seat == player
    log = await services.play.log(game.id)
    assert [(e.seq, e.seat, e.user_id, e.action, e.at) for e in log.entries] == [
        (1, player.seat, player.user_id, take, clock.now())
    ]
    assert log.entries[0].events == result.events
    assert (await state(services, game.id)).view(None) == result.public


async def test_act_errors_write_nothing(services: Services, refused) -> None:
    game = await started(services, humans=3)
    player = game.current_player
    other = next(s for s in game.seats if s.user_id != player.user_id)  # type: ignore[union-attr]
    assert player is not None and player.user_id is not None and other.user_id is not None
    async with refused(NotAPlayer):
        await services.play.act(game.id, STRANGER, EndTurn(), 0)
    async with refused(NotYourTurn, f"It is {player.name}'s turn"):
        await services.play.act(game.id, other.user_id, EndTurn(), 0)
    async with refused(IllegalMove, "Take an action first"):
        await services.play.act(game.id, player.user_id, EndTurn(), 0)
    async with refused(IllegalMove, "money pool"):
        await services.play.act(game.id, player.user_id, TakeMoney((999,)), 0)
    async with refused(IllegalMove, "understands"):
        await services.play.act(game.id, player.user_id, {"kind": "teleport"}, 0)
    async with refused(IllegalMove, "Skipping"):
        await services.play.act(game.id, player.user_id, Skip(), 0)
    async with refused(IllegalMove, "nothing to undo"):
        await services.play.act(game.id, player.user_id, Undo(), 0)
    async with refused(Outdated):
        await services.play.act(game.id, player.user_id, EndTurn(), 5)
    async with refused(NotAPlayer, "computer"):
        await services.play.act_for_computer(game.id, player.seat, EndTurn(), 0)  # type: ignore[arg-type]


async def test_undo_and_end_turn(services: Services, clock: ManualClock) -> None:
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    hand = (await services.play.view(game.id, player.user_id)).view.hand
    take = next(a for a in (await state(services, game.id)).legal_actions() if len(a.cards) == 1)  # type: ignore[union-attr]
    await services.play.act(game.id, player.user_id, take, 0)
    undone = await services.play.act(game.id, player.user_id, Undo(), 1)
    assert isinstance(undone.events[0], Undone) and undone.version == 2
    assert (await services.play.view(game.id, player.user_id)).view.hand == hand
    await services.play.act(game.id, player.user_id, take, 2)
    clock.advance(timedelta(hours=1))
    ended = await services.play.end_turn(game.id, player.user_id, 3)
    assert any(isinstance(e, TurnStarted) for e in ended.events)
    assert ended.game.current_seat != player.seat
    assert ended.game.turn_started_at == clock.now()
    assert [e.seq for e in (await services.play.log(game.id)).entries] == [1, 2, 3, 4]


async def test_a_finished_game_is_marked_and_frees_the_channel(
    services: Services, db_target: str, refused
) -> None:
    game = await started(services, humans=1, computers=1)
    await add_timer(services, game.id, "reminder", services.clock.now())
    rng = random.Random(5)
    result = None
    while result is None or not result.is_over:
        result = await random_move(services, game.id, rng, undo=rng.random() < 0.05)
    game = result.game
    assert game.status == "finished" and game.current_seat is None and game.ended_at is not None
    assert result.is_over and result.events[-1].kind == "game_ended"
    assert await services.schedule.due_timers() == []
    async with refused(GameOver, "over"):
        await services.play.act(game.id, HOST, EndTurn(), game.version)
    async with refused(GameOver):
        await services.lobby.abandon(game.id, HOST)
    async with refused(NoGameHere):
        await services.lobby.game_in_channel(1)
    log = await services.play.log(game.id)
    assert len(log.entries) == game.version and log.setup[0].kind == "game_started"
    report = verify_database(db_target)
    assert report.ok and report.replayed == 1


async def test_computer_seats_act_through_act_for_computer(services: Services, refused) -> None:
    game = await started(services, humans=1, computers=2)
    rng = random.Random(1)
    for _ in range(40):
        result = await random_move(services, game.id, rng)
    assert result.game.version == 40
    computer_actions = [e for e in (await services.play.log(game.id)).entries if e.user_id is None]
    assert computer_actions, "the computer seats should have played too"
    human = result.game.seat_of(HOST)
    assert human is not None
    async with refused(NotAPlayer):
        await services.play.act_for_computer(game.id, human.seat, EndTurn(), 40)  # type: ignore[arg-type]


# --- running games ------------------------------------------------------------------------------


async def test_abandon_by_host_or_manager(services: Services, refused) -> None:
    game = await started(services, humans=3)
    async with refused(NotHost, "server manager"):
        await services.lobby.abandon(game.id, BOB)
    async with refused(NotHost):
        await services.lobby.abandon(game.id, STRANGER)
    await add_timer(services, game.id, "deadline", services.clock.now())
    done = await services.lobby.abandon(game.id, STRANGER, is_manager=True)
    assert done.status == "abandoned" and done.current_seat is None
    assert await services.schedule.due_timers() == []
    async with refused(GameOver, "abandoned"):
        await services.play.act(game.id, HOST, EndTurn(), 0)
    async with refused(GameOver):
        await services.lobby.abandon(game.id, HOST)
    lobby_game = await lobby(services, channel=2)
    assert (await services.lobby.abandon(lobby_game.id, HOST)).status == "abandoned"


async def test_my_games_and_games_waiting_on_a_user(services: Services, clock: ManualClock) -> None:
    first = await started(services, channel=1)
    clock.advance(10)
    second = await started(services, channel=2)
    third = await lobby(services, channel=3)
    mine = await services.people.my_games(HOST)
    assert {g.game.id for g in mine} == {first.id, second.id, third.id}
    waiting = {g.game.id for g in mine if g.waiting}
    for game in (first, second):
        player = game.current_player
        assert player is not None
        assert (game.id in waiting) == (player.user_id == HOST)
    assert [g.game.id for g in await services.people.games_waiting_on(HOST)] == [
        g.id
        for g in (first, second)
        if g.current_player.user_id == HOST  # type: ignore[union-attr]
    ]
    assert all(g.waiting for g in await services.people.games_waiting_on(BOB))
    assert await services.people.my_games(STRANGER) == []
    assert mine[0].waiting or not waiting  # waiting games come first


async def test_views_show_a_player_their_hand_and_a_spectator_nothing_hidden(
    services: Services,
) -> None:
    game = await started(services)
    player = game.current_player
    assert player is not None and player.user_id is not None
    mine = await services.play.view(game.id, player.user_id)
    full = await state(services, game.id)
    assert mine.seat == player.seat and mine.view.hand == tuple(sorted(full.hand(player.seat)))  # type: ignore[arg-type]
    assert mine.view.legal == tuple(full.legal_actions())
    other = next(s for s in game.seats if s != player)
    theirs = await services.play.view(game.id, other.user_id)
    assert theirs.view.legal == () and theirs.view.hand == tuple(sorted(full.hand(other.seat)))  # type: ignore[arg-type]
    spectator = await services.play.view(game.id, STRANGER)
    assert spectator.seat is None and spectator.view.hand == () and spectator.view.legal == ()


async def _played(services: Services, channel: int, rng: random.Random) -> GameInfo:
    game = await started(services, channel=channel)
    result = None
    while result is None or not result.is_over:
        result = await random_move(services, game.id, rng)
    return result.game


async def test_the_archive_comes_in_pages(services: Services, refused) -> None:
    rng = random.Random(11)
    latest = [(await _played(services, channel, rng)).id for channel in (1, 2, 3, 4)][::-1]
    first = await services.archive.finished_games(7, limit=2)
    assert [e.game.id for e in first.games] == latest[:2]
    assert first.more and first.offset == 0 and first.number == 1
    second = await services.archive.finished_games(7, limit=2, offset=2)
    assert [e.game.id for e in second.games] == latest[2:]
    assert not second.more and second.number == 2  # exactly two pages: no third
    mine = await services.archive.finished_games(7, user_id=BOB, limit=3, offset=3)
    assert [e.game.id for e in mine.games] == latest[3:] and not mine.more
    nothing = await services.archive.finished_games(8, limit=2)  # another server's first page
    assert nothing.games == [] and not nothing.more
    for offset in (4, 40):
        async with refused(ArchiveEnd):
            await services.archive.finished_games(7, limit=2, offset=offset)
    async with refused(ArchiveEnd):
        await services.archive.finished_games(7, user_id=STRANGER, limit=2, offset=2)
    for bad in ({"offset": 1}, {"offset": -2}, {"limit": 0}, {"user_id": 2**63}):
        async with refused(InvalidRequest):
            await services.archive.finished_games(7, **{"limit": 2, **bad})


async def test_lists_and_counts_keep_to_the_games_the_asker_may_see(
    services: Services,
) -> None:
    """The archive, a record and a head-to-head count only what a `Sight` allows: the games
    the asker sat in, and those of the server whose view channel (the game's own channel while
    it is not known) is one they can view; paging and `more` follow the filtered list."""
    rng = random.Random(13)
    plain = await _played(services, 1, rng)  # a channel; view channel not known (an old row)
    threaded = await _played(services, 2, rng)  # a public thread of channel 20
    hidden = await _played(services, 3, rng)  # a channel the asker cannot view
    await services.archive.set_view_channel(threaded.id, 20)
    await services.archive.set_view_channel(hidden.id, 3)
    away = await services.lobby.create_game(channel_id=1, host_id=HOST, host_name="Ann", guild_id=8)
    await services.lobby.join(away.id, BOB, "Bob")
    await services.lobby.start(away.id, HOST)
    while not (await random_move(services, away.id, rng)).is_over:
        pass  # played to its end in the other server

    stranger = Sight(STRANGER, 7, frozenset({1, 20, 2}))
    listed = await services.archive.finished_games(7, limit=1, sight=stranger)
    assert [e.game.id for e in listed.games] == [threaded.id] and listed.more
    older = await services.archive.finished_games(7, limit=1, offset=1, sight=stranger)
    assert [e.game.id for e in older.games] == [plain.id] and not older.more
    theirs = await services.archive.finished_games(7, user_id=HOST, limit=10, sight=stranger)
    assert [e.game.id for e in theirs.games] == [threaded.id, plain.id]
    # the thread's own id is not enough once the view channel is known
    assert (
        await services.archive.finished_games(7, sight=Sight(STRANGER, 7, frozenset({2})))
    ).games == []
    assert (
        await services.archive.finished_games(7, sight=Sight(STRANGER, 7, frozenset()))
    ).games == []
    mine = await services.archive.finished_games(
        7, sight=Sight(BOB, 7, frozenset())
    )  # sat in them all
    assert [e.game.id for e in mine.games] == [hidden.id, threaded.id, plain.id]

    assert (await services.archive.player_stats(HOST, guild_id=7, sight=stranger)).games == 2
    assert (await services.archive.player_stats(HOST, guild_id=7)).games == 3
    assert (
        await services.archive.player_stats(HOST, sight=stranger)
    ).games == 2  # not the other server's
    assert (await services.archive.player_stats(HOST, sight=Sight(HOST, 7, frozenset()))).games == 4
    assert (await services.archive.head_to_head(HOST, BOB, guild_id=7, sight=stranger)).games == 2
    assert (
        await services.archive.head_to_head(HOST, BOB, sight=Sight(BOB, 7, frozenset({1})))
    ).games == 4
    assert (
        await services.archive.head_to_head(HOST, BOB, sight=Sight(STRANGER, 8, frozenset({1})))
    ).games == 1


async def test_a_replay_shows_the_asker_their_own_hand_only(services: Services) -> None:
    game = await _played(services, 1, random.Random(12))
    assert game.seed is not None
    state = new_game(len(game.seats), game.seed)
    dealt, after = state.copy(), []
    async with services.store.read() as tx:
        rows = await tx.actions(game.id)
    for row in rows:
        if any(isinstance(e, TurnEnded) for e in state.apply(action_from_dict(row.action))):
            after.append(state.copy())
    steps = [dealt, *after]
    for step in (0, 1, len(steps) // 2):
        hands = {}
        for user in (HOST, BOB):
            shown = await services.archive.replay(game.id, step, user_id=user)
            seat = game.seat_of(user)
            assert seat is not None and shown.seat == seat.seat
            assert shown.own is not None and shown.own.seat == seat.seat
            assert shown.own.hand == steps[step].view(seat.seat).hand
            assert shown.view.hand == ()  # the public view stays public
            hands[user] = shown.own.hand
        watched = await services.archive.replay(game.id, step, user_id=STRANGER)
        assert watched.seat is None and watched.own is None and watched.view.hand == ()
        anyone = await services.archive.replay(game.id, step)
        assert anyone.own is None
        if step == 0:
            assert hands[HOST] != hands[BOB]  # dealt differently: the test can tell them


async def test_timers_due(services: Services, clock: ManualClock, refused) -> None:
    game = await started(services)
    start = clock.now()
    soon = await add_timer(services, game.id, "reminder", start + timedelta(minutes=5), seat=0)
    later = await add_timer(services, game.id, "deadline", start + timedelta(hours=1))
    assert await services.schedule.due_timers() == []
    assert await services.schedule.next_timer_due() == start + timedelta(minutes=5)
    clock.advance(timedelta(minutes=5))
    assert [t.id for t in await services.schedule.due_timers()] == [soon]
    clock.advance(timedelta(hours=2))
    due = await services.schedule.due_timers()
    assert [(t.id, t.kind, t.game_id) for t in due] == [
        (soon, "reminder", game.id),
        (later, "deadline", game.id),
    ]
    assert due[1].version == 0 and due[0].seat == 0
    assert await services.schedule.delete_timer(soon) and not await services.schedule.delete_timer(
        soon
    )
    assert [t.id for t in await services.schedule.due_timers()] == [later]
    lobby_game = await lobby(services, channel=2)  # a game that is not running keeps no timers
    assert await services.schedule.set_turn_timers(lobby_game.id, [("reminder", start, 0)]) == []


async def test_user_settings(services: Services, refused) -> None:
    people = services.people
    assert (await people.preferences(HOST)).language is None
    changed = await people.update_preferences(HOST, {"language": "pt-BR"})
    assert (changed.language, changed.dms) == ("pt-BR", True)
    assert await people.preferences(HOST) == changed
    again = await people.update_preferences(HOST, {"dms": False})
    assert (again.language, again.dms) == ("pt-BR", False)
    async with refused(InvalidRequest, "language code"):
        await people.update_preferences(HOST, {"language": "Klingon!"})
    assert (await people.update_preferences(HOST, {"language": "discord"})).language is None
    assert (await people.preferences(HOST)).auto_end_turn is True
    confirm = await people.update_preferences(HOST, {"auto_end_turn": False})
    assert confirm.auto_end_turn is False and confirm.dms is False
    assert await people.preferences(HOST) == confirm


async def test_act_as_current_on_a_game_that_moved_on_is_outdated(
    services: Services, refused
) -> None:
    game = await started(services)
    rng = random.Random(9)
    await random_move(services, game.id, rng)
    async with refused(Outdated):
        await act_as_current(services, game, Undo())  # `game` is the stale version 0


async def test_remembered_messages_and_meta(services: Services) -> None:
    game = await services.lobby.create_game(channel_id=1, host_id=HOST, host_name="Ann")
    assert await services.people.message_ref(game.id, "lobby") is None
    await services.people.remember_message(game.id, "lobby", 1, 100)
    await services.people.remember_message(
        game.id, "lobby", 1, 101
    )  # a newer lobby message replaces it
    assert await services.people.message_ref(game.id, "lobby") == (1, 101)
    await services.people.forget_message(game.id, "lobby")
    assert await services.people.message_ref(game.id, "lobby") is None
    with pytest.raises(NoGameHere):
        await services.people.remember_message(999, "lobby", 1, 5)

    assert await services.people.meta("commands:global") is None
    await services.people.set_meta("commands:global", "hash-1")
    await services.people.set_meta("commands:global", "hash-2")
    assert await services.people.meta("commands:global") == "hash-2"


async def test_a_lobby_is_created_with_its_deadline_rules_in_one_go(services: Services) -> None:

    rules = DeadlineRules(turn_deadline_s=48 * 3600, policy="skip", missed_limit=2)
    game = await services.lobby.create_game(
        channel_id=7, host_id=HOST, host_name="Ann", deadline_rules=rules
    )
    assert game.turn_deadline_s == 48 * 3600
    assert await services.schedule.deadline_rules(game.id) == rules
    with pytest.raises(InvalidRequest):  # refused before anything is written
        await services.lobby.create_game(
            channel_id=8,
            host_id=HOST,
            host_name="Ann",
            deadline_rules=DeadlineRules(turn_deadline_s=-5),
        )
    with pytest.raises(NoGameHere):
        await services.lobby.game_in_channel(8)
