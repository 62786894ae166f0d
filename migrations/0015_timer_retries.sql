-- A timer whose handler failed is tried again, sooner than a restart would: its `attempts`
-- count the failures so far, and each retry waits longer (a worker pool that is down, a full
-- disk, a database that blips). The 'computer' kind is a computer player's next try after its
-- decision or move failed: the game must not wait for a restart. SQLite cannot change a CHECK
-- constraint in place, so the timers table is rebuilt with the new kind and column.
CREATE TABLE timers_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL
        CHECK (kind IN ('reminder', 'deadline', 'announce', 'end_turn', 'computer')),
    seat INTEGER,                          -- the seat it concerns, if any
    version INTEGER,                       -- the game version it was set for (stale after it)
    due_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    claimed_by TEXT,
    lease_until BIGINT,
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0)
);

INSERT INTO timers_new (id, game_id, kind, seat, version, due_at, created_at, claimed_by,
                        lease_until)
    SELECT id, game_id, kind, seat, version, due_at, created_at, claimed_by, lease_until
    FROM timers;

DROP TABLE timers;

ALTER TABLE timers_new RENAME TO timers;

CREATE INDEX timers_by_due ON timers (due_at);
CREATE INDEX timers_by_game ON timers (game_id);
