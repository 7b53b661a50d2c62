package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.Rules;

/**
 * Scores a board after a round, higher is better, in units of roughly one cell. Bitboard features
 * only, so a leaf costs a few dozen instructions; the weights are named constants, tuned by
 * {@code selfplay} (docs/solver.md). Full strength on a level with a {@link LearnedValue} scores the
 * board by that instead: {@link #LEARNED_SCALE} units a round it expects the board to survive.
 */
final class Evaluator {
    static final double FILLED_CELL = -0.5;
    static final double ISOLATED_EMPTY = -7.0;
    /** An empty cell with no empty neighbour left or right: only vertical pieces or a dot fill it. */
    static final double NARROW_EMPTY = -2.5;
    /** An empty cell with no empty neighbour above or below: only horizontal pieces or a dot fill it. */
    static final double VNARROW_EMPTY = -2.5;
    static final double NO_ROOM_O9 = -10.0;
    static final double NO_ROOM_I5 = -5.0;
    static final double STREAK = 0.8;
    /** A row or column with one to three empty cells: one piece away from clearing. */
    static final double NEAR_LINE = 0.3;
    static final double POINTS = 0.03;

    /**
     * Units per round of survival the learned value expects: a sampled round no order places
     * ({@link NextRounds#DEATH}, -3,000) then costs what 15 rounds of expected survival are worth; 50 (a
     * dead sample worth 60 rounds) survived 17% less on DIABOLICAL (docs/benchmarks.md, issue 16).
     */
    static final double LEARNED_SCALE = 200.0;

    /** Value of certain death next round, weighed by {@link #risk}. */
    static final double DEATH = -1000.0;

    private static final long COL0 = 0x0101010101010101L;
    private static final long COL7 = COL0 << 7;
    private static final long ROWS_0_TO_6 = 0x00FFFFFFFFFFFFFFL;
    private static final long COLS_0_TO_5 = 0x3F3F3F3F3F3F3F3FL;
    private static final long COLS_0_TO_3 = 0x0F0F0F0F0F0F0F0FL;

    /** Weight of a filled/empty transition between neighbours: the strength's (StrengthProfile). */
    private final double transition;
    private final double noO9;
    private final double noI5h;
    private final double noI5v;
    private final Piece[] future;
    private final double[] futureProb;
    /** The level's learned board value when the strength uses one (StrengthProfile), else null. */
    private final LearnedValue learned;

    Evaluator(Level level, double transition) {
        this(level, transition, false);
    }

    Evaluator(Level level, double transition, boolean learnedValue) {
        this.transition = transition;
        this.learned = learnedValue ? LearnedValue.of(level) : null;
        double[] dist = level.distribution();
        noO9 = dist[Pieces.require("O9").index()] > 0 ? NO_ROOM_O9 : 0;
        noI5h = dist[Pieces.require("I5H").index()] > 0 ? NO_ROOM_I5 : 0;
        noI5v = dist[Pieces.require("I5V").index()] > 0 ? NO_ROOM_I5 : 0;
        int n = 0;
        for (double p : dist) {
            if (p > 0) {
                n++;
            }
        }
        future = new Piece[n];
        futureProb = new double[n];
        int k = 0;
        for (int i = 0; i < dist.length; i++) {
            if (dist[i] > 0) {
                future[k] = Pieces.get(i);
                futureProb[k++] = dist[i];
            }
        }
    }

    /** The static evaluation of a board and the streak state it carries. */
    double board(long b, int streak, int miss) {
        if (learned != null) {
            return LEARNED_SCALE * learned.value(b) + streakValue(streak, miss);
        }
        long e = ~b;
        int trans = Long.bitCount((b ^ (b >>> 1)) & ~COL7) + Long.bitCount((b ^ (b >>> 8)) & ROWS_0_TO_6);
        long left = (e << 1) & ~COL0;
        long right = (e >>> 1) & ~COL7;
        long horiz = left | right;
        long vert = (e << 8) | (e >>> 8);
        long isolated = e & ~(horiz | vert);
        long narrow = e & ~horiz & vert;
        long vnarrow = e & ~vert & horiz;
        double v = FILLED_CELL * Long.bitCount(b)
                + transition * trans
                + ISOLATED_EMPTY * Long.bitCount(isolated)
                + NARROW_EMPTY * Long.bitCount(narrow)
                + VNARROW_EMPTY * Long.bitCount(vnarrow);
        long h3 = e & (e >>> 1) & (e >>> 2) & COLS_0_TO_5;
        if ((h3 & (h3 >>> 8) & (h3 >>> 16)) == 0) {
            v += noO9;
        }
        if ((h3 & (h3 >>> 2) & COLS_0_TO_3) == 0) {
            v += noI5h;
        }
        long v3 = e & (e >>> 8) & (e >>> 16);
        if ((v3 & (v3 >>> 16)) == 0) {
            v += noI5v;
        }
        v += NEAR_LINE * (nearRows(e) + nearRows(transpose(e)));
        return v + streakValue(streak, miss);
    }

    private static double streakValue(int streak, int miss) {
        return streak > 0 ? STREAK * Math.min(streak, Rules.MAX_MULTIPLIER) * (miss < 2 ? 1.0 : 0.5) : 0;
    }

    /** Rows with one to three of the given cells: byte-wise popcount, then a range test per byte. */
    static int nearRows(long cells) {
        long x = cells - ((cells >>> 1) & 0x5555555555555555L);
        x = (x & 0x3333333333333333L) + ((x >>> 2) & 0x3333333333333333L);
        x = (x + (x >>> 4)) & 0x0F0F0F0F0F0F0F0FL;
        long nonZero = (x | (x >>> 1) | (x >>> 2) | (x >>> 3)) & Board.COL0;
        long fourOrMore = ((x >>> 2) | (x >>> 3)) & Board.COL0;
        return Long.bitCount(nonZero & ~fourOrMore);
    }

    /** Swaps rows and columns (three delta swaps), so column questions become row questions. */
    static long transpose(long x) {
        long t = 0x0F0F0F0F00000000L & (x ^ (x << 28));
        x ^= t ^ (t >>> 28);
        t = 0x3333000033330000L & (x ^ (x << 14));
        x ^= t ^ (t >>> 14);
        t = 0x5500550055005500L & (x ^ (x << 7));
        x ^= t ^ (t >>> 7);
        return x;
    }

    /** Chance that a round of three pieces from the level's distribution has one that fits nowhere. */
    double risk(long b) {
        double fits = 0;
        for (int k = 0; k < future.length; k++) {
            if (future[k].fits(b)) {
                fits += futureProb[k];
            }
        }
        return 1 - fits * fits * fits;
    }
}
