-- The core of a game: the game row with its snapshot, who sits where, and the action log.
-- Times are integer milliseconds since the Unix epoch (UTC); ids of Discord objects are integers.

CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: button custom_ids carry it
    guild_id INTEGER,                      -- NULL outside a server (offline mode, DMs)
    channel_id INTEGER NOT NULL,
    host_id INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'lobby'
        CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    options TEXT NOT NULL DEFAULT '{}',    -- engine Options as JSON
    max_players INTEGER NOT NULL DEFAULT 6 CHECK (max_players BETWEEN 2 AND 6),
    seed INTEGER,                          -- set when the game starts
    version INTEGER NOT NULL DEFAULT 0,    -- number of actions in the log
    current_seat INTEGER,                  -- whose decision it is (NULL unless active)
    snapshot TEXT,                         -- engine Game.to_json() after `version` actions
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    started_at INTEGER,
    ended_at INTEGER
);

-- One open game per channel, enforced by the database itself.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    join_order INTEGER NOT NULL,           -- order of joining; gaps allowed after leaving
    seat INTEGER,                          -- engine seat (turn order), set at start
    kind TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
    user_id INTEGER,                       -- the human sitting here
    level TEXT,                            -- the computer player's level
    display_name TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, join_order),
    UNIQUE (game_id, seat),
    UNIQUE (game_id, user_id),
    CHECK ((kind = 'human') = (user_id IS NOT NULL)),
    CHECK ((kind = 'computer') = (level IS NOT NULL))
);

CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 1), -- 1, 2, 3 ... with no gap: seq n makes version n
    seat INTEGER NOT NULL,
    user_id INTEGER,                       -- who sent it (NULL: a computer player or the bot)
    action TEXT NOT NULL,                  -- engine action as JSON
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
