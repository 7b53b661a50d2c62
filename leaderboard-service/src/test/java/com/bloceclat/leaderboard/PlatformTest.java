package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasKey;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class PlatformTest {

    @Test
    void liveAndReadyWithDatabaseAndKafkaChecked() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("Database connections health check", "Kafka connection health check",
                        "SmallRye Reactive Messaging - readiness check"));
    }

    @Test
    void metricsOpenApiAndSwaggerUiAreServed() {
        given().when().get("/api/leaderboards/info").then().statusCode(200);
        given().when().get("/q/metrics").then()
                .statusCode(200)
                .body(containsString("uri=\"/api/leaderboards/info\""));
        given().accept("application/json").when().get("/q/openapi").then()
                .statusCode(200)
                .body("paths", hasKey("/api/leaderboards/me"))
                .body("paths", hasKey("/api/leaderboards/admin/canary/{id}"))
                .body("paths", hasKey("/api/leaderboards/{level}"))
                .body("paths", hasKey("/api/leaderboards/{level}/me"))
                .body("paths", hasKey("/api/leaderboards/me/games"))
                .body("paths", hasKey("/api/leaderboards/admin/audits/{gameId}/strike"))
                .body("paths", hasKey("/api/leaderboards/{level}/daily"))
                .body("paths", hasKey("/api/leaderboards/{level}/daily/me"))
                .body("paths", hasKey("/api/leaderboards/admin/audits/refused"));
        given().when().get("/q/swagger-ui/").then().statusCode(200);
    }

    @Test
    void publicInfoNamesTheService() {
        given().when().get("/api/leaderboards/info").then()
                .statusCode(200)
                .body("service", equalTo("leaderboard-service"));
    }
}
