-- PostgreSQL form of this step: Discord ids and millisecond times are BIGINT (64-bit, as
-- INTEGER is in SQLite), ids come from an identity column, and no table is WITHOUT ROWID.
-- Games that span days: each game's deadline rules, each user's reminder preferences, the
-- memory of what the bot already sent (so a blocked DM or a quiet night is not retried every
-- cycle), consecutive missed deadlines per seat, and votes to abandon or to hand a seat over.

-- What happens when a turn deadline passes, after how many missed deadlines in a row the seat
-- goes to a computer player (NULL: never), and whether a player's vacation pauses the deadline.
ALTER TABLE games ADD COLUMN deadline_policy TEXT NOT NULL DEFAULT 'computer'
    CHECK (deadline_policy IN ('computer', 'skip', 'wait'));
ALTER TABLE games ADD COLUMN missed_limit INTEGER DEFAULT 3 CHECK (missed_limit > 0);
ALTER TABLE games ADD COLUMN vacation_policy TEXT NOT NULL DEFAULT 'pause'
    CHECK (vacation_policy IN ('pause', 'continue'));

-- Reminder preferences and delivery memory, one row per user who changed something or was
-- reminded. Times of day are minutes after midnight in the user's time zone (an IANA name).
CREATE TABLE notify_settings (
    user_id BIGINT PRIMARY KEY,
    first_reminder_s INTEGER CHECK (first_reminder_s > 0),   -- NULL: the default
    repeat_reminder_s INTEGER CHECK (repeat_reminder_s > 0), -- NULL: the default
    quiet_start INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
    time_zone TEXT,                                          -- NULL: UTC
    vacation_until BIGINT,                                  -- ms; NULL: not away
    dm_blocked_at BIGINT,                                   -- ms of the last 403/50007
    last_reminder_at BIGINT,                                -- ms of the last reminder DM
    updated_at BIGINT NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL))
);

-- A channel mention sent instead of a DM, at most one per turn: `turn_version` is the game's
-- version when that turn started.
CREATE TABLE channel_nudges (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    turn_version INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat, turn_version)
);

-- Consecutive turn deadlines a seat missed; `last_version` is the game version after the last
-- missed turn was settled (an action of the player after it breaks the streak).
CREATE TABLE missed_deadlines (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    streak INTEGER NOT NULL CHECK (streak >= 0),
    last_version INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- Votes of the players of a running game: to abandon it (target_seat -1) or to hand a seat
-- to a computer player (target_seat: that seat).
CREATE TABLE votes (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    motion TEXT NOT NULL CHECK (motion IN ('abandon', 'hand_over')),
    target_seat INTEGER NOT NULL,
    voter_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, motion, target_seat, voter_id)
);
