-- How many games a client started lately (bloc.limits.starts-per-client, docs/game-service.md "Limits"): counted at
-- each start under the client's advisory lock, over the window only, not over the client's whole history.
CREATE INDEX game_client_started ON game (client_key, created_at) WHERE client_key IS NOT NULL;
