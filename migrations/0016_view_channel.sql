-- The channel whose View Channel permission decides who may look back at a game from elsewhere
-- in its server (replay, review, follow, the archive, stats): the game's own channel, or, for a
-- game in a public thread, the thread's parent. A thread has no permissions of its own, and an
-- archived thread is no longer in the bot's cache nor in Discord's list of active threads, but
-- its parent is, so the archive can be filtered in the query. A private thread names itself:
-- Discord lets only its members see it, and the bot cannot list them. NULL for the games stored
-- before this step, until the bot, once connected, has asked Discord what their channel is.
-- One file for both engines.

ALTER TABLE games ADD COLUMN view_channel_id BIGINT;
