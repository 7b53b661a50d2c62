package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.protocol.SolverProtocol;
import com.bloceclat.engine.solver.BenchPositions;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.testsupport.PrometheusText;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

@QuarkusTest
class SolveResourceTest {

    private static final String SOLVE = "/api/solver/solve";
    private static final String[] PARTIAL_AI = {"caller", "service", "mode", "ai", "outcome", "partial"};

    private static Response post(String body) {
        return given().auth().oauth2(Callers.service()).contentType("application/json").body(body)
                .when().post(SOLVE);
    }

    @Test
    void goldenPositionsGetTheCliAnswers() {
        Map<String, ObjectNode> answers = Golden.lines("answers.jsonl").stream()
                .collect(Collectors.toMap(a -> a.get("id").asText(), Function.identity()));
        List<ObjectNode> positions = Golden.lines("positions.jsonl");
        assertFalse(positions.isEmpty());
        for (ObjectNode position : positions) {
            String id = position.get("id").asText();
            Response response = post(position.toString());
            response.then().statusCode(200).contentType("application/json")
                    .body("nodes", notNullValue()).body("micros", notNullValue());
            ObjectNode answer = Golden.read(response.asString());
            assertEquals(answers.get(id), Golden.withoutStats(answer), id);
        }
    }

    @Test
    void everyModeAndStrengthAnswersAsTheEngine() {
        // Mid-game positions from the benchmark set, each mode and strength, against the engine in this JVM.
        List<SolveRequest> positions = BenchPositions.generate(12, Mode.AI, 5).subList(4, 12);
        for (SolveRequest position : positions) {
            for (String mode : List.of("ai", "hint", "maxLines")) {
                for (int strength = 1; strength <= 5; strength++) {
                    ObjectNode request = Requests.of(position).put("id", mode + "-" + strength)
                            .put("mode", mode).put("strength", strength).put("seed", 11);
                    ObjectNode expected = SolverProtocol.toJson(request.get("id"),
                            Solver.solve(SolverProtocol.parse(request)));
                    Response response = post(request.toString());
                    response.then().statusCode(200).header("X-Solver-Complete", "true");
                    assertEquals(Golden.withoutStats(expected), Golden.withoutStats(Golden.read(response.asString())),
                            request.toString());
                }
            }
        }
    }

    @Test
    void aSearchCutShortByItsBudgetSaysSoAndIsCountedPartial() {
        // Full-strength AI searches of mid-game positions take milliseconds each (docs/benchmarks.md): with a budget
        // of 1 ms some must be cut short, and each of those answers the best found so far, marked and counted so.
        double before = PrometheusText.value("solver_requests_total", PARTIAL_AI);
        int cut = 0;
        for (SolveRequest position : BenchPositions.generate(12, Mode.AI, 5).subList(4, 12)) {
            ObjectNode request = Requests.of(position).put("id", "cut").put("mode", "ai").put("strength", 5)
                    .put("timeMs", 1);
            Response response = post(request.toString());
            response.then().statusCode(200).header("X-Solver-Budget-Ms", "1").body("placements.size()", greaterThan(0));
            if ("false".equals(response.header("X-Solver-Complete"))) {
                cut++;
            } else {
                assertEquals("true", response.header("X-Solver-Complete"));
            }
        }
        assertTrue(cut > 0, "no search of 8 was cut short by 1 ms");
        assertEquals(before + cut, PrometheusText.value("solver_requests_total", PARTIAL_AI),
                "each answer cut short counted as partial");
    }

    @Test
    void maxLinesAnswersCarryTheAlternatives() {
        post(Requests.EMPTY_BOARD.replace("\"pieces\":[\"DOT\"]", "\"pieces\":[\"DOT\",\"DOT\",\"DOT\"]")
                .replace("}", ",\"mode\":\"maxLines\"}"))
                .then().statusCode(200)
                .body("alternatives.size()", equalTo(100))
                .body("alternativesTotal", equalTo(41663));
    }

    @Test
    void malformedRequestsGetTheProtocolMessage() {
        List<ObjectNode> cases = Golden.lines("malformed.jsonl");
        assertFalse(cases.isEmpty());
        for (ObjectNode c : cases) {
            String request = c.get("request").asText();
            Response answer = post(request);
            answer.then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("status", equalTo(400))
                    .body("detail", equalTo(c.get("error").asText()));
            // and the protocol's error object (SOLVER-PROTOCOL.md), the CLI's answer to the same line: the id
            // echoed (null when the line could not be read) and the error
            ObjectNode cli = Golden.read(SolverProtocol.answerLine(request));
            ObjectNode rest = Golden.read(answer.asString());
            assertEquals(cli.get("id"), rest.get("id"), request);
            assertEquals(cli.get("error"), rest.get("error"), request);
        }
    }

    /**
     * A message quoting a long value the client sent (here a level of 8,000 characters) is cut as every problem's
     * detail is ({@code Problem.MAX_DETAIL}), in the detail and in the protocol's error: both came back whole.
     */
    @Test
    void aMessageQuotingALongValueIsCutInTheDetailAndTheError() {
        String level = "x".repeat(8000);
        Response answer = post(Requests.EMPTY_BOARD.replace("}", ",\"level\":\"" + level + "\"}"));
        answer.then().statusCode(400).contentType("application/problem+json");
        ObjectNode rest = Golden.read(answer.asString());
        for (String field : List.of("detail", "error")) {
            String text = rest.get(field).asText();
            assertTrue(text.startsWith("unknown level \"xxx") && text.endsWith(" characters)")
                    && text.length() < 1100, field + ": " + text.length() + " characters");
        }
    }

