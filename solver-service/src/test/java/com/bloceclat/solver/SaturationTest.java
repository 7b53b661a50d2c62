package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.bloceclat.engine.solver.BenchPositions;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.solver.load.LoadGenerator;
import com.bloceclat.solver.service.CallerKind;
import com.bloceclat.solver.service.SaturatedException;
import com.bloceclat.solver.service.WorkerPool;
import com.bloceclat.testsupport.Tokens;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;

/**
 * Each kind of caller has its own share of the pool (test profile: 2 workers, one reserved for services, queues of
 * 16). A public flood fills the public share: public callers are then refused at once with 429 and Retry-After while
 * every service request is still accepted and answered; a full service share refuses services the same way. Public
 * searches run on threads of their own at the lowest OS priority (the surefire JVM has WorkerPool.PRIORITY_OPTIONS, as
 * production), never on a service worker; a flood of real public searches beside real service ones leaves every
 * service request answered.
 */
@QuarkusTest
class SaturationTest {

    private static final String SOLVE = "/api/solver/solve";

    @Inject
    WorkerPool pool;

    @Inject
    MeterRegistry registry;

    private final CountDownLatch release = new CountDownLatch(1);
    private final ExecutorService callers = Executors.newFixedThreadPool(48);

    /**
     * Every test starts from an idle pool: the searches an earlier test held give their permits back just after their
     * futures complete, so a test filling a share at once could otherwise find a permit still taken.
     */
    @BeforeEach
    void idle() throws InterruptedException {
        for (int i = 0; i < 600 && (pool.admitted(CallerKind.PUBLIC) > 0 || pool.admitted(CallerKind.SERVICE) > 0);
                i++) {
            Thread.sleep(50);
        }
        assertEquals(0, pool.admitted(CallerKind.PUBLIC), "public searches still accepted before the test");
        assertEquals(0, pool.admitted(CallerKind.SERVICE), "service searches still accepted before the test");
    }

    @AfterEach
    void stop() {
        release.countDown();
        callers.shutdownNow();
    }

