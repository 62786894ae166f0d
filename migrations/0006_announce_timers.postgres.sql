-- PostgreSQL form of this step: a CHECK constraint changes in place, no table rebuild.
-- What a committed move must still tell the channel, kept with the move: a turn that ended is
-- recorded as an 'announce' timer in the move's own transaction, removed once the channel has
-- been told, and fired (retried with back-off) if it was not.

ALTER TABLE timers DROP CONSTRAINT timers_kind_check;
ALTER TABLE timers ADD CONSTRAINT timers_kind_check
    CHECK (kind IN ('reminder', 'deadline', 'announce'));
