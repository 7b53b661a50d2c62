package com.bloceclat.game.live;

/** A token bucket: {@code perSecond} frames a second on average, bursts up to {@code burst}. Thread-safe. */
final class RateLimit {

    private final double perSecond;
    private final double burst;
    private double tokens;
    private long last;
    private int refusedInARow;

    RateLimit(double perSecond, int burst, long nowNanos) {
        this.perSecond = perSecond;
        this.burst = burst;
        this.tokens = burst;
        this.last = nowNanos;
    }

    /** Takes one token if there is one. */
    synchronized boolean tryAcquire(long nowNanos) {
        tokens = Math.min(burst, tokens + (nowNanos - last) / 1e9 * perSecond);
        last = nowNanos;
        if (tokens >= 1) {
            tokens -= 1;
            refusedInARow = 0;
            return true;
        }
        refusedInARow++;
        return false;
    }

    /** Frames refused one after the other since the last one taken. */
    synchronized int refusedInARow() {
        return refusedInARow;
    }
}
