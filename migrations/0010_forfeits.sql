-- Who lost their seat in a game, and how: the deadlines handed it to a computer player, the
-- other players voted it to one, or they ended the game (`/alhambra abandon`) while it ran.
-- The seat itself then holds the computer player (or nothing more happens in it), so without
-- this row a game would forget who sat there. A rated game counts each of them as last place,
-- when it ends and when its ratings are rebuilt from the stored results. One file for both
-- engines.

CREATE TABLE forfeits (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,                 -- engine seat
    user_id BIGINT NOT NULL,
    cause TEXT NOT NULL CHECK (cause IN ('deadlines', 'vote', 'abandoned')),
    at BIGINT NOT NULL,                    -- ms
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX forfeits_by_user ON forfeits (user_id);
