-- A daily game started by a player who had started another daily game of that UTC day and level before it: practice.
-- Only a player's first started daily game of a day and level counts on the daily board, so that a game played with
-- hints or undo, finished or left in play, cannot scout the day's pieces for a second attempt that then counts
-- (docs/security.md). Set at creation (Creation.solo, under the player's advisory lock), published in game-finished.
ALTER TABLE game ADD COLUMN daily_practice BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE game ADD CONSTRAINT game_daily_practice CHECK (NOT daily_practice OR seed_source = 'DAILY');
