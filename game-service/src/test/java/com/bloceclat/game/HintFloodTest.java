package com.bloceclat.game;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.solver.client.SolverClient;

import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * Hints asked at once by one client: hints run in the services' share of solver-service, so each search a guest can
 * start at once is a place taken from every player's hints and every AI's turns. Before, asks at once on one game
 * each ran a search (only one could be recorded, the others were 409 after theirs), so one guest could fill the
 * share; now at most {@code bloc.limits.hints-in-flight-per-client} (2) are worked out at once for one client.
 */
@QuarkusTest
class HintFloodTest {

    /** A solver that holds every search until released, counting them; then answers as solver-service would. */
    static final class HeldSolver extends SolverClient {
        final AtomicInteger searches = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Solution solve(String id, SolveRequest request) {
            searches.incrementAndGet();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Solver.solve(request);
        }
    }

    @Test
    void aClientsHintsAtOnceAreBoundedBeforeTheSolverIsAsked() throws Exception {
        HeldSolver solver = new HeldSolver();
        QuarkusMock.installMockForType(solver, SolverClient.class);
        Play.Started game = Play.create(new Play.As(null, null), "EASY", 77);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<CompletableFuture<Response>> asks = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                asks.add(CompletableFuture.supplyAsync(() -> game.as().spec().when()
                        .post("/api/games/" + game.id() + "/hint").thenReturn(), pool));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> asks.stream().filter(CompletableFuture::isDone).count() >= 4);
            assertEquals(2, solver.searches.get(), "two searches at once for one client, no more");
            for (CompletableFuture<Response> ask : asks) {
                if (ask.isDone()) {
                    assertEquals(429, ask.get().statusCode(), ask.get().asString());
                    assertEquals("1", ask.get().header("Retry-After"));
                    assertTrue(ask.get().asString().contains("Too many hints at once"), ask.get().asString());
                }
            }
            solver.release.countDown();
            Map<Integer, Long> statuses = asks.stream().map(CompletableFuture::join).map(Response::statusCode)
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            // of the two searched, one is recorded and the other finds the game changed
            assertEquals(Map.of(200, 1L, 409, 1L, 429, 4L), statuses);
        } finally {
            solver.release.countDown();
            pool.shutdownNow();
        }
    }
}
