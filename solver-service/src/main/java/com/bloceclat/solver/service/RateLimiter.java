package com.bloceclat.solver.service;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.solver.config.SolverConfig;

/**
 * A token bucket per public client: {@code burst} requests at once, refilled at {@code requests-per-second}. At most
 * {@code max-clients} buckets are kept; when there are more, the full ones (idle clients) are dropped first.
 */
@ApplicationScoped
public class RateLimiter {

    private final double perSecond;
    private final int burst;
    private final int maxClients;
    private final LongSupplier nanoTime;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    @Inject
    public RateLimiter(SolverConfig config) {
        this(config.publicCallers().requestsPerSecond(), config.publicCallers().burst(),
                config.publicCallers().maxClients(), System::nanoTime);
    }

    RateLimiter(double perSecond, int burst, int maxClients, LongSupplier nanoTime) {
        if (perSecond <= 0 || burst < 1 || maxClients < 1) {
            throw new IllegalArgumentException("bloc.solver.public rate, burst and max-clients must be positive");
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.maxClients = maxClients;
        this.nanoTime = nanoTime;
    }

    /** Takes one request from the client's bucket. @throws RateLimitedException when it is empty */
    public void acquire(String client) {
        long now = nanoTime.getAsLong();
        if (buckets.size() >= maxClients && !buckets.containsKey(client)) {
            forgetIdle(now);
        }
        long wait = buckets.computeIfAbsent(client, c -> new Bucket(burst, now)).take(now);
        if (wait > 0) {
            throw new RateLimitedException(Math.max(1, (wait + 999_999_999L) / 1_000_000_000L));
        }
    }

    private void forgetIdle(long now) {
        buckets.values().removeIf(bucket -> bucket.full(now));
        if (buckets.size() >= maxClients) {
            // Every client is active: forget arbitrary ones rather than grow without bound.
            var keys = buckets.keySet().iterator();
            while (buckets.size() >= maxClients && keys.hasNext()) {
                keys.next();
                keys.remove();
            }
        }
    }

    private final class Bucket {
        private double tokens;
        private long updated;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.updated = now;
        }

        /** Takes a token: 0, or the nanoseconds until one is there. */
        synchronized long take(long now) {
            refill(now);
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / perSecond * 1e9);
        }

        synchronized boolean full(long now) {
            refill(now);
            return tokens >= burst;
        }

        private void refill(long now) {
            tokens = Math.min(burst, tokens + (now - updated) / 1e9 * perSecond);
            updated = now;
        }
    }
}
