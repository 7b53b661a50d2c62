package com.bloceclat.game;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import jakarta.inject.Singleton;

/**
 * The clock game-service's calendar rules read in tests (in place of the default system clock, see {@code Clocks}):
 * the system's time plus an offset a test moves forward, so that "the day is over" is tested without waiting. A test
 * that moves it puts it back ({@link #reset()}) when it ends.
 */
@Singleton
public class TestClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    /** Moves the clock forward by {@code by}. */
    public void advance(Duration by) {
        offset = offset.plus(by);
    }

    public void reset() {
        offset = Duration.ZERO;
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return Clock.offset(Clock.system(zone), offset);
    }
}
