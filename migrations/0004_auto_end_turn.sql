-- A player's choice to have their turn ended automatically when nothing is left to decide
-- (the default), or to confirm it themselves so they can still undo.

ALTER TABLE user_settings ADD COLUMN auto_end_turn INTEGER NOT NULL DEFAULT 1
    CHECK (auto_end_turn IN (0, 1));
