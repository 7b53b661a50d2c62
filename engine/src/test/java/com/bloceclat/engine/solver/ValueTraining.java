package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.PieceStream;

import java.io.*;
import java.util.*;
import java.util.zip.GZIPOutputStream;

/**
 * Trains strength 5's learned board value ({@link LearnedValue}) by TD(0) on round afterstates, and folds
 * it into the engine's resource. Not a test: a tool, kept beside the tests so that the tables can be
 * rebuilt (docs/solver.md, "The learned value"). Deterministic: the same arguments give the same bytes.
 *
 * <p>The player it trains with places each round's pieces in every order, each piece where the value of
 * the board after it is highest, and keeps the order whose last board is worth most; after each round the
 * value of the previous round's last board moves towards 1 + GAMMA × the value of this one (0 when a round
 * cannot be placed: the game is over). GAMMA below 1 (a discount) bounds the value by 1 / (1 - GAMMA) rounds:
 * on HARD, where the greedy player lives hundreds of rounds, undiscounted values of that size made the
 * updates overshoot and the table collapse again and again (docs/solver.md). Rows, columns and pairs of adjacent rows and columns each look their
 * pattern up in a table shared by position class; {@code fold} adds each row's table into a pair's.
 *
 * <pre>
 * train LEVEL GAMES ALPHA CAP FIRST_SEED RAW_OUT [RAW_IN|-] [GAMMA] [room]
 *       (seeds FIRST_SEED .. FIRST_SEED + GAMES - 1; GAMMA 1; room: with the large shapes' room weights)
 * fold RAW_IN RESOURCE_OUT
 * unfold RESOURCE RAW_OUT      (a resource back to a raw table that values every board alike, to train on)
 * </pre>
 */
public final class ValueTraining {
    public final float[] line = new float[4 * 256];
    public final float[] pair = new float[4 * 65536];
    /** The room left for the large shapes ({@link LearnedValue#roomEntry}), or null when not trained. */
    public float[] room;
    public float bias;

    public ValueTraining() {
        this(false);
    }

    public ValueTraining(boolean withRoom) {
        room = withRoom ? new float[LearnedValue.ROOM_ENTRIES] : null;
    }

    /** Features a board touches: 16 lines, 14 pairs and, when trained, one room weight per large shape. */
    int features() {
        return 30 + (room == null ? 0 : LearnedValue.ROOM_SHAPES);
    }

    private static final int[] LCLS = {0, 1, 2, 3, 3, 2, 1, 0};
    private static final int[] PCLS = {0, 1, 2, 3, 2, 1, 0};

    // Feature indices of a board: 16 lines then 14 pairs.
    private final int[] idx = new int[30];

    private void index(long b) {
        long t = Evaluator.transpose(b);
        int k = 0;
        for (int i = 0; i < 8; i++) {
            idx[k++] = LCLS[i] << 8 | (int) ((b >>> (8 * i)) & 0xFF);
            idx[k++] = LCLS[i] << 8 | (int) ((t >>> (8 * i)) & 0xFF);
        }
        for (int i = 0; i < 7; i++) {
            int p = (int) ((b >>> (8 * i)) & 0xFFFF);
            int q = (int) ((t >>> (8 * i)) & 0xFFFF);
            if (i > 3) {
                p = (p & 0xFF) << 8 | p >>> 8;
                q = (q & 0xFF) << 8 | q >>> 8;
            }
            idx[k++] = PCLS[i] << 16 | p;
            idx[k++] = PCLS[i] << 16 | q;
        }
    }

    /** Not through {@link #index}: this summation order (two terms, then the sum) is the one training used. */
    public double value(long b) {
        long t = Evaluator.transpose(b);
        double s = bias;
        for (int i = 0; i < 8; i++) {
            s += line[LCLS[i] << 8 | (int) ((b >>> (8 * i)) & 0xFF)] + line[LCLS[i] << 8 | (int) ((t >>> (8 * i)) & 0xFF)];
        }
        for (int i = 0; i < 7; i++) {
            int p = (int) ((b >>> (8 * i)) & 0xFFFF);
            int q = (int) ((t >>> (8 * i)) & 0xFFFF);
            if (i > 3) {
                p = (p & 0xFF) << 8 | p >>> 8;
                q = (q & 0xFF) << 8 | q >>> 8;
            }
            s += pair[PCLS[i] << 16 | p] + pair[PCLS[i] << 16 | q];
        }
        if (room != null) {
            long c = LearnedValue.roomCounts(b);
            for (int k = 0; k < LearnedValue.ROOM_SHAPES; k++) {
                s += room[LearnedValue.roomEntry(c, k)];
            }
        }
        return s;
    }

    void update(long b, double delta) {
        index(b);
        float d = (float) delta;
        for (int k = 0; k < 16; k++) line[idx[k]] += d;
        for (int k = 16; k < 30; k++) pair[idx[k]] += d;
        if (room != null) {
            long c = LearnedValue.roomCounts(b);
            for (int k = 0; k < LearnedValue.ROOM_SHAPES; k++) room[LearnedValue.roomEntry(c, k)] += d;
        }
        bias += d / features();
    }

    // ---- training ----
    private static final int[][] ORDERS = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

