-- PostgreSQL form of this step: Discord ids and millisecond times are BIGINT (64-bit, as
-- INTEGER is in SQLite), ids come from an identity column, and no table is WITHOUT ROWID.
-- The bot's own bookkeeping: which Discord message shows a game's lobby or current turn (so it
-- can be redrawn or its buttons retired), and small key/value facts such as the hash of the
-- command tree last synced with Discord (so start-up syncs only when the commands changed).

CREATE TABLE game_messages (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,                    -- 'lobby', 'turn', ...
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, kind)
);

CREATE TABLE bot_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
