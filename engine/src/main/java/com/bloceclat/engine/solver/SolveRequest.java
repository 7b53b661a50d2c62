package com.bloceclat.engine.solver;

import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;

import java.util.List;

/**
 * A position to solve: the board, one to three pieces still to place this round and the streak
 * state before the first of them (SOLVER-PROTOCOL.md).
 *
 * @param strength 1 (weakest) to 5 (full); ignored by {@code HINT} (always 5) and {@code MAX_LINES}
 * @param seed     seeds the noise of the lower strengths, so every answer is reproducible
 * @param timeMs   soft time budget; 0 for none
 */
public record SolveRequest(long board, List<Piece> pieces, int streak, int miss, Level level, Mode mode,
                           int strength, long seed, long timeMs) {
    public static final int MAX_STRENGTH = 5;
    /**
     * The longest streak a request may carry: far beyond any game (a game has at most 100,000 events), and far from
     * {@code int}'s end, so that the streak after the pieces cannot wrap round to a negative number.
     */
    public static final int MAX_STREAK = 1_000_000;
    /** The largest time budget, an hour: its deadline in nanoseconds stays far from {@code long}'s end. */
    public static final long MAX_TIME_MS = 3_600_000;

    public SolveRequest {
        pieces = List.copyOf(pieces);
        if (pieces.isEmpty() || pieces.size() > 3) {
            throw new IllegalArgumentException("give 1 to 3 pieces, got " + pieces.size());
        }
        if (streak < 0 || streak > MAX_STREAK || miss < 0 || miss >= 3) {
            throw new IllegalArgumentException("streak must be 0 to " + MAX_STREAK + " and miss 0, 1 or 2");
        }
        if (strength < 1 || strength > MAX_STRENGTH) {
            throw new IllegalArgumentException("strength must be 1 to 5, got " + strength);
        }
        if (timeMs < 0 || timeMs > MAX_TIME_MS) {
            throw new IllegalArgumentException("timeMs must be 0 to " + MAX_TIME_MS);
        }
    }

    /** Full strength, no time budget. */
    public static SolveRequest of(long board, List<Piece> pieces, int streak, int miss, Level level, Mode mode) {
        return new SolveRequest(board, pieces, streak, miss, level, mode, MAX_STRENGTH, 0, 0);
    }
}
