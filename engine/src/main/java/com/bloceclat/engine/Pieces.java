package com.bloceclat.engine;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The catalogue of RULES.md: one table, stable ids, exact shapes. */
public final class Pieces {
    private static final Object[][] TABLE = {
        {"DOT", PieceClass.SMALL, "#"},
        {"I2H", PieceClass.SMALL, "##"},
        {"I2V", PieceClass.SMALL, "#/#"},
        {"I3H", PieceClass.SMALL, "###"},
        {"I3V", PieceClass.SMALL, "#/#/#"},
        {"L3A", PieceClass.SMALL, "##/#."},
        {"L3B", PieceClass.SMALL, "##/.#"},
        {"L3C", PieceClass.SMALL, "#./##"},
        {"L3D", PieceClass.SMALL, ".#/##"},
        {"I4H", PieceClass.MEDIUM, "####"},
        {"I4V", PieceClass.MEDIUM, "#/#/#/#"},
        {"O4", PieceClass.MEDIUM, "##/##"},
        {"L4A", PieceClass.MEDIUM, "#./#./##"},
        {"L4B", PieceClass.MEDIUM, "###/#.."},
        {"L4C", PieceClass.MEDIUM, "##/.#/.#"},
        {"L4D", PieceClass.MEDIUM, "..#/###"},
        {"L4E", PieceClass.MEDIUM, ".#/.#/##"},
        {"L4F", PieceClass.MEDIUM, "#../###"},
        {"L4G", PieceClass.MEDIUM, "##/#./#."},
        {"L4H", PieceClass.MEDIUM, "###/..#"},
        {"T4U", PieceClass.MEDIUM, ".#./###"},
        {"T4D", PieceClass.MEDIUM, "###/.#."},
        {"T4L", PieceClass.MEDIUM, ".#/##/.#"},
        {"T4R", PieceClass.MEDIUM, "#./##/#."},
        {"S4H", PieceClass.MEDIUM, ".##/##."},
        {"S4V", PieceClass.MEDIUM, "#./##/.#"},
        {"Z4H", PieceClass.MEDIUM, "##./.##"},
        {"Z4V", PieceClass.MEDIUM, ".#/##/#."},
        {"I5H", PieceClass.LARGE, "#####"},
        {"I5V", PieceClass.LARGE, "#/#/#/#/#"},
        {"V5A", PieceClass.LARGE, "###/#../#.."},
        {"V5B", PieceClass.LARGE, "###/..#/..#"},
        {"V5C", PieceClass.LARGE, "#../#../###"},
        {"V5D", PieceClass.LARGE, "..#/..#/###"},
        {"R6H", PieceClass.LARGE, "###/###"},
        {"R6V", PieceClass.LARGE, "##/##/##"},
        {"O9", PieceClass.LARGE, "###/###/###"},
        {"X5", PieceClass.LARGE, ".#./###/.#."},
    };

    private static final Piece[] ALL = new Piece[TABLE.length];
    private static final Map<String, Piece> BY_ID = new HashMap<>();
    private static final Map<String, Piece> BY_SHAPE = new HashMap<>();

    static {
        for (int i = 0; i < TABLE.length; i++) {
            Piece p = new Piece((String) TABLE[i][0], i, (PieceClass) TABLE[i][1], Piece.split((String) TABLE[i][2]));
            ALL[i] = p;
            BY_ID.put(p.id(), p);
            BY_SHAPE.put(p.shapeText(), p);
        }
    }

    public static final int COUNT = TABLE.length;

    private Pieces() {
    }

    public static List<Piece> all() {
        return Collections.unmodifiableList(java.util.Arrays.asList(ALL));
    }

    public static Piece get(int index) {
        return ALL[index];
    }

    /** The catalogue piece with this id, or null. */
    public static Piece byId(String id) {
        return BY_ID.get(id);
    }

    /** The catalogue piece with this id. @throws IllegalArgumentException for an unknown id */
    public static Piece require(String id) {
        Piece p = BY_ID.get(id);
        if (p == null) {
            throw new IllegalArgumentException("unknown piece id \"" + id + "\"");
        }
        return p;
    }

    static Piece byShape(String shapeText) {
        return BY_SHAPE.get(shapeText);
    }
}
