package com.bloceclat.engine;

import java.util.List;

/** Where a game's start board and rounds come from. */
public interface Deal {
    long startBoard();

    /** The three pieces of round {@code k}. */
    Piece[] round(int k);

    /** The project's seeded stream (RULES.md: a pure function of seed, level and round). */
    static Deal seeded(long seed, Level level) {
        return new Seeded(seed, level, PieceStream.startBoard(seed, level));
    }

    /** A recorded start board and rounds, e.g. the shared rule vectors from another implementation. */
    static Deal fixed(long start, List<Piece[]> rounds) {
        return new Fixed(start, List.copyOf(rounds));
    }

    record Seeded(long seed, Level level, long startBoard) implements Deal {
        @Override
        public Piece[] round(int k) {
            return PieceStream.round(seed, level, k);
        }
    }

    record Fixed(long startBoard, List<Piece[]> rounds) implements Deal {
        @Override
        public Piece[] round(int k) {
            if (k >= rounds.size()) {
                throw new IllegalStateException("no pieces recorded for round " + k);
            }
            return rounds.get(k).clone();
        }
    }
}
