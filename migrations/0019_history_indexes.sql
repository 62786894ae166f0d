-- Finished games stay forever, so every look back at them must find its rows through an index,
-- never by reading the whole games table (at a million finished games a full read takes a
-- tenth of a second or more, in every `/alhambra-history` command and every sweep). Partial
-- indexes keep them small: only the rows each kind of query asks for.
-- The PostgreSQL form also makes `channel_nudges.turn_version` BIGINT (see that file).

-- The last finished game of a channel (`/alhambra-history` with no game named).
CREATE INDEX games_finished_by_channel ON games (channel_id, ended_at, id)
    WHERE status = 'finished';

-- A server's archive, the latest first (`/alhambra-history games`), with or without sight: its
-- finished games and its rated games abandoned once started (`store.archive._LOOKED_BACK`).
CREATE INDEX games_finished_by_guild ON games (guild_id, ended_at, id)
    WHERE status = 'finished' OR (status = 'abandoned' AND rated = 1 AND seed IS NOT NULL);

-- The running games, for the sweeps that look for games waiting on a person or a computer.
CREATE INDEX games_running ON games (id, current_seat) WHERE status = 'active';

-- Server games whose view channel is not known yet (asked of Discord once the bot connects).
CREATE INDEX games_without_view_channel ON games (id)
    WHERE view_channel_id IS NULL AND guild_id IS NOT NULL;
