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
 *
 * <p>One per search thread, reused. The greedy step of a piece depends only on the board before
 * it, so for one candidate the first piece's step is computed once per distinct piece, the second's
 * once per ordered pair of pieces, and the last once per board it is played on within a sample:
 * the samples repeat pieces, so this does the same work several times faster with the same result.
 */
final class NextRounds {
    /** Value of a sampled round that no order can place: the game would end there. */
    static final double DEATH = -3000.0;

    private static final int N = Pieces.COUNT;
    private static final int[][] ORDERS = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

    private int[][] rounds = new int[0][3];
    private int sampleCount;
    private Evaluator eval;

    /** Candidate generation stamp: memo entries from an earlier candidate are stale. */
    private int generation;
    /** Steps from the candidate board, by piece. */
    private final Steps one = new Steps(N);
    /** Steps after a first piece, by ordered pair first * N + second. */
    private final Steps two = new Steps(N * N);
    // The last piece's steps within one sample: the board it was played on, and the outcome.
    private final long[] lastBoard = new long[ORDERS.length];
    private final int[] lastKey = new int[ORDERS.length];
    private final int[] lastPts = new int[ORDERS.length];
    private final double[] lastEval = new double[ORDERS.length];
    private int lastCount;

    // The outcome of the last greedy step.
    private long stepBoard;
    private int stepStreak;
    private int stepMiss;
    private int stepPts;
    private double stepEval;

    /** Draws {@code samples} rounds for a new search. */
    void reset(Level level, Evaluator eval, long seed, int samples) {
        this.eval = eval;
        int[] weights = new int[N];
        for (int i = 0; i < N; i++) {
            weights[i] = level.weight(i);
        }
        if (rounds.length < samples) {
            rounds = new int[samples][3];
        }
        sampleCount = samples;
        SplitMix64 rng = new SplitMix64(seed);
        for (int s = 0; s < samples; s++) {
            for (int j = 0; j < 3; j++) {
                rounds[s][j] = rng.pick(weights);
            }
        }
    }

    int samples() {
        return sampleCount;
    }

    /** The catalogue index of piece {@code j} of sample {@code s}. */
    int piece(int s, int j) {
        return rounds[s][j];
    }

    /**
     * {@code start} plus the best greedy outcome of samples {@code from} to {@code to} (exclusive),
     * added one by one; a sample no order places counts as {@link #DEATH}.
     */
    double sum(long board, int streak, int miss, int from, int to, double start) {
        if (++generation == Integer.MAX_VALUE) {
            generation = 1;
            one.forget();
            two.forget();
        }
        double total = start;
        for (int s = from; s < to; s++) {
            total += Math.max(DEATH, sample(board, streak, miss, rounds[s]));
        }
        return total;
    }

    /** The best over every order of placing each piece in turn where the static evaluation likes it best. */
    private double sample(long board, int streak, int miss, int[] r) {
        double result = Double.NEGATIVE_INFINITY;
        lastCount = 0;
        for (int[] order : ORDERS) {
            int a = r[order[0]];
            int b = r[order[1]];
            int c = r[order[2]];
            if (!one.step(a, a, board, streak, miss)) {
                continue;
            }
            double points = Evaluator.POINTS * one.pts[a];
            int ab = a * N + b;
            if (!two.step(ab, b, one.board[a], one.streak[a], one.miss[a])) {
                continue;
            }
            points += Evaluator.POINTS * two.pts[ab];
            int k = last(c, two.board[ab], two.streak[ab], two.miss[ab]);
            if (k < 0) {
                continue;
            }
            result = Math.max(result, points + Evaluator.POINTS * lastPts[k] + lastEval[k]);
        }
        return result;
    }

    /** Greedy steps of one level of a sampled round for the current candidate, computed once each. */
    private final class Steps {
        /** 0 = not computed for this candidate, else its generation (negative: the piece fits nowhere). */
        final int[] gen;
        final long[] board;
        final int[] streak;
        final int[] miss;
        final int[] pts;

        Steps(int size) {
            gen = new int[size];
            board = new long[size];
            streak = new int[size];
            miss = new int[size];
            pts = new int[size];
        }

        void forget() {
            java.util.Arrays.fill(gen, 0);
        }

        /** Entry {@code i}: catalogue piece {@code piece} played from that position; false when it fits nowhere. */
        boolean step(int i, int piece, long from, int fromStreak, int fromMiss) {
            int g = gen[i];
            if (g == generation || g == -generation) {
                return g == generation;
            }
            boolean fits = NextRounds.this.step(Pieces.get(piece), from, fromStreak, fromMiss);
            gen[i] = fits ? generation : -generation;
            board[i] = stepBoard;
            streak[i] = stepStreak;
            miss[i] = stepMiss;
            pts[i] = stepPts;
            return fits;
        }
    }

    /** Index of the last piece's step in this sample's table, or -1 when it fits nowhere. */
    private int last(int piece, long board, int streak, int miss) {
        int key = (piece << 16 | Math.min(streak, 0x3FFF) << 2 | miss) << 1;
        for (int k = 0; k < lastCount; k++) {
            if (lastBoard[k] == board && (lastKey[k] & ~1) == key) {
                return (lastKey[k] & 1) != 0 ? k : -1;
            }
        }
        boolean fits = step(Pieces.get(piece), board, streak, miss);
        int k = lastCount++;
        lastBoard[k] = board;
        lastKey[k] = key | (fits ? 1 : 0);
        lastPts[k] = stepPts;
        lastEval[k] = stepEval;
        return fits ? k : -1;
    }

    /** Plays a piece where points plus the static evaluation are highest (the first such anchor). */
    private boolean step(Piece p, long board, int streak, int miss) {
        long fit = p.fitAnchors(board);
        if (fit == 0) {
            return false;
        }
        double best = Double.NEGATIVE_INFINITY;
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
            double e = eval.board(nb, ns, nm);
            double v = Evaluator.POINTS * pts + e;
            if (v > best) {
                best = v;
                stepBoard = nb;
                stepStreak = ns;
                stepMiss = nm;
                stepPts = pts;
                stepEval = e;
            }
        }
        return true;
    }
}
