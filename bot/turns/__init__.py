"""The life of a turn: a move and the automatic end of the turn, announcing it, computer
players, reminders, deadlines and the durable timer dispatcher. Talks to the world only through
the protocols of `ports.py`; imports `core` and `engine`."""
