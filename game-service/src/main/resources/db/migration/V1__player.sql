-- A player is a Keycloak subject; the row is created the first time the player calls game-service.
CREATE TABLE player (
    subject       VARCHAR(255) PRIMARY KEY,
    name          VARCHAR(255) NOT NULL,
    first_seen_at TIMESTAMP WITH TIME ZONE NOT NULL,
    last_seen_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
