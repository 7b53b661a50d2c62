package com.bloceclat.engine;

/** Placement, clearing and scoring exactly as RULES.md; the one place where these rules live. */
public final class Rules {
    public static final int RULES_VERSION = 1;
    public static final int LINE_POINTS = 10;
    public static final int MAX_MULTIPLIER = 8;
    /** The third piece in a row without a clear loses the streak. */
    public static final int MISSES_TO_LOSE_STREAK = 3;
    public static final int CLEAN_BOARD_BONUS = 400;

    private Rules() {
    }

    /** Points for clearing {@code n} lines at once, before the multiplier: 10 × n(n+1)/2. */
    public static int linePoints(int n) {
        return LINE_POINTS * n * (n + 1) / 2;
    }

    /** Streak after a placement that cleared {@code n} lines. */
    public static int nextStreak(int streak, int miss, int n) {
        if (n >= 1) {
            return streak + 1;
        }
        return miss + 1 >= MISSES_TO_LOSE_STREAK ? 0 : streak;
    }

    /** Miss count after a placement that cleared {@code n} lines. */
    public static int nextMiss(int miss, int n) {
        if (n >= 1) {
            return 0;
        }
        return miss + 1 >= MISSES_TO_LOSE_STREAK ? 0 : miss + 1;
    }

    /** Total points of one placement: cells + lines × min(streak after, 8) + clean-board bonus. */
    public static int points(int cells, int n, int streakAfter, boolean boardEmptyAfter) {
        int pts = cells;
        if (n >= 1) {
            pts += linePoints(n) * Math.min(streakAfter, MAX_MULTIPLIER);
            if (boardEmptyAfter) {
                pts += CLEAN_BOARD_BONUS;
            }
        }
        return pts;
    }

    /** Why a placement is illegal, or null when it is legal. */
    public static String illegalReason(long board, Piece piece, int row, int col) {
        if (!piece.onBoard(row, col)) {
            return "does not fit on the board";
        }
        if ((piece.maskAt(row, col) & board) != 0) {
            return "overlaps a filled cell";
        }
        return null;
    }

    /**
     * Places {@code piece} with its top-left corner at (row, col) and clears full lines.
     *
     * @throws IllegalArgumentException when the placement is illegal
     */
    public static Outcome place(long board, int streak, int miss, Piece piece, int row, int col) {
        String reason = illegalReason(board, piece, row, col);
        if (reason != null) {
            throw new IllegalArgumentException(piece.name() + " at (" + row + "," + col + ") " + reason);
        }
        long placed = piece.maskAt(row, col);
        long after = board | placed;
        long cleared = Board.fullLinesMask(after);
        int n = Board.fullLineCount(after);
        long result = after & ~cleared;
        int newStreak = nextStreak(streak, miss, n);
        int newMiss = nextMiss(miss, n);
        int multiplier = n >= 1 ? Math.min(newStreak, MAX_MULTIPLIER) : 0;
        int lineScore = n >= 1 ? linePoints(n) * multiplier : 0;
        int clean = n >= 1 && result == 0 ? CLEAN_BOARD_BONUS : 0;
        return new Outcome(result, placed, cleared, n, piece.cells(), multiplier, lineScore, clean, newStreak, newMiss);
    }

    /** True when at least one of the pieces has a legal placement. */
    public static boolean anyFits(long board, Piece... pieces) {
        for (Piece p : pieces) {
            if (p != null && p.fits(board)) {
                return true;
            }
        }
        return false;
    }

    /**
     * What one placement did.
     *
     * @param board      the board after clearing
     * @param placed     cells the piece covered
     * @param cleared    cells cleared (every cell of every full line)
     * @param lines      full rows + full columns
     * @param cellPoints points for the piece's cells
     * @param multiplier the streak multiplier applied to the lines (0 without lines)
     * @param linePoints points for the lines, multiplier included
     * @param cleanBonus the clean-board bonus (0 or 400)
     */
    public record Outcome(long board, long placed, long cleared, int lines, int cellPoints, int multiplier,
                          int linePoints, int cleanBonus, int streak, int miss) {
        public int points() {
            return cellPoints + linePoints + cleanBonus;
        }
    }
}
