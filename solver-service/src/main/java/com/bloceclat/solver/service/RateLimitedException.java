package com.bloceclat.solver.service;

/** A public caller went past its rate, or its requests at once (429 with Retry-After). */
public class RateLimitedException extends RuntimeException {

    private final long retryAfterSeconds;

    public RateLimitedException(long retryAfterSeconds) {
        this(retryAfterSeconds, "Too many solver requests from this client; retry in " + retryAfterSeconds + " s.");
    }

    public RateLimitedException(long retryAfterSeconds, String message) {
        super(message, null, false, false);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
