-- AI turns are claimed, not raced (AiDriver): a replica takes the AI games that are due with a short lease, in one
-- statement (FOR UPDATE SKIP LOCKED), so that each AI turn is asked of solver-service by one replica only. The lease
-- is cleared in the transaction that makes the placement; a replica that dies mid-turn leaves it to expire, and
-- another replica then plays the turn. A game whose AI waits for its person at the end of a round is held with no
-- holder until it is looked at again. Times are the database's clock; written only by native SQL (not the entity).
ALTER TABLE game ADD COLUMN ai_lease_until TIMESTAMP WITH TIME ZONE;
ALTER TABLE game ADD COLUMN ai_lease_holder UUID;
