package com.bloceclat.engine;

import java.util.Arrays;
import java.util.Locale;

/**
 * The five levels and their piece distributions: one data table, versioned with
 * {@link Rules#RULES_VERSION}. Changing a number here changes every seeded game: bump the version.
 */
public enum Level {
    //          start  opening  small  medium  large  overrides (id=weight)
    EASY(0, 3, 10, 6, 0, "T4U=0 T4D=0 T4L=0 T4R=0 S4H=0 S4V=0 Z4H=0 Z4V=0"),
    MEDIUM(4, 3, 10, 7, 2, ""),
    HARD(8, 3, 8, 8, 6, ""),
    EXPERT(10, 3, 3, 8, 10, ""),
    DIABOLICAL(12, 3, 1, 5, 8, "O9=30 X5=30");

    /** During the opening a large piece weighs this much at most ("rare"). */
    public static final int OPENING_LARGE_WEIGHT = 1;

    private final int startCells;
    private final int openingRounds;
    private final int[] weights = new int[Pieces.COUNT];
    private final int[] openingWeights = new int[Pieces.COUNT];
    private final int[] smallWeights = new int[Pieces.COUNT];

    Level(int startCells, int openingRounds, int small, int medium, int large, String overrides) {
        this.startCells = startCells;
        this.openingRounds = openingRounds;
        for (Piece p : Pieces.all()) {
            weights[p.index()] = switch (p.pieceClass()) {
                case SMALL -> small;
                case MEDIUM -> medium;
                case LARGE -> large;
            };
        }
        for (String o : overrides.split(" ")) {
            if (!o.isBlank()) {
                String[] kv = o.split("=");
                weights[Pieces.require(kv[0]).index()] = Integer.parseInt(kv[1]);
            }
        }
        for (Piece p : Pieces.all()) {
            int w = weights[p.index()];
            openingWeights[p.index()] = p.pieceClass() == PieceClass.LARGE ? Math.min(w, OPENING_LARGE_WEIGHT) : w;
            smallWeights[p.index()] = p.pieceClass() == PieceClass.SMALL ? Math.max(w, 1) : 0;
        }
    }

    /** Parses a level id, case-insensitively. @throws IllegalArgumentException naming the valid ids */
    public static Level parse(String id) {
        if (id != null) {
            try {
                return valueOf(id.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException ignored) {
                // fall through to the message below
            }
        }
        throw new IllegalArgumentException("unknown level \"" + id + "\"; expected one of "
                + Arrays.toString(values()));
    }

    public int startCells() {
        return startCells;
    }

    public int openingRounds() {
        return openingRounds;
    }

    /** The weight of each catalogue piece (by index) after the opening. */
    public int weight(int pieceIndex) {
        return weights[pieceIndex];
    }

    int[] weights() {
        return weights;
    }

    int[] openingWeights() {
        return openingWeights;
    }

    int[] smallWeights() {
        return smallWeights;
    }

    /** The probability of each catalogue piece after the opening: the AI's only view of the future. */
    public double[] distribution() {
        double total = Arrays.stream(weights).sum();
        return Arrays.stream(weights).mapToDouble(w -> w / total).toArray();
    }
}
