package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.OpenApiFuzzer;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Generated bodies, headers, path and query values against every operation of this service's OpenAPI document
 * (test-support {@link OpenApiFuzzer}, fixed seed): no answer is a 5xx other than a 503 with Retry-After. Besides
 * odd values, the path values include a real guest game and match (with their game token) and a player's game, so
 * the generated bodies also reach games that exist.
 */
@QuarkusTest
class OpenApiFuzzTest {

    @Test
    void noOperationAnswers5xxToAnyGeneratedRequest() {
        JsonPath guest = given().contentType("application/json").body(Map.of("level", "EASY"))
                .when().post("/api/games").then().statusCode(201).extract().jsonPath();
        String player = Tokens.player("fuzz");
        String playerGame = given().auth().oauth2(player).contentType("application/json")
                .body(Map.of("level", "MEDIUM")).when().post("/api/games").then().statusCode(201).extract()
                .path("id");
        JsonPath match = given().contentType("application/json")
                .body(Map.of("mode", "TWO_PLAYERS", "level", "EASY")).when().post("/api/matches").then()
                .statusCode(201).extract().jsonPath();
        OpenApiFuzzer fuzzer = new OpenApiFuzzer()
                .casesPerOperation(60)
                .token(() -> Tokens.player("fuzz"))
                .token(() -> Tokens.admin("fuzz-admin"))
                .pathValue("id", () -> guest.getString("id"))
                .pathValue("id", () -> playerGame)
                .pathValue("id", () -> match.getString("id"))
                .pathValue("ticket", () -> "00000000-0000-0000-0000-000000000000")
                .headerValue("X-Game-Token", () -> guest.getString("gameToken"));
        String matchToken = match.getString("gameToken");
        if (matchToken != null) {
            fuzzer.headerValue("X-Game-Token", () -> matchToken);
        }
        OpenApiFuzzer.Report report = fuzzer.run();
        System.out.println("game-service fuzz: " + report.summary());
        assertTrue(report.failures().isEmpty(), report.summary());
        assertTrue(report.sent() > 0, report.summary());
    }
}
