-- Private races (PrivateRaceService): a logged-in player's link; the first other logged-in player who opens it before
-- it expires races them at once, with no queue. The code is the link's secret (128 random bits, base64url).
CREATE TABLE private_race (
    code          VARCHAR(32)  PRIMARY KEY,
    host_subject  VARCHAR(255) NOT NULL,
    host_name     VARCHAR(255) NOT NULL,
    level         VARCHAR(16)  NOT NULL,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    match_id      UUID REFERENCES match (id),
    guest_subject VARCHAR(255)
);
CREATE INDEX private_race_host ON private_race (host_subject, created_at);
