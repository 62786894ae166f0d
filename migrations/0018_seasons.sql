-- Seasons of a server's ratings, and how each rated game moved them.
--
-- A server's moderators may close its season and start a new one (`/alhambra-history
-- new-season`): the ratings of the season closed are kept in `season_ratings` (still shown by
-- `leaderboard season:N`), and `ratings` starts empty again, so everyone starts fresh. A row
-- of `seasons` is the start of a season after the first (season 1 is everything before).
-- `rating_changes` keeps each rated game's effect on each player's rating (before and after),
-- for the results message and for the record; it is rebuilt with the ratings
-- (`python -m bot ratings --rebuild`), each game in the season of the time it ended.
-- One file for both engines: DOUBLE PRECISION is REAL to SQLite.

CREATE TABLE seasons (
    guild_id BIGINT NOT NULL,
    season INTEGER NOT NULL CHECK (season >= 2),
    started_at BIGINT NOT NULL,            -- ms
    started_by BIGINT NOT NULL,
    PRIMARY KEY (guild_id, season)
);

CREATE TABLE season_ratings (
    guild_id BIGINT NOT NULL,
    season INTEGER NOT NULL CHECK (season >= 1),
    user_id BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL CHECK (games >= 0),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
);

CREATE TABLE rating_changes (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    season INTEGER NOT NULL CHECK (season >= 1),
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    games_before INTEGER NOT NULL CHECK (games_before >= 0),
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- The leaderboard's order (the conservative figure, `core.ratings.Rating.ordinal`), so a server's
-- top and one player's rank are read from an index.
CREATE INDEX ratings_by_figure ON ratings (guild_id, (mu - 3 * sigma));
CREATE INDEX season_ratings_by_figure ON season_ratings (guild_id, season, (mu - 3 * sigma));
