package com.bloceclat.game.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Asks solver-service (SOLVER-PROTOCOL.md request and response objects). */
public interface SolverClient {

    /**
     * The solver's answer to {@code request}.
     *
     * @throws SolverUnavailableException when no replica answered
     */
    JsonNode solve(ObjectNode request);

    /** No solver replica answered in time. */
    class SolverUnavailableException extends RuntimeException {
        public SolverUnavailableException(String message) {
            super(message);
        }
    }
}
