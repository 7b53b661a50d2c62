package com.bloceclat.engine.solver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.Rules;

/**
 * The search scores its placements with {@link Rules} (streak, miss, points) and clears lines as {@link Board} does:
 * on positions made to clear lines, several at once, at every streak and miss, and to empty the board (the clean-board
 * bonus), its best sequence scores exactly what a brute force playing {@code Rules.place} one placement at a time
 * finds best.
 */
class SearchScoringTest {

    /** The best (placed, lines, points) over every order and placement, rules applied one by one. */
    private static int[] bruteForce(long board, List<Piece> pieces, boolean[] used, int streak, int miss, int placed,
                                    int lines, int points) {
        int[] best = null;
        for (int i = 0; i < pieces.size(); i++) {
            if (used[i]) {
                continue;
            }
            Piece p = pieces.get(i);
            for (int r = 0; r + p.height() <= 8; r++) {
                for (int c = 0; c + p.width() <= 8; c++) {
                    if (Rules.illegalReason(board, p, r, c) != null) {
                        continue;
                    }
                    Rules.Outcome o = Rules.place(board, streak, miss, p, r, c);
                    used[i] = true;
                    int[] v = bruteForce(o.board(), pieces, used, o.streak(), o.miss(), placed + 1, lines + o.lines(),
                            points + o.points());
                    used[i] = false;
                    if (best == null || better(v, best)) {
                        best = v;
                    }
                }
            }
        }
        return best == null ? new int[] {placed, lines, points} : best;
    }

    private static boolean better(int[] a, int[] b) {
        return a[0] != b[0] ? a[0] > b[0] : a[1] != b[1] ? a[1] > b[1] : a[2] > b[2];
    }

    /**
     * Lines crossing a placement of {@code piece}, with the piece's own cells left open: placing it there clears
     * them all, and empties the board when the piece lies inside them.
     */
    private static long openFor(Piece piece, int row, int col, Random rnd) {
        long mask = piece.maskAt(row, col);
        long lines = 0;
        for (int cell = 0; cell < 64; cell++) {
            if ((mask & 1L << cell) != 0) {
                if (rnd.nextInt(3) == 0) {
                    lines |= Board.ROW0 << (8 * (cell / 8));
                }
                if (rnd.nextInt(3) == 0) {
                    lines |= Board.COL0 << (cell % 8);
                }
            }
        }
        return lines & ~mask;
    }

    @Test
    void theSearchScoresAsRulesPlaceDoes() {
        Random rnd = new Random(1610);
        int multiLine = 0;
        int clean = 0;
        for (int t = 0; t < 400; t++) {
            Piece first = Pieces.get(rnd.nextInt(Pieces.COUNT));
            int row = rnd.nextInt(9 - first.height());
            int col = rnd.nextInt(9 - first.width());
            long board = openFor(first, row, col, rnd);
            if (rnd.nextBoolean()) {
                board |= SolverTest.randomBoard(rnd, 0.3) & ~first.maskAt(row, col) & ~Board.fullLinesMask(board);
                board &= ~Board.fullLinesMask(board);
            }
            List<Piece> pieces = new ArrayList<>(List.of(first));
            // Three pieces in one position of five: the brute force over three is slow.
            for (int k = t % 5 == 0 ? 2 : rnd.nextInt(2); k > 0; k--) {
                pieces.add(Pieces.get(rnd.nextInt(Pieces.COUNT)));
            }
            int streak = rnd.nextInt(12);
            int miss = rnd.nextInt(Rules.MISSES_TO_LOSE_STREAK);
            int[] bf = bruteForce(board, pieces, new boolean[pieces.size()], streak, miss, 0, 0, 0);
            Solution s = Solver.solve(SolveRequest.of(board, pieces, streak, miss, Level.HARD, Mode.MAX_LINES));
            String where = Board.text(board) + "\n" + pieces + " streak " + streak + " miss " + miss;
            assertEquals(bf[0], s.best().placements().size(), where);
            assertEquals(bf[1], s.best().lines(), where);
            assertEquals(bf[2], s.best().points(), where);
            multiLine += bf[1] >= 2 ? 1 : 0;
            clean += s.best().board() == 0 && bf[1] > 0 ? 1 : 0;
        }
        assertTrue(multiLine > 50 && clean > 20, multiLine + " positions cleared several lines, " + clean
                + " emptied the board: too few to check the scoring");
    }
}
