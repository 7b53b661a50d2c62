package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;

import java.util.List;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * Only access tokens issued to this system's clients open solver-service (service-common's {@code TokenPolicy}): a
 * token Keycloak gave another client of the realm, an ID token or a token without a subject is 401 with a problem
 * body, also on the solve call anyone may make anonymously, so such a token neither passes for a guest nor claims
 * the service role's capacity.
 */
@QuarkusTest
class ClientTokensTest {

    private static final String SOLVE = "/api/solver/solve";

    @Test
    void tokensNotForThisSystemAreRefusedWith401AndAProblem() {
        Tokens.notForThisSystem("mallory").forEach((what, token) -> {
            given().auth().oauth2(token).when().get("/api/solver/whoami")
                    .then().log().ifValidationFails()
                    .statusCode(401)
                    .contentType(startsWith("application/problem+json"))
                    .body("status", equalTo(401));
            given().auth().oauth2(token).contentType(ContentType.JSON).body(Requests.EMPTY_BOARD)
                    .when().post(SOLVE)
                    .then().log().ifValidationFails()
                    .statusCode(401)
                    .contentType(startsWith("application/problem+json"));
        });
    }

    @Test
    void anotherClientsTokenDoesNotGetTheServiceRole() {
        String adminCli = Tokens.issuedTo("admin-cli", "sub-service-account", "service-account-bloc-services",
                List.of("player", "service"));
        given().auth().oauth2(adminCli).contentType(ContentType.JSON).body(Requests.EMPTY_BOARD)
                .when().post(SOLVE).then().statusCode(401);
    }

    /** Tokens are verified with the realm's keys, never introspected: an answer taken as it came skipped TokenPolicy. */
    @Test
    void aTokenOfAKeyNotPublishedIsNotIntrospectedButRefused() {
        String token = Tokens.introspectedOnly(ConfigProvider.getConfig().getValue("keycloak.url", String.class));
        given().auth().oauth2(token).when().get("/api/solver/whoami").then().statusCode(401)
                .contentType(startsWith("application/problem+json"));
    }

    @Test
    void theWebUisAndTheServicesTokensAreAccepted() {
        given().auth().oauth2(Tokens.player("webby")).when().get("/api/solver/whoami")
                .then().statusCode(200).body("subject", equalTo("sub-webby"));
        given().auth().oauth2(Callers.service()).when().get("/api/solver/whoami")
                .then().statusCode(200).body("roles", hasItem("service"));
    }
}
