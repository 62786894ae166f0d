"""The errors a user can cause, each a distinct class carrying what is needed to tell them.

The bot's single error handler turns any `ServiceError` into an ephemeral reply in the user's
language (`text.present.error_text`): the catalogue's words for its `key`, filled with its
`params`. `code` is a stable name for the catalogue (`error.<code>`), the logs and tests; a
refusal worded in more than one way names its `variant` (`error.<code>.<variant>`). The English
here (`default`, `variants`) is the same refusal for logs and the service's tests, with the
same placeholders as the catalogue's (a test checks). Raising one inside a store transaction
rolls it back, which is how "a rejected request writes nothing" is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .records import SeatInfo


class ServiceError(Exception):
    """A request refused for a reason the user can understand and fix.

    Raised with the parameters of its words (`NotYourTurn(variant="named", name=seat)`: a
    player is passed as their `SeatInfo`, and each reader sees their name in their language),
    or with a `message` of the raiser's own: one already in the user's language, or a detail
    in English that the catalogue has no words for (`worded`).
    """

    code: ClassVar[str] = "error"
    default: ClassVar[str] = "That did not work."
    #: the other wordings of this refusal, by name, each `error.<code>.<name>` in the catalogue
    #: (a subclass has its own code, so it does not inherit them)
    variants: ClassVar[Mapping[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "variants" not in cls.__dict__:
            cls.variants = {}

    def __init__(
        self, message: str | None = None, /, *, variant: str | None = None, **params: object
    ) -> None:
        if variant is not None and variant not in self.variants:
            raise ValueError(f"{type(self).__name__} has no variant {variant!r}")
        self.variant = variant
        self.params: dict[str, object] = params
        #: the raiser's own words (kept as they are) rather than the catalogue's
        self.worded = isinstance(message, str) and bool(message.strip())
        template = self.variants[variant] if variant is not None else self.default
        self.message = message if self.worded and message is not None else _fill(template, params)
        super().__init__(self.message)

    @property
    def key(self) -> str:
        """The catalogue key of this refusal's words."""
        return f"error.{self.code}" + (f".{self.variant}" if self.variant else "")


def _fill(template: str, params: Mapping[str, object]) -> str:
    plain: dict[str, Any] = {
        name: value.name if isinstance(value, SeatInfo) else value for name, value in params.items()
    }
    try:
        return template.format(**plain)
    except (KeyError, IndexError, ValueError):
        return template


class NoGameHere(ServiceError):
    code = "no_game_here"
    default = "There is no Alhambra game in this channel. Open one with /alhambra new."
    variants = {"unknown": "There is no such game."}


class GameAlreadyRunning(ServiceError):
    code = "game_already_running"
    default = "There is already a game in this channel: finish or abandon it first."
    variants = {
        "lobby": (
            "A game is already gathering players in this channel: join it or abandon it first."
        ),
        "active": "A game is already running in this channel: finish or abandon it first.",
    }


class GameAlreadyStarted(ServiceError):
    code = "game_already_started"
    default = "This game has already started."


class GameNotStarted(ServiceError):
    code = "game_not_started"
    default = "This game has not started yet."
    variants = {"vote": "Votes are held in a running game."}


class LobbyFull(ServiceError):
    code = "lobby_full"
    default = "The game is full."
    variants = {"size": "The game is full ({count} players)."}


class AlreadyJoined(ServiceError):
    code = "already_joined"
    default = "You have already joined this game."


class NotAPlayer(ServiceError):
    code = "not_a_player"
    default = "You are not playing in this game."
    variants = {
        "lobby": "You are not in this game's lobby.",
        "review": "{name} did not play in that game.",
    }


class NotHost(ServiceError):
    code = "not_host"
    default = "Only the host of the game can do that."
    variants = {"abandon": "Only the host or a server manager can abandon this game."}


class NotEnoughPlayers(ServiceError):
    code = "not_enough_players"
    default = "Alhambra needs at least 2 players: invite someone or add a computer player."


class NotYourTurn(ServiceError):
    code = "not_your_turn"
    default = "It is not your turn."
    variants = {"named": "It is {name}'s turn, not yours."}


