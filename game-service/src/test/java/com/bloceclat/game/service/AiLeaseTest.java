package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.Collections;
import java.util.Properties;

import org.eclipse.microprofile.faulttolerance.Retry;
import org.junit.jupiter.api.Test;

import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.solver.client.SolverClient;

import io.smallrye.config.WithDefault;

/**
 * An AI turn's solver call ends before the turn's lease runs out (docs/game-service.md "Versus AI"), else another
 * replica takes the game and asks the same turn again: the longest call (no attempt starts after the retry's
 * {@code maxDuration}, and an attempt takes at most the connect and read timeouts) against the lease's default.
 */
class AiLeaseTest {

    @Test
    void theSolverClientsLongestCallEndsWithinTheAiLease() throws Exception {
        Properties client = solverClientDefaults();
        long attempt = Long.parseLong(client.getProperty("quarkus.rest-client.solver.connect-timeout"))
                + Long.parseLong(client.getProperty("quarkus.rest-client.solver.read-timeout"));
        Retry retry = SolverClient.class.getMethod("solve", String.class, SolveRequest.class).getAnnotation(Retry.class);
        long retrying = Duration.of(retry.maxDuration(), retry.durationUnit()).toMillis();
        String leaseDefault = GameConfig.Ai.class.getMethod("lease").getAnnotation(WithDefault.class).value();
        assertTrue(leaseDefault.endsWith("s"), leaseDefault);
        Duration lease = Duration.ofSeconds(Long.parseLong(leaseDefault.substring(0, leaseDefault.length() - 1)));
        assertTrue(retrying + attempt < lease.toMillis(), "the longest call, " + (retrying + attempt)
                + " ms, ends before the lease (" + lease + ")");
    }

    /** The solver client's own defaults (its jar's microprofile-config.properties), which game-service keeps. */
    private static Properties solverClientDefaults() throws IOException {
        Properties service = new Properties();
        try (InputStream in = AiLeaseTest.class.getClassLoader().getResourceAsStream("application.properties")) {
            service.load(in);
        }
        for (String key : service.stringPropertyNames()) {
            assertTrue(!key.contains("rest-client.solver.") || !key.endsWith("-timeout"), "game-service sets " + key);
        }
        for (URL url : Collections.list(AiLeaseTest.class.getClassLoader()
                .getResources("META-INF/microprofile-config.properties"))) {
            Properties p = new Properties();
            try (InputStream in = url.openStream()) {
                p.load(in);
            }
            if (p.containsKey("quarkus.rest-client.solver.read-timeout")) {
                return p;
            }
        }
        throw new AssertionError("no solver client defaults on the class path");
    }
}
