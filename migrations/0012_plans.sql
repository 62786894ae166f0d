-- Plans: the moves a waiting player queues for their next turn (`core.plans`), one per seat
-- of a running game, as JSON: rules "if building B is in the market, buy it with these cards
-- (and place it there)" and what to do when none holds. Taken when that turn begins. One file
-- for both engines.

CREATE TABLE plans (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,                 -- engine seat
    user_id BIGINT NOT NULL,
    plan TEXT NOT NULL,
    made_at_version INTEGER NOT NULL,      -- the game's version when it was last changed
    updated_at BIGINT NOT NULL,            -- ms
    PRIMARY KEY (game_id, seat)
);
