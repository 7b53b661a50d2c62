-- The cheat detector's verdict on a record (CheatDetector): how often the player's rounds are exactly the
-- full-strength AI's. Null until measured; records shorter than bloc.leaderboard.suspicion.min-rounds are never
-- measured (they could not be flagged).
ALTER TABLE game_audit
    ADD COLUMN suspicion_checked_at TIMESTAMP WITH TIME ZONE,
    -- Rounds played exactly as the AI would have / rounds compared.
    ADD COLUMN ai_agreement REAL,
    ADD COLUMN compared_rounds INTEGER,
    ADD COLUMN suspicious BOOLEAN NOT NULL DEFAULT false;
-- The detector's queue: records not measured yet, long enough to be measured.
CREATE INDEX game_audit_unchecked ON game_audit (rounds, processed_at)
    WHERE outcome = 'RECORD' AND suspicion_checked_at IS NULL;
-- The admins' list of suspicious games.
CREATE INDEX game_audit_suspicious ON game_audit (finished_at DESC) WHERE suspicious;

-- The detector's flags join the audit trail.
ALTER TABLE audit_action DROP CONSTRAINT audit_action_action_check;
ALTER TABLE audit_action ALTER COLUMN action TYPE VARCHAR(24);
ALTER TABLE audit_action ADD CONSTRAINT audit_action_action_check
    CHECK (action IN ('REVALIDATE', 'STRIKE', 'FLAGGED_SUSPICIOUS'));
