"""The errors a user can cause, each a distinct class carrying a message fit to show them.

The bot's single error handler turns any `ServiceError` into an ephemeral reply with `.message`;
`code` is a stable name for the translation catalogue and for tests. Raising one inside a store
transaction rolls it back, which is how "a rejected request writes nothing" is kept.
"""

from __future__ import annotations

from typing import ClassVar


class ServiceError(Exception):
    """A request refused for a reason the user can understand and fix."""

    code: ClassVar[str] = "error"
    default: ClassVar[str] = "That did not work."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default
        super().__init__(self.message)


class NoGameHere(ServiceError):
    code = "no_game_here"
    default = "There is no Alhambra game here. Start one with the create command."


class GameAlreadyRunning(ServiceError):
    code = "game_already_running"
    default = "There is already a game in this channel: finish or abandon it first."


class GameAlreadyStarted(ServiceError):
    code = "game_already_started"
    default = "This game has already started."


class GameNotStarted(ServiceError):
    code = "game_not_started"
    default = "This game has not started yet."


class LobbyFull(ServiceError):
    code = "lobby_full"
    default = "The game is full."


class AlreadyJoined(ServiceError):
    code = "already_joined"
    default = "You have already joined this game."


class NotAPlayer(ServiceError):
    code = "not_a_player"
    default = "You are not playing in this game."


class NotHost(ServiceError):
    code = "not_host"
    default = "Only the host of the game can do that."


class NotEnoughPlayers(ServiceError):
    code = "not_enough_players"
    default = "Alhambra needs at least 2 players: invite someone or add a computer player."


class NotYourTurn(ServiceError):
    code = "not_your_turn"
    default = "It is not your turn."


class IllegalMove(ServiceError):
    """The engine refused the action; the message is the engine's reason (the rule broken)."""

    code = "illegal_move"
    default = "That move is not allowed."


class Outdated(ServiceError):
    code = "outdated"
    default = "This move is no longer current: the game has moved on. Look at the latest message."


class GameOver(ServiceError):
    code = "game_over"
    default = "This game is over."


class InvalidRequest(ServiceError):
    """A malformed argument (an unknown option, a name too long, a bad locale...)."""

    code = "invalid_request"
    default = "That request is not valid."


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


class BadCode(ServiceError):
    """A typed code (cards, a cell, a building) that cannot be read."""

    code = "bad_code"
    default = "I could not read that."


class NoSuchChoice(ServiceError):
    code = "no_such_choice"
    default = "That is not one of your choices now. Pick one of the suggestions."


class BadSetting(ServiceError):
    """A setting or vote the user typed that cannot be read; the message is already in the
    user's language (there is no catalogue key for this code on purpose)."""

    code = "bad_setting"
    default = "That setting is not valid."


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


class DatabaseError(Exception):
    """The database cannot be used by this version of the bot (not a user error)."""


class DatabaseTooNew(DatabaseError):
    """The database was written by a newer version of the bot."""
