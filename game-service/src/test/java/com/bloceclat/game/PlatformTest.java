package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.containsStringIgnoringCase;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.eclipse.microprofile.config.ConfigProvider;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class PlatformTest {

    /** Not one messaging channel named: none is part of startup or readiness. */
    private static final Matcher<String> NO_CHANNEL = not(anyOf(
            containsString("game-events"), containsString("game-finished"), containsString("bloc-canary")));

    /** Kafka is not on a request's path (the outbox holds what is to send): readiness and startup leave it out. */
    @Test
    void liveAndReadyWithDatabaseAndWebUiCheckedAndKafkaOnlyInLivenessAndWellness() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItem("SmallRye Reactive Messaging - liveness check"))
                .body(containsString("game-events-live"));
        // the messaging checks of startup and readiness stay, with no channel in them
        given().when().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"))
                .body(NO_CHANNEL);
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("database", "web-ui"))
                .body("checks.name", not(hasItem(containsStringIgnoringCase("kafka"))))
                .body(NO_CHANNEL);
        given().when().get("/q/health/well").then().body("checks.name", hasItem("outbox"));
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
                .body("paths", hasKey("/api/admin/canary"))
                // the replay is typed: its fields and the start board, not a free-form object
                .body("components.schemas.ReplayView.properties", hasKey("start"))
                .body("components.schemas.ReplayView.properties", hasKey("events"))
                .body("paths.'/api/games/{id}/replay'.get.responses", hasKey("429"));
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

    /**
     * The outbox relay deletes a row once the broker has acknowledged its record: acks=all, so that the record is on
     * every in-sync replica by then (the connector's default, 1, would let a broker's loss lose a deleted row's
     * message). The test broker is one node, so only the configuration can show it.
     */
    @Test
    void messagesAreSentWithAcksFromEveryInSyncReplica() {
        for (String channel : List.of("game-events", "game-finished")) {
            assertEquals("all", ConfigProvider.getConfig()
                    .getValue("mp.messaging.outgoing." + channel + ".acks", String.class), channel);
        }
    }
}
