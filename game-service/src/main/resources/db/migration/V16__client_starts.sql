-- How many games a client started lately (bloc.limits.starts-per-client, docs/game-service.md "Limits"): counted at
-- each start under the client's advisory lock, over the window only, not over the client's whole history.
-- A plain CREATE INDEX blocks writes to game while it builds: on a large table, build it first by hand with
-- CREATE INDEX CONCURRENTLY under this name (docs/platform.md "Upgrades"). CONCURRENTLY cannot run here: it waits
-- for every open transaction, Flyway's own lock's among them.
CREATE INDEX IF NOT EXISTS game_client_started ON game (client_key, created_at) WHERE client_key IS NOT NULL;
