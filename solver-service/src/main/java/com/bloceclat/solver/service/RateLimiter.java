package com.bloceclat.solver.service;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.common.limits.BucketsPerKey;
import com.bloceclat.common.limits.CountsPerKey;
import com.bloceclat.solver.config.SolverConfig;

/**
 * A token bucket per public client ({@link BucketsPerKey}): {@code burst} requests at once, refilled at
 * {@code requests-per-second}, a bucket forgotten once full again, at most {@code max-clients} kept.
 *
 * <p>A client also has at most {@code in-flight-per-client} requests admitted at once ({@link #admit}: waiting for a
 * worker or in one), counted apart from the buckets (an entry only while a request of the client is in flight), so a
 * client's burst can never fill the public share of the pool on its own.
 */
@ApplicationScoped
public class RateLimiter {

    private final BucketsPerKey buckets;
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
        this.maxInFlight = maxInFlight;
        this.buckets = new BucketsPerKey(perSecond, burst, maxClients, nanoTime);
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
        long wait = buckets.take(client, requests);
        if (wait > 0) {
            throw new RateLimitedException(Math.max(1, (wait + 999_999_999L) / 1_000_000_000L));
        }
    }

    /** Buckets kept, after Caffeine's pending upkeep (tests). */
    long clients() {
        return buckets.size();
    }
}
