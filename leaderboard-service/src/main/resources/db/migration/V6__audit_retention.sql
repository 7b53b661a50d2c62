-- AuditRetention (docs/leaderboard-service.md "Audits' retention"): each pass finds the audits of games that are not
-- records, oldest first, along this index, instead of passing over every record's audit at every batch. On a large
-- database, build it first by hand with CREATE INDEX CONCURRENTLY under this name (docs/platform.md "Upgrades").
CREATE INDEX IF NOT EXISTS game_audit_prunable ON game_audit (finished_at) WHERE outcome <> 'RECORD';
