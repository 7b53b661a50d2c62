-- The relay now deletes a batch once the broker has acknowledged it (the messages live on in Kafka), so the outbox
-- holds only what is still to send instead of growing with every move for ever.
DELETE FROM outbox WHERE sent_at IS NOT NULL;
DROP INDEX outbox_unsent;
ALTER TABLE outbox DROP COLUMN sent_at;
