package com.bloceclat.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * A piece-weights table read from a file, for {@code selfplay} on deals other than the project's
 * levels (held-out deals: docs/benchmarks.md). Games keep the named level's start board size,
 * opening rounds and rules, and the AI is told that level (its distribution is all it knows of the
 * future); only the pieces are drawn from the table, the same way as {@link PieceStream} draws a
 * level's (opening: large pieces at most {@link Level#OPENING_LARGE_WEIGHT}, a small piece in every
 * opening round).
 *
 * <p>Format: one {@code key value} per line, {@code #} starts a comment. {@code level L} (required),
 * {@code small W}, {@code medium W}, {@code large W} (a class's weight, default 0), then any
 * {@code PIECE_ID W} to override one piece. Weights are whole numbers from 0 to 1,000,000; at least
 * one must be positive. Any other line is refused with its line number.
 */
public final class WeightTable {
    private static final long SALT = 0x6A09E667F3BCC909L;
    private static final int MAX_WEIGHT = 1_000_000;

    private final String name;
    private final Level level;
    private final int[] weights;
    private final int[] openingWeights = new int[Pieces.COUNT];
    private final int[] smallWeights = new int[Pieces.COUNT];

    private WeightTable(String name, Level level, int[] weights) {
        this.name = name;
        this.level = level;
        this.weights = weights;
        for (Piece p : Pieces.all()) {
            int w = weights[p.index()];
            openingWeights[p.index()] = p.pieceClass() == PieceClass.LARGE ? Math.min(w, Level.OPENING_LARGE_WEIGHT) : w;
            smallWeights[p.index()] = p.pieceClass() == PieceClass.SMALL ? Math.max(w, 1) : 0;
        }
    }

    /** Reads a table file. @throws IllegalArgumentException naming the file and line of the fault */
    public static WeightTable read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no such weights file: " + file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read weights file " + file + ": " + e.getMessage());
        }
        return parse(file.getFileName().toString(), text);
    }

    /** Parses a table's text; {@code name} prefixes every error. */
    public static WeightTable parse(String name, String text) {
        Level level = null;
        int[] classWeight = new int[PieceClass.values().length];
        Integer[] override = new Integer[Pieces.COUNT];
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = name + " line " + (i + 1) + ": ";
            String[] kv = line.split("\\s+");
            if (kv.length != 2) {
                throw new IllegalArgumentException(where + "expected \"key value\", got \"" + line + "\"");
            }
            String key = kv[0];
            if (key.equalsIgnoreCase("level")) {
                try {
                    level = Level.parse(kv[1]);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(where + e.getMessage());
                }
                continue;
            }
            int w;
            try {
                w = Integer.parseInt(kv[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + "weight must be a whole number, got \"" + kv[1] + "\"");
            }
            if (w < 0 || w > MAX_WEIGHT) {
                throw new IllegalArgumentException(where + "weight must be from 0 to " + MAX_WEIGHT + ", got " + w);
            }
            PieceClass cls = pieceClass(key);
            if (cls != null) {
                classWeight[cls.ordinal()] = w;
            } else {
                Piece p = Pieces.byId(key);
                if (p == null) {
                    throw new IllegalArgumentException(where + "unknown key \"" + key
                            + "\"; expected level, small, medium, large or a piece id (see `pieces`)");
                }
                override[p.index()] = w;
            }
        }
        if (level == null) {
            throw new IllegalArgumentException(name + ": no \"level\" line (the level the games are played as)");
        }
        int[] weights = new int[Pieces.COUNT];
        long total = 0;
        for (Piece p : Pieces.all()) {
            Integer o = override[p.index()];
            weights[p.index()] = o != null ? o : classWeight[p.pieceClass().ordinal()];
            total += weights[p.index()];
        }
        if (total == 0) {
            throw new IllegalArgumentException(name + ": every weight is 0, no piece can be dealt");
        }
        return new WeightTable(name, level, weights);
    }

    private static PieceClass pieceClass(String key) {
        for (PieceClass c : PieceClass.values()) {
            if (c.name().equals(key.toUpperCase(Locale.ROOT))) {
                return c;
            }
        }
        return null;
    }

    public String name() {
        return name;
    }

    /** The level games are played as, and the one the AI is told. */
    public Level level() {
        return level;
    }

    /** The weight of each catalogue piece (by index) after the opening. */
    public int weight(int pieceIndex) {
        return weights[pieceIndex];
    }

    /** The probability of each catalogue piece after the opening. */
    public double[] distribution() {
        double total = Arrays.stream(weights).sum();
        return Arrays.stream(weights).mapToDouble(w -> w / total).toArray();
    }

    /** The three pieces of round {@code k} of the game with this seed. */
    public Piece[] round(long seed, int k) {
        if (k < 0) {
            throw new IllegalArgumentException("round must be ≥ 0, got " + k);
        }
        SplitMix64 rng = PieceStream.rng(seed ^ SALT, level, k);
        boolean opening = k < level.openingRounds();
        int[] w = opening ? openingWeights : weights;
        Piece[] pieces = new Piece[3];
        boolean small = false;
        for (int i = 0; i < 3; i++) {
            pieces[i] = Pieces.get(rng.pick(w));
            small |= pieces[i].pieceClass() == PieceClass.SMALL;
        }
        if (opening && !small) {
            pieces[2] = Pieces.get(rng.pick(smallWeights));
        }
        return pieces;
    }

    /** The deal of the game with this seed: a start board as {@link PieceStream#startBoard}, then the table's rounds. */
    public Deal deal(long seed) {
        SplitMix64 rng = PieceStream.rng(seed ^ SALT, level, -1);
        Piece[] first = round(seed, 0);
        long board;
        do {
            board = 0;
            while (Long.bitCount(board) < level.startCells()) {
                board |= 1L << rng.nextInt(64);
            }
        } while (Board.fullLineCount(board) != 0 || !PieceStream.canPlaceAll(board, first, 0));
        long start = board;
        return new Deal() {
            @Override
            public long startBoard() {
                return start;
            }

            @Override
            public Piece[] round(int k) {
                return WeightTable.this.round(seed, k);
            }
        };
    }
}
