-- A forgiving last tap and one notification per turn.
--
-- After the last decision of a turn the turn waits a few seconds before it ends, so the player
-- can still undo it: an 'end_turn' timer, written in the move's own transaction, ends it then
-- (and survives a restart). SQLite cannot change a CHECK constraint in place, so the timers
-- table is rebuilt with the new kind.
--
-- Each user chooses the window (NULL: the operator's default; 0: end at once) and how they are
-- told that it is their turn: a DM, a mention in the game's channel, or both.
CREATE TABLE timers_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline', 'announce', 'end_turn')),
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

ALTER TABLE user_settings ADD COLUMN undo_window_s INTEGER
    CHECK (undo_window_s BETWEEN 0 AND 60);

ALTER TABLE user_settings ADD COLUMN turn_notice TEXT NOT NULL DEFAULT 'dm'
    CHECK (turn_notice IN ('dm', 'mention', 'both'));
