package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.PrometheusText;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

/**
 * Who may solve: services (the service role) without a rate limit and with the larger time cap; anonymous callers and
 * players rate-limited per client (test profile: a burst of 3, refilled every 20 s) with the smaller cap.
 */
@QuarkusTest
class SolveCallersTest {

    private static final String SOLVE = "/api/solver/solve";
    private static final int BURST = 3;

    private static RequestSpecification solve(String token, String body) {
        RequestSpecification spec = given().contentType("application/json").body(body);
        return token == null ? spec : spec.auth().oauth2(token);
    }

    /** Statuses of {@code n} requests in a row. */
    private static List<Integer> statuses(String token, int n) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            statuses.add(solve(token, Requests.EMPTY_BOARD).when().post(SOLVE).statusCode());
        }
        return statuses;
    }

    /** The burst is served, then 429; a refill between two requests can only push the 429 one request later. */
    private static void assertBurstThen429(List<Integer> statuses) {
        assertEquals(List.of(200, 200, 200), statuses.subList(0, BURST), statuses.toString());
        assertTrue(statuses.subList(BURST, statuses.size()).contains(429), statuses.toString());
    }

    @Test
    void anonymousCallersAreServedThenRateLimited() {
        List<Integer> statuses = statuses(null, BURST + 2);
        assertBurstThen429(statuses);
        solve(null, Requests.EMPTY_BOARD).when().post(SOLVE).then()
                .statusCode(429)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body("status", equalTo(429));
    }

    @Test
    void playersAreRateLimitedEachOnTheirOwn() {
        String carol = Tokens.player("carol");
        assertBurstThen429(statuses(carol, BURST + 2));
        solve(carol, Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(429)
                .header("Retry-After", notNullValue());
        solve(Tokens.player("dave"), Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(200);
    }

    @Test
    void eachEndedRequestGivesBackItsPlaceInFlight() {
        // two places at once a client (bloc.solver.public.in-flight-per-client): a request answered 400, or 200,
        // gives its place back, so three in a row (the burst) are all answered, the third with 200
        String gina = Tokens.player("gina");
        solve(gina, "{").when().post(SOLVE).then().statusCode(400);
        solve(gina, "{}").when().post("/api/solver/analyse").then().statusCode(400);
        solve(gina, Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(200);
        solve(gina, Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(429)
                .body("detail", startsWith("Too many solver requests from this client; retry in"));
    }

    /**
     * An analysis holds a worker as long as several public searches (up to its 1.5 s cap and a round's seven 100 ms
     * searches, against a search's 250 ms), so it counts as that many requests, at most the burst: one analysis takes
     * the test profile's whole burst of 3. Counted as one before, a client got nine times the worker time per request.
     */
    @Test
    void aPublicAnalysisCountsAsTheSearchesItsTimeIsWorth() {
        String ivan = Tokens.player("ivan");
        solve(ivan, AnalyseResourceTest.game(81, 1).toJson()).when().post("/api/solver/analyse").then()
                .statusCode(200);
        solve(ivan, Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(429)
                .header("Retry-After", notNullValue());
        // one that is refused as bad input counts as one request, as any other
        String judy = Tokens.player("judy");
        solve(judy, "{}").when().post("/api/solver/analyse").then().statusCode(400);
        assertEquals(List.of(200, 200), statuses(judy, 2));
    }

    /**
     * The analysis's further requests are taken on the worker, once its replay is read: a client with fewer left than
     * that is answered 429 with Retry-After and a problem body, counted {@code rate_limited}, and not analysed.
     */
    @Test
    void aPublicAnalysisWhoseFurtherRequestsTheBucketLacksIs429AndNotAnalysed() {
        String lena = Tokens.player("lena");
        solve(lena, Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(200);
        double refused = analysesCounted("rate_limited");
        double analysed = analysesCounted("ok") + analysesCounted("partial");
        // two left of the burst: the analysis is admitted (one), then lacks the two more it counts as
        solve(lena, AnalyseResourceTest.game(82, 1).toJson()).when().post("/api/solver/analyse").then()
                .statusCode(429)
                .contentType("application/problem+json")
                .header("Retry-After", notNullValue())
                .body("status", equalTo(429))
                .body("detail", startsWith("Too many solver requests from this client; retry in"));
        assertEquals(refused + 1, analysesCounted("rate_limited"));
        assertEquals(analysed, analysesCounted("ok") + analysesCounted("partial"));
    }

    private static double analysesCounted(String outcome) {
        return PrometheusText.value("solver_requests_total", "mode", "analyse", "outcome", outcome,
                "caller", "public");
    }

    /** A body too large for a request is answered 413, and counts in the rate like any other: it did not. */
    @Test
    void tooLargeBodiesCountInTheRateLimit() {
        String kim = Tokens.player("kim");
        String large = "{\"id\":1," + " ".repeat(20 * 1024) + "\"board\":[]}";
        for (int i = 0; i < BURST; i++) {
            solve(kim, large).when().post(SOLVE).then().statusCode(413);
        }
        solve(kim, large).when().post(SOLVE).then().statusCode(429).header("Retry-After", notNullValue());
        solve(kim, Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(429);
    }

    @Test
    void servicesAreNotRateLimited() {
        List<Integer> statuses = statuses(Callers.service(), 4 * BURST);
        assertTrue(statuses.stream().allMatch(s -> s == 200), statuses.toString());
    }

    @Test
    void publicCallersGetTheSmallerTimeCap() {
        String erin = Tokens.player("erin");
        solve(erin, Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(200)
                .header("X-Solver-Budget-Ms", "250");
        solve(erin, Requests.EMPTY_BOARD.replace("}", ",\"timeMs\":5000}")).when().post(SOLVE).then()
                .statusCode(200).header("X-Solver-Budget-Ms", "250");
        solve(erin, Requests.EMPTY_BOARD.replace("}", ",\"timeMs\":40}")).when().post(SOLVE).then()
                .statusCode(200).header("X-Solver-Budget-Ms", "40");
    }

    @Test
    void servicesGetTheLargerTimeCap() {
        String service = Callers.service();
        solve(service, Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(200)
                .header("X-Solver-Budget-Ms", "2000");
        solve(service, Requests.EMPTY_BOARD.replace("}", ",\"timeMs\":5000}")).when().post(SOLVE).then()
                .statusCode(200).header("X-Solver-Budget-Ms", "2000");
        solve(service, Requests.EMPTY_BOARD.replace("}", ",\"timeMs\":700}")).when().post(SOLVE).then()
                .statusCode(200).header("X-Solver-Budget-Ms", "700");
    }

    @Test
    void aPlayerTokenWithoutTheServiceRoleIsPublic() {
        solve(Tokens.admin("frank"), Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(200)
                .header("X-Solver-Budget-Ms", "250");
    }

    @Test
    void badTokensAreRefusedNotTreatedAsAnonymous() {
        solve(Tokens.expired("alice"), Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(401);
        solve(Tokens.forged("alice"), Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(401);
        solve("not-a-jwt", Requests.EMPTY_BOARD).when().post(SOLVE).then().statusCode(401);
    }
}
