package com.bloceclat.leaderboard;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.CorsChecks;

import io.quarkus.test.junit.QuarkusTest;

/** The browser calls leaderboard-service from the page's origin (docs/leaderboard-service.md). */
@QuarkusTest
class CorsTest {

    @Test
    void aPreflightFromTheUiIsAllowedWithoutAToken() {
        CorsChecks.preflightAllowed("/api/leaderboards/HARD", "GET");
        CorsChecks.preflightAllowed("/api/leaderboards/me", "GET");
    }

    @Test
    void anAnswerToTheUiExposesRetryAfterAndLocation() {
        CorsChecks.exposesRetryAfterAndLocation("/api/leaderboards/info");
    }

    @Test
    void anotherOriginIsRefused() {
        CorsChecks.otherOriginRefused("/api/leaderboards/me", "/api/leaderboards/info");
    }
}
