package com.bloceclat.common.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class CountsPerKeyTest {

    @Test
    void aKeyHoldsAtMostItsBoundAndIsForgottenAtZero() {
        CountsPerKey<String> counts = new CountsPerKey<>();
        assertTrue(counts.tryAdd("a", 2));
        assertTrue(counts.tryAdd("a", 2));
        assertFalse(counts.tryAdd("a", 2));
        assertTrue(counts.tryAdd("b", 2), "each key has its own bound");
        assertEquals(2, counts.count("a"));
        assertTrue(counts.remove("a"));
        assertTrue(counts.tryAdd("a", 2), "a place given back is taken again");
        assertTrue(counts.remove("a"));
        assertTrue(counts.remove("a"));
        assertFalse(counts.remove("a"), "nothing left to count off");
        assertEquals(0, counts.count("a"));
        assertTrue(counts.remove("b"));
        assertEquals(0, counts.keys(), "keys at zero are not kept");
        counts.add("c");
        counts.add("c");
        assertEquals(2, counts.count("c"));
    }

    @Test
    void amountsAreCountedWhole() {
        CountsPerKey<String> bytes = new CountsPerKey<>();
        assertTrue(bytes.tryAdd("a", 600, 1000));
        assertFalse(bytes.tryAdd("a", 401, 1000), "one past the bound");
        assertTrue(bytes.tryAdd("a", 400, 1000), "up to the bound");
        assertFalse(bytes.tryAdd("b", 1001, 1000), "more than the bound at once");
        assertEquals(1000, bytes.count("a"));
        assertTrue(bytes.remove("a", 600));
        assertEquals(400, bytes.count("a"));
        assertTrue(bytes.remove("a", 400));
        assertEquals(0, bytes.keys(), "keys at zero are not kept");
    }

    /** Threads racing for the places of one key: never more than the bound at once, and all back at the end. */
    @Test
    void racingThreadsNeverHoldMoreThanTheBound() throws Exception {
        CountsPerKey<String> counts = new CountsPerKey<>();
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 20_000; i++) {
                    if (counts.tryAdd("k", 3)) {
                        most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                        holding.decrementAndGet();
                        counts.remove("k");
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(most.get() <= 3, "held at once: " + most.get());
        assertEquals(0, counts.keys());
    }
}
