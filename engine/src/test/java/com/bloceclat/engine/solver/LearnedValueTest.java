package com.bloceclat.engine.solver;

import com.bloceclat.engine.Level;
import com.bloceclat.engine.Pieces;
import org.junit.jupiter.api.Test;

import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LearnedValueTest {

    @Test
    void tablesForTheLevelsTheyWereTrainedOn() {
        assertNotNull(LearnedValue.of(Level.EXPERT));
        assertNotNull(LearnedValue.of(Level.DIABOLICAL));
        assertNotNull(LearnedValue.of(Level.HARD));
        assertNull(LearnedValue.of(Level.EASY));
        assertNull(LearnedValue.of(Level.MEDIUM));
    }

    @Test
    void theFoldedTableIsTheTrainedNetwork() throws Exception {
        foldedEqualsTrained(false);
    }

    @Test
    void theFoldedTableKeepsTheRoomWeights() throws Exception {
        foldedEqualsTrained(true);
    }

    @Test
    void theRoomWeightsReadThePlacesEachLargeShapeFits() {
        float[] room = new float[LearnedValue.ROOM_ENTRIES];
        int o9 = 3; // ROOM_CLASSES: O9 is the fourth class
        for (int places = 0; places < LearnedValue.ROOM_BUCKETS; places++) {
            room[o9 * LearnedValue.ROOM_BUCKETS + places] = 1000 * places;
        }
        LearnedValue lv = new LearnedValue(0, new float[LearnedValue.CLASSES * LearnedValue.ENTRIES], room);
        assertEquals(5000, lv.value(0), 1e-9, "an empty board: 36 places, counted as 5 or more");
        long oneSquare = ~0L & ~(0x070707L << 9); // all full but a 3x3 square at rows 1-3, columns 1-3
        assertEquals(1000, lv.value(oneSquare), 1e-9);
        long twoPlaces = ~0L & ~(0x0F0707L << 9); // the same and one cell right of it on row 3
        assertEquals(1000, lv.value(twoPlaces), 1e-9, "a 3x3 still fits in one place only");
        long wider = ~0L & ~(0x0F0F0FL << 9); // rows 1-3, columns 1-4: two places
        assertEquals(2000, lv.value(wider), 1e-9);
        assertEquals(0, lv.value(-1L), 1e-9);
    }

    @Test
    void theRoomCountsAreThePlacesEachShapeFits() {
        Random rnd = new Random(11);
        for (int t = 0; t < 50_000; t++) {
            long r = rnd.nextLong();
            long b = switch (t % 4) { // boards a quarter to seven eighths full
                case 0 -> r & rnd.nextLong();
                case 1 -> r;
                case 2 -> r | rnd.nextLong();
                default -> r | rnd.nextLong() | rnd.nextLong();
            };
            long counts = LearnedValue.roomCounts(b);
            int k = 0;
            for (String[] cls : LearnedValue.ROOM_CLASSES) {
                for (String id : cls) {
                    long places = Math.min(Long.bitCount(Pieces.require(id).fitAnchors(b)), LearnedValue.ROOM_BUCKETS - 1);
                    assertEquals(places, (counts >>> (3 * k)) & 7, id + " on " + Long.toHexString(b));
                    k++;
                }
            }
            assertEquals(LearnedValue.ROOM_SHAPES, k);
        }
    }

    private static void foldedEqualsTrained(boolean withRoom) throws Exception {
        ValueTraining net = new ValueTraining(withRoom);
        for (int g = 0; g < 300; g++) {
            net.trainGame(900_001 + g, Level.DIABOLICAL, 0.1, 1.0, 200);
        }
        Path raw = Files.createTempFile("value", ".bin");
        Path folded = Files.createTempFile("value", ".bin.gz");
        try {
            net.save(raw.toString());
            ValueTraining.load(raw.toString()).fold(folded.toString());
            LearnedValue lv;
            try (InputStream in = new FileInputStream(folded.toFile())) {
                lv = LearnedValue.read(in);
            }
            ValueTraining unfolded = ValueTraining.unfold(folded.toString()); // to train further: values alike
            Random rnd = new Random(3);
            for (int t = 0; t < 20_000; t++) {
                long b = rnd.nextLong() & (rnd.nextBoolean() ? rnd.nextLong() : -1L);
                assertEquals(net.value(b), lv.value(b), 1e-3, Long.toHexString(b));
                assertEquals(net.value(b), unfolded.value(b), 1e-3, Long.toHexString(b));
            }
        } finally {
            Files.deleteIfExists(raw);
            Files.deleteIfExists(folded);
        }
    }

    @Test
    void rowsAndColumnsAreWeighedAlike() {
        LearnedValue lv = LearnedValue.of(Level.EXPERT);
        Random rnd = new Random(5);
        for (int t = 0; t < 10_000; t++) {
            long b = rnd.nextLong() & rnd.nextLong();
            assertEquals(lv.value(b), lv.value(Evaluator.transpose(b)), 1e-3);
        }
    }

    @Test
    void anEmptyBoardOutlivesARaggedOne() {
        long checker = 0xAA55AA55AA55AA55L & 0x00FFFFFFFFFFFF00L;
        for (Level level : new Level[] {Level.HARD, Level.EXPERT, Level.DIABOLICAL}) {
            LearnedValue lv = LearnedValue.of(level);
            assertTrue(lv.value(0) > lv.value(checker) + 1, level + ": " + lv.value(0) + " vs " + lv.value(checker));
        }
    }
}
