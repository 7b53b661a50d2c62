package com.bloceclat.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;

class GameCopyTest {

    /** The first legal placement in slot order, row by row: {slot, row, col}, or null. */
    private static int[] firstLegal(Game g) {
        Piece[] remaining = g.remaining();
        for (int s = 0; s < remaining.length; s++) {
            if (remaining[s] == null) {
                continue;
            }
            for (int r = 0; r < 9; r++) {
                for (int c = 0; c < 9; c++) {
                    if (Rules.illegalReason(g.board(), remaining[s], r, c) == null) {
                        return new int[] {s, r, c};
                    }
                }
            }
        }
        return null;
    }

    private static String state(Game g) {
        return g.board() + " " + g.score() + " " + g.streak() + " " + g.miss() + " " + g.round() + " "
                + g.gameOver() + " " + g.assisted() + " " + g.placements() + " " + java.util.Arrays.toString(g.remaining())
                + " " + g.replay().toJson();
    }

    @Test
    void aCopyPlaysOnExactlyLikeTheOriginalAndIndependentlyOfIt() {
        Random rnd = new Random(5);
        for (long seed = 1; seed <= 30; seed++) {
            Game original = new Game(seed, Level.values()[(int) (seed % Level.values().length)]);
            int steps = rnd.nextInt(12);
            for (int i = 0; i < steps && !original.gameOver(); i++) {
                int[] m = firstLegal(original);
                original.place(m[0], m[1], m[2]);
                if (i == 4) {
                    original.hintShown();
                }
            }
            String before = state(original);
            Game copy = original.copy();
            assertEquals(before, state(copy));

            // the copy moves on (including an undo within the round): the original does not change
            Game twin = original.copy();
            while (!copy.gameOver() && copy.round() < original.round() + 2) {
                int[] m = firstLegal(copy);
                copy.place(m[0], m[1], m[2]);
                twin.place(m[0], m[1], m[2]);
                assertEquals(state(twin), state(copy));
            }
            assertEquals(before, state(original));
            if (!copy.gameOver()) {
                assertNotEquals(before, state(copy));
            }

            // undo on the copy takes back the copy's own placement only
            Game again = original.copy();
            if (!again.gameOver()) {
                int[] m = firstLegal(again);
                again.place(m[0], m[1], m[2]);
                if (!again.gameOver() && again.round() == original.round()) {
                    again.undo();
                    assertEquals(original.board(), again.board());
                    assertEquals(original.score(), again.score());
                }
            }
            assertEquals(before, state(original));
            // undoing what the original placed before the copy works on both alike
            if (!original.gameOver() && original.placements() > 0) {
                Game a = original.copy();
                try {
                    original.undo();
                    a.undo();
                    assertEquals(state(original), state(a));
                } catch (IllegalMoveException e) {
                    // nothing to undo in this round: the copy must refuse too
                    org.junit.jupiter.api.Assertions.assertThrows(IllegalMoveException.class, a::undo);
                }
            }
        }
    }

    @Test
    void dealtIdNamesThePieceOfEachDealtRoundAndSlot() {
        Game g = new Game(7, Level.MEDIUM);
        while (!g.gameOver() && g.round() < 6) {
            int[] m = firstLegal(g);
            g.place(m[0], m[1], m[2]);
        }
        java.util.List<java.util.List<String>> dealt = g.dealtIds();
        for (int r = 0; r < dealt.size(); r++) {
            for (int s = 0; s < dealt.get(r).size(); s++) {
                assertEquals(dealt.get(r).get(s), g.dealtId(r, s));
            }
        }
    }
}
