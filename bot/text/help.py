"""What one can do with the bot, in words: the help's topics, each with an example.

The topics are the features a new player does not find alone (the reviews met players who never
learnt of plans, replays or the review). Each example is a command as the reader's Discord shows
it: the catalogue writes it with that language's command names, and a test checks that every
command a text names exists. The Discord adapter (`discord_app.help`) posts the result; nothing
here knows Discord.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import i18n

#: The help's topics, in the order a new player meets them.
TOPICS = (
    "play",
    "plans",
    "hints",
    "follow",
    "replay",
    "review",
    "stats",
    "leaderboard",
    "settings",
)


@dataclass(frozen=True)
class HelpTopic:
    title: str
    body: str
    example: str


@dataclass(frozen=True)
class HelpText:
    title: str
    intro: str
    topics: tuple[HelpTopic, ...]
    footer: str


def help_text(locale: str) -> HelpText:
    def topic(name: str) -> HelpTopic:
        example = i18n.t(locale, f"help.{name}.example")
        return HelpTopic(
            title=i18n.t(locale, f"help.{name}.title"),
            body=i18n.t(locale, f"help.{name}.body"),
            example=i18n.t(locale, "help.example", example=example),
        )

    return HelpText(
        title=i18n.t(locale, "help.title"),
        intro=i18n.t(locale, "help.intro"),
        topics=tuple(topic(name) for name in TOPICS),
        footer=i18n.t(locale, "help.footer"),
    )


def results_pointer(locale: str, game_id: int) -> str:
    """The results' last line: where to look back at this game, and the help. The game's number
    is a code the reader types, so it keeps its Latin digits in every language."""
    return i18n.t(locale, "results.next", game=str(game_id))
