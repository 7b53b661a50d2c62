-- Synthetic canaries sent by game-service through Kafka; one row per canary id, whatever the redeliveries.
CREATE TABLE canary (
    id      UUID PRIMARY KEY,
    sent_at TIMESTAMP WITH TIME ZONE NOT NULL,
    seen_at TIMESTAMP WITH TIME ZONE NOT NULL
);
