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
                // Known bug, for h3-leaderboard (leaderboard-service resources): a NUL in the playerId path value
                // (GET /api/leaderboards/easy/players/7EC82C9C-...%00) reaches PostgreSQL, which refuses it
                // ("invalid byte sequence for encoding UTF8: 0x00", Hibernate DataException) and the answer is 500.
                // Remove this line once Params checks playerId (length, control characters) and answers 400.
                .knownFailure("GET /api/leaderboards/{level}/players/{playerId}", "%00", "NUL in playerId reaches SQL")
                // Known bug, for h3-leaderboard (Params.time, AdminAuditResource.list): an instant PostgreSQL cannot
                // store (GET /api/leaderboards/admin/audits?from=%2B300000-01-01T00%3A00%3A00Z, admin token) passes
                // Instant.parse and reaches SQL ("timestamp out of range", Hibernate DataException): 500. Remove this
                // line once from/to are bounded (years 2000..9999, as GameFinished reads instants) and answer 400.
                .knownFailure("GET /api/leaderboards/admin/audits", "%2B300000",
                        "instant out of PostgreSQL's range reaches SQL")
                .run();
        System.out.println("leaderboard-service fuzz: " + report.summary());
        assertTrue(report.failures().isEmpty(), report.summary());
        assertTrue(report.sent() > 0, report.summary());
    }
}
