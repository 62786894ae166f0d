"""Errors the test API raises, distinct from what the fake answers the bot over HTTP."""

from __future__ import annotations


class SimulationError(Exception):
    """The test asked for something a real Discord user could not do.

    For example clicking a disabled or missing button, picking a value a select does not offer,
    omitting a required slash command option or using a command that was never synced.
    """


class InteractionNotAnswered(AssertionError):
    """The bot did not acknowledge (or finish a deferred) interaction in time.

    An AssertionError so pytest reports it as a failed expectation about the bot.
    """
