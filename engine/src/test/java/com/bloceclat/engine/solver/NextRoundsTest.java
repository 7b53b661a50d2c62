package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.Rules;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The memoised sampled rounds give exactly what playing every order of every sample from scratch gives. */
class NextRoundsTest {

    /** A crowded board's wider look (Search.CROWDED) keeps an open board's samples as its first ones. */
    @Test
    void moreSamplesFromTheSameSeedBeginWithTheFewer() {
        NextRounds wide = new NextRounds();
        NextRounds narrow = new NextRounds();
        Evaluator eval = new Evaluator(Level.HARD, StrengthProfile.of(SolveRequest.MAX_STRENGTH).transition());
        wide.reset(Level.HARD, eval, 42, Search.SAMPLES * Search.CROWDED_FACTOR);
        narrow.reset(Level.HARD, eval, 42, Search.SAMPLES);
        assertEquals(Search.SAMPLES * Search.CROWDED_FACTOR, wide.samples());
        for (int s = 0; s < Search.SAMPLES; s++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(narrow.piece(s, j), wide.piece(s, j), "sample " + s + " piece " + j);
            }
        }
        // a search's narrower draw after a wider one uses only the samples it drew
        wide.reset(Level.HARD, eval, 42, Search.SAMPLES);
        assertEquals(Search.SAMPLES, wide.samples());
    }

    @Test
    void memoisedStepsEqualPlainGreedyPlay() {
        Random rnd = new Random(29);
        NextRounds next = new NextRounds();
        for (Level level : Level.values()) {
            Evaluator eval = new Evaluator(level, StrengthProfile.of(SolveRequest.MAX_STRENGTH).transition());
            for (int t = 0; t < 40; t++) {
                next.reset(level, eval, rnd.nextLong(), 24);
                // several candidates per draw, as in a search: the memo must not leak from one to the next
                for (int c = 0; c < 4; c++) {
                    long board = SolverTest.randomBoard(rnd, 0.15 + 0.6 * rnd.nextDouble());
                    int streak = rnd.nextInt(10);
                    int miss = streak == 0 ? 0 : rnd.nextInt(3);
                    double expected = 0;
                    for (int s = 0; s < next.samples(); s++) {
                        Piece[] r = {Pieces.get(next.piece(s, 0)), Pieces.get(next.piece(s, 1)),
                            Pieces.get(next.piece(s, 2))};
                        expected += Math.max(NextRounds.DEATH, greedy(eval, board, streak, miss, r, 7, 0));
                    }
                    assertEquals(expected, next.sum(board, streak, miss, 0, next.samples(), 0), 0.0);
                    double half = next.sum(board, streak, miss, 0, 10, 0);
                    assertEquals(expected, next.sum(board, streak, miss, 10, next.samples(), half), 0.0);
                }
            }
        }
    }

    /** Every order, each piece where points plus the static evaluation are highest (first such anchor). */
    private static double greedy(Evaluator eval, long board, int streak, int miss, Piece[] r, int left,
                                 double points) {
        if (left == 0) {
            return points + eval.board(board, streak, miss);
        }
        double result = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            if ((left & (1 << i)) == 0 || r[i].fitAnchors(board) == 0) {
                continue;
            }
            double best = Double.NEGATIVE_INFINITY;
            long bestBoard = 0;
            int bestStreak = 0;
            int bestMiss = 0;
            int bestPts = 0;
            for (long fit = r[i].fitAnchors(board); fit != 0; fit &= fit - 1) {
                long after = board | (r[i].shape() << Long.numberOfTrailingZeros(fit));
                long nb = after & ~Board.fullLinesMask(after);
                int n = Board.fullLineCount(after);
                int ns = Rules.nextStreak(streak, miss, n);
                int nm = Rules.nextMiss(miss, n);
                int pts = Rules.points(r[i].cells(), n, ns, nb == 0);
                double v = Evaluator.POINTS * pts + eval.board(nb, ns, nm);
                if (v > best) {
                    best = v;
                    bestBoard = nb;
                    bestStreak = ns;
                    bestMiss = nm;
                    bestPts = pts;
                }
            }
            result = Math.max(result, greedy(eval, bestBoard, bestStreak, bestMiss, r, left & ~(1 << i),
                    points + Evaluator.POINTS * bestPts));
        }
        return result;
    }
}
