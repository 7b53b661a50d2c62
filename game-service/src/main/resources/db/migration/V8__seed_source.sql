-- Where a game's seed came from, a stored fact that decides when the seed may be shown and whether the game can
-- set a record (docs/game-service.md "Seeds"): SERVER (drawn from a CSPRNG, shown once the game ended), DAILY (the
-- day's seed, derived from the server's secret, shown once that UTC day is over; daily_day is that day) or CHOSEN
-- (given by whoever created the game, shown at once). Games before this migration: a public seed was chosen or the
-- old daily seed, whose formula was public, so it counts as CHOSEN; the rest were the server's.
ALTER TABLE game ADD COLUMN seed_source VARCHAR(8);
UPDATE game SET seed_source = CASE WHEN seed_public THEN 'CHOSEN' ELSE 'SERVER' END;
ALTER TABLE game ALTER COLUMN seed_source SET NOT NULL;
ALTER TABLE game ADD COLUMN daily_day DATE;
ALTER TABLE game ADD CONSTRAINT game_seed_source CHECK (seed_source IN ('SERVER', 'DAILY', 'CHOSEN'));
ALTER TABLE game ADD CONSTRAINT game_daily_day CHECK ((seed_source = 'DAILY') = (daily_day IS NOT NULL));
ALTER TABLE game DROP COLUMN seed_public;
-- GET /api/daily: a player's daily games of a day
CREATE INDEX game_daily ON game (owner_subject, daily_day) WHERE seed_source = 'DAILY';
