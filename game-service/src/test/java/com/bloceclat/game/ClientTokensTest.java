package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.WebSocketClientConnection;
import io.restassured.http.ContentType;

/**
 * Only access tokens issued to this system's clients open game-service (service-common's {@code TokenPolicy}): a
 * token Keycloak gave another client of the realm, an ID token or a token without a subject is refused with 401 and
 * a problem body, on secured and open endpoints and on the WebSocket the browser opens with its bearer subprotocol.
 */
@QuarkusTest
class ClientTokensTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void tokensNotForThisSystemAreRefusedWith401AndAProblem() {
        Tokens.notForThisSystem("mallory").forEach((what, token) -> {
            given().auth().oauth2(token).when().get("/api/players/me")
                    .then().log().ifValidationFails()
                    .statusCode(401)
                    .contentType(startsWith("application/problem+json"))
                    .body("status", equalTo(401));
            // an open endpoint too: a guest may create a game, a refused token may not pass for one
            given().auth().oauth2(token).contentType(ContentType.JSON).body(Map.of("level", "EASY"))
                    .when().post("/api/games")
                    .then().log().ifValidationFails()
                    .statusCode(401)
                    .contentType(startsWith("application/problem+json"));
        });
    }

    /**
     * A token whose key id the server's key set lacks is not handed to Keycloak's introspection: Quarkus's default did,
     * and took an active answer without TokenPolicy, which checks only tokens verified here (before, an admin-cli token
     * with the admin role was let in). Every token of this system is a JWT its services verify with the realm's keys.
     */
    @Test
    void aTokenOfAKeyNotPublishedIsNotIntrospectedButRefused() {
        String token = Tokens.introspectedOnly(ConfigProvider.getConfig().getValue("keycloak.url", String.class));
        given().auth().oauth2(token).when().get("/api/players/me")
                .then().log().ifValidationFails()
                .statusCode(401)
                .contentType(startsWith("application/problem+json"));
    }

    @Test
    void theWebUisAndTheServicesTokensAreAccepted() {
        given().auth().oauth2(Tokens.player("webby")).when().get("/api/players/me")
                .then().statusCode(200).body("subject", equalTo("sub-webby"));
        given().auth().oauth2(Tokens.service("sub-svc", "service-account-bloc-services", List.of("player", "service")))
                .when().get("/api/players/me")
                .then().statusCode(200).body("subject", equalTo("sub-svc"));
    }

    @Test
    void theLiveSocketRefusesATokenOfAnotherClientAndAcceptsTheWebUis() throws Exception {
        String mine = Tokens.player("sock");
        String id = given().auth().oauth2(mine).contentType(ContentType.JSON)
                .body(Map.of("mode", "VERSUS_AI", "level", "EASY", "strength", 1))
                .when().post("/api/matches").then().statusCode(201).extract().path("id");

        // the same person, through admin-cli's password grant: no socket
        String adminCli = Tokens.issuedTo("admin-cli", "sub-sock", "sock", List.of("player"));
        assertThrows(RuntimeException.class, () -> open(id, adminCli, new LinkedBlockingQueue<>()));
        // and what the refusal is, as REST's: the upgrade answered 401 with a problem body, for every token not of
        // this system (the client library above only says the upgrade failed)
        Tokens.notForThisSystem("mallory").forEach((what, token) -> {
            try (RawUpgrade raw = RawUpgrade.send(base, "/api/matches/" + id + "/live",
                    List.of("Authorization: Bearer " + token), 0)) {
                assertTrue(raw.status().startsWith("HTTP/1.1 401"), what + ": " + raw.head());
                assertTrue(raw.head().toLowerCase(Locale.ROOT).contains("content-type: application/problem+json"),
                        what + ": " + raw.head());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        WebSocketClientConnection socket = open(id, mine, frames);
        String frame;
        do {
            frame = frames.poll(60, TimeUnit.SECONDS);
        } while (frame != null && !frame.contains("\"type\":\"state\""));
        assertTrue(frame != null, "the web UI's token opens the socket and gets the match's state");
        socket.closeAndAwait();
    }

    /** Opens the match's socket as the web UI does: the bearer token in the second subprotocol. */
    private WebSocketClientConnection open(String matchId, String bearer, BlockingQueue<String> frames) {
        return BasicWebSocketConnector.create().baseUri(base)
                .path("/api/matches/" + matchId + "/live")
                .addSubprotocol("bearer-token-carrier")
                .addSubprotocol(URLEncoder.encode("quarkus-http-upgrade#Authorization#Bearer " + bearer,
                        StandardCharsets.UTF_8).replace("+", "%20"))
                .onTextMessage((c, m) -> frames.add(m))
                .connectAndAwait();
    }
}
