package com.bloceclat.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Plays random legal moves: games for property and replay tests. */
final class RandomPlay {
    private RandomPlay() {
    }

    /** A random legal (slot, row, col) for the game's current round, or null when none. */
    static int[] randomMove(Game game, Random rnd) {
        List<int[]> moves = new ArrayList<>();
        Piece[] remaining = game.remaining();
        for (int s = 0; s < remaining.length; s++) {
            if (remaining[s] == null) {
                continue;
            }
            long fit = remaining[s].fitAnchors(game.board());
            for (long f = fit; f != 0; f &= f - 1) {
                int a = Long.numberOfTrailingZeros(f);
                moves.add(new int[] {s, a / 8, a % 8});
            }
        }
        return moves.isEmpty() ? null : moves.get(rnd.nextInt(moves.size()));
    }

    /** Plays until game over or {@code maxMoves} placements. */
    static Game play(long seed, Level level, int maxMoves, Random rnd) {
        Game game = new Game(seed, level);
        for (int i = 0; i < maxMoves && !game.gameOver(); i++) {
            int[] m = randomMove(game, rnd);
            game.place(m[0], m[1], m[2]);
        }
        return game;
    }
}
