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

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class SolverClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int CALLERS = 4;
    private static final int REQUESTS_PER_CALLER = 250;

    @Inject
    SolverClient client;

    @InjectReplicas
    List<SolverReplicas.Replica> replicas;

    private static ObjectNode request(int n) {
        ObjectNode request = JSON.createObjectNode().put("id", "r" + n);
        var board = request.putArray("board");
        for (int row = 0; row < 8; row++) {
            // A different half-filled board per request, so some work is in flight when a replica dies.
            board.add(row % 2 == 0 ? "##......" : (n % 2 == 0 ? "......##" : "...##..."));
        }
        request.putArray("pieces").add("L3A").add("O4").add("I3H");
        return request.put("mode", "ai").put("strength", 1 + n % 2).put("seed", n);
    }

    @Test
    void aMalformedRequestGetsTheProtocolMessageAndIsNotRetried() {
        ObjectNode bad = request(0);
        bad.putArray("pieces").add("Q7");
        SolverRequestException e = assertThrows(SolverRequestException.class, () -> client.solve(bad));
        assertEquals("piece 0: unknown piece id \"Q7\"", e.getMessage());
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
                        ObjectNode answer = client.solve(request(n));
                        if (!answer.path("id").asText().equals("r" + n) || !answer.has("placements")) {
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
