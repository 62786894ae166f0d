"""The Discord adapter: the only room that imports discord.py. Commands, buttons, the channel
announcer and DM messenger, pictures as attachments; the client wires every room together."""
