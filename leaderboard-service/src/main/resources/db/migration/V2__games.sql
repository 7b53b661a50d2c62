-- Every game received on game-finished, whatever its outcome: one row per game id, whatever the redeliveries.
CREATE TABLE game_audit (
    game_id        UUID PRIMARY KEY,
    outcome        VARCHAR(24) NOT NULL CHECK (outcome IN ('RECORD', 'VALID_NOT_ELIGIBLE', 'REJECTED')),
    -- Why it is not a record: the validator's first error, or why a valid game is not eligible.
    reason         TEXT,
    player_subject VARCHAR(255),
    player_name    VARCHAR(255),
    mode           VARCHAR(16) NOT NULL,
    -- From the replay when it could be read that far; null otherwise.
    level          VARCHAR(16),
    seed           BIGINT,
    claimed_score  INTEGER,
    -- The validator's figures over the valid prefix.
    score          INTEGER NOT NULL,
    rounds         INTEGER NOT NULL,
    valid_events   INTEGER NOT NULL,
    assisted       BOOLEAN NOT NULL,
    game_over      BOOLEAN NOT NULL,
    finished_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    -- The Kafka record's timestamp, and when this service committed its verdict.
    published_at   TIMESTAMP WITH TIME ZONE,
    processed_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    replay         TEXT NOT NULL,
    trace          TEXT NOT NULL
);
CREATE INDEX game_audit_by_outcome ON game_audit (outcome, finished_at DESC);
CREATE INDEX game_audit_by_level ON game_audit (level, finished_at DESC);
CREATE INDEX game_audit_by_finished ON game_audit (finished_at DESC);
CREATE INDEX game_audit_by_player ON game_audit (player_subject, finished_at DESC);

-- Valid, unassisted games of logged-in players. A struck record stays, with who struck it and why.
CREATE TABLE game_record (
    game_id        UUID PRIMARY KEY REFERENCES game_audit (game_id),
    level          VARCHAR(16) NOT NULL,
    player_subject VARCHAR(255) NOT NULL,
    player_name    VARCHAR(255) NOT NULL,
    score          INTEGER NOT NULL,
    rounds         INTEGER NOT NULL,
    finished_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    struck_at      TIMESTAMP WITH TIME ZONE,
    struck_by      VARCHAR(255),
    strike_reason  TEXT
);
-- Top N of a level, all time: read in index order, stop after N.
CREATE INDEX game_record_top ON game_record (level, score DESC, finished_at, game_id) WHERE struck_at IS NULL;
-- Today and this week: the window's records, then sorted.
CREATE INDEX game_record_recent ON game_record (level, finished_at) WHERE struck_at IS NULL;
-- A player's best.
CREATE INDEX game_record_player ON game_record (player_subject, level, score DESC) WHERE struck_at IS NULL;

-- What admins did to a game: re-validations and strikes, never deleted.
CREATE TABLE audit_action (
    id         BIGSERIAL PRIMARY KEY,
    game_id    UUID NOT NULL REFERENCES game_audit (game_id),
    action     VARCHAR(16) NOT NULL CHECK (action IN ('REVALIDATE', 'STRIKE')),
    actor      VARCHAR(255) NOT NULL,
    at         TIMESTAMP WITH TIME ZONE NOT NULL,
    detail     TEXT NOT NULL
);
CREATE INDEX audit_action_by_game ON audit_action (game_id, at);
