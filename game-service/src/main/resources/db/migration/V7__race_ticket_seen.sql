-- A waiting player's page asks for its ticket every second: the last time it did. Matchmaking passes over tickets not
-- asked for within bloc.race.ticket-timeout (the player closed the page), so nobody is paired with someone gone.
ALTER TABLE race_ticket ADD COLUMN seen_at TIMESTAMP WITH TIME ZONE;
UPDATE race_ticket SET seen_at = created_at;
ALTER TABLE race_ticket ALTER COLUMN seen_at SET NOT NULL;
