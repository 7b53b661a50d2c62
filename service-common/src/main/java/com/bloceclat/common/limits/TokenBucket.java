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
    public boolean tryAcquire(long nowNanos) {
        return take(nowNanos, 1) == 0;
    }

    /** Takes {@code n} tokens, or none: answers 0, or the nanoseconds until {@code n} are there. */
    public synchronized long take(long nowNanos, int n) {
        tokens = Math.min(burst, tokens + (nowNanos - last) / 1e9 * perSecond);
        last = nowNanos;
        if (tokens >= n) {
            tokens -= n;
            refusedInARow = 0;
            return 0;
        }
        refusedInARow++;
        return (long) Math.ceil((n - tokens) / perSecond * 1e9);
    }

    /** Takes refused one after the other since the last one taken. */
    public synchronized int refusedInARow() {
        return refusedInARow;
    }
}
