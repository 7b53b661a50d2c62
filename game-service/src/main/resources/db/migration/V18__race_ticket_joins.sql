-- A join of the race queue counts the player's race tickets in the starts window among their starts
-- (ClientLimits.Start.RACE_JOIN, docs/game-service.md "Limits"): a loop of joins and leaves starts no game, and each
-- left a ticket row. The count reads the window's rows only.
-- On a large database, build it first by hand with CREATE INDEX CONCURRENTLY under this name (docs/platform.md
-- "Upgrades").
CREATE INDEX IF NOT EXISTS race_ticket_subject_created ON race_ticket (subject, created_at);
