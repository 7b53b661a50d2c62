package com.bloceclat.solver;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.OpenApiFuzzer;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Generated bodies, headers, path and query values against every operation of this service's OpenAPI document
 * (test-support {@link OpenApiFuzzer}, fixed seed): no answer is a 5xx other than a 503 with Retry-After. It runs
 * in an application of its own (a profile of its own): its anonymous requests empty the rate-limit bucket of
 * 127.0.0.1, which SolveCallersTest counts on being full.
 */
@QuarkusTest
@TestProfile(OpenApiFuzzTest.OwnApplication.class)
class OpenApiFuzzTest {

    /** The default configuration, in an application boot of its own. */
    public static class OwnApplication implements QuarkusTestProfile {
    }

    @Test
    void noOperationAnswers5xxToAnyGeneratedRequest() {
        OpenApiFuzzer.Report report = new OpenApiFuzzer()
                .casesPerOperation(150)
                .token(Callers::service)
                .token(() -> Tokens.player("fuzz"))
                .run();
        System.out.println("solver-service fuzz: " + report.summary());
        assertTrue(report.failures().isEmpty(), report.summary());
        assertTrue(report.sent() > 0, report.summary());
    }
}
