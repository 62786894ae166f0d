-- PostgreSQL form of this step: a CHECK constraint changes in place, no table rebuild.
-- A failed timer is tried again with back-off (`attempts` counts the failures so far), and the
-- 'computer' kind is a computer player's next try after its decision or move failed.

ALTER TABLE timers DROP CONSTRAINT timers_kind_check;
ALTER TABLE timers ADD CONSTRAINT timers_kind_check
    CHECK (kind IN ('reminder', 'deadline', 'announce', 'end_turn', 'computer'));

ALTER TABLE timers ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0);
