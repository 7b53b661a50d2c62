package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EvaluatorTest {

    @Test
    void bitParallelLineCountsMatchAScan() {
        Random rnd = new Random(8);
        for (int t = 0; t < 50_000; t++) {
            long cells = rnd.nextLong() & rnd.nextLong() & (rnd.nextBoolean() ? rnd.nextLong() : -1L);
            int rows = 0;
            int cols = 0;
            for (int i = 0; i < 8; i++) {
                int r = Long.bitCount(cells & Board.LINES[i]);
                int c = Long.bitCount(cells & Board.LINES[8 + i]);
                rows += r >= 1 && r <= 3 ? 1 : 0;
                cols += c >= 1 && c <= 3 ? 1 : 0;
            }
            assertEquals(rows, Evaluator.nearRows(cells));
            assertEquals(cols, Evaluator.nearRows(Evaluator.transpose(cells)));
        }
    }

    @Test
    void transposeSwapsRowsAndColumns() {
        for (int r = 0; r < 8; r++) {
            for (int c = 0; c < 8; c++) {
                assertEquals(Board.bit(c, r), Evaluator.transpose(Board.bit(r, c)));
            }
        }
    }
}
