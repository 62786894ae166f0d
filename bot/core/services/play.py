"""Playing a running game: the one pipeline of every move (checked against a snapshot read
outside any lock, applied by the engine, saved in ONE transaction that bumps the version only
if it is still the expected one), what each player may see, hints, plans, votes and the log."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import timedelta
from typing import Any

from engine import (
    CARDS,
    Action,
    EndTurn,
    Game,
    IllegalAction,
    SeatView,
    TurnEnded,
    TurnStarted,
    action_to_json,
)

from ...ops import metrics
from ..clock import at_ms, to_ms
from ..errors import (
    AlreadyVoted,
    GameNotOver,
    GameNotStarted,
    GameOver,
    HintsOff,
    IllegalMove,
    InvalidRequest,
    NoGameHere,
    NotAPlayer,
    NotSilent,
    NotYourTurn,
    Outdated,
    PlanRefused,
    ServiceError,
)
from ..plans import MAX_LIMIT, MAX_RULES, MIN_LIMIT, Plan, PlanChange, cheapest_of, check_new_rule
from ..records import DeadlineRules, GameInfo, SeatInfo
from ..results import ActResult, GameLog, NextTurn, TurnOver, ViewResult, VoteOutcome
from .guards import (
    SILENT_AFTER,
    Service,
    actor,
    chosen,
    need_game,
    need_level,
    over,
    parse_action,
    planner,
    rate_game,
    read_log,
    silent,
    votes_needed,
)

#: The levels a player may ask a hint of (`/alhambra hint level:`).
HINT_LEVELS: tuple[str, ...] = ("normal", "hard", "expert")
#: How long a finished turn's announcement may take before the timer dispatcher tries again.
ANNOUNCE_GRACE = timedelta(minutes=1)


class Play(Service):
    """Moves, views, hints, plans, votes and the log of a running game."""

    # --- playing ----------------------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Action | dict[str, Any],
        expected_version: int,
        *,
        hold: timedelta | None = None,
        undo_window: timedelta | None = None,
    ) -> ActResult:
        """A player's move, accepted only if it is their turn, the rules allow it and the game
        is still at `expected_version`.

        With `hold`, a move that leaves the turn waiting only for its confirmation arms an
        `end_turn` timer that long from now, in the move's own transaction: the turn then ends
        by itself even if the bot stops in between, and can be undone until it does
        (`ActResult.ends_at`). With `undo_window` (the operator's default) the player's own
        settings decide, read in the same transaction: their window, or none if they confirm
        their turns themselves; a window of zero sets `ActResult.end_now`."""
        move = chosen(parse_action(action))
        return await self._act(
            game_id, move, expected_version, user_id=user_id, hold=hold, window=undo_window
        )

    async def act_for_computer(
        self, game_id: int, seat: int, action: Action | dict[str, Any], expected_version: int
    ) -> ActResult:
        """A computer player's move (the turn flow calls this for a computer seat)."""
        move = chosen(parse_action(action))
        return await self._act(game_id, move, expected_version, seat=seat)

    async def act_for_timeout(
        self, game_id: int, seat: int, action: Action | dict[str, Any], expected_version: int
    ) -> ActResult:
        """A move made for a human seat whose turn deadline passed: a computer player's
        decision, or `Skip`. Logged without a user, so it never counts as the player's own."""
        move = parse_action(action)
        return await self._act(game_id, move, expected_version, seat=seat, stand_in=True)

    async def end_turn(self, game_id: int, user_id: int, expected_version: int) -> ActResult:
        return await self.act(game_id, user_id, EndTurn(), expected_version)

    async def _act(
        self,
        game_id: int,
        move: Action,
        expected_version: int,
        *,
        user_id: int | None = None,
        seat: int | None = None,
        stand_in: bool = False,
        hold: timedelta | None = None,
        window: timedelta | None = None,
    ) -> ActResult:
        """The one pipeline of every move: who acts is a user (`user_id`), the computer player
        of a computer `seat`, or a stand-in for the human at `seat` (`stand_in`). Counted by
        result for the operator (`ops.metrics`)."""
        started = time.perf_counter()
        try:
            result = await self._apply(
                game_id,
                move,
                expected_version,
                user_id=user_id,
                seat=seat,
                stand_in=stand_in,
                hold=hold,
                window=window,
            )
        except ServiceError as exc:
            metrics.action(exc.code, started)
            raise
        metrics.action("applied", started)
        return result

    async def _apply(
        self,
        game_id: int,
        move: Action,
        expected_version: int,
        *,
        user_id: int | None,
        seat: int | None,
        stand_in: bool,
        hold: timedelta | None,
        window: timedelta | None,
    ) -> ActResult:
        # Read, checked and saved in one transaction: a refusal writes nothing (the
        # transaction rolls back), and the version check catches nothing a lock did not.
        async with self.store.write() as tx:
            found = await tx.game_and_snapshot(game_id)
            if found is None:
                raise NoGameHere(variant="unknown")
            game, snapshot = found
            if game.status == "lobby":
                raise GameNotStarted()
            player = actor(game, user_id, seat, stand_in)
            if game.status != "active":
                raise over(game)
            if expected_version != game.version:
                raise Outdated()
            if game.current_seat != player.seat:
                current = game.current_player
                raise NotYourTurn(variant="named", name=current) if current else NotYourTurn()
            assert snapshot is not None and player.seat is not None
            state = Game.from_json(snapshot)
            waited = state.phase == "confirm"  # only then can an `end_turn` timer be armed
            steps_before = state.turn_events
            try:
                events = state.apply(move)
            except IllegalAction as exc:
                raise IllegalMove(str(exc)) from None
            now = self._now()
            started = any(isinstance(e, TurnStarted) for e in events)
            ended = any(isinstance(e, TurnEnded) for e in events)
            end_now = False
            if window is not None and user_id is not None and not ended:
                own = await tx.preferences(user_id)  # whether and how long they may undo
                if own.auto_end_turn:
                    mine = window if own.undo_window is None else timedelta(seconds=own.undo_window)
                    hold = mine if mine > timedelta(0) else None
                    end_now = hold is None and state.phase == "confirm"
            held = hold is not None and not ended and state.phase == "confirm"
            ends_at = at_ms(to_ms(now + hold)) if held and hold is not None else None
            saved = await tx.save_action(
                game_id,
                expected_version=expected_version,
                seat=player.seat,
                user_id=user_id,
                action=action_to_json(move),
                snapshot=state.to_json(),
                current_seat=state.current_seat,
                finished=state.is_over,
                turn_started=started,
                now=now,
                announce_at=now + ANNOUNCE_GRACE if ended else None,
                # any move ends a wait for the confirmation (an undo, the confirmation itself)
                unhold=waited,
                hold_until=ends_at,
            )
            if not saved:
                raise Outdated()
            if state.is_over and game.rated and state.ranks is not None:
                await rate_game(tx, game, state.ranks, now)
        # What save_action wrote, without reading it back (one round trip less per move).
        stamp = at_ms(to_ms(now))
        info = replace(
            game,
            version=expected_version + 1,
            status="finished" if state.is_over else "active",
            current_seat=None if state.is_over else state.current_seat,
            updated_at=stamp,
            ended_at=stamp if state.is_over else None,
            turn_started_at=stamp if started else game.turn_started_at,
        )
        steps = steps_before if ended else state.turn_events
        upcoming = state.current_seat if ended and not state.is_over else None
        return ActResult(
            info,
            player,
            move,
            events,
            info.version,
            state.view(None),
            state.view(player.seat),
            steps,
            ends_at,
            end_now=end_now,
            next_view=state.view(upcoming) if upcoming is not None else None,
        )

    async def told(self, result: ActResult) -> TurnOver:
        """What telling the turn `result` ended needs (`TurnOver`), read in one transaction
        (the turn flow asks it of every finished turn; a move alone does not pay for it)."""
        return await self._turn_over_of(result.game, result.seat, result.is_over, result.next_view)

    async def _turn_over_of(
        self, game: GameInfo, acted: SeatInfo, over: bool, view: SeatView | None
    ) -> TurnOver:
        """The turn message on show, the followers by DM and their languages, the next player
        (`view`: theirs) with their settings, last move, deadline rules and plan, the hints
        asked (at the end), and the log's actions when a computer player's turns or the next
        person's summary need them."""
        async with self.store.read() as tx:
            message = await tx.message(game.id, "turn")
            followers = []
            for user_id, how in await tx.followers(game.id):
                if how == "dm":
                    chosen_locale = (await tx.preferences(user_id)).language
                    followers.append((user_id, chosen_locale or await tx.discord_locale(user_id)))
            hints = await tx.hints_of_game(game.id) if over else {}
            ratings = tuple(await tx.rating_changes(game.id)) if over and game.rated else ()
            upcoming: NextTurn | None = None
            seat = None if over or view is None else view.seat
            player = game.at_seat(seat) if seat is not None else None
            if player is not None and seat is not None and view is not None:
                if player.user_id is None:
                    upcoming = NextTurn(player, view)
                else:
                    prefs = await tx.preferences(player.user_id)
                    notes = await tx.notes(player.user_id)
                    last = await tx.last_action_by(game.id, player.user_id)
                    upcoming = NextTurn(
                        player,
                        view,
                        prefs,
                        notes,
                        last[1] if last is not None else None,
                        await tx.deadline_rules(game.id) or DeadlineRules(),
                        await tx.plan(game.id, seat) is not None,
                    )
            person_next = upcoming is not None and upcoming.player.user_id is not None
            needs_log = acted.is_computer or person_next
            actions = tuple(await tx.actions(game.id)) if needs_log else None
        return TurnOver(message, tuple(followers), upcoming, hints, ratings, actions)

    async def last_turn(self, game_id: int) -> ActResult | None:
        """The game's last finished turn as its move reported it (what the channel is told),
        rebuilt from the log; None before any turn ended."""
        game_log = await self.log(game_id)
        turns = game_log.turns()
        if not turns:
            return None
        last = turns[-1]
        entry = next(e for e in game_log.entries if e.seq == last.seq)
        async with self.store.read() as tx:
            game = await need_game(tx, game_id)
            snapshot = await tx.snapshot(game_id)
        player = game.at_seat(entry.seat)
        assert snapshot is not None and player is not None
        state = Game.from_json(snapshot)
        return ActResult(
            game,
            player,
            entry.action,
            last.end,
            game.version,
            state.view(None),
            state.view(player.seat),
            tuple(last.steps),
            told=await self._turn_over_of(
                game,
                player,
                state.is_over,
                None if state.is_over else state.view(state.current_seat),
            ),
        )

    # --- what a player sees -----------------------------------------------------------------------

    async def view(self, game_id: int, user_id: int | None) -> ViewResult:
        """What a user may see: their seat's view if they play, a spectator's otherwise."""
        async with self.store.read() as tx:
            game = await need_game(tx, game_id)
            snapshot = await tx.snapshot(game_id)
        if snapshot is None:
            raise GameNotStarted()
        mine = game.seat_of(user_id) if user_id is not None else None
        seat = mine.seat if mine is not None else None
        return ViewResult(game, seat, Game.from_json(snapshot).view(seat))

    async def seat_view(self, game_id: int, seat: int) -> ViewResult:
        """The view of one seat, for the computer player sitting there (never shown to users)."""
        async with self.store.read() as tx:
            game = await need_game(tx, game_id)
            snapshot = await tx.snapshot(game_id)
        if snapshot is None:
            raise GameNotStarted()
        if game.at_seat(seat) is None:
            raise InvalidRequest(f"This game has no seat {seat}.")
        return ViewResult(game, seat, Game.from_json(snapshot).view(seat))

    async def hint_view(self, game_id: int, user_id: int, level: str = "hard") -> ViewResult:
        """The user's view if they may ask `level` for a hint now: their decision, in a running
        game that is not rated (refused otherwise, and nothing is recorded)."""
        if level not in HINT_LEVELS:
            raise InvalidRequest(variant="hint_level")
        result = await self.view(game_id, user_id)
        if result.game.rated:
            raise HintsOff()
        if result.game.status != "active":
            raise over(result.game)
        result.own_decision()
        return result

    async def record_hint(self, game_id: int, version: int, user_id: int) -> int:
        """A hint was given to `user_id` at that version of the game; returns how many they
        have asked in this game. Refused (nothing written) if they no longer sit there."""
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            mine = game.seat_of(user_id)
            if mine is None or mine.seat is None:
                raise NotAPlayer()
            if game.rated:
                raise HintsOff()
            await tx.record_hint(game_id, version, mine.seat, user_id, self._now())
            return (await tx.hints_of_game(game_id)).get(mine.seat, 0)

    async def hints_of_game(self, game_id: int) -> dict[int, int]:
        """The hints asked in a game: engine seat -> how many."""
        async with self.store.read() as tx:
            return await tx.hints_of_game(game_id)

    async def log(self, game_id: int) -> GameLog:
        """Every action with the events it produced, rebuilt by replaying from the seed."""
        return await read_log(self.store, game_id)

    async def finished_log(self, game_id: int) -> GameLog:
        """A finished game's log, for a review; a game still running (or never finished) is
        refused: a review must not coach a player during their game."""
        async with self.store.read() as tx:
            game = await need_game(tx, game_id)
        if game.status == "abandoned":
            raise GameOver(variant="abandoned")
        if game.status != "finished":
            raise GameNotOver()
        return await self.log(game_id)

    # --- plans: moves queued for one's next turn --------------------------------------------------

    async def plan(
        self, game_id: int, user_id: int, *, to_change: bool = False
    ) -> tuple[ViewResult, Plan]:
        """A seated player's own view of the game and their plan for their next turn (empty
        when they have none); `to_change`: refused, as `set_plan` is, during their turn."""
        async with self.store.read() as tx:
            game = await need_game(tx, game_id)
            me = planner(game, user_id, waiting=to_change)
            snapshot = await tx.snapshot(game_id)
            stored = await tx.plan(game_id, me)
        assert snapshot is not None
        view = ViewResult(game, me, Game.from_json(snapshot).view(me))
        return view, Plan.from_json(stored) if stored else Plan()

    async def change_plan(
        self, game_id: int, user_id: int, change: PlanChange
    ) -> tuple[ViewResult, Plan]:
        """Change the player's plan by `change` (pure: the plan as stored and their own view
        in, the new plan out; it may refuse by raising) and keep the result, read and written
        in one transaction, so two changes at once both count. Refused during their own turn,
        but for cancelling the whole plan (a standing plan is cancelled when one is back); each
        rule new to the plan is checked against their own view now (`plans.check_new_rule`:
        the rules kept from a standing plan may name cards spent since); an empty plan is
        dropped. Returns their view and the plan kept."""
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            me = planner(game, user_id)
            my_turn = game.current_seat == me
            snapshot = await tx.snapshot(game_id)
            stored = await tx.plan(game_id, me)
            assert snapshot is not None
            view = Game.from_json(snapshot).view(me)
            old = Plan.from_json(stored) if stored else Plan()
            try:
                plan = change(old, view)
            except ServiceError:
                if my_turn:
                    raise PlanRefused(variant="your_turn") from None
                raise
            if my_turn and not plan.empty:
                raise PlanRefused(variant="your_turn")
            if len(plan.rules) > MAX_RULES:
                raise PlanRefused(variant="full", count=MAX_RULES)
            for rule in plan.rules:
                if rule in old.rules:
                    continue
                if (problem := check_new_rule(rule, view)) is not None:
                    if problem == "bad_limit" and rule.kind is not None:
                        low = max(MIN_LIMIT, cheapest_of(rule.kind))
                        raise PlanRefused(variant=problem, low=low, high=MAX_LIMIT)
                    raise PlanRefused(variant=problem)
            if isinstance(plan.otherwise, tuple) and not all(
                0 <= c < len(CARDS) for c in plan.otherwise
            ):
                raise PlanRefused(variant="bad_cards")
            if plan.empty:
                await tx.take_plan(game_id, me)
            else:
                await tx.save_plan(game_id, me, user_id, plan.to_json(), game.version, self._now())
        return ViewResult(game, me, view), plan

    async def set_plan(self, game_id: int, user_id: int, plan: Plan) -> Plan:
        """Replace the player's plan by `plan`, checked as `change_plan` checks a change."""
        return (await self.change_plan(game_id, user_id, lambda _old, _view: plan))[1]

    async def has_plan(self, game_id: int, seat: int) -> bool:
        async with self.store.read() as tx:
            return await tx.plan(game_id, seat) is not None

    async def take_plan(self, game_id: int, seat: int) -> Plan | None:
        """The plan of the seat whose turn begins: taken for good if it is for one turn, kept
        if it is standing (until the player cancels it)."""
        async with self.store.write() as tx:
            stored = await tx.plan(game_id, seat)
            if stored is None:
                return None
            plan = Plan.from_json(stored)
            if not plan.standing:
                await tx.take_plan(game_id, seat)
        return plan

    # --- seats that go silent: missed deadlines, hand-overs, votes --------------------------------

    async def record_missed_deadline(self, game_id: int, seat: int) -> int:
        """Count a missed turn deadline; returns how many in a row that seat has missed (a
        move the player made themself since the last miss starts the count again)."""
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            player = game.at_seat(seat)
            if player is None or player.user_id is None:
                raise InvalidRequest(f"Seat {seat} is not a human player's.")
            previous = await tx.missed_streak(game_id, seat)
            if previous is not None and previous[1] == game.version:
                return previous[0]  # this deadline was counted already (its timer fired again)
            streak = 1
            if previous is not None:
                last = await tx.last_action_by(game_id, player.user_id)
                streak = 1 if last is not None and last[0] > previous[1] else previous[0] + 1
            await tx.set_missed_streak(game_id, seat, streak, game.version, self._now())
            return streak

    async def hand_over(self, game_id: int, seat: int, level: str = "normal") -> GameInfo:
        """A computer player takes a silent human's seat for the rest of the game (missed
        deadlines): no permission check, the bot itself decides."""
        need_level(level)
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            if game.status != "active":
                raise over(game) if not game.is_open else GameNotStarted()
            target = game.at_seat(seat)
            if target is None or target.is_computer:
                raise InvalidRequest(f"Seat {seat} is not a human player's.")
            assert target.user_id is not None
            await tx.forfeit(game_id, seat, target.user_id, "deadlines", self._now())
            await tx.replace_by_computer(game_id, target.join_order, level, self._now())
            await tx.clear_votes(game_id, seat)
            await tx.delete_timers_of(game_id, ("reminder", "deadline"))
            return await need_game(tx, game_id)

    async def vote(
        self, game_id: int, user_id: int, motion: str, target_seat: int | None = None
    ) -> VoteOutcome:
        """A player's vote to abandon the game or to hand a silent player's seat to a computer
        player. A majority of the human players (for a hand-over: of the others) decides, and
        the winning vote takes effect in the same transaction. Abandoning a rated game needs
        every human player (`votes_needed`): an abandoned game rates nobody who played on, so
        a majority of trailing players could otherwise erase the leader's result."""
        if motion not in ("abandon", "hand_over"):
            raise InvalidRequest(f"Unknown vote {motion!r}: abandon or hand_over.")
        async with self.store.write() as tx:
            game = await need_game(tx, game_id)
            if game.status == "lobby":
                raise GameNotStarted(variant="vote")
            if game.status != "active":
                raise over(game)
            voter = game.seat_of(user_id)
            if voter is None:
                raise NotAPlayer()
            humans = [s for s in game.seats if not s.is_computer]
            target: SeatInfo | None = None
            if motion == "hand_over":
                target = game.at_seat(target_seat) if isinstance(target_seat, int) else None
                if target is None or target.is_computer:
                    raise InvalidRequest(variant="not_human")
                if target.user_id == user_id:
                    raise InvalidRequest(variant="own_seat")
                if not await silent(tx, game, target, self._now()):
                    hours = int(SILENT_AFTER.total_seconds()) // 3600
                    raise NotSilent(variant="named", name=target, hours=hours)
                humans = [s for s in humans if s is not target]
            key = -1 if target is None or target.seat is None else target.seat
            electorate = {s.user_id for s in humans}
            needed = votes_needed(game, motion, len(electorate))
            if not await tx.add_vote(game_id, motion, key, user_id, self._now()):
                raise AlreadyVoted()
            votes = [v for v in await tx.voters(game_id, motion, key) if v in electorate]
            passed = len(votes) >= needed
            if passed and target is None:
                await tx.end_game(game_id, "abandoned", self._now())
                await tx.clear_votes(game_id)
                if game.rated:  # agreed on by everyone: only the seats lost before count
                    await rate_game(tx, game, None, self._now())
            elif passed and target is not None:
                assert target.seat is not None and target.user_id is not None
                await tx.forfeit(game_id, target.seat, target.user_id, "vote", self._now())
                # the game's stand-in, as when the deadlines take a seat
                rules = await tx.deadline_rules(game_id)
                level = "normal" if rules is None else rules.stand_in
                await tx.replace_by_computer(game_id, target.join_order, level, self._now())
                await tx.clear_votes(game_id, key)
                await tx.delete_timers_of(game_id, ("reminder", "deadline"))
            return VoteOutcome(
                await need_game(tx, game_id), motion, target, len(votes), needed, passed
            )
