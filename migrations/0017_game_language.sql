-- A game has a language: the one its public side speaks (the lobby, the thread's posts, the
-- turn messages and their pictures, the results), chosen by the host when opening it
-- (`/alhambra new language:`, else the server's). It is stored with the game, so a change of
-- the server's language later does not change a running game. Games from before this step
-- keep the language they were opened in, which was kept in `bot_meta` ('locale:<game id>';
-- those rows are no longer read); a game without one is in English, as it always was.
-- One file for both engines.

ALTER TABLE games ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';

UPDATE games SET locale = (
    SELECT m.value FROM bot_meta m WHERE m.key = 'locale:' || CAST(games.id AS TEXT)
)
WHERE EXISTS (
    SELECT 1 FROM bot_meta m WHERE m.key = 'locale:' || CAST(games.id AS TEXT)
);
