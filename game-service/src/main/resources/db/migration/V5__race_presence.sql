-- Online races end for a player who has gone: last_seen_at is the last time the player of a race game was known to
-- be there (an event of the game, a request about it, an open match socket on some replica, refreshed by that
-- replica's heartbeat), written with the database's clock; null until then (the game's created_at counts instead).
-- left_at is set when the game was resigned for the player because they had been gone for longer than the timeout.
ALTER TABLE game ADD COLUMN last_seen_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE game ADD COLUMN left_at TIMESTAMP WITH TIME ZONE;
CREATE INDEX game_race_playing ON game (created_at) WHERE mode = 'ONLINE_RACE' AND status = 'PLAYING';
