-- A player's standing (GameRecord.bestOf, countOf; docs/leaderboard-service.md): the best record read as the first row
-- of an index in the boards' order, all time or in a period's bucket (the expressions of V7), and the count along the
-- same index up to a bound. Before, the all-time best read every record of the player's top score (game_record_player
-- ended at the score) and a period's best every record of the player's, so a public lookup of an account looping
-- records read all of them.
-- On a large database, build them first by hand with CREATE INDEX CONCURRENTLY under these names (docs/platform.md
-- "Upgrades").
CREATE INDEX IF NOT EXISTS game_record_player_all ON game_record
    (player_subject, level, score DESC, finished_at, game_id)
    WHERE struck_at IS NULL AND day IS NULL;
CREATE INDEX IF NOT EXISTS game_record_player_day ON game_record
    (player_subject, level, ((finished_at AT TIME ZONE 'UTC')::date), score DESC, finished_at, game_id)
    WHERE struck_at IS NULL AND day IS NULL;
CREATE INDEX IF NOT EXISTS game_record_player_week ON game_record
    (player_subject, level, (date_trunc('week', finished_at AT TIME ZONE 'UTC')::date), score DESC, finished_at, game_id)
    WHERE struck_at IS NULL AND day IS NULL;
-- The all-time index above begins with it.
DROP INDEX IF EXISTS game_record_player;
