-- Retention (GameRetention, docs/game-service.md "Retention"): each pass finds what has gone unchanged for
-- bloc.retention.games along these indexes, oldest first, instead of reading every row. game_solo_created gets an
-- entry at each move of a solo game, as every index on game does (a move changes indexed columns, so no update of a
-- game row is a HOT update); the others are on rows a move never changes.
-- A match's deletion checks the rows that reference it (foreign keys) by match_id: without an index on it, each
-- match deleted read the whole race_ticket and private_race tables.
-- On a large database, build them first by hand with CREATE INDEX CONCURRENTLY under these names (docs/platform.md
-- "Upgrades"); CONCURRENTLY cannot run here.
CREATE INDEX IF NOT EXISTS game_solo_created ON game (created_at) WHERE match_id IS NULL;
CREATE INDEX IF NOT EXISTS match_created ON match (created_at);
CREATE INDEX IF NOT EXISTS race_ticket_created ON race_ticket (created_at) WHERE match_id IS NULL;
CREATE INDEX IF NOT EXISTS private_race_created ON private_race (created_at) WHERE match_id IS NULL;
CREATE INDEX IF NOT EXISTS race_ticket_match ON race_ticket (match_id);
CREATE INDEX IF NOT EXISTS private_race_match ON private_race (match_id);
