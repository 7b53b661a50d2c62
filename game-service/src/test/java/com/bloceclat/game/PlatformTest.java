package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.startsWith;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class PlatformTest {

    @Test
    void liveAndReadyWithDatabaseKafkaAndWebUiChecked() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("Database connections health check", "Kafka connection health check",
                        "web-ui"));
    }

    @Test
    void prometheusMetricsAreServed() {
        given().when().get("/api/games/info").then().statusCode(200);
        given().when().get("/q/metrics").then()
                .statusCode(200)
                .body(containsString("http_server_requests_seconds_count"))
                .body(containsString("uri=\"/api/games/info\""));
    }

    @Test
    void openApiAndSwaggerUiAreServed() {
        given().accept("application/json").when().get("/q/openapi").then()
                .statusCode(200)
                .body("paths", hasKey("/api/players/me"))
                .body("paths", hasKey("/api/admin/canary"));
        given().when().get("/q/swagger-ui/").then().statusCode(200).body(containsString("swagger"));
    }

    @Test
    void publicInfoNamesTheService() {
        given().when().get("/api/games/info").then()
                .statusCode(200)
                .body("service", equalTo("game-service"))
                .body("version", equalTo("1.0.0-SNAPSHOT"));
    }

    @Test
    void browserConfigurationIsPublicAndNotCached() {
        given().when().get("/config.json").then()
                .statusCode(200)
                .contentType(startsWith("application/json"))
                .header("Cache-Control", equalTo("no-cache"))
                .body("solverUrl", equalTo("http://localhost:8081"))
                .body("leaderboardUrl", equalTo("http://localhost:8083"))
                .body("keycloakUrl", equalTo("http://localhost:8180"))
                .body("realm", equalTo("bloc-eclat"))
                .body("clientId", equalTo("web-ui"));
    }

    @Test
    void webUiIsServedAtTheRoot() {
        given().when().get("/").then()
                .statusCode(200)
                .contentType(startsWith("text/html"))
                .body(containsString("<title>Bloc Éclat</title>"));
    }

    @Test
    void unknownApiPathIsAProblem() {
        given().when().get("/api/games/info/nothing-here").then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("status", equalTo(404))
                .body("title", equalTo("Not Found"));
    }
}
