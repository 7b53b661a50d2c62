package com.bloceclat.solver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import org.eclipse.microprofile.rest.client.inject.RestClient;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.protocol.SolverProtocol;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class SolverClientTest {

    private static final int CALLERS = 4;
    private static final int REQUESTS_PER_CALLER = 250;

    @Inject
    SolverClient client;

    @Inject
    @RestClient
    SolverApi api;

    @InjectReplicas
    List<SolverReplicas.Replica> replicas;

    private static SolveRequest request(int n) {
        String[] rows = new String[8];
        for (int row = 0; row < 8; row++) {
            // A different half-filled board per request, so some work is in flight when a replica dies.
            rows[row] = row % 2 == 0 ? "##......" : (n % 2 == 0 ? "......##" : "...##...");
        }
        return new SolveRequest(Board.parse(rows), List.of(Pieces.require("L3A"), Pieces.require("O4"),
                Pieces.require("I3H")), 0, 0, Level.HARD, Mode.AI, 1 + n % 2, n, 0);
    }

    @Test
    void aMalformedRequestGetsTheProtocolMessage() {
        // A SolveRequest cannot be malformed: the wire below the client can.
        ObjectNode bad = SolverProtocol.toJson(null, request(0));
        bad.putArray("pieces").add("Q7");
        // The client defines the Stork service when it is first used; the raw API below relies on it.
        client.solve("first", request(0));
        SolverRequestException e = assertThrows(SolverRequestException.class, () -> api.solve(bad));
        assertEquals("piece 0: unknown piece id \"Q7\"", e.getMessage());
    }

    @Test
    void theAnswerIsTheEnginesSolutionOfTheRequest() {
        SolveRequest request = new SolveRequest(Board.parse(new String[] {"#######.", "#######.", "........",
            "........", "........", "........", "........", "........"}), List.of(Pieces.require("I2V"),
                Pieces.require("DOT")), 2, 1, Level.MEDIUM, Mode.HINT, SolveRequest.MAX_STRENGTH, 3, 0);
        Solution answer = client.solve("typed", request);
        Solution here = Solver.solve(request);
        assertEquals(here.best(), answer.best());
        assertTrue(answer.nodes() > 0);
    }

    @Test
    void killingOneOfTwoReplicasLosesNoRequest() throws Exception {
        assertEquals(2, replicas.size());
        assertTrue(replicas.stream().allMatch(r -> r.process().isAlive()));

        AtomicInteger answered = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < CALLERS; c++) {
            int caller = c;
            running.add(callers.submit(() -> {
                for (int i = 0; i < REQUESTS_PER_CALLER; i++) {
                    int n = caller * REQUESTS_PER_CALLER + i;
                    try {
                        Solution answer = client.solve("r" + n, request(n));
                        if (answer.best().placements().size() != 3) {
                            failures.add(new AssertionError("wrong answer to r" + n + ": " + answer));
                        }
                        answered.incrementAndGet();
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }
            }));
        }
        // A quarter of the way, kill (SIGKILL, no graceful shutdown) the replica that has served more so far, while
        // the callers keep going.
        int total = CALLERS * REQUESTS_PER_CALLER;
        while (answered.get() < total / 4) {
            assertTrue(failures.isEmpty(), "before the kill: " + failures.peek());
            assertFalse(running.stream().allMatch(Future::isDone), "the callers finished before the kill");
            Thread.sleep(2);
        }
        boolean firstServedMore = replicas.get(0).solvedRequests() >= replicas.get(1).solvedRequests();
        SolverReplicas.Replica doomed = replicas.get(firstServedMore ? 0 : 1);
        SolverReplicas.Replica survivor = replicas.get(firstServedMore ? 1 : 0);
        assertTrue(doomed.solvedRequests() > 0);
        int beforeKill = answered.get();
        long retriesBeforeKill = client.retries();
        doomed.process().destroyForcibly();
        assertTrue(doomed.process().waitFor(30, TimeUnit.SECONDS));
        double survivorBefore = survivor.solvedRequests();

        callers.shutdown();
        assertTrue(callers.awaitTermination(5, TimeUnit.MINUTES));
        for (Future<?> f : running) {
            f.get();
        }
        assertTrue(failures.isEmpty(), failures.size() + " lost, first: " + failures.peek());
        assertEquals(total, answered.get());
        assertTrue(beforeKill < total, "the kill came after the last request");
        assertTrue(survivor.solvedRequests() > survivorBefore, "the survivor served nothing after the kill");
        // The dead replica stays in the static list: calls that were on it or that the balancer sent there since
        // were retried on the survivor.
        assertTrue(client.retries() > retriesBeforeKill, "no attempt reached the killed replica");
    }
}
