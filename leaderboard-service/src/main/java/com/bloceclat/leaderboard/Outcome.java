package com.bloceclat.leaderboard;

/** What became of a finished game. */
public enum Outcome {
    /** Valid, unassisted, played by a logged-in player: on the leaderboard. */
    RECORD,
    /** Valid, but assisted (a hint or an undo) or played by a guest. */
    VALID_NOT_ELIGIBLE,
    /** The replay does not hold up; the validator's reason is kept. */
    REJECTED
}
