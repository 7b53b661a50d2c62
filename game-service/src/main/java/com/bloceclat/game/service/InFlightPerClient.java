package com.bloceclat.game.service;

import java.util.function.Supplier;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import com.bloceclat.common.limits.CountsPerKey;

import io.micrometer.core.instrument.Counter;

/**
 * One kind of costly request (hints, replays) that each client may have being worked on at once on this replica, up to
 * a bound: past it the request is refused with 429 and {@code Retry-After: 1} before any of its work. Per replica: a
 * client whose requests a load balancer spreads over N replicas has N times the bound.
 */
final class InFlightPerClient {

    private final CountsPerKey<String> counts = new CountsPerKey<>();
    private final String kind;
    private final String state;
    private final Counter refused;

    /**
     * {@code kind} and {@code state} name the requests in the refusal ("Too many hints at once: at most 2 being worked
     * out..."); {@code refused} counts the refusals.
     */
    InFlightPerClient(String kind, String state, Counter refused) {
        this.kind = kind;
        this.state = state;
        this.refused = refused;
    }

    /** Runs {@code work} as one of {@code client}'s requests in flight, if it has fewer than {@code max}. */
    <T> T run(String client, int max, Supplier<T> work) {
        if (!counts.tryAdd(client, max)) {
            refused.increment();
            throw new WebApplicationException("Too many " + kind + " at once: at most " + max + " " + state
                    + " for one client; ask again once one is given.", Response.status(429)
                    .header("Retry-After", 1).build());
        }
        try {
            return work.get();
        } finally {
            counts.remove(client);
        }
    }
}