class IllegalMove(ServiceError):
    """The engine refused the action; the message is the engine's reason (the rule broken)."""

    code = "illegal_move"
    default = "That move is not allowed."


class Outdated(ServiceError):
    code = "outdated"
    default = "This move is no longer current: the game has moved on. Look at the latest message."
    variants = {"turn_over": "Too late: your turn has ended and the game has moved on."}


class GameOver(ServiceError):
    code = "game_over"
    default = "This game is over."
    variants = {"abandoned": "This game was abandoned."}


class InvalidRequest(ServiceError):
    """A malformed argument (an unknown option, a name too long, a bad locale...)."""

    code = "invalid_request"
    default = "That request is not valid."
    variants = {
        "empty_name": "A player needs a name that is not empty.",
        "not_human": "Name a human player of this game.",
        "own_seat": "You cannot vote on your own seat.",
        "stand_in": (
            "A computer player standing in plays at the easy, normal, hard or expert level: "
            "choose one of those."
        ),
        "hint_level": "A hint comes from the normal, hard or expert level: choose one of those.",
        "language": (
            "“{language}” is not one of the languages a game can be played in: "
            "choose one from the list."
        ),
        "replay_step": "That turn is not in the replay: game #{game} has {steps} turns.",
    }


class AlreadyVoted(InvalidRequest):
    code = "already_voted"
    default = "You have already voted for that."


class NotSilent(InvalidRequest):
    """A hand-over vote about a player who has not gone silent."""

    code = "not_silent"
    default = (
        "That player is not silent: a seat goes to a computer player only after its player "
        "missed a turn deadline or let their turn wait for 48 hours."
    )
    variants = {
        "named": (
            "{name} is not silent: a seat goes to a computer player only after its player "
            "missed a turn deadline or let their turn wait for {hours} hours."
        )
    }


class BadCode(ServiceError):
    """A typed code (cards, a cell, a building) that cannot be read."""

    code = "bad_code"
    default = "I could not read that."


class NoSuchChoice(ServiceError):
    code = "no_such_choice"
    default = "That is not one of your choices now. Pick one of the suggestions."


class Typed(str):
    """What a user typed, repeated in a refusal's words: whoever words the refusal shows it
    clipped, on one line and inert (`text.present.echo`), never as it came."""


class BadSetting(ServiceError):
    """A setting or vote the user typed that cannot be read.

    Raised by the preferences' registry with a `variant` and the `text` typed (a `Typed`):
    its words are the catalogue's `error.<variant>`. Raised by the adapter (a vote) with a
    message already in the user's language; `error.bad_setting` alone has no words on purpose.
    """

    code = "bad_setting"
    default = "That setting is not valid."
    variants = {
        "bad_quiet_hours": (
            "I could not read the quiet hours “{text}”: write them like 22-7 or 22:30-07:00, "
            "or off."
        ),
        "bad_time_zone": (
            "“{text}” is not a time zone: pick one of the suggestions, such as Europe/Lisbon."
        ),
        "bad_date": "I could not read the date “{text}”: write it like 2025-08-31, or off.",
        "date_passed": "{text} has already passed: choose a date in the future.",
        "date_too_far": "{text} is more than a year away: a vacation can last a year at most.",
    }

    @property
    def key(self) -> str:
        """A setting's refusal is worded by its own key, `error.<variant>` (one per thing a
        user may type wrong), older than the variants."""
        return f"error.{self.variant}" if self.variant else super().key


class GuildOnly(ServiceError):
    code = "guild_only"
    default = "Alhambra games are played in server channels, not in direct messages."


class StorageFull(ServiceError):
    """The database's disk (or its size limit) is full: the request was not saved."""

    code = "storage_full"
    default = (
        "The bot's storage is full, so that was not saved and nothing changed. Please tell the "
        "server's admins; the game goes on once there is room again."
    )


class Busy(ServiceError):
    """A picture or a computer's decision took far longer than it ever should (the workers
    were restarted): nothing changed, and trying again works."""

    code = "busy"
    default = "The bot is very busy right now: nothing changed. Please try again in a moment."


