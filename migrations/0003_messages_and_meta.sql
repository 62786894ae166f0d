-- The bot's own bookkeeping: which Discord message shows a game's lobby or current turn (so it
-- can be redrawn or its buttons retired), and small key/value facts such as the hash of the
-- command tree last synced with Discord (so start-up syncs only when the commands changed).

CREATE TABLE game_messages (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,                    -- 'lobby', 'turn', ...
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);

CREATE TABLE bot_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
