-- What the relay sends as a game-events record's header bloc-match (OutboxRelay): the game's match id, '' for a solo
-- game's change. Each replica's live consumer reads every game-events record; with the header it skips, unread, a
-- record of a solo game or of a match it holds no socket for (LiveUpdates). NULL (game-finished, and rows written
-- before this column) sends no header, and such a record is read in full, as before.
-- Adding a column without a default is quick, but takes the table's lock behind the relays' open transactions, and every
-- move's insert would queue behind it: past 2 s the migration fails (and with it this replica's start, which a restart
-- tries again) rather than stall the moves of the replicas still running.
SET LOCAL lock_timeout = '2s';
ALTER TABLE outbox ADD COLUMN live_match VARCHAR(36);
