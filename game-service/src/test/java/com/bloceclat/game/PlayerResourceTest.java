package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.Tokens;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class PlayerResourceTest {

    @Test
    void anonymousIsRefused() {
        given().when().get("/api/players/me").then().statusCode(401);
    }

    @Test
    void expiredOrForgedTokensAreRefused() {
        given().auth().oauth2(Tokens.expired("alice")).when().get("/api/players/me").then().statusCode(401);
        given().auth().oauth2(Tokens.forged("alice")).when().get("/api/players/me").then().statusCode(401);
    }

    @Test
    void playerSeesTheirIdentityAndIsRecorded() {
        given().auth().oauth2(Tokens.player("alice"))
                .when().get("/api/players/me")
                .then()
                .statusCode(200)
                .body("subject", equalTo("sub-alice"))
                .body("name", equalTo("alice"))
                .body("roles", contains("player"));

        Player alice = QuarkusTransaction.requiringNew().call(() -> Player.findById("sub-alice"));
        assertNotNull(alice);
        assertEquals("alice", alice.name);

        given().auth().oauth2(Tokens.of("sub-alice", "alice2", List.of("player")))
                .when().get("/api/players/me").then().statusCode(200).body("name", equalTo("alice2"));
        Player again = QuarkusTransaction.requiringNew().call(() -> Player.findById("sub-alice"));
        assertEquals("alice2", again.name);
        assertEquals(alice.firstSeenAt.toInstant(), again.firstSeenAt.toInstant());
        assertFalse(again.lastSeenAt.isBefore(alice.lastSeenAt));
    }

    /**
     * A player's row is refreshed at most once a minute per replica (or sooner when their name changes): written on
     * every call, it was a transaction of its own before each logged-in request, a move's too, and an UPSERT for each
     * request refused anyway (here a game that does not exist).
     */
    @Test
    void aPlayersRowIsNotWrittenAgainByEveryRequestOfTheirs() {
        String bearer = Tokens.player("seen-often");
        given().auth().oauth2(bearer).when().get("/api/players/me").then().statusCode(200);
        Player first = QuarkusTransaction.requiringNew().call(() -> Player.findById("sub-seen-often"));
        for (int i = 0; i < 3; i++) {
            given().auth().oauth2(bearer).when().get("/api/games/" + UUID.randomUUID()).then().statusCode(404);
        }
        given().auth().oauth2(bearer).when().get("/api/players/me").then().statusCode(200);
        Player later = QuarkusTransaction.requiringNew().call(() -> Player.findById("sub-seen-often"));
        assertEquals(first.lastSeenAt.toInstant(), later.lastSeenAt.toInstant(), "not written again within the minute");
    }

    @Test
    void adminRolesAreAllListed() {
        given().auth().oauth2(Tokens.admin("root"))
                .when().get("/api/players/me")
                .then()
                .statusCode(200)
                .body("roles", contains("admin", "player"));
    }
}
