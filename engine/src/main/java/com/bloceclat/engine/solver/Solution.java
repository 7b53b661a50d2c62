package com.bloceclat.engine.solver;

import java.util.List;

/**
 * The solver's answer.
 *
 * @param best              the sequence to play
 * @param alternatives      {@code MAX_LINES} only (null otherwise): other sequences as good that end on
 *                          other boards, at most 100, in search order
 * @param alternativesTotal how many such other sequences (final boards) exist in all
 * @param nodes             placements examined
 * @param micros            wall time spent
 * @param complete          false when the time budget cut the search short
 */
public record Solution(Sequence best, List<Sequence> alternatives, int alternativesTotal, long nodes, long micros,
                       boolean complete) {

    /** One placement: {@code piece} indexes the request's pieces. */
    public record Placement(int piece, int row, int col) {
    }

    /**
     * Placements in playing order and what they do together.
     *
     * @param gameOver true when not every piece could be placed
     */
    public record Sequence(List<Placement> placements, int points, int lines, int streak, int miss, long board,
                           boolean gameOver) {
    }
}
