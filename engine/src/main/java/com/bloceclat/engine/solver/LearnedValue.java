package com.bloceclat.engine.solver;

import com.bloceclat.engine.Level;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;

/**
 * A board's value learned from self-play: about how many more rounds the level's deal lets a player
 * survive from it (issue 16, docs/solver.md). An n-tuple network: every pair of adjacent rows and every
 * pair of adjacent columns (16 cells) looks its pattern up in a table, and the value is the sum of the
 * 14 entries. The tables are shared by position class under the board's symmetries (a pair and its
 * mirror image top to bottom, rows and columns), so 4 tables of 65,536 entries per level; each row's
 * and column's own pattern is folded into them. Trained by TD(0) on round afterstates
 * ({@code ValueTraining} in the engine's tests) on seeds no benchmark uses.
 */
final class LearnedValue {
    /** Tables by position class: pair (i, i+1) of rows or columns takes class min(i, 6 - i). */
    static final int CLASSES = 4;
    static final int ENTRIES = 1 << 16;

    private static final LearnedValue[] BY_LEVEL = new LearnedValue[Level.values().length];
    private static final boolean[] LOADED = new boolean[Level.values().length];

    private final float bias;
    private final float[] table;

    LearnedValue(float bias, float[] table) {
        if (table.length != CLASSES * ENTRIES) {
            throw new IllegalArgumentException("expected " + CLASSES * ENTRIES + " entries, got " + table.length);
        }
        this.bias = bias;
        this.table = table;
    }

    /** The level's table, or null when none was trained for it (the hand-made evaluation serves). */
    static synchronized LearnedValue of(Level level) {
        int i = level.ordinal();
        if (!LOADED[i]) {
            BY_LEVEL[i] = load(level);
            LOADED[i] = true;
        }
        return BY_LEVEL[i];
    }

    static String resource(Level level) {
        return "value-" + level.name() + ".bin.gz";
    }

    private static LearnedValue load(Level level) {
        try (InputStream raw = LearnedValue.class.getResourceAsStream(resource(level))) {
            if (raw == null) {
                return null;
            }
            return read(raw);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource(level), e);
        }
    }

    /** A table as {@code ValueTraining fold} writes it: gzip of the bias, then the 4 tables, big-endian floats. */
    static LearnedValue read(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(new GZIPInputStream(raw, 1 << 16));
        float bias = in.readFloat();
        float[] t = new float[CLASSES * ENTRIES];
        for (int k = 0; k < t.length; k++) {
            t[k] = in.readFloat();
        }
        return new LearnedValue(bias, t);
    }

    /**
     * The value of a board: rows 0-1, 1-2, 2-3 and 3-4 as they are, rows 7-6, 6-5 and 5-4 through the
     * board flipped top to bottom (a byte swap), so a pair and its mirror image read the same entry; the
     * columns likewise through the transposed board.
     */
    double value(long b) {
        long f = Long.reverseBytes(b);
        long t = Evaluator.transpose(b);
        long tf = Long.reverseBytes(t);
        float[] w = table;
        return (double) bias
                + w[(int) (b & 0xFFFF)] + w[ENTRIES | (int) ((b >>> 8) & 0xFFFF)]
                + w[2 * ENTRIES | (int) ((b >>> 16) & 0xFFFF)] + w[3 * ENTRIES | (int) ((b >>> 24) & 0xFFFF)]
                + w[(int) (f & 0xFFFF)] + w[ENTRIES | (int) ((f >>> 8) & 0xFFFF)]
                + w[2 * ENTRIES | (int) ((f >>> 16) & 0xFFFF)]
                + w[(int) (t & 0xFFFF)] + w[ENTRIES | (int) ((t >>> 8) & 0xFFFF)]
                + w[2 * ENTRIES | (int) ((t >>> 16) & 0xFFFF)] + w[3 * ENTRIES | (int) ((t >>> 24) & 0xFFFF)]
                + w[(int) (tf & 0xFFFF)] + w[ENTRIES | (int) ((tf >>> 8) & 0xFFFF)]
                + w[2 * ENTRIES | (int) ((tf >>> 16) & 0xFFFF)];
    }
}
