package com.bloceclat.solver.client;

/** solver-service answered an error the caller cannot fix (401, 403, 5xx...). */
public class SolverUnavailableException extends RuntimeException {

    public SolverUnavailableException(String message) {
        super(message);
    }
}
