package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * A match socket's subprotocols may carry its credentials as headers (a browser sets none on a socket), and only
 * those: Quarkus turned any name into a header, so a guest could send {@code X-Forwarded-For} that way, be taken for a
 * new client at each socket behind a trusted proxy and pass the per-client socket limit.
 */
@QuarkusTest
class SocketHeadersTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void aSubprotocolMayCarryTheCredentialsAndNoOtherHeader() throws IOException {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        String matchId = match.path("id");
        String token = "quarkus-http-upgrade#X-Game-Token#" + match.path("gameToken");
        assertTrue(answer(matchId, token).startsWith("HTTP/1.1 101"), "the game token as a subprotocol");
        String refused = answer(matchId, token, "quarkus-http-upgrade#X-Forwarded-For#198.51.100.7");
        assertTrue(refused.startsWith("HTTP/1.1 400"), refused);
        assertTrue(refused.contains("application/problem+json"), refused);
        assertTrue(answer(matchId, token, "quarkus-http-upgrade#Forwarded#for=198.51.100.7")
                .startsWith("HTTP/1.1 400"));
        assertTrue(answer(matchId, "quarkus-http-upgrade#x-game-token#" + match.path("gameToken"))
                .startsWith("HTTP/1.1 101"), "header names are not case-sensitive");
        assertEquals("HTTP/1.1 400", answer(matchId, token, "quarkus-http-upgrade%zz").substring(0, 12),
                "one that cannot be read");
        assertEquals("HTTP/1.1 400", answer(matchId, token, "quarkus-http-upgrade#Authorization#Bearer a#b")
                .substring(0, 12), "a value with a '#' (Quarkus's 500 before)");
    }

    /** Quarkus's propagation runs on every request, a REST call's too, whose per-client limits read the same key. */
    @Test
    void aRestCallCannotCarryHeadersAsSubprotocolsEither() {
        given().header("Sec-WebSocket-Protocol", "bearer-token-carrier, quarkus-http-upgrade%23X-Forwarded-For%23198.51.100.7")
                .contentType(ContentType.JSON).body(Map.of("level", "EASY"))
                .when().post("/api/games").then().statusCode(400).contentType("application/problem+json");
    }

    /** The status line and headers of a socket upgrade offering bearer-token-carrier and these subprotocols. */
    private String answer(String matchId, String... carried) throws IOException {
        StringBuilder protocols = new StringBuilder("bearer-token-carrier");
        for (String c : carried) {
            protocols.append(", ").append(c.contains("%") ? c : URLEncoder.encode(c, StandardCharsets.UTF_8));
        }
        RawUpgrade raw = RawUpgrade.send(base, "/api/matches/" + matchId + "/live",
                List.of("Sec-WebSocket-Protocol: " + protocols), 0);
        raw.socket().close();
        return raw.head();
    }
}
