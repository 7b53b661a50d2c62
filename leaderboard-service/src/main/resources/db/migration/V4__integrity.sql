-- Integrity (docs/leaderboard-service.md "Record policy"): the facts game-service signs, one record per server seed,
-- one daily game per player, day and level, and the trail of refused (unsigned or mis-signed) messages.

-- What game-service vouches for besides the replay. Null for games received before schema 2 of game-finished.
ALTER TABLE game_audit
    ADD COLUMN seed_source VARCHAR(8) CHECK (seed_source IN ('SERVER', 'DAILY', 'CHOSEN')),
    ADD COLUMN day         DATE,
    ADD COLUMN created_at  TIMESTAMP WITH TIME ZONE;

-- DUPLICATE: a game that would be a record on a seed that already holds one (the same replay under another id).
ALTER TABLE game_audit DROP CONSTRAINT game_audit_outcome_check;
ALTER TABLE game_audit ADD CONSTRAINT game_audit_outcome_check
    CHECK (outcome IN ('RECORD', 'VALID_NOT_ELIGIBLE', 'REJECTED', 'DUPLICATE'));
CREATE INDEX game_audit_by_seed ON game_audit (level, seed);

-- A record is on a level's boards (day null) or on one day's daily board.
ALTER TABLE game_record
    ADD COLUMN seed BIGINT,
    ADD COLUMN day  DATE;
UPDATE game_record r SET seed = a.seed FROM game_audit a WHERE a.game_id = r.game_id;

-- Records made before this migration may share a seed (the replay sent again under a new id): the earliest keeps
-- it, the later ones are struck and leave the seed to it.
WITH later AS (
    SELECT game_id FROM (
        SELECT game_id, row_number() OVER (PARTITION BY level, seed ORDER BY finished_at, game_id) AS n
        FROM game_record WHERE seed IS NOT NULL) ranked
    WHERE n > 1)
UPDATE game_record r SET seed = NULL,
    struck_at = COALESCE(r.struck_at, now()),
    struck_by = COALESCE(r.struck_by, 'migration V4'),
    strike_reason = COALESCE(r.strike_reason, 'duplicate: an earlier record has the same seed')
FROM later WHERE r.game_id = later.game_id;

-- One record per (level, seed) on the level boards, and one daily record per (day, level, player): under concurrent
-- consumers too (the second insert fails, and its message is judged again, alone, as a DUPLICATE or a practice game).
CREATE UNIQUE INDEX game_record_one_per_seed ON game_record (level, seed) WHERE day IS NULL;
CREATE UNIQUE INDEX game_record_daily_once ON game_record (day, level, player_subject) WHERE day IS NOT NULL;

-- The level boards read only level records; the daily board a day's.
DROP INDEX game_record_top;
DROP INDEX game_record_recent;
DROP INDEX game_record_player;
CREATE INDEX game_record_top ON game_record (level, score DESC, finished_at, game_id)
    WHERE struck_at IS NULL AND day IS NULL;
CREATE INDEX game_record_recent ON game_record (level, finished_at) WHERE struck_at IS NULL AND day IS NULL;
CREATE INDEX game_record_player ON game_record (player_subject, level, score DESC)
    WHERE struck_at IS NULL AND day IS NULL;
CREATE INDEX game_record_daily ON game_record (day, level, score DESC, finished_at, game_id)
    WHERE struck_at IS NULL AND day IS NOT NULL;

-- Messages on game-finished whose signature did not hold: never judged, never a game (they do not take a game id).
-- One row per message (topic, partition, offset), whatever the redeliveries.
CREATE TABLE refused_message (
    id          BIGSERIAL PRIMARY KEY,
    topic       VARCHAR(255) NOT NULL,
    partition   INTEGER NOT NULL,
    "offset"    BIGINT NOT NULL,
    -- The Kafka key as received (at most 255 characters kept), or null.
    message_key VARCHAR(255),
    reason      TEXT NOT NULL,
    -- The value as received, NUL characters written \u0000, cut at 100,000 characters (the dead letter has it all).
    payload     TEXT,
    truncated   BOOLEAN NOT NULL,
    published_at TIMESTAMP WITH TIME ZONE,
    refused_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    UNIQUE (topic, partition, "offset")
);
CREATE INDEX refused_message_by_time ON refused_message (refused_at DESC, id DESC);
