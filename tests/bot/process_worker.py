"""One bot process's share of a multi-process test (tests/bot/test_processes.py).

`python process_worker.py MODE DB [ARGS]`, DB a SQLite file or a PostgreSQL address; every mode
waits for the file GO to exist before starting, so the processes start their race together, and
prints one JSON line with what it did.

- `race DB GO GAME ROUNDS`: for each version of ROUNDS, 50 concurrent acts of the current player
  at that version (the move the state at that version allows first).
- `timers DB GO`: fire every due timer through the real dispatcher, recording each one fired.
- `remind DB GO DMS HANG`: fire the reminders due now or soon through the real reminder handler;
  each DM is a line in the file DMS. With HANG=before the process stops answering as soon as it
  has claimed a timer, before the handler runs (the test then SIGKILLs it holding the lease).
- `serve DB GO OUT COUNT LISTEN [PATIENCE]`: the real dispatcher running as in the bot
  (`start()`, the longest sleep five minutes), LISTEN=yes hearing other processes' timers or no
  (polling only), until it fired COUNT timers (each a line `id unix-time` in OUT) or PATIENCE
  seconds (60) passed. It touches OUT.ready once its first look is over.
- `leave DB GO GAME DELAY LEASE`: write one reminder of GAME due in DELAY seconds, and one due
  now that this process claims in the same transaction for LEASE seconds; print both (with the
  due time and the lease's end, unix time) and hang there, to be SIGKILLed.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

from bot.core.errors import Outdated, ServiceError
from bot.core.records import GameInfo, TimerRow
from bot.core.services import Services
from bot.core.store import Store
from bot.turns.ports import Delivery
from bot.turns.reminders import Reminders
from bot.turns.timers import TimerDispatcher
from engine import Game, Undo

#: lease of the `remind` mode: short, so the test waits little for a dead claimant's timers
REMIND_LEASE = timedelta(seconds=2)


async def _wait_for(go: Path) -> None:
    while not go.exists():
        await asyncio.sleep(0.005)


async def race(services: Services, game_id: int, rounds: int) -> dict[str, object]:
    wins: list[int] = []
    outdated = 0
    for version in range(rounds):
        while (game := await services.lobby.game(game_id)).version < version:
            await asyncio.sleep(0.002)
        if game.version > version:
            outdated += 50  # the others were quicker: this process's clicks would all be late
            continue
        player = game.current_player
        assert player is not None and player.user_id is not None
        async with services.store.read() as tx:
            snapshot = await tx.snapshot(game_id)
        assert snapshot is not None
        move = next(a for a in Game.from_json(snapshot).legal_actions() if not isinstance(a, Undo))
        results = await asyncio.gather(
            *(services.play.act(game_id, player.user_id, move, version) for _ in range(50)),
            return_exceptions=True,
        )
        for r in results:
            if isinstance(r, Outdated):
                outdated += 1
            elif isinstance(r, BaseException):
                raise r
            else:
                wins.append(version)
    return {"wins": wins, "outdated": outdated}


async def timers(services: Services) -> dict[str, object]:
    fired: list[int] = []

    async def record(timer: TimerRow) -> None:
        fired.append(timer.id)

    dispatcher = TimerDispatcher(services, {"reminder": record})
    while await dispatcher.run_due():
        pass
    return {"fired": fired}


class FileMessenger:
    """Each DM a line in a file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    async def turn_dm(self, dm: object, turn_message: object) -> Delivery:
        return Delivery.SENT

    async def reminder(
        self, user_id: int, locale: str, games: list[tuple[GameInfo, object]]
    ) -> Delivery:
        with self.path.open("a") as out:
            out.write(f"reminder {user_id} {sorted(g.id for g, _ in games)}\n")
        await asyncio.sleep(0.3)  # a DM takes a round trip to Discord
        return Delivery.SENT

    async def nudge(self, game: GameInfo, user_id: int, locale: str, turn_message: object) -> bool:
        return True

    async def plan_report(self, *args: object) -> Delivery:
        return Delivery.SENT

    async def owner_notice(self, *args: object) -> Delivery:
        return Delivery.SENT


