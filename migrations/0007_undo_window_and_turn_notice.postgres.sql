-- PostgreSQL form of this step: a CHECK constraint changes in place, no table rebuild.
-- A forgiving last tap and one notification per turn: the 'end_turn' timer kind, each user's
-- undo window (NULL: the operator's default; 0: end at once) and how they are told that it is
-- their turn: a DM, a mention in the game's channel, or both.

ALTER TABLE timers DROP CONSTRAINT timers_kind_check;
ALTER TABLE timers ADD CONSTRAINT timers_kind_check
    CHECK (kind IN ('reminder', 'deadline', 'announce', 'end_turn'));

ALTER TABLE user_settings ADD COLUMN undo_window_s INTEGER
    CHECK (undo_window_s BETWEEN 0 AND 60);

ALTER TABLE user_settings ADD COLUMN turn_notice TEXT NOT NULL DEFAULT 'dm'
    CHECK (turn_notice IN ('dm', 'mention', 'both'));
