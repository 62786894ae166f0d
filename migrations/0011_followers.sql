-- People who follow a game without a seat: its public turn summaries by DM (`dm`), or as a
-- member of its thread (`thread`: the bot added them, Discord tells them of new messages).
-- Followers never get anything a seat's hand would show. One file for both engines.

CREATE TABLE followers (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    how TEXT NOT NULL CHECK (how IN ('dm', 'thread')),
    since BIGINT NOT NULL,                 -- ms
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX followers_by_user ON followers (user_id);
