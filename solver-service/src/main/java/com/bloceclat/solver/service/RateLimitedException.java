package com.bloceclat.solver.service;

/** A public caller went past its rate (429 with Retry-After). */
public class RateLimitedException extends RuntimeException {

    private final long retryAfterSeconds;

    public RateLimitedException(long retryAfterSeconds) {
        super("Too many solver requests from this client; retry in " + retryAfterSeconds + " s.", null, false,
                false);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
