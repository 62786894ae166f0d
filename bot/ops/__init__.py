"""Operations: log lines, Prometheus metrics and error reports.

What an operator reads about the running bot, kept apart from the game core so every room above
it (`core`, `turns`, `text`, `cli`, `discord_app`) may record what happens. It imports only
`bot.config` of the project.
"""
