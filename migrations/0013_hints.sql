-- Hints (`/alhambra hint`): what a computer level would do now, asked by the player whose
-- decision it is in an unrated game. Each use is recorded here and counted in the player's
-- statistics and the game's results. One row per decision (the game's version when asked);
-- asking again at the same decision counts again (`uses`). One file for both engines.

CREATE TABLE hints (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version BIGINT NOT NULL,               -- the game's version when the hint was asked
    seat INTEGER NOT NULL,                 -- engine seat
    user_id BIGINT NOT NULL,
    uses INTEGER NOT NULL DEFAULT 1 CHECK (uses >= 1),
    at BIGINT NOT NULL,                    -- ms, the latest use
    PRIMARY KEY (game_id, version, seat)
);

CREATE INDEX hints_by_user ON hints (user_id);
