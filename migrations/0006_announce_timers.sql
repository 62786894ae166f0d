-- What a committed move must still tell the channel, kept with the move: a turn that ended is
-- recorded as an 'announce' timer in the move's own transaction, removed once the channel has
-- been told, and fired (retried with back-off) if it was not: a refused or lost channel post
-- never leaves a game untold. SQLite cannot change a CHECK constraint in place, so the timers
-- table is rebuilt with the new kind.
CREATE TABLE timers_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline', 'announce')),
    seat INTEGER,                          -- the seat it concerns, if any
    version INTEGER,                       -- the game version it was set for (stale after it)
    due_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

INSERT INTO timers_new (id, game_id, kind, seat, version, due_at, created_at)
    SELECT id, game_id, kind, seat, version, due_at, created_at FROM timers;

DROP TABLE timers;

ALTER TABLE timers_new RENAME TO timers;

CREATE INDEX timers_by_due ON timers (due_at);
CREATE INDEX timers_by_game ON timers (game_id);
