package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

import com.bloceclat.solver.client.SolverBusyException;
import com.bloceclat.solver.client.SolverRequestException;
import com.bloceclat.solver.client.SolverUnavailableException;

import io.vertx.core.VertxException;

class SolverFaultsTest {

    @Test
    void theSolverAnsweringAnErrorIs502() {
        // before: a refused request (400 from solver-service) was an IllegalStateException, a 500
        for (RuntimeException e : new RuntimeException[] {new SolverRequestException("\"board\" must have 8 rows"),
                new SolverUnavailableException("solver-service answered 500: boom"),
                new SolverFaults.BadAnswer("a placement of piece 7 of 2")}) {
            WebApplicationException answer = SolverFaults.of(e, "hint");
            assertEquals(502, answer.getResponse().getStatus(), e.toString());
            assertTrue(answer.getMessage().startsWith("No hint: solver-service answered with an error"),
                    answer.getMessage());
            assertNull(answer.getResponse().getHeaderString("Retry-After"));
        }
    }

    @Test
    void noReplicaTakingItIs503WithRetryAfter() {
        for (RuntimeException e : new RuntimeException[] {new SolverBusyException("429 busy"),
                new ProcessingException("connection refused"), new VertxException("connection was closed"),
                new IllegalStateException("circuit open")}) {
            WebApplicationException answer = SolverFaults.of(e, "hint");
            assertEquals(503, answer.getResponse().getStatus(), e.toString());
            assertEquals(String.valueOf(SolverFaults.RETRY_AFTER_SECONDS),
                    answer.getResponse().getHeaderString("Retry-After"));
        }
    }

    @Test
    void theCallersOwnFaultFoundOnTheWayStaysAsItIs() {
        ClientErrorException conflict = new ClientErrorException("changed", Response.Status.CONFLICT);
        assertSame(conflict, SolverFaults.of(conflict, "hint"));
    }
}
