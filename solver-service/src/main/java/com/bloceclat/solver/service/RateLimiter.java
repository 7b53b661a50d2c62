package com.bloceclat.solver.service;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.common.limits.CountsPerKey;
import com.bloceclat.solver.config.SolverConfig;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * A token bucket per public client: {@code burst} requests at once, refilled at {@code requests-per-second}. The buckets
 * are a Caffeine cache: a bucket not used for {@code burst / requests-per-second} is full again, so it is forgotten
 * then (a new one starts full: nothing changes); past {@code max-clients} buckets Caffeine evicts the ones least
 * likely to be used again, in constant time whatever the number of clients (a flood from many addresses no longer
 * scans every bucket on each new one). An active client evicted that way starts again with a full bucket.
 *
 * <p>A client also has at most {@code in-flight-per-client} requests admitted at once ({@link #admit}: waiting for a
 * worker or in one), counted apart from the buckets (an entry only while a request of the client is in flight), so a
 * client's burst can never fill the public share of the pool on its own.
 */
@ApplicationScoped
public class RateLimiter {

    private final double perSecond;
    private final int burst;
    private final LongSupplier nanoTime;
    private final Cache<String, Bucket> buckets;
    private final int maxInFlight;
    private final CountsPerKey<String> inFlight = new CountsPerKey<>();

    @Inject
    public RateLimiter(SolverConfig config) {
        this(config.publicCallers().requestsPerSecond(), config.publicCallers().burst(),
                config.publicCallers().maxClients(), config.publicCallers().inFlightPerClient(), System::nanoTime);
    }

    RateLimiter(double perSecond, int burst, int maxClients, int maxInFlight, LongSupplier nanoTime) {
        if (perSecond <= 0 || burst < 1 || maxClients < 1 || maxInFlight < 1) {
            throw new IllegalArgumentException(
                    "bloc.solver.public rate, burst, max-clients and in-flight-per-client must be positive");
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.maxInFlight = maxInFlight;
        this.nanoTime = nanoTime;
        this.buckets = Caffeine.newBuilder()
                .maximumSize(maxClients)
                .expireAfterAccess(Duration.ofNanos((long) Math.ceil(burst / perSecond * 1e9)))
                .ticker(nanoTime::getAsLong)
                .executor(Runnable::run) // upkeep on the caller's thread: no pool of its own
                .build();
    }

    /**
     * Admits a request of a public client: one of its places in flight, then one request from its bucket
     * ({@link #acquire}). Answers what gives the place back, to be run once the request has ended, however it ended
     * (more than once does nothing).
     *
     * @throws RateLimitedException when the client has as many requests in flight as it may, or its bucket is empty
     */
    public Runnable admit(String client) {
        if (!inFlight.tryAdd(client, maxInFlight)) {
            throw new RateLimitedException(1, "Too many solver requests from this client at once: at most "
                    + maxInFlight + "; retry in 1 s.");
        }
        AtomicBoolean left = new AtomicBoolean();
        Runnable leave = () -> {
            if (left.compareAndSet(false, true)) {
                inFlight.remove(client);
            }
        };
        try {
            acquire(client);
        } catch (RuntimeException e) {
            leave.run();
            throw e;
        }
        return leave;
    }

    /** Requests of {@code client} in flight now (tests). */
    int inFlight(String client) {
        return inFlight.count(client);
    }

    /** Takes one request from the client's bucket. @throws RateLimitedException when it is empty */
    public void acquire(String client) {
        acquire(client, 1);
    }

    /**
     * Takes {@code requests} from the client's bucket at once (at most its burst: more could never be taken), or none.
     * A call that costs a worker as much as several searches (an analysis) counts as that many requests.
     *
     * @throws RateLimitedException when the bucket holds fewer
     */
    public void acquire(String client, int requests) {
        int n = Math.max(1, Math.min(requests, burst));
        long now = nanoTime.getAsLong();
        long wait = buckets.get(client, c -> new Bucket(burst, now)).take(now, n);
        if (wait > 0) {
            throw new RateLimitedException(Math.max(1, (wait + 999_999_999L) / 1_000_000_000L));
        }
    }

    /** Buckets kept, after Caffeine's pending upkeep (tests). */
    long clients() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }

    private final class Bucket {
        private double tokens;
        private long updated;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.updated = now;
        }

        /** Takes {@code n} tokens: 0, or the nanoseconds until {@code n} are there (none taken then). */
        synchronized long take(long now, int n) {
            refill(now);
            if (tokens >= n) {
                tokens -= n;
                return 0;
            }
            return (long) Math.ceil((n - tokens) / perSecond * 1e9);
        }

        private void refill(long now) {
            tokens = Math.min(burst, tokens + (now - updated) / 1e9 * perSecond);
            updated = now;
        }
    }
}
