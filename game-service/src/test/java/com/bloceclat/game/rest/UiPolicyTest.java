package com.bloceclat.game.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.bloceclat.game.config.GameConfig;

/** The web UI's Content-Security-Policy as each deployment's {@code bloc.ui.*} makes it (UiDirectoryTest: as served). */
class UiPolicyTest {

    private static GameConfig.Ui ui(String solver, String leaderboard, String keycloak) {
        return new GameConfig.Ui() {
            public String solverUrl() { return solver; }
            public String leaderboardUrl() { return leaderboard; }
            public String keycloakUrl() { return keycloak; }
            public String realm() { return "bloc-eclat"; }
            public String clientId() { return "web-ui"; }
            public Optional<String> dir() { return Optional.empty(); }
        };
    }

    @Test
    void thePageConnectsToItsOwnOriginAndTheThreeOriginsItsConfigurationNamesOnly() {
        String policy = UiPolicy.contentSecurityPolicy(
                ui("https://solver.example:8443/", "https://boards.example/base/path", "http://AUTH.example:8180"));
        assertTrue(policy.endsWith(
                "; connect-src 'self' https://solver.example:8443 https://boards.example http://auth.example:8180"), policy);
        assertTrue(policy.startsWith("default-src 'self'; "), policy);
        for (String directive : new String[] {"script-src 'self'", "object-src 'none'", "base-uri 'none'",
                "frame-ancestors 'none'", "form-action 'self'", "img-src 'self' data:"}) {
            assertTrue(policy.contains(directive + ";"), directive + " in " + policy);
        }
    }

    @Test
    void aUrlOnThisOriginOrNotHttpAddsNothingAndTheSameOriginIsNamedOnce() {
        String policy = UiPolicy.contentSecurityPolicy(ui("/solver", "http://game.example", "http://game.example/auth"));
        assertTrue(policy.endsWith("; connect-src 'self' http://game.example"), policy);
        assertEquals(Optional.empty(), UiPolicy.origin("javascript:alert(1)"));
        assertEquals(Optional.empty(), UiPolicy.origin("http://bad host/"));
        assertEquals(Optional.of("http://localhost:8081"), UiPolicy.origin(" http://localhost:8081 "));
        // CSP's host syntax has no IPv6 literal: "[::1]" in the policy was dropped by browsers, without a warning here
        assertEquals(Optional.empty(), UiPolicy.origin("http://[::1]:8081"));
        assertEquals(Optional.of("http://127.0.0.1:8081"), UiPolicy.origin("http://127.0.0.1:8081/"));
    }
}
