package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.SplitMix64;

/**
 * Sampled next rounds, drawn from the level's distribution only (never the real stream), to
 * estimate how often a board would leave the player unable to place a whole round. The same
 * samples serve every candidate of a search (common random numbers), so candidates are compared
 * on equal luck.
 */
final class Futures {
    /** Nodes one feasibility check may visit; beyond it the round counts as placeable. */
    private static final int NODE_CAP = 4000;

    private final Piece[][] rounds;
    private int nodes;

    Futures(Level level, long seed, int samples) {
        int[] weights = new int[Pieces.COUNT];
        for (int i = 0; i < Pieces.COUNT; i++) {
            weights[i] = level.weight(i);
        }
        SplitMix64 rng = new SplitMix64(seed);
        rounds = new Piece[samples][3];
        for (Piece[] r : rounds) {
            for (int j = 0; j < 3; j++) {
                r[j] = Pieces.get(rng.pick(weights));
            }
        }
    }

    /** Fraction of the sampled rounds that could not be placed in full on {@code board}. */
    double deathRate(long board) {
        int dead = 0;
        for (Piece[] r : rounds) {
            if (!r[0].fits(board) || !r[1].fits(board) || !r[2].fits(board)) {
                dead++;
                continue;
            }
            nodes = 0;
            if (!placeable(board, r, 0)) {
                dead++;
            }
        }
        return dead / (double) rounds.length;
    }

    private boolean placeable(long board, Piece[] r, int used) {
        if (used == 7) {
            return true;
        }
        for (int i = 0; i < 3; i++) {
            if ((used & (1 << i)) != 0) {
                continue;
            }
            long fit = r[i].fitAnchors(board);
            long shape = r[i].shape();
            while (fit != 0) {
                if (++nodes > NODE_CAP) {
                    return true;
                }
                int a = Long.numberOfTrailingZeros(fit);
                fit &= fit - 1;
                long after = board | (shape << a);
                if (placeable(after & ~Board.fullLinesMask(after), r, used | (1 << i))) {
                    return true;
                }
            }
        }
        return false;
    }
}
