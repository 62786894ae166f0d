"""Looking back at games, in words: a replay's step, a line and a menu choice of the archive, a
player's record and two players' head-to-head. The Discord adapter (`discord_app.history`)
posts them; nothing here knows Discord."""

from __future__ import annotations

from datetime import UTC, datetime

from engine import Building, GameStarted

from ..core.results import ArchivedGame, ReplayStep
from ..core.stats import HeadToHead, PlayerStats
from . import i18n
from .present import bounded, log_paragraphs, player_names, results_lines, start_lines
from .when import day


def replay_text(locale: str, step: ReplayStep) -> str:
    game = step.log.game
    names = player_names(locale, game)
    if step.step == 0:
        head = i18n.t(locale, "replay.title_start", game=game.id, steps=step.steps)
        started = next(e for e in step.log.setup if isinstance(e, GameStarted))
        body = "\n".join(start_lines(locale, names, started))
    else:
        head = i18n.t(locale, "replay.title", game=game.id, step=step.step, steps=step.steps)
        body = log_paragraphs(locale, names, step.log)[step.step - 1]
    standing = ", ".join(f"{rank}. {names[seat]} {score}" for rank, seat, score in step.ranking)
    text = f"**{head}**\n{body}\n{i18n.t(locale, 'replay.standing', standing=standing)}"
    if step.step == step.steps and step.view.is_over:  # the end: the results, as they were told
        title = i18n.t(locale, "results.title")
        text += "\n\n" + "\n".join([f"**{title}**", *results_lines(locale, names, step.view)])
    return bounded(text)


def archive_line(locale: str, entry: ArchivedGame) -> str:
    game = entry.game
    names = player_names(locale, game)
    result = ", ".join(f"{rank}. {names[seat]} {score}" for rank, seat, score in entry.ranking)
    return i18n.t(
        locale,
        "archive.line",
        game=game.id,
        when=day(locale, game.ended_at or datetime.fromtimestamp(0, UTC)),
        channel=f"<#{game.channel_id}>",
        result=result,
        moves=entry.moves,
    )


def archive_choice(locale: str, entry: ArchivedGame) -> str:
    """A game in the archive's menu: its number and who won."""
    names = player_names(locale, entry.game)
    first = ", ".join(names[seat] for rank, seat, _ in entry.ranking if rank == 1)
    return i18n.t(locale, "archive.choice", game=entry.game.id, winner=first)


def share(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def duration(locale: str, seconds: float) -> str:
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return i18n.t(locale, "stats.minutes", count=minutes)
    return i18n.t(locale, "stats.hours", hours=minutes // 60, minutes=minutes % 60)


def stats_text(locale: str, name: str, stats: PlayerStats, *, everywhere: bool) -> str:
    title = i18n.t(locale, "stats.title_everywhere" if everywhere else "stats.title", name=name)
    if not stats.games:
        return f"**{title}**\n{i18n.t(locale, 'stats.none')}"
    tables = ", ".join(
        i18n.t(locale, "stats.table", players=n, wins=wins, games=games)
        for n, (games, wins) in sorted(stats.by_players.items())
    )
    rounds = " · ".join(
        i18n.t(locale, "stats.round", round=r, points=round(average, 1))
        for r in (1, 2, 3)
        if (average := stats.average_round(r)) is not None
    )
    lines = [
        f"**{title}**",
        i18n.t(
            locale,
            "stats.games",
            games=stats.games,
            wins=stats.wins,
            share=share(stats.wins, stats.games),
        ),
        i18n.t(locale, "stats.by_players", tables=tables),
        i18n.t(
            locale, "stats.points", average=round(stats.average_points, 1), best=max(stats.points)
        ),
        i18n.t(locale, "stats.rounds", rounds=rounds),
        i18n.t(
            locale,
            "stats.play",
            wall=stats.longest_wall,
            exact=stats.exact_purchases,
            purchases=stats.purchases,
            money=stats.money_taken,
            redesigns=stats.redesigns,
        ),
    ]
    types = " · ".join(
        i18n.t(
            locale,
            "stats.type",
            building=i18n.t(locale, f"building.{b.label}"),
            points=round(stats.average_building(b), 1),
        )
        for b in Building
    )
    lines.append(i18n.t(locale, "stats.types", types=types))
    median, average = stats.median_turn_seconds, stats.average_turn_seconds
    if median is not None and average is not None:
        lines.append(
            i18n.t(
                locale,
                "stats.time",
                median=duration(locale, median),
                average=duration(locale, average),
            )
        )
    lines.append(i18n.t(locale, "stats.hints", count=stats.hints))
    return bounded("\n".join(lines))


def versus_text(locale: str, name: str, other: str, record: HeadToHead, *, everywhere: bool) -> str:
    """Two players over their finished games together: how many, who finished ahead how often
    (and the ties), and each one's average points in those games."""
    key = "stats.versus_title_everywhere" if everywhere else "stats.versus_title"
    title = f"**{i18n.t(locale, key, name=name, other=other)}**"
    if not record.games:
        return f"{title}\n{i18n.t(locale, 'stats.versus_none')}"
    lines = [
        title,
        i18n.t(locale, "stats.versus_games", count=record.games),
        i18n.t(
            locale,
            "stats.versus_ahead",
            name=name,
            other=other,
            ahead=record.ahead,
            behind=record.behind,
            ties=record.ties,
        ),
        i18n.t(
            locale,
            "stats.versus_points",
            name=name,
            other=other,
            average=round(record.average_points, 1),
            other_average=round(record.other_average_points, 1),
        ),
    ]
    return bounded("\n".join(lines))
