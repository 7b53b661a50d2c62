-- game-finished's "practice" (schema 2, added): a daily game whose player had started another daily game of that day
-- and level first, as game-service signed it. Such a game never counts on the daily board; re-validation reads it
-- from here. False for every game received before it (a message without the field says false).
ALTER TABLE game_audit ADD COLUMN practice BOOLEAN NOT NULL DEFAULT FALSE;
