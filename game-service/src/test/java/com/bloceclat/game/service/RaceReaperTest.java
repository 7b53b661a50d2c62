package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** When a reaper's pass may resign anyone: only once the database has been reached for a whole timeout. */
class RaceReaperTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final long T0 = 1_000_000_000L;

    @Test
    void nobodyIsResignedBeforeTheDatabaseHasBeenReachedForAWholeTimeout() {
        assertFalse(RaceReaper.mayReap(null, T0, TIMEOUT), "not reached since the start or the last failed pass");
        assertFalse(RaceReaper.mayReap(T0, T0, TIMEOUT));
        assertFalse(RaceReaper.mayReap(T0, T0 + TIMEOUT.toNanos() - 1, TIMEOUT));
        assertTrue(RaceReaper.mayReap(T0, T0 + TIMEOUT.toNanos(), TIMEOUT));
        assertTrue(RaceReaper.mayReap(-T0, T0 + TIMEOUT.toNanos(), TIMEOUT), "nanoTime may be negative");
    }
}
