package com.bloceclat.solver.service;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class RateLimiterTest {

    private final AtomicLong now = new AtomicLong();

    @Test
    void aBurstThenTheSustainedRate() {
        RateLimiter limiter = new RateLimiter(2, 3, 100, 100, now::get);
        for (int i = 0; i < 3; i++) {
            limiter.acquire("a");
        }
        RateLimitedException e = assertThrows(RateLimitedException.class, () -> limiter.acquire("a"));
        assertEquals(1, e.retryAfterSeconds());
        now.addAndGet(500_000_000L);
        assertDoesNotThrow(() -> limiter.acquire("a"));
        assertThrows(RateLimitedException.class, () -> limiter.acquire("a"));
    }

    @Test
    void clientsHaveTheirOwnBuckets() {
        RateLimiter limiter = new RateLimiter(1, 1, 100, 100, now::get);
        limiter.acquire("a");
        assertThrows(RateLimitedException.class, () -> limiter.acquire("a"));
        assertDoesNotThrow(() -> limiter.acquire("b"));
    }

    @Test
    void retryAfterRoundsUpToWholeSeconds() {
        RateLimiter limiter = new RateLimiter(0.1, 1, 100, 100, now::get);
        limiter.acquire("a");
        assertEquals(10, assertThrows(RateLimitedException.class, () -> limiter.acquire("a")).retryAfterSeconds());
    }

    @Test
    void idleClientsAreForgottenPastTheLimitButActiveOnesKeepTheirBucket() {
        RateLimiter limiter = new RateLimiter(1, 1, 2, 100, now::get);
        limiter.acquire("a");
        limiter.acquire("b");
        now.addAndGet(5_000_000_000L);
        limiter.acquire("c");
        limiter.acquire("d");
        // a and b were full again (idle) and dropped; d is new, c is still empty.
        assertThrows(RateLimitedException.class, () -> limiter.acquire("c"));
    }

    /** Past max-clients, with every client active at once, the buckets kept stay within the bound. */
    @Test
    void everyClientActiveTheBucketsStayWithinMaxClients() {
        RateLimiter limiter = new RateLimiter(1, 1, 100, 100, now::get);
        for (int i = 0; i < 10_000; i++) {
            limiter.acquire("client-" + i);
        }
        assertTrue(limiter.clients() <= 100, limiter.clients() + " buckets");
    }

    @Test
    void aClientHasAtMostItsPlacesInFlightAndGetsThemBackOnceEachRequestEnds() {
        RateLimiter limiter = new RateLimiter(100, 100, 100, 2, now::get);
        Runnable first = limiter.admit("a");
        Runnable second = limiter.admit("a");
        RateLimitedException full = assertThrows(RateLimitedException.class, () -> limiter.admit("a"));
        assertEquals(1, full.retryAfterSeconds());
        assertTrue(full.getMessage().contains("at most 2"), full.getMessage());
        assertDoesNotThrow(() -> limiter.admit("b"), "another client has its own places");
        first.run();
        first.run(); // a second release gives back nothing more
        assertEquals(1, limiter.inFlight("a"));
        Runnable third = assertDoesNotThrow(() -> limiter.admit("a"));
        assertThrows(RateLimitedException.class, () -> limiter.admit("a"));
        second.run();
        third.run();
        assertEquals(0, limiter.inFlight("a"));
    }

    @Test
    void aRequestRefusedForItsRateTakesNoPlaceInFlight() {
        RateLimiter limiter = new RateLimiter(0.1, 1, 100, 2, now::get);
        limiter.admit("a");
        assertThrows(RateLimitedException.class, () -> limiter.admit("a"));
        assertEquals(1, limiter.inFlight("a"));
    }
}
