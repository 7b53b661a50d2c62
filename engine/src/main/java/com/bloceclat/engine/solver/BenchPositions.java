package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.SplitMix64;

import java.util.ArrayList;
import java.util.List;

/**
 * The fixed benchmark set: boards from empty to 60% full (no full line), three catalogue pieces
 * each, the first being three 1×1 on an empty board. Same positions on every run and JVM.
 */
public final class BenchPositions {
    private BenchPositions() {
    }

    public static List<SolveRequest> generate(int count, Mode mode, int strength) {
        SplitMix64 rng = new SplitMix64(20261129L);
        List<SolveRequest> out = new ArrayList<>(count);
        Piece dot = Pieces.require("DOT");
        for (int i = 0; i < count; i++) {
            long board = 0;
            List<Piece> pieces;
            if (i == 0) {
                pieces = List.of(dot, dot, dot);
            } else {
                double density = 0.6 * i / count;
                for (int c = 0; c < 64; c++) {
                    if (rng.nextDouble() < density) {
                        board |= 1L << c;
                    }
                }
                board &= ~Board.fullLinesMask(board);
                pieces = List.of(Pieces.get(rng.nextInt(Pieces.COUNT)), Pieces.get(rng.nextInt(Pieces.COUNT)),
                        Pieces.get(rng.nextInt(Pieces.COUNT)));
            }
            out.add(new SolveRequest(board, pieces, i % 4, i % 3, Level.HARD, mode, strength, i, 0));
        }
        return out;
    }
}
