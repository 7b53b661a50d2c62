package com.bloceclat.solver.service;

/**
 * The caller kind's share of the pool is full (its workers busy, its queue full): come back later (429 with
 * Retry-After).
 */
public class SaturatedException extends RuntimeException {

    public SaturatedException() {
        super("Every solver worker this kind of caller may use is busy and its queue is full; retry shortly or on "
                + "another replica.", null,
                false, false);
    }
}
