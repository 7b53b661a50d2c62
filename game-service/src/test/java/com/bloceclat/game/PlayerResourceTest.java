package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;

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

    @Test
    void adminRolesAreAllListed() {
        given().auth().oauth2(Tokens.admin("root"))
                .when().get("/api/players/me")
                .then()
                .statusCode(200)
                .body("roles", contains("admin", "player"));
    }
}
