package com.bloceclat.engine;

/**
 * The 8×8 board as a {@code long}: bit {@code row * 8 + col} is set when the cell is filled.
 * Pure static helpers; a board value is immutable by nature.
 */
public final class Board {
    public static final int SIZE = 8;
    public static final long EMPTY = 0L;
    public static final long FULL = -1L;

    /** Bit 0 of every row (column 0). */
    public static final long COL0 = 0x0101010101010101L;
    /** Row 0 (the top row). */
    public static final long ROW0 = 0xFFL;

    /** The 16 line masks: rows 0..7 then columns 0..7. */
    public static final long[] LINES = new long[16];

    static {
        for (int i = 0; i < SIZE; i++) {
            LINES[i] = ROW0 << (8 * i);
            LINES[SIZE + i] = COL0 << i;
        }
    }

    private Board() {
    }

    public static int index(int row, int col) {
        return row * SIZE + col;
    }

    public static long bit(int row, int col) {
        return 1L << index(row, col);
    }

    public static boolean filled(long board, int row, int col) {
        return (board & bit(row, col)) != 0;
    }

    /**
     * Full rows, one bit per row at column 0 of that row. Each {@code t & t >>> k} step folds a
     * row's bits onto its first cell; bits shifted in from the next row never reach column 0.
     */
    public static long fullRowBits(long board) {
        long t = board & (board >>> 1);
        t &= t >>> 2;
        t &= t >>> 4;
        return t & COL0;
    }

    /** Full columns, one bit per column in row 0. */
    public static long fullColBits(long board) {
        long t = board & (board >>> 8);
        t &= t >>> 16;
        t &= t >>> 32;
        return t & ROW0;
    }

    /** Every cell of every full row and column. */
    public static long fullLinesMask(long board) {
        return fullRowBits(board) * ROW0 | fullColBits(board) * COL0;
    }

    /** Number of full rows plus full columns. */
    public static int fullLineCount(long board) {
        return Long.bitCount(fullRowBits(board)) + Long.bitCount(fullColBits(board));
    }

    /** Parses 8 strings of 8 characters, {@code #} filled and {@code .} empty, top row first. */
    public static long parse(String[] rows) {
        if (rows == null || rows.length != SIZE) {
            throw new IllegalArgumentException("a board has 8 rows, got " + (rows == null ? 0 : rows.length));
        }
        long board = 0;
        for (int r = 0; r < SIZE; r++) {
            String line = rows[r];
            if (line == null || line.length() != SIZE) {
                throw new IllegalArgumentException("board row " + r + " must have 8 characters, got "
                        + (line == null ? "none" : "\"" + line + "\""));
            }
            for (int c = 0; c < SIZE; c++) {
                char ch = line.charAt(c);
                if (ch == '#') {
                    board |= bit(r, c);
                } else if (ch != '.') {
                    throw new IllegalArgumentException("board row " + r + " column " + c
                            + ": expected '#' or '.', got '" + ch + "'");
                }
            }
        }
        return board;
    }

    public static String[] rows(long board) {
        String[] rows = new String[SIZE];
        char[] line = new char[SIZE];
        for (int r = 0; r < SIZE; r++) {
            for (int c = 0; c < SIZE; c++) {
                line[c] = filled(board, r, c) ? '#' : '.';
            }
            rows[r] = new String(line);
        }
        return rows;
    }

    /** Text form: 8 lines of 8 characters. */
    public static String text(long board) {
        return String.join("\n", rows(board));
    }
}
