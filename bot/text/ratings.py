"""Ratings in words: a rating on its familiar scale (`core.ratings.Rating.points`, written with
the reader's digits and thousands separator), how a rated game moved each player's, a season's
leaderboard with the asker's own place, and one's rating in a record. The Discord adapter posts
them; nothing here knows Discord."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.ratings import Leaderboard, RatingChange, Standing
from . import i18n

#: the minus sign of a fall (U+2212, not a hyphen)
MINUS = "\u2212"


def figure(locale: str, points: int) -> str:
    """A rating as `locale` writes it: "1,512", "1.512", in Persian with its digits."""
    digits = i18n.number(locale, abs(points))
    parts: list[str] = []  # the (already translated) digits in threes, from the right
    while len(digits) > 3:
        parts.insert(0, digits[-3:])
        digits = digits[:-3]
    parts.insert(0, digits)
    sign = MINUS if points < 0 else ""
    return sign + i18n.t(locale, "ratings.thousands").join(parts)


def signed(locale: str, delta: int) -> str:
    """A change of rating with its sign: "+18", a minus sign (`MINUS`), "±0"."""
    if delta == 0:
        return "±" + i18n.number(locale, 0)
    return ("+" if delta > 0 else MINUS) + figure(locale, abs(delta))


def change_line(
    locale: str, season: int, names: Mapping[int, str], changes: Sequence[RatingChange]
) -> str:
    """How a rated game moved each player's rating, in the order `names` gives the players
    (a player it does not name, last, by mention)."""
    order = list(names)
    ranked = sorted(
        changes,
        key=lambda c: (order.index(c.user_id) if c.user_id in names else len(order), c.user_id),
    )
    parts = [
        i18n.t(
            locale,
            "ratings.change",
            name=names.get(c.user_id, f"<@{c.user_id}>"),
            before=figure(locale, c.before.points),
            after=figure(locale, c.after.points),
            delta=signed(locale, c.delta),
        )
        for c in ranked
    ]
    return i18n.t(locale, "ratings.results", season=season, changes=i18n.join(locale, parts))


def command(locale: str, season: int) -> str:
    """`/alhambra-history leaderboard season:N` as the reader's Discord names it (the number
    in the digits one types)."""
    return f"/alhambra-history {i18n.t(locale, 'cmd.leaderboard.name')} season:{season}"


def _line(locale: str, key: str, standing: Standing) -> str:
    return i18n.t(
        locale,
        key,
        rank=standing.rank,
        name=f"<@{standing.user_id}>",  # a reply only the asker sees: names, never a ping
        rating=figure(locale, standing.rating.points),
        count=standing.rating.games,
    )


def leaderboard_text(locale: str, board: Leaderboard, asker: int) -> str:
    """A season's leaderboard: its best players, then the asker's own place if they are not
    among them, the scale the figures are on, and where the earlier seasons are."""
    if board.season < board.current:
        title = i18n.t(
            locale, "leaderboard.title_closed", season=board.season, current=board.current
        )
    elif board.current > 1:
        title = i18n.t(locale, "leaderboard.title_season", season=board.season)
    else:
        title = i18n.t(locale, "leaderboard.title")
    lines = [f"**{title}**"]
    if not board.top:
        empty = (
            i18n.t(locale, "leaderboard.empty")
            if board.current == 1
            else i18n.t(locale, "leaderboard.empty_season", season=board.season)
        )
        lines.append(empty)
    lines += [_line(locale, "leaderboard.line", standing) for standing in board.top]
    shown = {standing.user_id for standing in board.top}
    if board.mine is not None and asker not in shown:
        lines.append(_line(locale, "leaderboard.you", board.mine))
    elif board.mine is None and board.top and board.season == board.current:
        lines.append(i18n.t(locale, "leaderboard.you_none"))
    # the fine print as Discord's small text ("-# " must open the line, before any mark)
    lines.append(f"-# {i18n.t(locale, 'leaderboard.scale')}")
    if board.current > 1:
        last = board.current - 1
        key = "leaderboard.season_before" if last == 1 else "leaderboard.seasons_before"
        lines.append(f"-# {i18n.t(locale, key, last=last, command=command(locale, last))}")
    return "\n".join(lines)


def rating_line(locale: str, season: int, standing: Standing) -> str:
    """One's rating in a server's season, as a record shows it (the leaderboard's figure)."""
    return i18n.t(
        locale,
        "stats.rating",
        season=season,
        rating=figure(locale, standing.rating.points),
        rank=standing.rank,
        of=standing.of,
    )
