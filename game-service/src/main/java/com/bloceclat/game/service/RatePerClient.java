package com.bloceclat.game.service;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import com.bloceclat.common.limits.BucketsPerKey;

import io.micrometer.core.instrument.Counter;

/**
 * One kind of costly request (replays) that each client may ask for at a rate of so many a minute on this replica, in
 * bursts of as many ({@link BucketsPerKey}: a bucket forgotten once full again, at most {@value #CLIENTS} kept): past
 * it the request is refused with 429 and {@code Retry-After} before any of its work. Per replica, as
 * {@link InFlightPerClient}.
 */
final class RatePerClient {

    private static final int CLIENTS = 100_000;

    private final BucketsPerKey buckets;
    private final String kind;
    private final int perMinute;
    private final Counter refused;

    /** {@code kind} names the requests in the refusal ("Too many replays: ..."); {@code refused} counts refusals. */
    RatePerClient(String kind, int perMinute, Counter refused) {
        this.buckets = new BucketsPerKey(perMinute / 60.0, perMinute, CLIENTS, System::nanoTime);
        this.kind = kind;
        this.perMinute = perMinute;
        this.refused = refused;
    }

    /** Counts one of {@code client}'s requests, or refuses it past the rate. */
    void take(String client) {
        if (buckets.take(client, 1) > 0) {
            refused.increment();
            long retry = (long) Math.ceil(60.0 / perMinute);
            throw new WebApplicationException("Too many " + kind + ": at most " + perMinute + " a minute for one "
                    + "client; ask again in " + retry + " s.", Response.status(429).header("Retry-After", retry)
                    .build());
        }
    }
}
