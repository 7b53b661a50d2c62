package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class LeaderboardResourceTest {

    @Test
    void myRecordsNeedAValidToken() {
        given().when().get("/api/leaderboards/me").then().statusCode(401);
        given().auth().oauth2(Tokens.expired("alice")).when().get("/api/leaderboards/me").then().statusCode(401);
        given().auth().oauth2(Tokens.forged("alice")).when().get("/api/leaderboards/me").then().statusCode(401);
    }

    @Test
    void aPlayerSeesTheirIdentityAndNoRecordsYet() {
        given().auth().oauth2(Tokens.player("bob"))
                .when().get("/api/leaderboards/me")
                .then()
                .statusCode(200)
                .body("subject", equalTo("sub-bob"))
                .body("name", equalTo("bob"))
                .body("roles", contains("player"))
                .body("records", empty());
    }
}
