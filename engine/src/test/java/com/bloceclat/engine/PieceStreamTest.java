package com.bloceclat.engine;

import com.bloceclat.engine.cli.Main;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PieceStreamTest {
    private static final int GAMES = 300;

    /** (seed, level) → start board and first 20 rounds: the files other modules read too. */
    @TestFactory
    List<DynamicTest> dealsMatchTheGoldenFiles() {
        List<Path> files = Golden.files("deals", ".json");
        assertEquals(10, files.size());
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            JsonNode golden = Golden.JSON.readTree(f.toFile());
            JsonNode now = Main.dealJson(golden.get("seed").asLong(), Level.parse(golden.get("level").asText()),
                    golden.get("rounds").size());
            assertEquals(golden.toString(), now.toString());
        })).toList();
    }

    @Test
    void roundsArePureFunctionsOfSeedLevelAndRound() {
        for (Level level : Level.values()) {
            for (int k = 0; k < 50; k++) {
                assertArrayEquals(PieceStream.round(99, level, k), PieceStream.round(99, level, k));
            }
            assertEquals(PieceStream.startBoard(99, level), PieceStream.startBoard(99, level));
        }
        assertFalse(Arrays.equals(PieceStream.round(1, Level.HARD, 5), PieceStream.round(2, Level.HARD, 5))
                && Arrays.equals(PieceStream.round(1, Level.HARD, 6), PieceStream.round(2, Level.HARD, 6)));
    }

    @Test
    void startBoardsHaveTheLevelsCellsNeverALineAndAPlaceableFirstRound() {
        for (Level level : Level.values()) {
            for (long seed = 0; seed < GAMES; seed++) {
                long start = PieceStream.startBoard(seed, level);
                assertEquals(level.startCells(), Long.bitCount(start), level + " seed " + seed);
                assertEquals(0, Board.fullLineCount(start));
                assertTrue(PieceStream.canPlaceAll(start, PieceStream.round(seed, level, 0), 0));
            }
        }
    }

    @Test
    void theOpeningIsKind() {
        for (Level level : Level.values()) {
            for (long seed = 0; seed < GAMES; seed++) {
                for (int k = 0; k < level.openingRounds(); k++) {
                    Piece[] round = PieceStream.round(seed, level, k);
                    assertTrue(Arrays.stream(round).anyMatch(p -> p.pieceClass() == PieceClass.SMALL),
                            level + " seed " + seed + " round " + k + " has a small piece");
                }
            }
        }
    }

    @Test
    void easyDealsNoZigzagNoTAndNoLargePiece() {
        Set<String> banned = Set.of("T4U", "T4D", "T4L", "T4R", "S4H", "S4V", "Z4H", "Z4V");
        for (long seed = 0; seed < 100; seed++) {
            for (int k = 0; k < 30; k++) {
                for (Piece p : PieceStream.round(seed, Level.EASY, k)) {
                    assertFalse(banned.contains(p.id()) || p.pieceClass() == PieceClass.LARGE, p.id());
                }
            }
        }
    }

    @Test
    void drawnFrequenciesFollowTheLevelWeights() {
        for (Level level : Level.values()) {
            int[] counts = new int[Pieces.COUNT];
            int total = 0;
            for (long seed = 0; seed < 400; seed++) {
                for (int k = level.openingRounds(); k < level.openingRounds() + 25; k++) {
                    for (Piece p : PieceStream.round(seed, level, k)) {
                        counts[p.index()]++;
                        total++;
                    }
                }
            }
            double[] dist = level.distribution();
            for (int i = 0; i < Pieces.COUNT; i++) {
                double expected = dist[i] * total;
                double sigma = Math.sqrt(total * dist[i] * (1 - dist[i]));
                assertTrue(Math.abs(counts[i] - expected) <= 5 * sigma + 1,
                        level + " " + Pieces.get(i).id() + ": " + counts[i] + " drawn, " + expected + " expected");
            }
        }
    }

    @Test
    void knownSplitMix64Output() {
        // Reference values of SplitMix64 seeded with 1234567 (Vigna's splitmix64.c).
        SplitMix64 rng = new SplitMix64(1234567);
        assertEquals(6457827717110365317L, rng.nextLong());
        assertEquals(3203168211198807973L, rng.nextLong());
    }

}
