package com.bloceclat.solver.client;

/** A replica was saturated (429 or 503 with Retry-After): retried on another replica. */
public class SolverBusyException extends RuntimeException {

    public SolverBusyException(String message) {
        super(message);
    }
}
