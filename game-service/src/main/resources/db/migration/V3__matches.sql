-- A match groups the games of one contest on one seed: versus AI (seat 0 the person, seat 1 the AI), two players on
-- one device, an online race. Its result is decided by the referee as the games end.
CREATE TABLE match (
    id           UUID PRIMARY KEY,
    mode         VARCHAR(16)  NOT NULL,
    level        VARCHAR(16)  NOT NULL,
    seed         BIGINT       NOT NULL,
    strength     INTEGER,
    status       VARCHAR(16)  NOT NULL,
    target_score INTEGER,
    winner_seat  INTEGER,
    result       VARCHAR(255),
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    finished_at  TIMESTAMP WITH TIME ZONE
);

ALTER TABLE game ADD COLUMN match_id UUID REFERENCES match (id);
ALTER TABLE game ADD COLUMN seat INTEGER;
ALTER TABLE game DROP CONSTRAINT game_owned;
-- The AI's game has no owner: it is played by game-service itself.
ALTER TABLE game ADD CONSTRAINT game_owned
    CHECK (owner_subject IS NOT NULL OR guest_token_hash IS NOT NULL OR (mode = 'VERSUS_AI' AND seat = 1));
CREATE INDEX game_match ON game (match_id, seat);
CREATE INDEX game_ai_playing ON game (updated_at) WHERE mode = 'VERSUS_AI' AND seat = 1 AND status = 'PLAYING';
