package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.RawBodies;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.response.Response;

@QuarkusTest
class SolverResourceTest {

    @Test
    void liveAndReady() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void metricsAndOpenApiAreServed() {
        given().when().get("/api/solver/info").then().statusCode(200);
        given().when().get("/q/metrics").then()
                .statusCode(200)
                .body(containsString("uri=\"/api/solver/info\""));
        given().accept("application/json").when().get("/q/openapi").then()
                .statusCode(200)
                .body("paths", hasKey("/api/solver/whoami"));
        given().when().get("/q/swagger-ui/").then().statusCode(200);
    }

    /**
     * A request target that is no URI (a malformed {@code %} escape, in the path or the query) is refused by Quarkus's
     * HTTP layer with a bare 400 before any route (docs/platform.md, "Errors": one of its exceptions, with 414 and 431),
     * never a 500: an attacker's review took it for one.
     */
    @Test
    void aPathOrQueryThatIsNoUriIsABare400BeforeAnyRouteNeverA500() {
        for (String target : new String[] {"/api/solver/info?x=%zz", "/api/solver/info?level=%", "/api/solver/%zz",
                "/q/health?x=%zz", "/nothing?x=%zz"}) {
            String answer = RawBodies.get(RestAssured.port, target);
            assertTrue(answer.startsWith("HTTP/1.1 400 "), target + ": " + answer);
        }
        given().when().get("/api/solver/info?x=%25zz").then().statusCode(200); // an escaped '%' is read
    }

    @Test
    void uploadsStalledMidBodyHoldNoWorkerThread() {
        // More stalled analyses than worker threads, each past Quarkus REST's input buffer (10K), from where it read
        // the rest on a worker thread, blocking: they held every one, and the calls a worker serves (info) waited.
        // (each a player of its own: one client's share of the bodies held at once, below, is 40 such bodies)
        try (RawBodies stalled = RawBodies.stalled(RestAssured.port, "/api/solver/analyse",
                RawBodies.workerThreads() + 8, 100_000, 12_000, i -> "Bearer " + Tokens.player("staller-" + i))) {
            given().config(RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
                    .setParam("http.socket.timeout", 5000))).when().get("/api/solver/info").then().statusCode(200);
        }
    }

    @Test
    void bodiesHeldAtOnceAreBoundedInBytesForEachClientAndInAllAndGivenBackWhenTheirRequestEnds()
            throws InterruptedException {
        // Read in full before a worker takes them, bodies are held in memory: as many as fill bloc.http.bodies-held
        // (32M: 128 analyses of the 256K limit) are held, 4M of them (bloc.http.bodies-held-per-client) by one client
        // at most, and the next body past either is refused before it is read.
        long budget = size("bloc.http.bodies-held", 32L << 20);
        int each = 256 * 1024;
        noBodiesHeld(); // the stalled bodies of the other tests given back: their connections close in the server's time
        int perClient = (int) (size("bloc.http.bodies-held-per-client", 4L << 20) / each);
        try (RawBodies stalled = RawBodies.stalled(RestAssured.port, "/api/solver/analyse", (int) (budget / each),
                each, 100, i -> "Bearer " + Tokens.player("uploader-" + i / perClient))) {
            until(Tokens.player("another"), 503).then().contentType("application/problem+json")
                    .header("Retry-After", "1").body("detail", containsString("bloc.http.bodies-held"));
            until(Tokens.player("uploader-0"), 429).then().contentType("application/problem+json")
                    .header("Retry-After", "1").body("detail", containsString("bloc.http.bodies-held-per-client"));
            // the services' own calls (game-service's AI and hints) are counted in their own share only
            until(Callers.service(), 200);
        }
        // their connections closed, their bytes are given back
        until(Tokens.player("another"), 200);
    }

    @Test
    void aBodyNotInByItsDeadlineHasItsConnectionClosedAndWhatItHeldGivenBack() throws InterruptedException {
        // bloc.http.body-timeout is 10 s in the tests (30 s otherwise): the connection stayed open for the idle
        // timeout, 30 minutes, holding its share of the bodies held at once
        try (RawBodies stalled = RawBodies.stalled(RestAssured.port, "/api/solver/analyse", 1, 100_000, 100,
                i -> "Bearer " + Tokens.player("slow-uploader"))) {
            assertTrue(stalled.closedWithin(Duration.ofSeconds(40)), "a stalled body's connection still open");
        }
        noBodiesHeld(); // what it held given back (a reset runs no end handler: it was held for good)
    }

    private static void noBodiesHeld() throws InterruptedException {
        String held = null;
        for (int i = 0; i < 100; i++) {
            held = given().when().get("/q/metrics").asString().lines()
                    .filter(l -> l.startsWith("http_request_bodies_held_bytes")).findFirst().orElse("none");
            if (held.endsWith(" 0.0")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("bodies still held 10 s after their connections closed: " + held);
    }

    private static long size(String key, long otherwise) {
        return ConfigProvider.getConfig().getOptionalValue(key, MemorySize.class).map(MemorySize::asLongValue)
                .orElse(otherwise);
    }

    /** Asks for a search until it is answered {@code status} (the server takes the stalled bodies in its own time). */
    private static Response until(String token, int status) throws InterruptedException {
        Response last = null;
        for (int i = 0; i < 100; i++) {
            last = given().auth().oauth2(token).contentType("application/json").body(Requests.EMPTY_BOARD)
                    .when().post("/api/solver/solve");
            if (last.statusCode() == status) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never " + status + ": last " + last.statusCode() + " " + last.asString());
    }

    @Test
    void publicInfoNeedsNoToken() {
        given().when().get("/api/solver/info").then()
                .statusCode(200)
                .body("service", equalTo("solver-service"));
    }

    @Test
    void whoamiRefusesAnonymousExpiredAndForgedTokens() {
        given().when().get("/api/solver/whoami").then().statusCode(401);
        given().auth().oauth2(Tokens.expired("alice")).when().get("/api/solver/whoami").then().statusCode(401);
        given().auth().oauth2(Tokens.forged("alice")).when().get("/api/solver/whoami").then().statusCode(401);
    }

    @Test
    void whoamiAnswersAPlayer() {
        given().auth().oauth2(Tokens.player("alice"))
                .when().get("/api/solver/whoami")
                .then()
                .statusCode(200)
                .body("subject", equalTo("sub-alice"))
                .body("name", equalTo("alice"))
                .body("roles", contains("player"));
    }

    @Test
    void unknownPathIsAProblem() {
        given().when().get("/api/solver/nowhere").then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404));
    }
}
