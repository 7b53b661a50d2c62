package com.bloceclat.solver;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.CorsChecks;

import io.quarkus.test.junit.QuarkusTest;

/** The browser calls solver-service from the page's origin (docs/solver-service.md). */
@QuarkusTest
class CorsTest {

    @Test
    void aPreflightFromTheUiIsAllowedNeverRateLimitedNorRefusedForWantOfAToken() {
        // More preflights than the public burst (3 in tests), on the rate-limited and on the secured endpoint.
        for (int i = 0; i < 6; i++) {
            CorsChecks.preflightAllowed("/api/solver/solve", "POST");
            CorsChecks.preflightAllowed("/api/solver/whoami", "POST");
        }
    }

    @Test
    void anAnswerToTheUiExposesRetryAfterAndLocation() {
        CorsChecks.exposesRetryAfterAndLocation("/api/solver/info");
    }

    @Test
    void anotherOriginIsRefused() {
        CorsChecks.otherOriginRefused("/api/solver/solve", "/api/solver/info");
    }
}
