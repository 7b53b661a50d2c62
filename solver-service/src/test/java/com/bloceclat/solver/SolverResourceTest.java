package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.junit.QuarkusTest;

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
