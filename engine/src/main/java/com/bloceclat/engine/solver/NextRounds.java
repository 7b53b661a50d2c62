package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.SplitMix64;

/**
 * Sampled next rounds, drawn from the level's distribution only (never the real stream), each
 * played greedily in every order by the static evaluation. The same samples serve every
 * candidate of a search (common random numbers), so candidates are compared on equal luck.
 */
final class NextRounds {
    /** Value of a sampled round that no order can place: the game would end there. */
    static final double DEATH = -3000.0;

    private final Piece[][] rounds;
    private final Evaluator eval;

    NextRounds(Level level, Evaluator eval, long seed, int samples) {
        this.eval = eval;
        int[] weights = new int[Pieces.COUNT];
        for (int i = 0; i < Pieces.COUNT; i++) {
            weights[i] = level.weight(i);
        }
        SplitMix64 rng = new SplitMix64(seed);
        rounds = new Piece[samples][3];
        for (Piece[] r : rounds) {
            for (int j = 0; j < 3; j++) {
                r[j] = Pieces.get(rng.pick(weights));
            }
        }
    }

    /** Mean over the samples of the best greedy outcome; a sample no order places counts as {@link #DEATH}. */
    double value(long board, int streak, int miss) {
        double total = 0;
        for (Piece[] r : rounds) {
            total += Math.max(DEATH, greedy(board, streak, miss, r, 7, 0));
        }
        return total / rounds.length;
    }

    /**
     * The best over every order of the pieces left ({@code left}, a slot mask) of placing each in
     * turn where the static evaluation likes it best; orders sharing a first piece share its
     * placement. Minus infinity when no order places them all.
     */
    private double greedy(long board, int streak, int miss, Piece[] r, int left, double points) {
        if (left == 0) {
            return points + eval.board(board, streak, miss);
        }
        double result = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            if ((left & (1 << i)) == 0) {
                continue;
            }
            Piece p = r[i];
            long fit = p.fitAnchors(board);
            if (fit == 0) {
                continue;
            }
            double best = Double.NEGATIVE_INFINITY;
            long bestBoard = 0;
            int bestStreak = 0;
            int bestMiss = 0;
            int bestPts = 0;
            long shape = p.shape();
            while (fit != 0) {
                int a = Long.numberOfTrailingZeros(fit);
                fit &= fit - 1;
                long after = board | (shape << a);
                long nb = after & ~Board.fullLinesMask(after);
                int n = Board.fullLineCount(after);
                int ns = Rules.nextStreak(streak, miss, n);
                int nm = Rules.nextMiss(miss, n);
                int pts = Rules.points(p.cells(), n, ns, nb == 0);
                double v = Evaluator.POINTS * pts + eval.board(nb, ns, nm);
                if (v > best) {
                    best = v;
                    bestBoard = nb;
                    bestStreak = ns;
                    bestMiss = nm;
                    bestPts = pts;
                }
            }
            result = Math.max(result, greedy(bestBoard, bestStreak, bestMiss, r, left & ~(1 << i),
                    points + Evaluator.POINTS * bestPts));
        }
        return result;
    }
}
