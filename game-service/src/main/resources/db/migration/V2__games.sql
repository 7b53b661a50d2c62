-- A game is its row (who owns it, how it was set up, a summary for listing) and its events; the state is rebuilt by
-- replaying the events on a new engine Game(seed, level). The summary columns are written with each event.
CREATE TABLE game (
    id               UUID PRIMARY KEY,
    mode             VARCHAR(16)  NOT NULL,
    level            VARCHAR(16)  NOT NULL,
    seed             BIGINT       NOT NULL,
    seed_public      BOOLEAN      NOT NULL,
    owner_subject    VARCHAR(255),
    owner_name       VARCHAR(255),
    guest_token_hash VARCHAR(64),
    status           VARCHAR(16)  NOT NULL,
    score            INTEGER      NOT NULL,
    assisted         BOOLEAN      NOT NULL,
    event_count      INTEGER      NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    finished_at      TIMESTAMP WITH TIME ZONE,
    CONSTRAINT game_owned CHECK (owner_subject IS NOT NULL OR guest_token_hash IS NOT NULL)
);
CREATE INDEX game_owner ON game (owner_subject, created_at DESC);

-- Every event of a game in order: place (slot, row, col, and the client's move number), undo (of which move),
-- hint, resign.
CREATE TABLE game_event (
    game_id     UUID        NOT NULL REFERENCES game (id),
    seq         INTEGER     NOT NULL,
    type        VARCHAR(16) NOT NULL,
    round       INTEGER     NOT NULL,
    slot        INTEGER,
    row_index   INTEGER,
    col_index   INTEGER,
    move_number INTEGER,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE UNIQUE INDEX game_event_move ON game_event (game_id, move_number) WHERE type = 'PLACE';

-- The transactional outbox: messages written in the same transaction as the change they announce, sent to Kafka
-- by the relay afterwards and marked sent once the broker has acknowledged them.
CREATE TABLE outbox (
    id           BIGSERIAL PRIMARY KEY,
    topic        VARCHAR(64)  NOT NULL,
    msg_key      VARCHAR(255) NOT NULL,
    payload      TEXT         NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    sent_at      TIMESTAMP WITH TIME ZONE
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
