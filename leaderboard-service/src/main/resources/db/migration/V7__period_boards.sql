-- Today's and this week's boards (GameRecord.topOf, rank; docs/leaderboard-service.md): each period's records along
-- an index of its own bucket, the UTC day or the UTC week (from Monday) a record finished in, ranked as the boards are.
-- Filtered by finished_at instead, a page of today's board read every record of all time ranked above today's (the
-- all-time index from the top) or every record of the period. The queries write these expressions the same way.
-- On a large database, build them first by hand with CREATE INDEX CONCURRENTLY under these names (docs/platform.md
-- "Upgrades").
CREATE INDEX IF NOT EXISTS game_record_top_day ON game_record
    (level, ((finished_at AT TIME ZONE 'UTC')::date), score DESC, finished_at, game_id)
    WHERE struck_at IS NULL AND day IS NULL;
CREATE INDEX IF NOT EXISTS game_record_top_week ON game_record
    (level, (date_trunc('week', finished_at AT TIME ZONE 'UTC')::date), score DESC, finished_at, game_id)
    WHERE struck_at IS NULL AND day IS NULL;
-- The index the boards' old statement filtered by finished_at along: no statement uses it any more, and every record
-- written kept it up to date.
DROP INDEX IF EXISTS game_record_recent;
