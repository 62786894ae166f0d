"""What one game costs the people at the table: channel posts, clicks per kind of turn, DMs.

Plays one complete 3-player game through the real bot and discord.py against the local fake
Discord: two people (ana and bruno, who decide like the `easy` computer player and act only with
the turn message's buttons and their private panel) and one computer seat (`normal`). Time runs
on a manual clock, a few hours between turns as in a real asynchronous game, so turn DMs and
reminders are sent as they would be. Prints:

- posts where the game is played (its own thread, the default) and in the channel itself,
  split into turn messages (and how many of them address a computer seat), scoring/results posts
  and the rest (lobby);
- per kind of a person's turn: act interactions (the clicks and menu picks that play it) and
  look interactions (a "Show my hand" click, needed when the panel that opens the turn does not
  show the player's money);
- DMs and channel pings per person (a turn notifies each person once, by DM by default).

    python bench/chat_game.py [--seed 20240601] [--lang en-US] [--pictures DIR]

`--pictures DIR` also keeps every picture the game showed anyone (the thread's, the DMs', the
private panels'), each beside a copy at the size Discord first shows it on a phone
(`NAME.phone.png`), to look at what players see.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# bench/ must not shadow the packages it measures (bench/render.py vs render).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from fake_discord import FakeDiscord, pointed_at, running_bot  # noqa: E402
from players import Table, play_by_buttons  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.core.clock import ManualClock  # noqa: E402
from bot.discord_app.client import AlhambraBot  # noqa: E402
from engine import EndTurn  # noqa: E402

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def turn_kind(kinds: list[str], final: bool) -> str:
    if final:
        return "final placement"
    if any(k in kinds for k in ("RemoveToReserve", "PlaceFromReserve", "Swap")):
        return "redesign"
    if "Buy" in kinds and (kinds.count("Buy") > 1 or "TakeMoney" in kinds):
        return "buy with exact payment, then more"
    if "TakeMoney" in kinds:
        return "take money"
    return "buy + place"


def shows_money(panel: Any) -> bool:
    """Whether the panel that opens a turn showed the player's own money when it opened (it is
    redrawn after each decision, so its first version is the one read)."""
    if panel is None:
        return False
    first = panel.history[0].get("content") if panel.history else panel.content
    return "💰" in (first or "")


async def settle(bot: Any) -> None:
    await bot.timers.started.wait()
    await bot.timers.run_due()
    await bot.calm()


async def play(seed: int, lang: str, pictures: Path | None = None) -> None:
    sim = FakeDiscord()
    await sim.start()
    clock = ManualClock(T0)
    with tempfile.TemporaryDirectory() as tmp, pointed_at(sim):
        db_path = Path(tmp) / "bench.sqlite3"
        settings = Settings(None, str(db_path), None, "WARNING")
        ana, bruno = sim.user("ana", locale=lang), sim.user("bruno", locale=lang)
        guild = sim.guild("Club", owner=ana, locale=lang)
        sim.member(guild, bruno)
        channel = sim.channel(guild, "alhambra")

        def factory() -> AlhambraBot:
            return AlhambraBot(settings, seed_source=lambda: seed, clock=clock)

        async with running_bot(sim, factory) as bot:
            created = await sim.slash(ana, "alhambra new", channel=channel)
            opened = created.response
            assert opened is not None
            if not opened.buttons():  # an opening line: the lobby is in the thread it opens
                await created.wait_followups(1)
            home = getattr(opened, "thread", None) or channel  # the game's own thread, if any
            lobby = sim.channel_messages(home)[0] if home is not channel else opened
            await sim.click(bruno, lobby, "Join")
            await sim.slash(ana, "alhambra add-bot", channel=home, level="normal")
            started = await sim.click(ana, lobby, "Start")
            await started.wait_followups(1)
            await bot.calm()
            table = Table(sim, home, db_path, {ana.id: ana, bruno.id: bruno}, seed=seed)
            table.locale = "en" if lang.startswith("en") else lang
            acts: dict[str, list[int]] = defaultdict(list)
            looks: dict[str, list[int]] = defaultdict(list)
            current: tuple[int, int] | None = None  # (seat, turn number) of the person's turn
            clicks_before, kinds, final, looked = 0, [], False, 0
            while True:
                await bot.calm()
                _, game, seats = table.state()
                turn_id = (game.current_seat, game.turn_number) if not game.is_over else None
                if current is not None and turn_id != current:  # a person's turn ended
                    kind = turn_kind(kinds, final)
                    acts[kind].append(table.interactions - clicks_before)
                    looks[kind].append(looked)
                    current = None
                if game.is_over:
                    break
                seat = game.current_seat
                assert seat is not None
                user = table.users.get(seats.get(seat))  # type: ignore[arg-type]
                if user is None:  # the computer plays by itself
                    await settle(bot)
                    continue
                if current is None:  # a person's turn begins some hours later
                    clock.advance(timedelta(hours=3))
                    await settle(bot)
                    current, clicks_before, kinds = turn_id, table.interactions, []
                    final = game.is_final_placement
                    seen = len(sim.ephemeral_to(user))
                action = table.choose(game)
                if game.phase == "confirm" and not isinstance(action, EndTurn):
                    action = EndTurn()
                if game.phase == "confirm":  # a confirmation window: let it pass
                    clock.advance(timedelta(minutes=1))
                    await settle(bot)
                    if table.state()[1].to_json() != game.to_json():
                        continue
                await play_by_buttons(table, action, user, game)
                if not kinds:  # the panel that opened the turn
                    looked = 0 if shows_money(sim.ephemeral_to(user)[seen]) else 1
                kinds.append(type(action).__name__)
                table.count(action)
            await bot.idle()
            posts = sim.channel_messages(home)
            parent = len(sim.channel_messages(channel)) if home is not channel else 0
            dms = {u.name: len(sim.dms(u)) for u in (ana, bruno)}
            pings = {u.name: sum(u.id in m.pinged() for m in posts) for u in (ana, bruno)}
            _, game, seats = table.state()
            if pictures is not None:
                seen = [("thread", m) for m in posts]
                for u in (ana, bruno):
                    seen += [(f"dm-{u.name}", m) for m in sim.dms(u)]
                    seen += [(f"panel-{u.name}", m) for m in sim.ephemeral_to(u)]
                keep_pictures(pictures, seen)
    await sim.stop()
    turn_posts = [m for m in posts if _was_turn_message(m)]
    # a turn message that names no person is addressed to the computer seat
    computer = [m for m in turn_posts if not any(f"<@{u.id}>" in m.content for u in (ana, bruno))]
    print(f"one game, seed {seed}, {lang}: {game.turn_number} turns, final {game.scores}")
    where = "the game's thread" if parent else "the channel"
    print(
        f"posts in {where}: {len(posts)} (turn messages {len(turn_posts)}, "
        f"addressed to the computer seat {len(computer)}, other {len(posts) - len(turn_posts)})"
    )
    if parent:
        print(f"posts in the channel itself: {parent}")
    print(f"DMs per person: {dms}; channel pings per person: {pings}")
    header = f"{'kind of turn (a person)':<36} {'turns':>5} {'act':>5} {'look':>5}"
    print(header)
    print("-" * len(header))
    for kind in sorted(acts, key=lambda k: -len(acts[k])):
        # the final placement spends no money: no look at the hand is needed there
        look = "-" if kind == "final placement" else f"{statistics.mean(looks[kind]):.1f}"
        print(f"{kind:<36} {len(acts[kind]):>5} {statistics.mean(acts[kind]):>5.1f} {look:>5}")


def keep_pictures(folder: Path, messages: list[tuple[str, Any]]) -> None:
    """Write each message's pictures as they last looked, and a phone-sized copy of each."""
    from render.canvas import to_png
    from render.display import preview

    folder.mkdir(parents=True, exist_ok=True)
    n = 0
    for where, message in messages:
        for attachment in message.attachments:
            n += 1
            stem = f"{n:04d}-{where}-{Path(attachment.filename).stem}"
            (folder / f"{stem}.png").write_bytes(attachment.data)
            shown = "embed" if message.embeds else "attachment"
            small = preview(attachment.image(), shown, "phone")
            (folder / f"{stem}.phone.png").write_bytes(to_png(small))
    print(f"{n} pictures in {folder}")


def _was_turn_message(message: Any) -> bool:
    """A turn message (its buttons may have been taken off since)."""
    versions = [message.components, *(h.get("components") or [] for h in message.history)]
    return any("alh:t:" in repr(components) for components in versions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--lang", default="en-US")
    parser.add_argument("--pictures", type=Path, default=None, help="keep every picture here")
    args = parser.parse_args()
    asyncio.run(play(args.seed, args.lang, args.pictures))


if __name__ == "__main__":
    main()
