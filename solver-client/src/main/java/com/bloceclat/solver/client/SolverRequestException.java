package com.bloceclat.solver.client;

/** solver-service refused the request (400): the message is the solver protocol's error. Never retried. */
public class SolverRequestException extends RuntimeException {

    public SolverRequestException(String message) {
        super(message);
    }
}
