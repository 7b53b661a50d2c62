package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsStringIgnoringCase;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** The browser calls solver-service from the page's origin, http://localhost:8080 by default (BLOC_UI_ORIGINS). */
@QuarkusTest
class CorsTest {

    private static final String UI = "http://localhost:8080";

    @Test
    void aPreflightFromTheUiIsAllowedNeverRateLimitedNorRefusedForWantOfAToken() {
        // More preflights than the public burst (3 in tests), on the rate-limited and on the secured endpoint.
        for (int i = 0; i < 6; i++) {
            for (String path : new String[] {"/api/solver/solve", "/api/solver/whoami"}) {
                given().header("Origin", UI)
                        .header("Access-Control-Request-Method", "POST")
                        .header("Access-Control-Request-Headers", "authorization,content-type")
                        .when().options(path)
                        .then()
                        .statusCode(200)
                        .header("Access-Control-Allow-Origin", equalTo(UI))
                        .header("Access-Control-Allow-Methods", containsStringIgnoringCase("POST"))
                        .header("Access-Control-Allow-Methods", containsStringIgnoringCase("GET"))
                        .header("Access-Control-Allow-Headers", containsStringIgnoringCase("Authorization"))
                        .header("Access-Control-Allow-Headers", containsStringIgnoringCase("Content-Type"));
            }
        }
    }

    @Test
    void anAnswerToTheUiExposesRetryAfterAndLocation() {
        given().header("Origin", UI)
                .when().get("/api/solver/info")
                .then()
                .statusCode(200)
                .header("Access-Control-Allow-Origin", equalTo(UI))
                .header("Access-Control-Expose-Headers", containsStringIgnoringCase("Retry-After"))
                .header("Access-Control-Expose-Headers", containsStringIgnoringCase("Location"));
    }

    @Test
    void anotherOriginIsRefused() {
        given().header("Origin", "http://evil.example")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization,content-type")
                .when().options("/api/solver/solve")
                .then()
                .statusCode(403)
                .header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", "http://evil.example")
                .when().get("/api/solver/info")
                .then()
                .statusCode(403)
                .header("Access-Control-Allow-Origin", nullValue());
    }
}
