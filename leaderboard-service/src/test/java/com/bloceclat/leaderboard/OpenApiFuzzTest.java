package com.bloceclat.leaderboard;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.OpenApiFuzzer;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.junit.QuarkusTest;

/**
 * Generated bodies, headers, path and query values against every operation of this service's OpenAPI document
 * (test-support {@link OpenApiFuzzer}, fixed seed): no answer is a 5xx other than a 503 with Retry-After.
 */
@QuarkusTest
class OpenApiFuzzTest {

    @Test
    void noOperationAnswers5xxToAnyGeneratedRequest() {
        OpenApiFuzzer.Report report = new OpenApiFuzzer()
                .casesPerOperation(120)
                .token(() -> Tokens.player("fuzz"))
                .token(() -> Tokens.admin("fuzz-admin"))
                .pathValue("level", () -> "HARD")
                .pathValue("level", () -> "easy")
                .pathValue("playerId", () -> "sub-fuzz")
                .pathValue("gameId", () -> "00000000-0000-0000-0000-000000000001")
                .run();
        System.out.println("leaderboard-service fuzz: " + report.summary());
        assertTrue(report.failures().isEmpty(), report.summary());
        assertTrue(report.sent() > 0, report.summary());
    }
}
