-- Asynchronous play: when the current turn started, per-game deadline settings, reminder and
-- deadline timers that survive restarts, and each user's preferences.

ALTER TABLE games ADD COLUMN turn_started_at INTEGER;
ALTER TABLE games ADD COLUMN turn_deadline_s INTEGER CHECK (turn_deadline_s > 0);
ALTER TABLE games ADD COLUMN reminder_after_s INTEGER CHECK (reminder_after_s > 0);

-- Games already running get their turn clock from their last change.
UPDATE games SET turn_started_at = updated_at WHERE status = 'active';

CREATE TABLE timers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline')),
    seat INTEGER,                          -- the seat it concerns, if any
    version INTEGER,                       -- the game version it was set for (stale after it)
    due_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE INDEX timers_by_due ON timers (due_at);
CREATE INDEX timers_by_game ON timers (game_id);

CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    locale TEXT,                           -- NULL: follow the Discord client's locale
    dm_on_turn INTEGER NOT NULL DEFAULT 1 CHECK (dm_on_turn IN (0, 1)),
    dm_reminders INTEGER NOT NULL DEFAULT 1 CHECK (dm_reminders IN (0, 1)),
    updated_at INTEGER NOT NULL
);
