package com.bloceclat.solver.service;

/** Every worker is busy and the queue is full: the caller should come back later (429 with Retry-After). */
public class SaturatedException extends RuntimeException {

    public SaturatedException() {
        super("Every solver worker is busy and the queue is full; retry shortly or on another replica.", null,
                false, false);
    }
}
