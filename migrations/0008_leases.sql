-- Several bot processes on one database: leases instead of in-process locks.
--
-- A timer is claimed by writing who holds it and until when; the claimant deletes it once it
-- has been handled, and a claimant that died lets its lease run out, after which another
-- process fires the timer again (handlers are idempotent). `leases` names jobs that one process
-- at a time may do (syncing commands, a gateway IDENTIFY slot): a row is held until it expires
-- or its owner renews it. BIGINT is INTEGER to SQLite and 64 bits to PostgreSQL, so this step
-- is the same on both engines.

ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN lease_until BIGINT;

CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_at BIGINT NOT NULL,            -- ms; free for anyone once past
    updated_at BIGINT NOT NULL
);
