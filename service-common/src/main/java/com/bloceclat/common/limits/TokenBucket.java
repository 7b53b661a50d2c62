package com.bloceclat.common.limits;

/**
 * A token bucket: {@code perSecond} takes a second on average, bursts up to {@code burst}, full at first. Thread-safe.
 * Time is passed in (nanoseconds, {@link System#nanoTime}), so tests need not sleep.
 */
public final class TokenBucket {

    private final double perSecond;
    private final double burst;
    private double tokens;
    private long last;
    private int refusedInARow;

    public TokenBucket(double perSecond, int burst, long nowNanos) {
        this.perSecond = perSecond;
        this.burst = burst;
        this.tokens = burst;
        this.last = nowNanos;
    }

    /** Takes one token if there is one. */
    public synchronized boolean tryAcquire(long nowNanos) {
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

    /** Takes refused one after the other since the last one taken. */
    public synchronized int refusedInARow() {
        return refusedInARow;
    }
}
