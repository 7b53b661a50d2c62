package com.bloceclat.testsupport;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsStringIgnoringCase;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * What a service the browser calls from the page's origin (http://localhost:8080 by default, BLOC_UI_ORIGINS)
 * must answer: preflights allowed before any auth, Retry-After and Location readable by the page, other origins
 * refused. Each service's CorsTest runs these against its own endpoints.
 */
public final class CorsChecks {

    public static final String UI = "http://localhost:8080";
    private static final String OTHER = "http://evil.example";

    private CorsChecks() {
    }

    /** A preflight from the UI for {@code method} on {@code path}, with the headers the page sends, is allowed. */
    public static void preflightAllowed(String path, String method) {
        given().header("Origin", UI)
                .header("Access-Control-Request-Method", method)
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

    /** An answer to the UI on {@code path} (a GET answered 200) lets the page read Retry-After and Location. */
    public static void exposesRetryAfterAndLocation(String path) {
        given().header("Origin", UI)
                .when().get(path)
                .then()
                .statusCode(200)
                .header("Access-Control-Allow-Origin", equalTo(UI))
                .header("Access-Control-Expose-Headers", containsStringIgnoringCase("Retry-After"))
                .header("Access-Control-Expose-Headers", containsStringIgnoringCase("Location"));
    }

    /** Another origin gets neither a preflight on {@code preflightPath} nor an answer on {@code getPath}. */
    public static void otherOriginRefused(String preflightPath, String getPath) {
        given().header("Origin", OTHER)
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "authorization,content-type")
                .when().options(preflightPath)
                .then()
                .statusCode(403)
                .header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", OTHER)
                .when().get(getPath)
                .then()
                .statusCode(403)
                .header("Access-Control-Allow-Origin", nullValue());
    }
}
