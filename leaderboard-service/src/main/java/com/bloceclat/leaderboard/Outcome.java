package com.bloceclat.leaderboard;

/** What became of a finished game (decided by {@link com.bloceclat.leaderboard.service.RecordPolicy}). */
public enum Outcome {
    /** Valid and eligible: on its level's boards (a server seed) or on its day's daily board (the first daily game). */
    RECORD,
    /** Valid, but not eligible: assisted, a guest's, a match, a chosen seed, or a daily game played again. */
    VALID_NOT_ELIGIBLE,
    /** The replay does not hold up, or the message's claims are not sane; the reason is kept. */
    REJECTED,
    /** Would be a record, but its seed already holds one (the same game under another id); kept for audit. */
    DUPLICATE
}
