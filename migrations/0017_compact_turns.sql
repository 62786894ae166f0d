-- A user's choice of a compact turn message (scratch: the recipe for a new setting).

ALTER TABLE user_settings ADD COLUMN compact_turns INTEGER NOT NULL DEFAULT 0
    CHECK (compact_turns IN (0, 1));
