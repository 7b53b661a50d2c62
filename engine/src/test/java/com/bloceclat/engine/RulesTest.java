package com.bloceclat.engine;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RulesTest {

    @Test
    void catalogueHasTheThirtyEightShapesOfRules() {
        assertEquals(38, Pieces.COUNT);
        String[][] expected = {
            {"DOT", "#"}, {"I2H", "##"}, {"I2V", "#/#"}, {"I3H", "###"}, {"I3V", "#/#/#"},
            {"L3A", "##/#."}, {"L3B", "##/.#"}, {"L3C", "#./##"}, {"L3D", ".#/##"},
            {"I4H", "####"}, {"I4V", "#/#/#/#"}, {"O4", "##/##"},
            {"L4A", "#./#./##"}, {"L4B", "###/#.."}, {"L4C", "##/.#/.#"}, {"L4D", "..#/###"},
            {"L4E", ".#/.#/##"}, {"L4F", "#../###"}, {"L4G", "##/#./#."}, {"L4H", "###/..#"},
            {"T4U", ".#./###"}, {"T4D", "###/.#."}, {"T4L", ".#/##/.#"}, {"T4R", "#./##/#."},
            {"S4H", ".##/##."}, {"S4V", "#./##/.#"}, {"Z4H", "##./.##"}, {"Z4V", ".#/##/#."},
            {"I5H", "#####"}, {"I5V", "#/#/#/#/#"}, {"V5A", "###/#../#.."}, {"V5B", "###/..#/..#"},
            {"V5C", "#../#../###"}, {"V5D", "..#/..#/###"}, {"R6H", "###/###"}, {"R6V", "##/##/##"},
            {"O9", "###/###/###"}, {"X5", ".#./###/.#."},
        };
        Set<Long> shapes = new HashSet<>();
        for (String[] e : expected) {
            Piece p = Pieces.require(e[0]);
            assertEquals(e[1], p.shapeText(), e[0]);
            assertTrue(shapes.add(p.shape()), "shape of " + e[0] + " is unique");
        }
        assertEquals(9, Pieces.all().stream().filter(p -> p.pieceClass() == PieceClass.SMALL).count());
        assertEquals(19, Pieces.all().stream().filter(p -> p.pieceClass() == PieceClass.MEDIUM).count());
        assertEquals(10, Pieces.all().stream().filter(p -> p.pieceClass() == PieceClass.LARGE).count());
    }

    @Test
    void placementMasksAreEveryOnBoardPosition() {
        for (Piece p : Pieces.all()) {
            assertEquals((9 - p.height()) * (9 - p.width()), p.masks().length, p.id());
            for (int i = 0; i < p.masks().length; i++) {
                int a = p.anchors()[i];
                assertEquals(p.maskAt(a / 8, a % 8), p.masks()[i]);
                assertEquals(p.cells(), Long.bitCount(p.masks()[i]));
            }
            assertEquals(p.masks().length, Long.bitCount(p.fitAnchors(Board.EMPTY)));
        }
    }

    @Test
    void drawnPiecesAreTrimmedAndRecognised() {
        assertSame(Pieces.require("T4U"), Piece.ofRows("....", "..#.", ".###"));
        Piece custom = Piece.ofRows("#.#");
        assertNull(custom.id());
        assertEquals(2, custom.cells());
        assertThrows(IllegalArgumentException.class, () -> Piece.ofRows("...", "..."));
        assertThrows(IllegalArgumentException.class, () -> Piece.ofRows("#########"));
        assertThrows(IllegalArgumentException.class, () -> Piece.ofRows("##", "#"));
        assertThrows(IllegalArgumentException.class, () -> Piece.ofRows("#x"));
    }

    @Test
    void lineMasksMatchANaiveScan() {
        Random rnd = new Random(1);
        for (int t = 0; t < 20_000; t++) {
            long b = rnd.nextLong() | rnd.nextLong() | (rnd.nextBoolean() ? Board.LINES[rnd.nextInt(16)] : 0);
            long mask = 0;
            int n = 0;
            for (long line : Board.LINES) {
                if ((b & line) == line) {
                    mask |= line;
                    n++;
                }
            }
            assertEquals(mask, Board.fullLinesMask(b));
            assertEquals(n, Board.fullLineCount(b));
        }
    }

    @Test
    void lineScoresFollowTheTable() {
        assertArrayEquals(new int[] {0, 10, 30, 60, 100, 150}, new int[] {Rules.linePoints(0), Rules.linePoints(1),
            Rules.linePoints(2), Rules.linePoints(3), Rules.linePoints(4), Rules.linePoints(5)});
    }

    @Test
    void boardTextRoundTrips() {
        long b = 0x8142241818244281L;
        assertEquals(b, Board.parse(Board.rows(b)));
        assertThrows(IllegalArgumentException.class, () -> Board.parse(new String[] {"........"}));
        assertThrows(IllegalArgumentException.class, () -> Board.parse(new String[] {
            "........", "........", "........", "........", "........", "........", "........", "....x..."}));
    }

    @Test
    void illegalPlacementsSayWhy() {
        Piece o9 = Pieces.require("O9");
        IllegalArgumentException off = assertThrows(IllegalArgumentException.class,
                () -> Rules.place(0, 0, 0, o9, 6, 0));
        assertEquals("O9 at (6,0) does not fit on the board", off.getMessage());
        IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class,
                () -> Rules.place(Board.bit(1, 1), 0, 0, o9, 0, 0));
        assertEquals("O9 at (0,0) overlaps a filled cell", overlap.getMessage());
    }

    /** On the board exactly when every cell is, for any int: the sums of a far-off cell must not overflow onto it. */
    @Test
    void aPlacementIsOnTheBoardExactlyWhenEveryCellIs() {
        int[] far = {Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -9, -1, 0, 1, 6, 7, 8, 9, Integer.MAX_VALUE - 8,
            Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
        for (Piece p : Pieces.all()) {
            for (int row : far) {
                for (int col : far) {
                    boolean inside = row >= 0 && col >= 0 && (long) row + p.height() <= Board.SIZE
                            && (long) col + p.width() <= Board.SIZE;
                    assertEquals(inside, p.onBoard(row, col), p.name() + " at (" + row + "," + col + ")");
                    assertEquals(inside, Rules.illegalReason(0L, p, row, col) == null, p.name() + " at (" + row
                            + "," + col + ")");
                }
            }
        }
    }

    @TestFactory
    List<DynamicTest> workedExamples() {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode ex : Golden.read("rules/worked-examples.json")) {
            tests.add(DynamicTest.dynamicTest(ex.get("name").asText(), () -> {
                long board = Board.parse(Golden.rows(ex.get("board")));
                int streak = ex.get("streak").asInt();
                int miss = ex.get("miss").asInt();
                int points = 0;
                int lines = 0;
                for (JsonNode m : ex.get("moves")) {
                    Rules.Outcome o = Rules.place(board, streak, miss, Pieces.require(m.get("piece").asText()),
                            m.get("row").asInt(), m.get("col").asInt());
                    assertEquals(m.get("points").asInt(), o.points(), "points of " + m);
                    assertEquals(m.get("lines").asInt(), o.lines(), "lines of " + m);
                    assertEquals(m.get("streak").asInt(), o.streak(), "streak after " + m);
                    assertEquals(m.get("miss").asInt(), o.miss(), "miss after " + m);
                    board = o.board();
                    streak = o.streak();
                    miss = o.miss();
                    points += o.points();
                    lines += o.lines();
                }
                JsonNode fin = ex.get("final");
                assertEquals(Board.text(Board.parse(Golden.rows(fin.get("board")))), Board.text(board));
                assertEquals(fin.get("points").asInt(), points);
                assertEquals(fin.get("lines").asInt(), lines);
                assertEquals(fin.get("streak").asInt(), streak);
                assertEquals(fin.get("miss").asInt(), miss);
            }));
        }
        return tests;
    }
}
