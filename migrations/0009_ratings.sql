-- Opt-in ratings: a game is rated if its host chose so when opening it (and every seat is a
-- person when it ends); each server keeps its players' ratings (openskill's Plackett-Luce
-- model: a skill estimate `mu` and its uncertainty `sigma`), updated when a rated game ends
-- and recomputable from the rated games' results (`python -m bot ratings --rebuild`).
-- One file for both engines: DOUBLE PRECISION is REAL to SQLite.

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

CREATE TABLE ratings (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL CHECK (games >= 0),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX ratings_by_guild ON ratings (guild_id);
