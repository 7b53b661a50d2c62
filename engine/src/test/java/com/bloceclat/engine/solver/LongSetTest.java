package com.bloceclat.engine.solver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

class LongSetTest {

    /** Against a HashSet: the same answers to every add, across growth and clears, the key 0 included. */
    @Test
    void answersAsAHashSetAcrossGrowthAndClears() {
        Random random = new Random(7);
        LongSet set = new LongSet(16);
        for (int round = 0; round < 5; round++) {
            Set<Long> expected = new HashSet<>();
            int n = round == 2 ? 20_000 : 300;
            for (int i = 0; i < n; i++) {
                long key = i % 97 == 0 ? 0 : random.nextInt(5_000) * 0x1_0000_0001L;
                assertEquals(expected.add(key), set.add(key), "key " + key);
            }
            assertEquals(expected.size(), set.size());
            set.clear();
            assertEquals(0, set.size());
        }
    }

    /**
     * A table grown far past its first capacity is given back when cleared (the solver's final boards of an empty
     * board and three small pieces, 171,216 of them, kept 5 MB per worker thread for good); one grown a little stays.
     */
    @Test
    void aTableGrownFarPastItsFirstCapacityIsGivenBackWhenCleared() {
        LongSet set = new LongSet(1 << 10);
        for (long k = 1; k <= 100_000; k++) {
            set.add(k);
        }
        assertTrue(set.capacity() > LongSet.SHRINK_PAST * (1 << 10));
        set.clear();
        assertEquals(1 << 10, set.capacity());
        assertTrue(set.add(5), "usable after");
        for (long k = 1; k <= 1_000; k++) {
            set.add(k);
        }
        int grown = set.capacity();
        assertTrue(grown > 1 << 10 && grown <= LongSet.SHRINK_PAST * (1 << 10));
        set.clear();
        assertEquals(grown, set.capacity(), "a usual search's table is kept: no allocation each search");
    }
}