    /** Greedy per piece by V; the best final board over orders, or 1 (impossible board marker) when none places all. */
    long playRound(long board, Piece[] ps) {
        long bestBoard = 1;
        double best = Double.NEGATIVE_INFINITY;
        boolean found = false;
        for (int[] o : ORDERS) {
            long b = board;
            boolean ok = true;
            for (int j = 0; j < 3 && ok; j++) {
                Piece p = ps[o[j]];
                long fit = p.fitAnchors(b);
                if (fit == 0) {
                    ok = false;
                    break;
                }
                double bv = Double.NEGATIVE_INFINITY;
                long bb = 0;
                while (fit != 0) {
                    int a = Long.numberOfTrailingZeros(fit);
                    fit &= fit - 1;
                    long after = b | (p.shape() << a);
                    long nb = after & ~Board.fullLinesMask(after);
                    double v = value(nb);
                    if (v > bv) {
                        bv = v;
                        bb = nb;
                    }
                }
                b = bb;
            }
            if (ok) {
                double v = value(b);
                if (!found || v > best) {
                    best = v;
                    bestBoard = b;
                    found = true;
                }
            }
        }
        return found ? bestBoard : 1;
    }

    /** One training game; returns rounds survived. */
    int trainGame(long seed, Level level, double alpha, double gamma, int cap) {
        long board = PieceStream.startBoard(seed, level);
        long prev = 0;
        boolean hasPrev = false;
        int k = 0;
        for (; k < cap; k++) {
            long nb = playRound(board, PieceStream.round(seed, level, k));
            if (nb == 1) {
                if (hasPrev) update(prev, alpha * (0 - value(prev)) / features());
                return k;
            }
            if (hasPrev) update(prev, alpha * (1 + gamma * value(nb) - value(prev)) / features());
            prev = nb;
            hasPrev = true;
            board = nb;
        }
        return k;
    }

    public void save(String f) throws IOException {
        try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(f)))) {
            o.writeFloat(bias);
            for (float x : line) o.writeFloat(x);
            for (float x : pair) o.writeFloat(x);
            if (room != null) for (float x : room) o.writeFloat(x);
        }
    }

    /** A raw table; {@code withRoom} adds room weights (zero) to one trained without them. */
    public static ValueTraining load(String f, boolean withRoom) throws IOException {
        boolean has = new File(f).length() > 4L * (1 + 4 * 256 + 4 * 65536);
        ValueTraining n = new ValueTraining(has || withRoom);
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(f)))) {
            n.bias = in.readFloat();
            for (int i = 0; i < n.line.length; i++) n.line[i] = in.readFloat();
            for (int i = 0; i < n.pair.length; i++) n.pair[i] = in.readFloat();
            if (has) for (int i = 0; i < n.room.length; i++) n.room[i] = in.readFloat();
        }
        return n;
    }

    public static ValueTraining load(String f) throws IOException {
        return load(f, false);
    }

    /** The engine's resource: the bias, then each pair class's table with its rows' own tables added. */
    void fold(String f) throws IOException {
        try (DataOutputStream o = new DataOutputStream(new GZIPOutputStream(new FileOutputStream(f), 1 << 16))) {
            o.writeFloat(bias);
            for (int c = 0; c < 4; c++) {
                for (int p = 0; p < 65536; p++) {
                    float v = pair[c << 16 | p] + line[c << 8 | (p & 0xFF)];
                    if (c == 3) {
                        v += line[3 << 8 | p >>> 8];
                    }
                    o.writeFloat(v);
                }
            }
            if (room != null) {
                o.writeInt(room.length);
                for (float x : room) o.writeFloat(x);
            }
        }
    }

    /** A raw table from an engine resource: its pairs (rows folded in) and room weights, the lines zero. */
    static ValueTraining unfold(String resource) throws IOException {
        LearnedValue v;
        try (FileInputStream in = new FileInputStream(resource)) {
            v = LearnedValue.read(in);
        }
        ValueTraining n = new ValueTraining(v.room() != null);
        n.bias = v.bias();
        System.arraycopy(v.table(), 0, n.pair, 0, n.pair.length);
        if (n.room != null) System.arraycopy(v.room(), 0, n.room, 0, n.room.length);
        return n;
    }

    public static void main(String[] a) throws Exception {
        if (a[0].equals("fold")) {
            load(a[1]).fold(a[2]);
            return;
        }
        if (a[0].equals("unfold")) {
            unfold(a[1]).save(a[2]);
            return;
        }
        a = Arrays.copyOfRange(a, 1, a.length);
        Level level = Level.valueOf(a[0]);
        int games = Integer.parseInt(a[1]);
        double alpha = Double.parseDouble(a[2]);
        int cap = Integer.parseInt(a[3]);
        long seedBase = Long.parseLong(a[4]);
        double gamma = a.length > 7 ? Double.parseDouble(a[7]) : 1.0;
        boolean withRoom = a.length > 8 && a[8].equals("room");
        ValueTraining n = a.length > 6 && !a[6].equals("-") ? load(a[6], withRoom) : new ValueTraining(withRoom);
        long sum = 0;
        long t0 = System.nanoTime();
        int block = Math.max(1, games / 40);
        for (int g = 0; g < games; g++) {
            sum += n.trainGame(seedBase + g, level, alpha, gamma, cap);
            if ((g + 1) % block == 0) {
                System.out.printf(Locale.ROOT, "%d games: mean rounds %.2f, V(empty)=%.2f, %.0f s%n", g + 1, sum / (double) block,
                        n.value(0), (System.nanoTime() - t0) / 1e9);
                System.out.flush();
                sum = 0;
                if ((g + 1) % (block * 4) == 0) n.save(a[5]);
            }
        }
        n.save(a[5]);
    }
}
