package com.bloceclat.engine.solver;

import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;

import java.io.DataInputStream;
import java.io.EOFException;
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
 *
 * <p>A table may also weigh the room left for each large shape ({@link #ROOM_CLASSES}): how many places
 * it fits, 0 to 5 or more, one weight per class of shapes and count. The pairs cannot see that (room for a
 * 3×3 square spans three rows). Shapes that are each other's mirror image or transpose share a class, so
 * the value keeps the board's symmetries.
 */
final class LearnedValue {
    /** Tables by position class: pair (i, i+1) of rows or columns takes class min(i, 6 - i). */
    static final int CLASSES = 4;
    static final int ENTRIES = 1 << 16;

    private static final LearnedValue[] BY_LEVEL = new LearnedValue[Level.values().length];
    private static final boolean[] LOADED = new boolean[Level.values().length];

    /**
     * The large shapes by class under the board's flips and transposition, in the order {@link #roomCounts}
     * packs them.
     */
    static final String[][] ROOM_CLASSES = {{"I5H", "I5V"}, {"R6H", "R6V"}, {"V5A", "V5B", "V5C", "V5D"}, {"O9"}, {"X5"}};
    /** Places counted 0 to 5, the last meaning 5 or more. */
    static final int ROOM_BUCKETS = 6;
    static final int ROOM_ENTRIES = ROOM_CLASSES.length * ROOM_BUCKETS;
    static final int ROOM_SHAPES = 10;
    /** Each large shape's class, in {@link #roomCounts}' order. */
    private static final int[] ROOM_CLASS = {0, 0, 1, 1, 2, 2, 2, 2, 3, 4};
    // Where each shape's top left cell may go (Piece.anchorMask), in roomCounts' order.
    private static final long A_I5H = anchors("I5H");
    private static final long A_I5V = anchors("I5V");
    private static final long A_R6H = anchors("R6H");
    private static final long A_R6V = anchors("R6V");
    private static final long A_3X3 = anchors("O9"); // every 3x3 shape: V5A-D, O9 and X5

    private static long anchors(String id) {
        return Pieces.require(id).anchorMask();
    }

    private final float bias;
    private final float[] table;
    /** The room weights as trained ({@link #roomEntry}), or null. */
    private final float[] room;
    /**
     * The room weights summed by groups of {@link #roomCounts}' fields, indexed by the group's bits: I5H and
     * I5V (6 bits), R6H and R6V (6), V5A-D (12), O9 and X5 (6); so a board reads 4 entries, not 10. Null when
     * the table has no room weights.
     */
    private final float[] roomI5;
    private final float[] roomR6;
    private final float[] roomV5;
    private final float[] roomO9X5;

    LearnedValue(float bias, float[] table) {
        this(bias, table, null);
    }

    LearnedValue(float bias, float[] table, float[] room) {
        if (table.length != CLASSES * ENTRIES) {
            throw new IllegalArgumentException("expected " + CLASSES * ENTRIES + " entries, got " + table.length);
        }
        if (room != null && room.length != ROOM_ENTRIES) {
            throw new IllegalArgumentException("expected " + ROOM_ENTRIES + " room weights, got " + room.length);
        }
        this.bias = bias;
        this.table = table;
        this.room = room;
        roomI5 = room == null ? null : group(room, 0, 2);
        roomR6 = room == null ? null : group(room, 2, 2);
        roomV5 = room == null ? null : group(room, 4, 4);
        roomO9X5 = room == null ? null : group(room, 8, 2);
    }

    /** The weights as read, for ValueTraining to train them further: bias, pair tables, room weights (or null). */
    float bias() {
        return bias;
    }

    float[] table() {
        return table;
    }

    float[] room() {
        return room;
    }

    /** For every value of fields {@code first} .. {@code first + n - 1} of roomCounts: the sum of their weights. */
    private static float[] group(float[] room, int first, int n) {
        float[] sums = new float[1 << (3 * n)];
        for (int bits = 0; bits < sums.length; bits++) {
            long counts = (long) bits << (3 * first);
            float s = 0;
            for (int k = first; k < first + n; k++) {
                int places = (int) ((counts >>> (3 * k)) & 7);
                s += places < ROOM_BUCKETS ? room[roomEntry(counts, k)] : 0; // 6 and 7 never occur
            }
            sums[bits] = s;
        }
        return sums;
    }

    /**
     * How many places each large shape fits on board {@code b}, at most 5, 3 bits a shape in the order of
     * {@link #ROOM_CLASSES} (what {@link Piece#fitAnchors} counts, LearnedValueTest checks): runs of empty
     * cells across and down, shifted, stand for the shapes' cells, so that a board costs a few dozen
     * instructions rather than a loop over every shape's cells (the look-ahead values millions of boards).
     */
    static long roomCounts(long b) {
        long e = ~b;
        long h2 = e & (e >>> 1);
        long h3 = h2 & (e >>> 2);
        long v2 = e & (e >>> 8);
        long v3 = v2 & (e >>> 16);
        long sq = h3 & (h3 >>> 8) & (h3 >>> 16);
        return capped(h3 & (h2 >>> 3) & A_I5H)
                | capped(v3 & (v2 >>> 24) & A_I5V) << 3
                | capped(h3 & (h3 >>> 8) & A_R6H) << 6
                | capped(h2 & (h2 >>> 8) & (h2 >>> 16) & A_R6V) << 9
                | capped(h3 & v3 & A_3X3) << 12                      // V5A ###/#../#..
                | capped(h3 & (v3 >>> 2) & A_3X3) << 15              // V5B ###/..#/..#
                | capped(v3 & (h3 >>> 16) & A_3X3) << 18             // V5C #../#../###
                | capped((v3 >>> 2) & (h3 >>> 16) & A_3X3) << 21     // V5D ..#/..#/###
                | capped(sq & A_3X3) << 24                           // O9
                | capped((e >>> 1) & (h3 >>> 8) & (e >>> 17) & A_3X3) << 27; // X5 .#./###/.#.
    }

    private static long capped(long anchors) {
        return Math.min(Long.bitCount(anchors), ROOM_BUCKETS - 1);
    }

    /** The room weight large shape {@code k} reads from {@link #roomCounts}: its class, and its places. */
    static int roomEntry(long counts, int k) {
        return ROOM_CLASS[k] * ROOM_BUCKETS + (int) ((counts >>> (3 * k)) & 7);
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

    /**
     * A table as {@code ValueTraining fold} writes it: gzip of the bias, then the 4 tables, big-endian floats;
     * then, if the table has them, the number of room weights and the weights.
     */
    static LearnedValue read(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(new GZIPInputStream(raw, 1 << 16));
        float bias = in.readFloat();
        float[] t = new float[CLASSES * ENTRIES];
        for (int k = 0; k < t.length; k++) {
            t[k] = in.readFloat();
        }
        int n;
        try {
            n = in.readInt();
        } catch (EOFException end) {
            return new LearnedValue(bias, t);
        }
        if (n != ROOM_ENTRIES) {
            throw new IOException("expected " + ROOM_ENTRIES + " room weights, the table says " + n);
        }
        float[] room = new float[n];
        for (int k = 0; k < n; k++) {
            room[k] = in.readFloat();
        }
        return new LearnedValue(bias, t, room);
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
                + w[2 * ENTRIES | (int) ((tf >>> 16) & 0xFFFF)]
                + room(b);
    }

    private double room(long b) {
        if (roomI5 == null) {
            return 0;
        }
        long c = roomCounts(b);
        return roomI5[(int) (c & 63)] + roomR6[(int) ((c >>> 6) & 63)] + roomV5[(int) ((c >>> 12) & 4095)]
                + roomO9X5[(int) (c >>> 24)];
    }
}
