package com.bloceclat.common.limits;

import java.time.Duration;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * A {@link TokenBucket} per key (a client): {@code burst} at once, refilled at {@code perSecond}. The buckets are a
 * Caffeine cache: a bucket not used for {@code burst / perSecond} is full again, so it is forgotten then (a new one
 * starts full: nothing changes); past {@code maxKeys} buckets Caffeine evicts the ones least likely to be used again,
 * in constant time whatever the number of keys (a flood from many addresses scans no bucket). An active key evicted
 * that way starts again with a full bucket.
 */
public final class BucketsPerKey {

    private final double perSecond;
    private final int burst;
    private final LongSupplier nanoTime;
    private final Cache<String, TokenBucket> buckets;

    public BucketsPerKey(double perSecond, int burst, int maxKeys, LongSupplier nanoTime) {
        this.perSecond = perSecond;
        this.burst = burst;
        this.nanoTime = nanoTime;
        this.buckets = Caffeine.newBuilder()
                .maximumSize(maxKeys)
                .expireAfterAccess(Duration.ofNanos((long) Math.ceil(burst / perSecond * 1e9)))
                .ticker(nanoTime::getAsLong)
                .executor(Runnable::run) // upkeep on the caller's thread: no pool of its own
                .build();
    }

    /**
     * Takes {@code n} from {@code key}'s bucket (at most its burst: more could never be taken), or none: answers 0, or
     * the nanoseconds until they are there.
     */
    public long take(String key, int n) {
        long now = nanoTime.getAsLong();
        return buckets.get(key, k -> new TokenBucket(perSecond, burst, now)).take(now, Math.max(1, Math.min(n, burst)));
    }

    /** Buckets kept, after Caffeine's pending upkeep. */
    public long size() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }
}
