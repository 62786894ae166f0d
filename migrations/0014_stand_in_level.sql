-- The level of the computer player that stands in for a silent human, a rule the host chooses
-- when opening the game (`/alhambra new stand_in:`): it plays a turn whose deadline passed (if
-- the game's deadline policy says so) and takes the seat after too many missed deadlines. Games
-- from before this step keep the level they were played with. One file for both engines.

ALTER TABLE games ADD COLUMN stand_in_level TEXT NOT NULL DEFAULT 'normal'
    CHECK (stand_in_level IN ('easy', 'normal', 'hard', 'expert'));
