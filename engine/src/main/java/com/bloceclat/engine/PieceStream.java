package com.bloceclat.engine;

/**
 * Seeded piece streams: the start board and the pieces of round k are pure functions of
 * (seed, level, k), never of the moves. Documented in docs/rules.md ("Piece streams").
 */
public final class PieceStream {
    private static final long LEVEL_SALT = 0xD1B54A32D192ED03L;
    /** The start board uses the "round" index -1 of the same derivation. */
    private static final int START_STREAM = -1;

    private PieceStream() {
    }

    /** The generator for round {@code k}: mix64(mix64(seed XOR salt(level)) + k). */
    static SplitMix64 rng(long seed, Level level, long k) {
        long base = SplitMix64.mix64(seed ^ ((level.ordinal() + 1) * LEVEL_SALT));
        return new SplitMix64(SplitMix64.mix64(base + k));
    }

    /** The three pieces of round {@code k}. */
    public static Piece[] round(long seed, Level level, int k) {
        if (k < 0) {
            throw new IllegalArgumentException("round must be ≥ 0, got " + k);
        }
        SplitMix64 rng = rng(seed, level, k);
        boolean opening = k < level.openingRounds();
        int[] weights = opening ? level.openingWeights() : level.weights();
        Piece[] pieces = new Piece[3];
        boolean small = false;
        for (int i = 0; i < 3; i++) {
            pieces[i] = Pieces.get(rng.pick(weights));
            small |= pieces[i].pieceClass() == PieceClass.SMALL;
        }
        if (opening && !small) {
            pieces[2] = Pieces.get(rng.pick(level.smallWeights()));
        }
        return pieces;
    }

    /**
     * The start board: {@code level.startCells()} cells drawn from the seed, never completing a
     * line, redrawn until round 0 can be placed in full.
     */
    public static long startBoard(long seed, Level level) {
        SplitMix64 rng = rng(seed, level, START_STREAM);
        Piece[] first = round(seed, level, 0);
        while (true) {
            long board = 0;
            while (Long.bitCount(board) < level.startCells()) {
                board |= 1L << rng.nextInt(64);
            }
            if (Board.fullLineCount(board) == 0 && canPlaceAll(board, first, 0)) {
                return board;
            }
        }
    }

    /** True when some order places every piece not yet in {@code usedMask}, clearing as it goes. */
    static boolean canPlaceAll(long board, Piece[] pieces, int usedMask) {
        if (usedMask == (1 << pieces.length) - 1) {
            return true;
        }
        for (int i = 0; i < pieces.length; i++) {
            if ((usedMask & (1 << i)) != 0) {
                continue;
            }
            for (long m : pieces[i].masks()) {
                if ((m & board) == 0) {
                    long after = board | m;
                    after &= ~Board.fullLinesMask(after);
                    if (canPlaceAll(after, pieces, usedMask | (1 << i))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
