package com.bloceclat.engine.solver;

import com.bloceclat.engine.Level;
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
        ValueTraining net = new ValueTraining();
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
            Random rnd = new Random(3);
            for (int t = 0; t < 20_000; t++) {
                long b = rnd.nextLong() & (rnd.nextBoolean() ? rnd.nextLong() : -1L);
                assertEquals(net.value(b), lv.value(b), 1e-3, Long.toHexString(b));
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
