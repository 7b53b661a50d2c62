-- Retention (GameRetention, docs/game-service.md "Retention"): each pass finds what has gone unchanged for
-- bloc.retention.games along these indexes, oldest first, instead of reading every row. created_at never changes, so
-- these indexes cost a move nothing (game.updated_at changes at every move: an index on it would).
-- On a large database, build them first by hand with CREATE INDEX CONCURRENTLY under these names (docs/platform.md
-- "Upgrades"); CONCURRENTLY cannot run here.
CREATE INDEX IF NOT EXISTS game_solo_created ON game (created_at) WHERE match_id IS NULL;
CREATE INDEX IF NOT EXISTS match_created ON match (created_at);
CREATE INDEX IF NOT EXISTS race_ticket_created ON race_ticket (created_at) WHERE match_id IS NULL;
CREATE INDEX IF NOT EXISTS private_race_created ON private_race (created_at) WHERE match_id IS NULL;
