package com.bloceclat.game.service;

import java.time.Duration;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import com.bloceclat.common.limits.TokenBucket;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.micrometer.core.instrument.Counter;

/**
 * One kind of costly request (replays) that each client may ask for at a rate of so many a minute on this replica, in
 * bursts of as many: past it the request is refused with 429 and {@code Retry-After} before any of its work. Per
 * replica, as {@link InFlightPerClient}. A bucket unused for a minute is full again, so it is then forgotten (at most
 * {@value #CLIENTS} clients' buckets kept: one dropped early comes back full, never emptier).
 */
final class RatePerClient {

    private static final int CLIENTS = 100_000;

    private final Cache<String, TokenBucket> buckets = Caffeine.newBuilder().maximumSize(CLIENTS)
            .expireAfterAccess(Duration.ofMinutes(1)).build();
    private final String kind;
    private final Counter refused;

    /** {@code kind} names the requests in the refusal ("Too many replays: ..."); {@code refused} counts refusals. */
    RatePerClient(String kind, Counter refused) {
        this.kind = kind;
        this.refused = refused;
    }

    /** Counts one of {@code client}'s requests, or refuses it past {@code perMinute} a minute. */
    void take(String client, int perMinute) {
        long now = System.nanoTime();
        TokenBucket bucket = buckets.get(client, c -> new TokenBucket(perMinute / 60.0, perMinute, now));
        if (!bucket.tryAcquire(now)) {
            refused.increment();
            long retry = (long) Math.ceil(60.0 / perMinute);
            throw new WebApplicationException("Too many " + kind + ": at most " + perMinute + " a minute for one "
                    + "client; ask again in " + retry + " s.", Response.status(429).header("Retry-After", retry)
                    .build());
        }
    }
}
