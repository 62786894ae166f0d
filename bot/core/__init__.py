"""The game core: games, seats, the store, the services and their records and errors.

No Discord, no words: plain ids and engine actions in, plain results (or a `ServiceError`) out.
Of the project it imports only `engine` (and `engine.ai` for the computer levels), `bot.config`
and `bot.ops`.
"""
