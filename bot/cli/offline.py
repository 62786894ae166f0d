"""`python -m bot play`: a game of Alhambra in the terminal, no Discord needed.

It is the bot without Discord, not a second game: the lobby, every move and the computer
players go through the same services and SQLite store as the bot (a temporary database
unless `--db` is given, in which case an unfinished game there is resumed), every move goes
through the same turn flow (`bot/turns/flow.py`, with the terminal as its announcer), the menus
are the bot's private panel (`bot/text/menus.py`) numbered instead of clicked, and the words come
from the same catalogue (`bot/text/present.py`, `bot/text/i18n.py`). So what a newcomer tries
here is exactly what their Discord server will run.

The driver is synchronous on purpose: input is read outside the event loop (an `asyncio.Runner`
runs each service call), so Ctrl-C at a prompt interrupts at once and Ctrl-D ends the game
cleanly; the game is saved after every move anyway.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO, TypeVar

import render
from engine import CARDS, TILES, Currency, GameStarted, SeatView, Undone
from engine.ai import LEVELS

from ..core.errors import DatabaseError, ServiceError
from ..core.records import GameInfo, SeatInfo
from ..core.results import ActResult
from ..core.services import MAX_PLAYERS, MIN_PLAYERS, Services, clean_name
from ..core.store import Store
from ..text import i18n
from ..text.menus import Choice, PanelSpec, build_panel, default_focus, panel_picture
from ..text.present import (
    action_label,
    building_name,
    cards_text,
    currency_name,
    error_text,
    player_name,
    player_names,
    results_lines,
    start_lines,
    step_line,
    turn_lines,
)
from ..turns.flow import TurnFlow
from ..turns.telling import Telling

#: Offline games live in a channel of their own, so `--db` can point at the bot's database.
OFFLINE_CHANNEL = 0
#: People at the keyboard are users 1, 2, ...: offline games never meet Discord ids.
FIRST_USER = 1
DEFAULT_NAME = "You"
QUIT_WORDS = frozenset({"q", "quit", "exit"})

R = TypeVar("R")


class Runs(Protocol):
    """Runs a coroutine to its end from synchronous code (an `asyncio.Runner`'s `run`)."""

    def __call__(self, coro: Coroutine[Any, Any, R], /) -> R: ...


class Quit(Exception):
    """The player closed the input (Ctrl-D) or typed q: stop, the game so far is saved."""


@dataclass(frozen=True)
class SeatPlan:
    """One place at the table before the game exists: a person (level None) or a computer."""

    name: str | None
    level: str | None = None


class Console:
    """Numbered menus over two text streams, refusing bad input until a choice is valid."""

    def __init__(self, stdin: TextIO, stdout: TextIO, locale: str = i18n.DEFAULT) -> None:
        self.stdin, self.stdout = stdin, stdout
        self.locale = locale

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input; Quit at end of input or on q/quit/exit."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            raise Quit()
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            raise Quit()
        return text

    def choose(self, title: str, options: Sequence[str]) -> int:
        """The index of the option picked by number; the prompt repeats until one is."""
        if not options:
            raise ValueError("a menu needs at least one option")
        count = len(options)

        def show() -> None:
            self.say(title)
            for number, label in enumerate(options, start=1):
                self.say(f"  {number:>2}. {label}")

        show()
        loc = self.locale
        while True:
            raw = self.ask(i18n.t(loc, "offline.choice_prompt", count=str(count)))
            if raw == "?":
                show()
                continue
            if not raw:
                self.say(i18n.t(loc, "offline.choice_empty", count=str(count)))
                continue
            try:
                number = int(raw)
            except ValueError:
                self.say(i18n.t(loc, "offline.choice_nan", raw=raw, count=str(count)))
                continue
            if not 1 <= number <= count:
                self.say(i18n.t(loc, "offline.choice_range", number=str(number), count=str(count)))
                continue
            return number - 1


# --- setting the table up ------------------------------------------------------------------------


def plan_from_args(args: argparse.Namespace) -> list[SeatPlan] | None:
    """The seats the command line asks for, or None to ask at the keyboard."""
    if args.computers is None and args.levels is None and args.humans is None:
        return None
    loc = args.lang
    humans = [n.strip() for n in (args.humans or "").split(",") if n.strip()] or [args.name]
    levels = [lv.strip() for lv in (args.levels or "normal").split(",") if lv.strip()]
    for level in levels:
        if level not in LEVELS:
            raise ValueError(
                i18n.t(loc, "offline.error_level", level=level, levels=i18n.join(loc, LEVELS))
            )
    if args.computers is None:
        computers = len(levels) if args.levels else (1 if len(humans) == 1 else 0)
    else:
        computers = args.computers
    if len({name.casefold() for name in humans}) < len(humans):
        raise ValueError(i18n.t(loc, "offline.error_names"))
    total = len(humans) + computers
    if not MIN_PLAYERS <= total <= MAX_PLAYERS:
        raise ValueError(
            i18n.t(
                loc,
                "offline.error_count",
                min=MIN_PLAYERS,
                max=MAX_PLAYERS,
                humans=len(humans),
                computers=computers,
                total=total,
            )
        )
    plans = [SeatPlan(name) for name in humans]
    plans += [SeatPlan(None, levels[k % len(levels)]) for k in range(computers)]
    return plans


def plan_at_keyboard(console: Console, locale: str, name: str) -> list[SeatPlan]:
    """The same choices as the flags, as menus, for someone who just typed `python -m bot play`."""
    t = i18n.t
    sizes = list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    count = sizes[
        console.choose(
            t(locale, "offline.setup_count"),
            [t(locale, "offline.setup_players", n=n) for n in sizes],
        )
    ]
    kinds = [
        t(locale, "offline.setup_computer", level=t(locale, f"choice.level.{level}"), code=level)
        for level in LEVELS
    ] + [t(locale, "offline.setup_person")]
    plans = [SeatPlan(name)]
    for number in range(2, count + 1):
        pick = console.choose(t(locale, "offline.setup_who", n=number), kinds)
        if pick < len(LEVELS):
            plans.append(SeatPlan(None, list(LEVELS)[pick]))
            continue
        default = t(locale, "offline.player", n=number)
        while True:
            typed = console.ask(t(locale, "offline.setup_name", n=number, default=default))
            try:
                plans.append(SeatPlan(clean_name(typed or default)))
                break
            except ServiceError as exc:
                console.say(exc.message)
    return plans


# --- the game ---------------------------------------------------------------------------------


def menu_entries(spec: PanelSpec) -> list[tuple[str, str]]:
    """The panel as one numbered list: the choices first, then the buttons (back, undo...).

    The "other building to place" menu comes after the choices, without the building already
    shown, so choice 1 always decides something."""
    first: list[tuple[str, str]] = []
    later: list[tuple[str, str]] = []
    shown = "f" + spec.focus.partition("~")[0]
    for menu_id, hint, options in spec.menus:
        for option in options:
            if menu_id == "pick" and option.value == shown:
                continue
            label = option.label
            if option.description:
                label += f" ({option.description})"
            if menu_id == "pick":
                later.append((f"{hint}: {label}", option.value))
            else:
                first.append((label, option.value))
    return first + later + [(label, value) for label, value, _ in spec.buttons]


class ConsoleAnnouncer:
    """The table is the terminal: a finished turn is told as indented lines (the steps already
    echoed as they were made are not repeated)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        #: steps of the current turn already shown as they happened
        self.echoed = 0

    async def turn_over(self, result: ActResult, telling: Telling, locale: str) -> None:
        steps = result.turn_events[self.echoed :]
        self.echoed = 0
        names = player_names(locale, result.game)
        for line in turn_lines(locale, names, steps, result.end_events):
            self.console.say(f"  {line}")
        return None  # no message stays on show: nothing to retire

    async def notice(
        self, game: GameInfo, locale: str, key: str, *, mention: int | None = None, **params: object
    ) -> None:
        self.console.say(i18n.t(locale, key, **params))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "player"


class OfflineGame:
    """One terminal session: sets the table up (or resumes it), then plays until the end."""

    def __init__(
        self,
        services: Services,
        run: Runs,
        console: Console,
        *,
        locale: str,
        out_dir: Path,
    ) -> None:
        self.services = services
        self._run = run
        self.console = console
        self.announcer = ConsoleAnnouncer(console)
        self.flow = TurnFlow(services, self.announcer)
        self.locale = locale
        self.labels = i18n.image_labels(locale)  # the pictures' words, in the game's language
        self.out_dir = out_dir
        self._last_human: int | None = None
        self._computer_playing: int | None = None  # the seat whose "is playing" was said

    def wait(self, coro: Coroutine[Any, Any, R]) -> R:
        return self._run(coro)

    def t(self, key: str, **params: Any) -> str:
        return i18n.t(self.locale, key, **params)

    # --- set-up --------------------------------------------------------------------------------

    def resume(self) -> GameInfo | None:
        """The unfinished offline game of this database, if any (a lobby left by a crash at
        set-up is closed instead: its players are not known any more)."""
        try:
            game = self.wait(self.services.lobby.game_in_channel(OFFLINE_CHANNEL))
        except ServiceError:
            return None
        if game.status == "lobby":
            self.wait(self.services.lobby.abandon(game.id, game.host_id))
            return None
        return game

    def abandon_open(self) -> None:
        game = self.resume()
        if game is not None:
            self.wait(self.services.lobby.abandon(game.id, game.host_id))
            self.console.say(self.t("offline.abandoned_open", id=game.id))

    def create(self, plans: Sequence[SeatPlan], options: dict[str, Any]) -> GameInfo:
        humans = [p for p in plans if p.level is None]
        host = FIRST_USER
        game = self.wait(
            self.services.lobby.create_game(
                channel_id=OFFLINE_CHANNEL,
                host_id=host,
                host_name=humans[0].name or self.t("offline.you"),
                options=options,
                max_players=len(plans),
            )
        )
        for offset, plan in enumerate(humans[1:], start=1):
            name = plan.name or self.t("offline.player", n=offset + 1)
            self.wait(self.services.lobby.join(game.id, host + offset, name))
        for plan in plans:
            if plan.level is not None:
                self.wait(self.services.lobby.add_computer(game.id, host, plan.level))
        started = self.wait(self.services.lobby.start(game.id, host))
        return started.game

    # --- playing -------------------------------------------------------------------------------

    def play(self, game: GameInfo) -> int:
        """Play to the end; 0 when the game finished."""
        setup = self.wait(self.services.play.log(game.id)).setup
        started = next(e for e in setup if isinstance(e, GameStarted))
        for line in start_lines(self.locale, player_names(self.locale, game), started):
            self.console.say(line)
        self.console.say(self.t("offline.pictures", path=self.out_dir))
        while True:
            game = self.wait(self.services.lobby.game(game.id))
            if game.status != "active" or game.current_seat is None:
                break
            current = game.at_seat(game.current_seat)
            assert current is not None
            if current.is_computer:
                self._computer_step(game, current)
            else:
                self._human_turn(game, current)
        self._finish(game)
        return 0

    def _humans(self, game: GameInfo) -> list[SeatInfo]:
        return sorted(
            (s for s in game.seats if not s.is_computer and s.seat is not None),
            key=lambda s: s.seat or 0,
        )

    def _computer_step(self, game: GameInfo, current: SeatInfo) -> None:
        if self._computer_playing != current.seat:
            self.console.say(self.t("turn.computer", name=player_name(self.locale, current)))
            self._computer_playing = current.seat
        self.announcer.echoed = 0
        step = self.wait(self.flow.computer_step(game.id, self.locale))
        if step is not None and step.turn_over:
            self._computer_playing = None

    def _human_turn(self, game: GameInfo, current: SeatInfo) -> None:
        assert current.user_id is not None and current.seat is not None
        user = current.user_id
        if len(self._humans(game)) > 1 and self._last_human != user:
            self.console.ask(self.t("offline.pass_keyboard", name=current.name))
        self._last_human = user
        if self.wait(self.flow.finish_automatic_turn(game.id, self.locale)) is not None:
            return  # resumed after a stop between a move and its automatic end of turn
        viewed = self.wait(self.services.play.view(game.id, user))
        view = viewed.view
        names = player_names(self.locale, game)
        self._show_turn(game, view, current, names)
        focus = default_focus(view)
        self.announcer.echoed = 0
        while True:
            spec = build_panel(view, self.locale, focus)
            entries = menu_entries(spec)
            title = spec.text
            picture = panel_picture(view, spec, current.name, self.locale)
            if picture is not None:
                path = self._write("choices.png", picture)
                title += "\n" + self.t("offline.codes_marked", path=path)
            index = self.console.choose(title, [label for label, _ in entries])
            choice = Choice.parse(entries[index][1])
            assert choice is not None  # the menus only hold choices
            if choice.focus is not None:
                focus = choice.focus
                continue
            assert choice.index is not None
            action = view.legal[choice.index]
            try:
                result = self.wait(
                    self.flow.act(game.id, user, action, game.version, locale=self.locale)
                )
            except ServiceError as exc:  # cannot happen from a fresh menu, but never crash
                self.console.say(error_text(exc, self.locale))
                return
            if result.turn_over:  # told by the announcer
                return
            game = result.game
            view = result.own
            for event in result.events:
                if isinstance(event, Undone):  # labelled on the view after it, as it was before
                    label = action_label(self.locale, event.action, view)
                    self.console.say("  " + self.t("reply.undone", action=label))
                elif line := step_line(self.locale, event, names):
                    self.console.say(f"  {line}")
            self.announcer.echoed = len(result.turn_events)
            focus = default_focus(view)

    # --- what the player sees ------------------------------------------------------------------

    def _write(self, filename: str, png: bytes) -> Path:
        path = self.out_dir / filename
        path.write_bytes(png)
        return path

    def _pictures(self, game: GameInfo, view: SeatView, names: list[str]) -> list[Path]:
        """The table and each person's Alhambra, rewritten in place so an open viewer updates."""
        table = render.render_table(view, names, labels=self.labels)
        paths = [self._write("table.png", table)]
        for seat in self._humans(game):
            assert seat.seat is not None
            png = render.render_alhambra(view, seat.seat, name=seat.name, labels=self.labels)
            paths.append(self._write(f"alhambra-{seat.seat + 1}-{_slug(seat.name)}.png", png))
        return paths

    def _show_turn(
        self, game: GameInfo, view: SeatView, current: SeatInfo, names: list[str]
    ) -> None:
        say, t, loc = self.console.say, self.t, self.locale
        assert current.seat is not None
        say()
        say("=" * 72)
        say(t("game.turn_title", turn=view.turn_number, name=names[current.seat]))
        if view.final_placement:
            say(t("turn.final", mention=names[current.seat]))
        scores = i18n.join(
            loc, (t("status.score", name=names[p.seat], score=p.score) for p in view.table)
        )
        say(t("offline.scores", scores=scores))
        market = []
        for slot, tile in enumerate(view.market):
            currency = i18n.t(loc, f"currency.{Currency(slot).label}")
            market.append(f"{currency}: {building_name(loc, tile) if tile is not None else '-'}")
        say(t("offline.market", slots=" | ".join(market)))
        say(t("offline.pool", cards=cards_text(loc, view.pool) or "-"))
        if view.dirk is not None:
            say(t("offline.dirk", count=len(view.dirk)))
        say(t("offline.supply", count=view.supply_size))
        me = view.table[current.seat]
        total = {
            c: sum(CARDS[k].value for k in view.hand if CARDS[k].currency == c) for c in range(4)
        }
        worth = i18n.join(
            loc,
            (
                i18n.t(loc, "card.name", currency=currency_name(loc, c), value=v)
                for c, v in total.items()
                if v
            ),
        )
        hand = cards_text(loc, view.hand)
        hand = t("offline.hand_totals", cards=hand, totals=worth) if hand else "-"
        say(t("offline.hand", cards=hand))
        reserve = i18n.join(loc, (building_name(loc, tile) for tile in me.reserve))
        say(t("offline.reserve", buildings=reserve or "-"))
        cost = sum(TILES[tile].cost for _, _, tile in me.alhambra)
        say(t("offline.alhambra", count=len(me.alhambra), cost=cost, wall=me.wall))
        for path in self._pictures(game, view, names):
            say("  " + t("offline.picture", path=path))

    def _finish(self, game: GameInfo) -> None:
        if game.status != "finished":
            self.console.say(self.t("offline.abandoned", id=game.id))
            return
        viewed = self.wait(self.services.play.view(game.id, None))
        names = player_names(self.locale, game)
        self.console.say()
        self.console.say(self.t("results.title"))
        for line in results_lines(self.locale, names, viewed.view):
            self.console.say(f"  {line}")
        paths = self._pictures(game, viewed.view, names)
        scores = render.render_scores(viewed.view, names, labels=self.labels)
        paths.append(self._write("scores.png", scores))
        for path in paths:
            self.console.say("  " + self.t("offline.picture", path=path))


# --- the command -----------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    levels = ", ".join(LEVELS)
    parser.add_argument(
        "--computers",
        type=int,
        metavar="N",
        help="computer opponents (default: as many as --levels names, else 1)",
    )
    parser.add_argument(
        "--levels",
        metavar="LIST",
        help=f"their levels, comma separated, repeated as needed ({levels}; default normal)",
    )
    parser.add_argument(
        "--humans",
        metavar="NAMES",
        help="hot-seat: names of the people sharing this keyboard, comma separated",
    )
    parser.add_argument(
        "--name", help=f"your name at the table (default: {DEFAULT_NAME}, in the game's language)"
    )
    parser.add_argument(
        "--db",
        type=Path,
        help="keep the game in this SQLite file and resume an unfinished one "
        "(default: a temporary database)",
    )
    parser.add_argument("--new", action="store_true", help="with --db: abandon an unfinished game")
    parser.add_argument(
        "--out", type=Path, help="folder for the pictures (default: a new temporary folder)"
    )
    parser.add_argument("--seed", type=int, help="deal the same game again (any integer)")
    parser.add_argument(
        "--lang", default=i18n.DEFAULT, choices=i18n.SUPPORTED, help="language of the game"
    )
    parser.add_argument(
        "--holes",
        default="classic",
        choices=("classic", "strict"),
        help="holes rule: classic (no enclosed cell) or strict (no enclosed area, as on BGA)",
    )
    parser.add_argument(
        "--confirm",
        action="store_true",
        help="ask before ending each turn, so it can still be undone (the bot's setting)",
    )


def run_play(
    args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """The `play` subcommand; returns the exit status."""
    console = Console(stdin or sys.stdin, stdout or sys.stdout, args.lang)
    if args.name is None:
        args.name = i18n.t(args.lang, "offline.you")
    try:
        plan = plan_from_args(args)
    except ValueError as exc:
        print(f"play: {exc}", file=sys.stderr)
        return 2
    out_dir = args.out or Path(tempfile.mkdtemp(prefix="alhambra-play-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="alhambra-db-") as scratch:
        db = args.db or Path(scratch) / "offline.sqlite3"
        with asyncio.Runner() as runner:
            try:
                # a throwaway database need not survive a power cut: skip the fsync per move
                store = runner.run(Store.open(db, synchronous="FULL" if args.db else "NORMAL"))
            except DatabaseError as exc:
                print(f"play: {exc}", file=sys.stderr)
                return 2
            seed = args.seed
            services = Services.build(store, seed_source=None if seed is None else lambda: seed)
            session = OfflineGame(services, runner.run, console, locale=args.lang, out_dir=out_dir)
            try:
                return _session(session, console, args, plan)
            except Quit:
                if args.db:
                    console.say(i18n.t(args.lang, "offline.goodbye_saved", db=db))
                else:
                    console.say(i18n.t(args.lang, "offline.goodbye"))
                return 0
            except KeyboardInterrupt:
                console.say()
                console.say(i18n.t(args.lang, "offline.interrupted"))
                return 130
            finally:
                runner.run(store.close())


def _session(
    session: OfflineGame, console: Console, args: argparse.Namespace, plan: list[SeatPlan] | None
) -> int:
    if args.new:
        session.abandon_open()
    game = session.resume()
    if game is not None:
        console.say(i18n.t(args.lang, "offline.resuming", id=game.id, db=args.db))
    else:
        plans = plan or plan_at_keyboard(console, args.lang, args.name)
        game = session.create(plans, {"holes": args.holes})
    for seat in game.seats:  # the people here are offline users: the flag is their setting
        if seat.user_id is not None:
            session.wait(
                session.services.people.update_preferences(
                    seat.user_id, {"auto_end_turn": not args.confirm}
                )
            )
    return session.play(game)
