-- A message the broker can never take (too large even compressed, refused as a record) is parked with its reason
-- instead of being retried for ever in front of every later message; the relay skips parked rows. An operator finds
-- them with SELECT id, topic, msg_key, parked_at, parked_reason FROM outbox WHERE parked_at IS NOT NULL.
ALTER TABLE outbox ADD COLUMN parked_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE outbox ADD COLUMN parked_reason VARCHAR(1000);
CREATE INDEX outbox_parked ON outbox (parked_at) WHERE parked_at IS NOT NULL;

-- Who started a game (a guest's client address, or a player's subject), for the limits on what one client may have
-- open at once (docs/game-service.md "Limits"). Null for the AI's games and for games created before this column.
ALTER TABLE game ADD COLUMN client_key VARCHAR(320);
CREATE INDEX game_client_open ON game (client_key, updated_at) WHERE client_key IS NOT NULL;
