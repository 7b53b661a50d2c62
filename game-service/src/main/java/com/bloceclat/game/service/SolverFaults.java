package com.bloceclat.game.service;

import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import com.bloceclat.solver.client.SolverBusyException;
import com.bloceclat.solver.client.SolverRequestException;
import com.bloceclat.solver.client.SolverUnavailableException;

import io.vertx.core.VertxException;

/**
 * What a caller is answered when a call to solver-service for it failed: a pure decision on the failure, tested alone
 * (SolverFaultsTest). Never a 500: the fault is the solver's or the path to it, not the caller's.
 * <ul>
 * <li>502 Bad Gateway: solver-service answered, with an error (it refused the request, or failed) or with an answer
 * that does not fit the question;</li>
 * <li>503 Service Unavailable with {@code Retry-After}: no replica could take it (all busy, none reachable, timed
 * out, connection lost), or anything else on the way.</li>
 * </ul>
 * In both cases the game is unchanged (a hint is recorded only once its answer is in).
 */
public final class SolverFaults {

    /** Seconds a caller is told to wait after a 503. */
    static final int RETRY_AFTER_SECONDS = 2;

    private SolverFaults() {
    }

    /** An answer of solver-service that does not fit the question asked. */
    static final class BadAnswer extends RuntimeException {
        BadAnswer(String message) {
            super(message, null, false, false);
        }
    }

    /** The error answer for a failed solver call made for {@code what} ("hint"). */
    public static WebApplicationException of(RuntimeException failure, String what) {
        if (failure instanceof WebApplicationException answered && answered.getResponse().getStatus() < 500) {
            return answered; // the caller's own fault found on the way (409, 404): as is
        }
        if (failure instanceof SolverRequestException || failure instanceof SolverUnavailableException
                || failure instanceof BadAnswer) {
            return new WebApplicationException("No " + what + ": solver-service answered with an error ("
                    + failure.getMessage() + "). The game is unchanged.",
                    Response.status(Response.Status.BAD_GATEWAY).build());
        }
        String why = failure instanceof SolverBusyException ? "every solver replica is busy"
                : failure instanceof ProcessingException || failure instanceof VertxException
                        ? "no solver replica could be reached" : "the solver is unavailable";
        return new WebApplicationException("No " + what + " right now: " + why + ". Try again shortly; the game is "
                + "unchanged.", Response.status(Response.Status.SERVICE_UNAVAILABLE)
                        .header("Retry-After", RETRY_AFTER_SECONDS).build());
    }
}