class RatedNeedsPeople(ServiceError):
    """A rated game is between people: no computer player sits in one."""

    code = "rated_people"
    default = (
        "This game is rated, so every seat is a person's: computer players cannot join it. "
        "Open an unrated game to play against them."
    )


class FollowRefused(ServiceError):
    """Following is for watchers, of a game that is still to come or being played."""

    code = "follow"
    default = "You play in this game: everything it tells its players reaches you already."
    variants = {
        "not_thread": (
            "This game is played in the channel itself, not in a thread of its own: "
            "follow it by DM instead."
        ),
        "thread_refused": (
            "Discord did not let me add you to the game's thread: follow it by DM instead."
        ),
        "not_following": "You do not follow this game.",
    }


class PlanRefused(ServiceError):
    """A plan is made from the player's own view while they wait for their turn."""

    code = "plan"
    default = "Plans are for players of a running game, while they wait for their turn."
    variants = {
        "your_turn": "It is your turn now: play it yourself. A plan is for the turns you are away.",
        "full": "A plan holds at most {count} rules: remove one first.",
        "no_rule": "Your plan has no rule {number}.",
        "bad_building": "There is no such building.",
        "bad_cards": "Name the cards to pay with, each once, like CR5+CR3.",
        "not_in_hand": "You can only pay with cards of your hand.",
        "one_currency": "A building is paid in one currency: the currency of its market slot.",
        "too_little": "Those cards do not cover the building's price.",
        "bad_type": "There is no such building type: pick one the list offers, like Garden.",
        "bad_limit": "A price limit is a whole number from {low} to {high}.",
        "needs_limit": "A rule by building type needs a price limit: `up_to`, like 9.",
        "needs_pay": "A rule for one building needs `pay`: the cards of your hand to pay with.",
        "type_no_pay": (
            "A rule by building type chooses its payment at your turn: leave `pay` out."
        ),
        "limit_for_type": (
            "`up_to` is for a rule by building type: pick a type (like Garden) in `buy`."
        ),
        "bad_every_turn": "`every_turn` is True or False.",
    }


class HintsOff(ServiceError):
    """Hints are for unrated games: a rated game is the players' own judgement."""

    code = "hints_off"
    default = (
        "This game is rated, so hints are off: its result should be the players' own play. "
        "Hints work in unrated games."
    )


class GameNotOver(ServiceError):
    """A review looks back at a finished game only: a running one would coach its player."""

    code = "game_not_over"
    default = "That game is not finished yet: a review looks back at finished games only."
    variants = {
        "export": "That game is not finished yet: a game becomes a file once it is over.",
    }


class StatsHidden(ServiceError):
    """A player keeps their statistics to themselves."""

    code = "stats_hidden"
    default = "That player keeps their statistics to themselves."
    variants = {"named": "{name} keeps their statistics to themselves."}


class ArchiveEnd(ServiceError):
    """A page of finished games past the end of the list (a button of an older list)."""

    code = "archive_end"
    default = "There are no more finished games: that page is past the end of the list."


class VersusSelf(ServiceError):
    """A head-to-head record of a player against themselves."""

    code = "versus_self"
    default = "Every game against yourself would be a tie: pick another player to compare with."


class DatabaseError(Exception):
    """The database cannot be used by this version of the bot (not a user error)."""


class DatabaseUnreachable(DatabaseError):
    """The database did not answer, or dropped the connection (a server starting or
    restarting, a network blip): it may answer in a moment, so start-up tries again."""


class DatabaseTooNew(DatabaseError):
    """The database was written by a newer version of the bot."""


class SeasonRefused(ServiceError):
    """A season of the server's ratings that cannot be shown or closed: one it never had, one
    already closed (a confirmation pressed twice), or a new season asked by a non-moderator."""

    code = "season"
    default = "Only a member who can manage the server can start a new season of its ratings."
    variants = {
        "unknown": "This server has no season {season}: its seasons are 1 to {current}.",
        "closed": "Season {season} has already ended: this server is in season {current} now.",
    }
