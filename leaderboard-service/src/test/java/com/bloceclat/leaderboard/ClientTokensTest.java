package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.Tokens;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Only access tokens issued to this system's clients open leaderboard-service (service-common's
 * {@code TokenPolicy}): a token Keycloak gave another client of the realm, an ID token or a token without a subject is
 * 401 with a problem body, on the caller's endpoints, the admin API (even with the admin role) and the public boards.
 */
@QuarkusTest
class ClientTokensTest {

    @Inject
    MeterRegistry registry;

    @Test
    void tokensNotForThisSystemAreRefusedWith401AndAProblem() {
        double before = refused();
        Map<String, String> tokens = Tokens.notForThisSystem("mallory");
        tokens.forEach((what, token) -> {
            for (String path : new String[] {"/api/leaderboards/me", "/api/leaderboards/me/games",
                    "/api/leaderboards/easy"}) {
                given().auth().oauth2(token).when().get(path)
                        .then().log().ifValidationFails()
                        .statusCode(401)
                        .contentType(startsWith("application/problem+json"))
                        .body("status", equalTo(401));
            }
        });
        // each refusal counts in bloc.auth.refused{reason} (service-common's ClientTokenValidator)
        assertTrue(refused() - before >= tokens.size(), "refusals counted: " + (refused() - before));
    }

    private double refused() {
        return registry.find("bloc.auth.refused").counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Tokens are verified with the realm's keys, never introspected: an answer taken as it came skipped TokenPolicy. */
    @Test
    void aTokenOfAKeyNotPublishedIsNotIntrospectedButRefused() {
        String token = Tokens.introspectedOnly(ConfigProvider.getConfig().getValue("keycloak.url", String.class));
        given().auth().oauth2(token).when().get("/api/leaderboards/admin/audits").then().statusCode(401)
                .contentType(startsWith("application/problem+json"));
    }

    @Test
    void anAdminThroughAnotherClientIsNotAnAdmin() {
        String adminCli = Tokens.issuedTo("admin-cli", "sub-root", "root", List.of("player", "admin"));
        given().auth().oauth2(adminCli).when().get("/api/leaderboards/admin/audits").then().statusCode(401);
        given().auth().oauth2(Tokens.admin("root")).when().get("/api/leaderboards/admin/audits").then()
                .statusCode(200);
    }

    @Test
    void theWebUisAndTheServicesTokensAreAccepted() {
        given().auth().oauth2(Tokens.player("webby")).when().get("/api/leaderboards/me")
                .then().statusCode(200).body("subject", equalTo("sub-webby"));
        given().auth().oauth2(Tokens.service("sub-svc", "service-account-bloc-services", List.of("player", "service")))
                .when().get("/api/leaderboards/me")
                .then().statusCode(200).body("subject", equalTo("sub-svc"));
    }
}