    /** Holds one worker (or a queue place) of {@code kind}'s share until {@link #release}. */
    private CompletionStage<Boolean> hold(CallerKind kind) {
        return pool.submit(kind, () -> {
            try {
                return release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }

    private CompletableFuture<Response> send(String token) {
        return CompletableFuture.supplyAsync(() -> given().auth().oauth2(token).contentType("application/json")
                .body(Requests.EMPTY_BOARD).when().post(SOLVE).andReturn(), callers);
    }

    /** Waits (bounded) until {@code kind}'s share holds {@code n} accepted searches. */
    private void awaitAdmitted(CallerKind kind, int n) throws InterruptedException {
        for (int i = 0; i < 600 && pool.admitted(kind) < n; i++) {
            Thread.sleep(50);
        }
        assertEquals(n, pool.admitted(kind), kind + " searches accepted");
    }

    private double saturated(CallerKind kind) {
        // Every mode's counter: "unread" (refused before the body was read) as well as the request's own.
        return registry.find("solver.requests").tag("caller", kind.tag()).tag("outcome", "saturated").counters()
                .stream().mapToDouble(Counter::count).sum();
    }

    /**
     * A public analysis's replay is read and validated on the pool, within the public share, not on an I/O thread:
     * with that share full, even a replay the validator refuses is turned away at once (429) before it is read. Before,
     * each was read and checked on the I/O thread first (about 12 ms at the body limit, docs/solver-service.md), which
     * a flood of them took from every caller's requests. With room again, the same body is read there: 400.
     */
    @Test
    void aPublicAnalysisIsReadOnThePoolWithinItsShareNotOnAnIoThread() throws Exception {
        List<CompletionStage<Boolean>> held = new ArrayList<>();
        for (int i = 0; i < pool.capacity(CallerKind.PUBLIC); i++) {
            held.add(hold(CallerKind.PUBLIC));
        }
        awaitAdmitted(CallerKind.PUBLIC, pool.capacity(CallerKind.PUBLIC));
        String notAGame = "{\"seed\": 1}";
        given().auth().oauth2(Tokens.player("reader-" + UUID.randomUUID())).contentType("application/json")
                .body(notAGame).when().post("/api/solver/analyse").then()
                .statusCode(429).header("Retry-After", equalTo("1"));
        release.countDown();
        idle();
        given().auth().oauth2(Tokens.player("reader-" + UUID.randomUUID())).contentType("application/json")
                .body(notAGame).when().post("/api/solver/analyse").then()
                .statusCode(400).contentType("application/problem+json");
        assertEquals(held.size(), held.stream().filter(h -> h.toCompletableFuture().join()).count());
    }

    @Test
    void aPublicFloodFillsOnlyThePublicShareAndEveryServiceRequestIsAnswered() throws Exception {
        // The public workers are busy with held public searches; then real public requests, each from its own
        // player (so no rate limit), fill the public queue and wait there.
        double publicRefusedBefore = saturated(CallerKind.PUBLIC);
        double serviceRefusedBefore = saturated(CallerKind.SERVICE);
        int publicWorkers = pool.workers() - pool.reservedWorkers();
        List<CompletionStage<Boolean>> held = new ArrayList<>();
        for (int i = 0; i < publicWorkers; i++) {
            held.add(hold(CallerKind.PUBLIC));
        }
        int queued = pool.capacity(CallerKind.PUBLIC) - publicWorkers;
        List<CompletableFuture<Response>> waiting = new ArrayList<>();
        for (int i = 0; i < queued; i++) {
            waiting.add(send(Tokens.player("flood-" + i)));
        }
        awaitAdmitted(CallerKind.PUBLIC, pool.capacity(CallerKind.PUBLIC));

        // More public requests at once: every one refused with 429, none queued behind the others.
        List<CompletableFuture<Response>> refused = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            refused.add(send(Tokens.player("late-" + i)));
        }
        // Service requests at the same time, as many at once as the service share takes: every one accepted and
        // answered, on the reserved worker.
        String service = Callers.service();
        List<CompletableFuture<Response>> services = new ArrayList<>();
        for (int i = 0; i < pool.capacity(CallerKind.SERVICE); i++) {
            services.add(send(service));
        }
        for (CompletableFuture<Response> r : refused) {
            Response response = r.get(60, TimeUnit.SECONDS);
            assertEquals(429, response.statusCode(), response.asString());
            assertEquals("1", response.header("Retry-After"));
            assertEquals("application/problem+json", response.contentType());
        }
        for (CompletableFuture<Response> s : services) {
            Response response = s.get(60, TimeUnit.SECONDS);
            assertEquals(200, response.statusCode(), response.asString());
            assertTrue(response.jsonPath().getList("placements").size() == 1, response.asString());
        }
        assertEquals(pool.capacity(CallerKind.PUBLIC), pool.admitted(CallerKind.PUBLIC),
                "the public share stayed full while the services were served");

        release.countDown();
        for (CompletionStage<Boolean> stage : held) {
            assertTrue(stage.toCompletableFuture().get(60, TimeUnit.SECONDS));
        }
        for (CompletableFuture<Response> w : waiting) {
            assertEquals(200, w.get(60, TimeUnit.SECONDS).statusCode());
        }
        assertEquals(16, saturated(CallerKind.PUBLIC) - publicRefusedBefore);
        assertEquals(0, saturated(CallerKind.SERVICE) - serviceRefusedBefore);
    }

    @Test
    void aFullServiceShareAnswers503AtOnceThenServesAgain() throws Exception {
        List<CompletionStage<Boolean>> held = new ArrayList<>();
        try {
            for (int i = 0; i < pool.capacity(CallerKind.SERVICE); i++) {
                held.add(hold(CallerKind.SERVICE));
            }
            held.add(hold(CallerKind.PUBLIC));
            // every worker thread of both kinds busy: utilisation is 1 (it was busy threads per service worker, 1.5)
            double threads = registry.get("solver.pool.workers").tag("caller", "service").gauge().value()
                    + registry.get("solver.pool.workers").tag("caller", "public").gauge().value();
            for (int i = 0; i < 600 && registry.get("solver.pool.active").gauge().value() < threads; i++) {
                Thread.sleep(50);
            }
            assertEquals(threads, registry.get("solver.pool.active").gauge().value());
            assertEquals(1.0, registry.get("solver.pool.utilisation").gauge().value());
            // 503, not 429: the services' client (Stork's least response time) scores only a 5xx as the replica's
            // failure; a quick 429 made the saturated replica the one its retries went back to
            given().auth().oauth2(Callers.service()).contentType("application/json").body(Requests.EMPTY_BOARD)
                    .when().post(SOLVE).then()
                    .statusCode(503)
                    .contentType("application/problem+json")
                    .header("Retry-After", "1")
                    .body("status", equalTo(503));
        } finally {
            release.countDown();
        }
        for (CompletionStage<Boolean> stage : held) {
            assertTrue(stage.toCompletableFuture().get(60, TimeUnit.SECONDS));
        }
        given().auth().oauth2(Callers.service()).contentType("application/json").body(Requests.EMPTY_BOARD)
                .when().post(SOLVE).then().statusCode(200);
        String metrics = given().when().get("/q/metrics").then().extract().asString();
        assertTrue(metrics.contains("solver_requests_total{caller=\"service\",mode=\"ai\",outcome=\"saturated\"}"),
                metrics);
    }

    /**
     * A search's budget runs from the moment it is accepted (docs/solver-service.md): eight mid-game strength-5
     * searches of 100 ms each, queued 400 ms behind every service worker, have 1 ms each left when they start, so some
     * must be cut short; each still answers with its whole budget's header. Were the budget counted from the start on
     * a worker, each would have its 100 ms, ten times what these take.
     */
    @Test
    void theTimeASearchWaitsForAWorkerComesOutOfItsBudget() throws Exception {
        int serviceThreads = (int) registry.get("solver.pool.size").gauge().value();
        String service = Callers.service();
        List<String> bodies = new ArrayList<>();
        for (SolveRequest position : BenchPositions.generate(12, Mode.AI, 5).subList(4, 12)) {
            bodies.add(Requests.of(position).put("id", "queued").put("mode", "ai").put("strength", 5)
                    .put("timeMs", 100).toString());
        }
        for (String body : bodies) { // warm: the level's tables loaded and the search compiled, not timed here
            given().auth().oauth2(service).contentType("application/json").body(body.replace("\"timeMs\":100",
                    "\"timeMs\":2000")).when().post(SOLVE).then().statusCode(200);
        }
        List<CompletableFuture<Response>> queued = new ArrayList<>();
        try {
            for (int i = 0; i < serviceThreads; i++) {
                hold(CallerKind.SERVICE);
            }
            awaitAdmitted(CallerKind.SERVICE, serviceThreads);
            for (String body : bodies) {
                queued.add(CompletableFuture.supplyAsync(() -> given().auth().oauth2(service)
                        .contentType("application/json").body(body).when().post(SOLVE).andReturn(), callers));
            }
            awaitAdmitted(CallerKind.SERVICE, serviceThreads + queued.size());
            Thread.sleep(400);
        } finally {
            release.countDown();
        }
        int cut = 0;
        for (CompletableFuture<Response> answer : queued) {
            Response response = answer.get(60, TimeUnit.SECONDS);
            response.then().statusCode(200).header("X-Solver-Budget-Ms", "100");
            if ("false".equals(response.header("X-Solver-Complete"))) {
                cut++;
            }
        }
        assertTrue(cut > 0, "no search of 8 that waited 400 ms of its 100 was cut short");
    }

    @Test
    void aClientThatClosesItsConnectionsKeepsItsPlacesUntilItsSearchesEnd() throws Exception {
        // closing a connection cancels the answer, not the search waiting for a worker: the place is the search's
        String dana = Tokens.player("dana-" + UUID.randomUUID());
        RestAssuredConfig quick = RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
                .setParam("http.socket.timeout", 500));
        CompletionStage<Boolean> held = hold(CallerKind.PUBLIC); // the public worker busy: dana's searches wait
        try {
            awaitAdmitted(CallerKind.PUBLIC, 1);
            for (int i = 0; i < 2; i++) {
                assertThrows(Exception.class, () -> given().config(quick).auth().oauth2(dana)
                        .contentType("application/json").body(Requests.EMPTY_BOARD).when().post(SOLVE));
            }
            awaitAdmitted(CallerKind.PUBLIC, 3);
            given().auth().oauth2(dana).contentType("application/json").body(Requests.EMPTY_BOARD).when()
                    .post(SOLVE).then().statusCode(429)
                    .body("detail", org.hamcrest.Matchers.startsWith(
                            "Too many solver requests from this client at once"));
        } finally {
            release.countDown();
        }
        assertTrue(held.toCompletableFuture().get(60, TimeUnit.SECONDS));
    }

    /** The thread a task ran on, and its OS nice value (Integer.MIN_VALUE where there is no /proc). */
    private static String where() {
        String nice;
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            nice = stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16];
        } catch (Exception e) {
            nice = "?";
        }
        return Thread.currentThread().getName().replaceFirst("-\\d+$", "") + " nice " + nice;
    }

    @Test
    void publicSearchesRunOnlyOnPublicThreadsAtTheLowestPriorityAndServiceSearchesNever() throws Exception {
        // The public share full of held searches: a public flood is refused, never spills onto service workers.
        List<CompletionStage<Boolean>> held = new ArrayList<>();
        for (int i = 0; i < pool.capacity(CallerKind.PUBLIC); i++) {
            held.add(hold(CallerKind.PUBLIC));
        }
        awaitAdmitted(CallerKind.PUBLIC, pool.capacity(CallerKind.PUBLIC));
        int refused = 0;
        for (int i = 0; i < 100; i++) {
            try {
                pool.submit(CallerKind.PUBLIC, SaturationTest::where);
            } catch (SaturatedException e) {
                refused++;
            }
        }
        assertEquals(100, refused, "public tasks past the public share");
        // Meanwhile every worker of the services is free for them: as many at once as the service share takes.
        List<CompletionStage<String>> services = new ArrayList<>();
        for (int i = 0; i < pool.capacity(CallerKind.SERVICE); i++) {
            services.add(pool.submit(CallerKind.SERVICE, SaturationTest::where));
        }
        Set<String> serviceThreads = new TreeSet<>();
        for (CompletionStage<String> s : services) {
            serviceThreads.add(s.toCompletableFuture().get(60, TimeUnit.SECONDS));
        }
        release.countDown();
        for (CompletionStage<Boolean> stage : held) {
            assertTrue(stage.toCompletableFuture().get(60, TimeUnit.SECONDS));
        }
        List<CompletionStage<String>> publics = new ArrayList<>();
        for (int i = 0; i < pool.workers() - pool.reservedWorkers(); i++) {
            publics.add(pool.submit(CallerKind.PUBLIC, SaturationTest::where));
        }
        Set<String> publicThreads = new TreeSet<>();
        for (CompletionStage<String> s : publics) {
            publicThreads.add(s.toCompletableFuture().get(60, TimeUnit.SECONDS));
        }
        assertEquals(Set.of("solver-service-worker nice 0"), serviceThreads);
        assertEquals(Set.of("solver-public-worker nice 19"), publicThreads);
        assertEquals(19, pool.publicNice());
        String metrics = given().when().get("/q/metrics").then().extract().asString();
        assertTrue(metrics.contains("solver_pool_public_nice 19.0"), metrics);
    }

    @Test
    void aFloodOfRealPublicSearchesBesideServiceSearchesLeavesEveryServiceRequestAnswered() throws Exception {
        // 32 players at once (each within its own rate limit) and service callers, all asking the AI's move at
        // strength 5 on mid-game positions: more than the public share holds, within the service share. All three
        // rounds' service requests may be admitted before the first is answered (a cold JIT, a table loading), so
        // together they are at most the service share: a 429 for one of them is then a service refused wrongly.
        int servicePerRound = pool.capacity(CallerKind.SERVICE) / 3;
        assertTrue(servicePerRound >= 4, "a service share of " + pool.capacity(CallerKind.SERVICE));
        List<String> bodies = LoadGenerator.bodies(Mode.AI, 5);
        String service = Callers.service();
        List<CompletableFuture<Response>> publics = new ArrayList<>();
        List<CompletableFuture<Response>> services = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 32; i++) {
                String token = Tokens.player("crowd-" + round + "-" + i);
                String body = bodies.get((round * 40 + i) % bodies.size());
                publics.add(CompletableFuture.supplyAsync(() -> given().auth().oauth2(token)
                        .contentType("application/json").body(body).when().post(SOLVE).andReturn(), callers));
            }
            for (int i = 0; i < servicePerRound; i++) {
                String body = bodies.get((round * 40 + 32 + i) % bodies.size());
                services.add(CompletableFuture.supplyAsync(() -> given().auth().oauth2(service)
                        .contentType("application/json").body(body).when().post(SOLVE).andReturn(), callers));
            }
        }
        for (CompletableFuture<Response> s : services) {
            Response response = s.get(120, TimeUnit.SECONDS);
            assertEquals(200, response.statusCode(), response.asString());
            assertTrue(response.jsonPath().getList("placements") != null, response.asString());
        }
        for (CompletableFuture<Response> p : publics) {
            int status = p.get(120, TimeUnit.SECONDS).statusCode();
            assertTrue(status == 200 || status == 429, "public answer " + status);
        }
    }

    /**
     * An analysis's time cap ({@code bloc.solver.analyse.time-cap}) runs from the moment it was accepted, as a search's
     * budget does: one that waited in the queue past its cap analyses its first round and says where to go on
     * ({@code complete} false), instead of its whole page long after its caller may have given up. Before, it ran its
     * full cap whatever it had waited.
     */
    @Test
    void anAnalysisThatWaitedPastItsCapAnalysesItsFirstRoundAndSaysSo() throws Exception {
        String replay = AnalyseResourceTest.game(77, 4).toJson();
        long capMs = ConfigProvider.getConfig().getValue("bloc.solver.analyse.time-cap", java.time.Duration.class)
                .toMillis();
        for (int i = 0; i < pool.workers(); i++) {
            hold(CallerKind.SERVICE);
        }
        awaitAdmitted(CallerKind.SERVICE, pool.workers());
        CompletableFuture<Response> answer = CompletableFuture.supplyAsync(() -> given().auth()
                .oauth2(Callers.service()).contentType("application/json").body(replay).when()
                .post("/api/solver/analyse?rounds=2").andReturn(), callers);
        awaitAdmitted(CallerKind.SERVICE, pool.workers() + 1); // queued behind the held workers
        Thread.sleep(capMs + 300);
        release.countDown();
        answer.get(30, TimeUnit.SECONDS).then().statusCode(200)
                .body("complete", equalTo(false))
                .body("rounds.size()", equalTo(1))
                .body("nextRound", equalTo(1));
    }

    @Test
    void anonymousCallersFindingThePublicShareFullAreRefusedBeforeTheirBodyIsRead() throws Exception {
        List<CompletionStage<Boolean>> held = new ArrayList<>();
        try {
            for (int i = 0; i < pool.capacity(CallerKind.PUBLIC); i++) {
                held.add(hold(CallerKind.PUBLIC));
            }
            awaitAdmitted(CallerKind.PUBLIC, pool.capacity(CallerKind.PUBLIC));
            Counter unread = registry.find("solver.requests").tag("caller", "public").tag("outcome", "saturated")
                    .tag("mode", "unread").counter();
            double before = unread == null ? 0 : unread.count();
            // Not even valid JSON, and more than the anonymous rate limit allows: refused as saturated all the same,
            // for the body is never read (the resource would answer 400, or 429 for the rate).
            // An Authorization that is not a bearer token leaves the caller anonymous: shed too (it went on to the
            // resource, its body read and parsed on the I/O thread).
            for (int i = 0; i < 8; i++) {
                given().contentType("application/json").header("Authorization", i % 2 == 0 ? "Basic eDp5" : "x")
                        .body("{").when().post(SOLVE).then()
                        .statusCode(429)
                        .contentType("application/problem+json")
                        .header("Retry-After", "1")
                        .body("status", equalTo(429))
                        .body("detail", org.hamcrest.Matchers.startsWith("Every solver worker"));
            }
            // the analysis too (its body, a replay, is larger still): it was read, parsed and validated first
            given().contentType("application/json").body("{").when().post("/api/solver/analyse").then()
                    .statusCode(429).header("Retry-After", "1")
                    .body("detail", org.hamcrest.Matchers.startsWith("Every solver worker"));
            // the same calls spelt otherwise, sent as written (RestAssured escaped '%' and ';' before, so the test
            // never sent them): shed too when the resource would answer them (a trailing slash, or a segment's matrix
            // parameters, went past the filter to the resource, its body read and parsed: a 400 here), else not found
            int shedOthers = 0;
            for (String path : List.of(SOLVE + "/", "/api/solver/analyse/", "/api/solver/./solve",
                    "/api/solver/%73olve", "/api/solver//solve", SOLVE + ";x=1", "/api/solver;a/analyse",
                    "/api;b=2/solver/solve;c/")) {
                int status = given().urlEncodingEnabled(false).contentType("application/json").body("{").when()
                        .post(path).then().extract().statusCode();
                assertTrue(status == 429 || status == 404, path + ": " + status);
                shedOthers += status == 429 ? 1 : 0;
            }
            assertTrue(shedOthers >= 2, "the trailing slashes at least");
            assertEquals(9 + shedOthers, registry.find("solver.requests").tag("caller", "public")
                    .tag("outcome", "saturated").tag("mode", "unread").counter().count() - before);
            // A service caller is never refused there: answered at once by its own workers.
            given().auth().oauth2(Callers.service()).contentType("application/json").body(Requests.EMPTY_BOARD)
                    .when().post(SOLVE).then().statusCode(200);
        } finally {
            release.countDown();
        }
        for (CompletionStage<Boolean> stage : held) {
            assertTrue(stage.toCompletableFuture().get(60, TimeUnit.SECONDS));
        }
    }
}
