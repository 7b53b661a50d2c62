-- Matchmaking for online races: a logged-in player waits on a level until another joins; the match is made at once.
CREATE TABLE race_ticket (
    id         UUID PRIMARY KEY,
    subject    VARCHAR(255) NOT NULL,
    name       VARCHAR(255) NOT NULL,
    level      VARCHAR(16)  NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    match_id   UUID REFERENCES match (id),
    cancelled  BOOLEAN      NOT NULL DEFAULT FALSE
);
CREATE INDEX race_ticket_waiting ON race_ticket (level, created_at) WHERE match_id IS NULL AND NOT cancelled;
