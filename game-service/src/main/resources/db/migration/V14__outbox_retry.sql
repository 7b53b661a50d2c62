-- A row the relay kept after a failed send steps aside until next_attempt_at (OutboxRelay): its attempts double the
-- wait from bloc.outbox.poll-interval up to bloc.outbox.retry-max. Before, kept rows stayed the oldest, and once a
-- batch's worth of them failed on one topic (a deny ACL on game-finished, a topic short of in-sync replicas) every
-- pass took only them, and no row of the other topic was sent. NULL: never failed, due at once.
-- Columns without a volatile default are quick to add; the lock timeout is V13's (see there).
SET LOCAL lock_timeout = '2s';
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0, ADD COLUMN next_attempt_at TIMESTAMPTZ;