    @Test
    void otherBadBodiesAre400() {
        post("").then().statusCode(400).contentType("application/problem+json")
                .body("detail", equalTo("a request is a JSON object"));
        post("null").then().statusCode(400).body("detail", equalTo("a request is a JSON object"));
        post("\"board\"").then().statusCode(400).body("detail", equalTo("a request is a JSON object"));
        post(Requests.EMPTY_BOARD.replace("}", ",\"timeMs\":-5}")).then().statusCode(400)
                .body("detail", equalTo("timeMs must be from 0 to 3600000, got -5"));
        post(Requests.EMPTY_BOARD.replace("}", ",\"strength\":1.5}")).then().statusCode(400)
                .body("detail", equalTo("strength must be a whole number from 1 to 5, got 1.5"));
        post(Requests.EMPTY_BOARD.replace("}", ",\"strength\":\"5\"}")).then().statusCode(400)
                .body("detail", equalTo("strength must be a whole number from 1 to 5, got string"));
        post(Requests.EMPTY_BOARD.replace("}", ",\"seed\":123456789012345678901234567890}")).then().statusCode(400)
                .body("detail", equalTo("seed must be a whole number from -9223372036854775808 to 9223372036854775807, "
                        + "got 123456789012345678901234567890"));
        post(Requests.EMPTY_BOARD.replace("[\"DOT\"]", "[42]")).then().statusCode(400)
                .body("detail", equalTo("piece 0: expected a catalogue id or rows of '#'/'.'"));
    }

    @Test
    void wrongContentTypeIs415() {
        given().auth().oauth2(Callers.service()).contentType("text/plain").body(Requests.EMPTY_BOARD)
                .when().post(SOLVE).then()
                .statusCode(415).contentType("application/problem+json").body("status", equalTo(415));
        given().auth().oauth2(Callers.service()).contentType("application/x-www-form-urlencoded")
                .body("board=x").when().post(SOLVE).then()
                .statusCode(415).contentType("application/problem+json");
    }

    @Test
    void overLargeBodyIs413() {
        String padding = " ".repeat(64 * 1024);
        post("{\"id\":1," + padding + "\"board\":[]}").then().statusCode(413);
    }

    @Test
    void onlyPostSolves() {
        given().auth().oauth2(Callers.service()).when().get(SOLVE).then()
                .statusCode(405).contentType("application/problem+json");
    }

    @Test
    void metricsCountRequestsSearchesAndThePool() {
        post(Requests.EMPTY_BOARD).then().statusCode(200);
        post(Requests.EMPTY_BOARD.replace("}", ",\"mode\":\"hint\"}")).then().statusCode(200);
        post("{").then().statusCode(400);
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        for (String expected : List.of(
                "solver_requests_total{caller=\"service\",mode=\"ai\",outcome=\"ok\"}",
                "solver_requests_total{caller=\"service\",mode=\"hint\",outcome=\"ok\"}",
                "solver_requests_total{caller=\"service\",mode=\"invalid\",outcome=\"bad_request\"}",
                "solver_search_seconds_bucket{caller=\"service\",mode=\"ai\"",
                "solver_search_seconds_count{caller=\"service\",mode=\"hint\"}",
                "solver_queue_wait_seconds_bucket{caller=\"service\",mode=\"ai\"",
                "solver_positions_examined_total{mode=\"ai\"}",
                "solver_queue_depth{caller=\"public\"}",
                "solver_queue_depth{caller=\"service\"}",
                "solver_queue_capacity{caller=\"public\"} 16.0",
                "solver_queue_capacity{caller=\"service\"} 16.0",
                "solver_admitted{caller=\"public\"}",
                "solver_admission_capacity{caller=\"service\"} 18.0",
                "solver_admission_capacity{caller=\"public\"} 17.0",
                "solver_pool_size 2.0",
                "solver_pool_reserved 1.0",
                "solver_pool_active ",
                "solver_pool_utilisation ")) {
            assertTrue(metrics.contains(expected), expected + " in\n" + metrics);
        }
    }

    @Test
    void openApiDocumentsTheSolveEndpointWithExamples() {
        given().accept("application/json").when().get("/q/openapi").then()
                .statusCode(200)
                .body("paths", hasKey("/api/solver/solve"))
                .body("paths.'/api/solver/solve'.post.requestBody.content.'application/json'.examples",
                        hasKey("maxLines"))
                .body("paths.'/api/solver/solve'.post.responses", hasKey("429"))
                .body("paths.'/api/solver/solve'.post.responses.'200'.content.'application/json'.examples.ai.value",
                        hasKey("placements"))
                .body("paths.'/api/solver/solve'.post.responses.'429'.headers", hasKey("Retry-After"));
        given().accept("application/json").when().get("/q/openapi").then()
                .body("paths.'/api/solver/solve'.post.requestBody.content.'application/json'.examples.size()",
                        greaterThan(2));
    }
}
