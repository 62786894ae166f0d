"""The command line without Discord: the terminal game, simulations and the database commands.
Never imports discord.py."""