async def remind(services: Services, dms: Path, hang: str) -> dict[str, object]:
    reminders = Reminders(services, FileMessenger(dms), spawn=lambda c: None)

    async def handler(timer: TimerRow) -> None:
        if hang == "before":
            print(json.dumps({"claimed": timer.id}), flush=True)
            await asyncio.sleep(3600)  # killed here, holding the timer's lease
        await reminders.remind(timer)

    # one timer at a time: two processes take one reminder each, as when they come due apart
    dispatcher = TimerDispatcher(services, {"reminder": handler}, lease=REMIND_LEASE, batch=1)
    fired = 0
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # while a timer is due now or within a lease
        fired += await dispatcher.run_due()
        soonest = await services.schedule.next_timer_due()
        if soonest is None or soonest > services.clock.now() + REMIND_LEASE * 2:
            break
        await asyncio.sleep(0.1)
    return {"fired": fired}


async def serve(
    services: Services, out: Path, count: int, listen: bool, patience: float = 60
) -> dict[str, object]:
    fired: list[int] = []

    async def record(timer: TimerRow) -> None:
        fired.append(timer.id)
        with out.open("a") as lines:
            lines.write(f"{timer.id} {time.time()}\n")

    dispatcher = TimerDispatcher(services, {"reminder": record}, max_sleep=300, listen=listen)
    dispatcher.start()
    await dispatcher.started.wait()
    await asyncio.sleep(0.5)  # its first look is over: from now on it sleeps
    out.with_suffix(".ready").touch()
    deadline = time.monotonic() + patience
    while len(fired) < count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await dispatcher.stop()
    return {"fired": fired}


async def leave(services: Services, game_id: int, delay: float, lease: float) -> dict[str, object]:
    """A process that wrote two timers and dies: one not yet due, one it holds."""
    now = services.clock.now()
    owner = f"leaver:{os.getpid()}"
    async with services.store.write() as tx:
        later = await tx.insert_timer(
            game_id,
            kind="reminder",
            due_at=now + timedelta(seconds=delay),
            seat=0,
            version=0,
            now=now,
        )
        held = await tx.insert_timer(
            game_id, kind="reminder", due_at=now, seat=0, version=0, now=now
        )
        claimed = await tx.claim_timers(now, owner, now + timedelta(seconds=lease), limit=10)
    assert [t.id for t in claimed] == [held], claimed
    wrote = {
        "later": later,
        "later_due": (now + timedelta(seconds=delay)).timestamp(),
        "held": held,
        "lease_end": (now + timedelta(seconds=lease)).timestamp(),
    }
    print(json.dumps(wrote), flush=True)
    await asyncio.sleep(3600)  # killed here
    return wrote


async def main(mode: str, db: str, go: str, *args: str) -> None:
    store = await Store.open(db)
    try:
        services = Services.build(store)
        print(json.dumps({"ready": True}), flush=True)
        await _wait_for(Path(go))
        if mode == "race":
            out = await race(services, int(args[0]), int(args[1]))
        elif mode == "timers":
            out = await timers(services)
        elif mode == "remind":
            out = await remind(services, Path(args[0]), args[1])
        elif mode == "serve":
            patience = float(args[3]) if len(args) > 3 else 60.0
            out = await serve(services, Path(args[0]), int(args[1]), args[2] == "yes", patience)
        elif mode == "leave":
            out = await leave(services, int(args[0]), float(args[1]), float(args[2]))
        else:
            raise SystemExit(f"unknown mode {mode}")
        print(json.dumps(out), flush=True)
    except ServiceError as exc:
        print(json.dumps({"error": exc.code}), flush=True)
        raise
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
