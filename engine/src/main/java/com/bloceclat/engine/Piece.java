package com.bloceclat.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * A fixed set of cells, trimmed to its bounding box; pieces never rotate. Every legal placement on
 * an empty board is precomputed as a mask, with the anchor (top-left corner cell) it belongs to.
 */
public final class Piece {
    private final String id;
    private final int index;
    private final PieceClass pieceClass;
    private final String[] rows;
    private final int height;
    private final int width;
    private final int cells;
    private final long shape;
    private final int[] offsets;
    private final long anchorMask;
    private final long[] masks;
    private final byte[] anchors;

    Piece(String id, int index, PieceClass pieceClass, String[] rows) {
        this.id = id;
        this.index = index;
        this.pieceClass = pieceClass;
        this.rows = rows.clone();
        this.height = rows.length;
        this.width = rows[0].length();
        long s = 0;
        List<Integer> offs = new ArrayList<>();
        for (int r = 0; r < height; r++) {
            for (int c = 0; c < width; c++) {
                if (rows[r].charAt(c) == '#') {
                    s |= Board.bit(r, c);
                    offs.add(Board.index(r, c));
                }
            }
        }
        this.shape = s;
        this.cells = Long.bitCount(s);
        this.offsets = offs.stream().mapToInt(Integer::intValue).toArray();
        int n = (Board.SIZE - height + 1) * (Board.SIZE - width + 1);
        this.masks = new long[n];
        this.anchors = new byte[n];
        long am = 0;
        int k = 0;
        for (int r = 0; r + height <= Board.SIZE; r++) {
            for (int c = 0; c + width <= Board.SIZE; c++) {
                masks[k] = shape << Board.index(r, c);
                anchors[k] = (byte) Board.index(r, c);
                am |= Board.bit(r, c);
                k++;
            }
        }
        this.anchorMask = am;
    }

    /**
     * A piece from rows of {@code #}/{@code .}: trimmed to its bounding box, and the catalogue piece
     * when the shape is one of RULES.md's.
     *
     * @throws IllegalArgumentException when the rows are not a valid piece
     */
    public static Piece ofRows(String... rows) {
        if (rows == null || rows.length == 0) {
            throw new IllegalArgumentException("a piece needs at least one row");
        }
        int width = -1;
        for (String row : rows) {
            if (row == null || row.isEmpty()) {
                throw new IllegalArgumentException("a piece row is empty");
            }
            if (width >= 0 && row.length() != width) {
                throw new IllegalArgumentException("piece rows must all have the same length");
            }
            width = row.length();
            for (char ch : row.toCharArray()) {
                if (ch != '#' && ch != '.') {
                    throw new IllegalArgumentException("piece rows use '#' and '.', got '" + ch + "'");
                }
            }
        }
        int top = Integer.MAX_VALUE, bottom = -1, left = Integer.MAX_VALUE, right = -1;
        for (int r = 0; r < rows.length; r++) {
            for (int c = 0; c < width; c++) {
                if (rows[r].charAt(c) == '#') {
                    top = Math.min(top, r);
                    bottom = Math.max(bottom, r);
                    left = Math.min(left, c);
                    right = Math.max(right, c);
                }
            }
        }
        if (bottom < 0) {
            throw new IllegalArgumentException("a piece must have at least one filled cell");
        }
        if (bottom - top + 1 > Board.SIZE || right - left + 1 > Board.SIZE) {
            throw new IllegalArgumentException("a piece must fit on the 8×8 board, got "
                    + (bottom - top + 1) + "×" + (right - left + 1));
        }
        String[] trimmed = new String[bottom - top + 1];
        for (int r = top; r <= bottom; r++) {
            trimmed[r - top] = rows[r].substring(left, right + 1);
        }
        Piece known = Pieces.byShape(String.join("/", trimmed));
        if (known != null) {
            return known;
        }
        int cells = (int) String.join("", trimmed).chars().filter(ch -> ch == '#').count();
        PieceClass cls = cells <= 3 ? PieceClass.SMALL : cells == 4 ? PieceClass.MEDIUM : PieceClass.LARGE;
        return new Piece(null, -1, cls, trimmed);
    }

    /** Catalogue id, or null for a drawn piece that is not in the catalogue. */
    public String id() {
        return id;
    }

    /** Position in the catalogue (0..37), or -1. */
    public int index() {
        return index;
    }

    public PieceClass pieceClass() {
        return pieceClass;
    }

    public String[] rows() {
        return rows.clone();
    }

    /** Rows joined by {@code /}, as in RULES.md. */
    public String shapeText() {
        return String.join("/", rows);
    }

    /** The catalogue id when there is one, else the shape text. */
    public String name() {
        return id != null ? id : shapeText();
    }

    public int height() {
        return height;
    }

    public int width() {
        return width;
    }

    public int cells() {
        return cells;
    }

    /** The cells with the top-left corner at (0,0). */
    public long shape() {
        return shape;
    }

    /** Cell offsets from the anchor, as board indexes. */
    int[] offsets() {
        return offsets;
    }

    /** Anchors where the piece lies entirely on the board. */
    public long anchorMask() {
        return anchorMask;
    }

    /** Every on-board placement mask, in anchor order (row-major). Do not modify. */
    public long[] masks() {
        return masks;
    }

    /** The anchor index of {@code masks()[i]}. Do not modify. */
    public byte[] anchors() {
        return anchors;
    }

    public boolean onBoard(int row, int col) {
        // row + height would overflow for a row near Integer.MAX_VALUE (then maskAt's shift wraps onto the board)
        return row >= 0 && col >= 0 && row <= Board.SIZE - height && col <= Board.SIZE - width;
    }

    /** The placement mask with the top-left corner at (row, col); the caller checks {@link #onBoard}. */
    public long maskAt(int row, int col) {
        return shape << Board.index(row, col);
    }

    /** Anchors at which the piece fits on {@code board}: one shift per cell, no loop over anchors. */
    public long fitAnchors(long board) {
        long empty = ~board;
        long fit = anchorMask;
        for (int off : offsets) {
            fit &= empty >>> off;
        }
        return fit;
    }

    public boolean fits(long board) {
        return fitAnchors(board) != 0;
    }

    public boolean sameShape(Piece other) {
        return other != null && shape == other.shape;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Piece p && p.shape == shape;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(shape);
    }

    @Override
    public String toString() {
        return name();
    }

    static String[] split(String shapeText) {
        return shapeText.split("/");
    }
}
