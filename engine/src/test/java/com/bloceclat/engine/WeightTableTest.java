package com.bloceclat.engine;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WeightTableTest {

    private static String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> WeightTable.parse("t.txt", text)).getMessage();
    }

    @Test
    void classWeightsThenPieceOverrides() {
        WeightTable t = WeightTable.parse("t.txt", """
                # comment
                level hard
                small 2   # trailing comment
                medium 3
                large 4
                O9 0
                X5 9
                """);
        assertEquals(Level.HARD, t.level());
        assertEquals(2, t.weight(Pieces.require("DOT").index()));
        assertEquals(3, t.weight(Pieces.require("T4U").index()));
        assertEquals(4, t.weight(Pieces.require("I5H").index()));
        assertEquals(0, t.weight(Pieces.require("O9").index()));
        assertEquals(9, t.weight(Pieces.require("X5").index()));
    }

    @Test
    void aTableWithALevelsWeightsDealsThatLevelsPiecesAfterTheOpening() {
        WeightTable t = WeightTable.parse("t.txt", "level DIABOLICAL\nsmall 1\nmedium 5\nlarge 8\nO9 30\nX5 30\n");
        assertArrayEquals(Level.DIABOLICAL.distribution(), t.distribution());
    }

    @Test
    void dealsAreSeededPlaceableAndDifferFromTheLevelsStream() {
        WeightTable t = WeightTable.read(Path.of("src/test/resources/heldout/large-heavy.txt"));
        Deal a = t.deal(5);
        Deal b = t.deal(5);
        assertEquals(a.startBoard(), b.startBoard());
        assertEquals(Level.HARD.startCells(), Long.bitCount(a.startBoard()));
        assertTrue(PieceStream.canPlaceAll(a.startBoard(), a.round(0), 0));
        boolean differs = false;
        for (int k = 0; k < 20; k++) {
            assertArrayEquals(a.round(k), b.round(k));
            differs |= !Arrays.equals(a.round(k), PieceStream.round(5, Level.HARD, k));
        }
        assertTrue(differs, "a held-out deal is not the level's own stream");
        assertNotEquals(t.deal(6).startBoard(), a.startBoard());
    }

    @Test
    void theHeldOutTablesAreWhatTheirCommentsSay() {
        WeightTable a = WeightTable.read(Path.of("src/test/resources/heldout/large-heavy.txt"));
        WeightTable b = WeightTable.read(Path.of("src/test/resources/heldout/diabolical-flat.txt"));
        double hardLarge = largeShare(Level.HARD.distribution());
        assertEquals(1.30, largeShare(a.distribution()) / hardLarge, 0.01);
        assertEquals(0.441, largeShare(b.distribution()), 0.001);
        double[] d = b.distribution();
        assertTrue(d[Pieces.require("O9").index()] < d[Pieces.require("I5H").index()], "no O9 bias");
        assertTrue(d[Pieces.require("X5").index()] < d[Pieces.require("I5H").index()], "no X5 bias");
    }

    private static double largeShare(double[] dist) {
        double s = 0;
        for (Piece p : Pieces.all()) {
            if (p.pieceClass() == PieceClass.LARGE) {
                s += dist[p.index()];
            }
        }
        return s;
    }

    @Test
    void badTablesAreRefusedWithTheLine() {
        assertEquals("t.txt line 2: unknown key \"Q7\"; expected level, small, medium, large or a piece id (see `pieces`)",
                error("level HARD\nQ7 3\n"));
        assertEquals("t.txt line 1: weight must be a whole number, got \"x\"", error("small x\nlevel HARD"));
        assertEquals("t.txt line 1: weight must be from 0 to 1000000, got -1", error("small -1"));
        assertEquals("t.txt line 1: expected \"key value\", got \"small 1 2\"", error("small 1 2"));
        assertTrue(error("level NIGHTMARE").startsWith("t.txt line 1: unknown level \"NIGHTMARE\""));
        assertEquals("t.txt: no \"level\" line (the level the games are played as)", error("small 1\n"));
        assertEquals("t.txt: every weight is 0, no piece can be dealt", error("level EASY\nsmall 0\n"));
        assertEquals("no such weights file: nowhere.txt",
                assertThrows(IllegalArgumentException.class, () -> WeightTable.read(Path.of("nowhere.txt"))).getMessage());
    }
}
