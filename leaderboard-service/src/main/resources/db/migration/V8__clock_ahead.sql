-- ClockAheadRecovery (docs/leaderboard-service.md "A game-service clock that ran ahead"): each pass finds the games
-- rejected only for a finishedAt in the future along this index, a handful at most, instead of reading every
-- rejection's reason. The predicate is the pass's own, word for word (PostgreSQL uses a partial index only then).
-- On a large database, build it first by hand with CREATE INDEX CONCURRENTLY under this name (docs/platform.md
-- "Upgrades").
CREATE INDEX IF NOT EXISTS game_audit_ahead ON game_audit (finished_at)
    WHERE outcome = 'REJECTED' AND reason LIKE 'claims: finishedAt % is in the future %';
