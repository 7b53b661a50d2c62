package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.PrometheusText;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The boards' reads one client may make (ReadRate), with a small rate so that reaching it takes a few requests. Before,
 * no read of the boards had a rate: one client could send them as fast as the service answered.
 */
@QuarkusTest
@TestProfile(ReadRateTest.SmallRate.class)
class ReadRateTest {

    public static class SmallRate implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("%test.bloc.leaderboard.reads-per-second-per-client", "1",
                    "%test.bloc.leaderboard.reads-burst-per-client", "5");
        }
    }

    static final String REFUSED = "leaderboard_reads_refused_total";

    @Test
    void aClientsReadsPastItsRateAre429WithRetryAfterAndOtherClientsAndTheAdminsAreNotHeldUp() throws Exception {
        double before = PrometheusText.value(REFUSED);
        // the burst (5) is answered, then reads are refused (a read more a second comes back meanwhile: each refusal
        // checked below follows a read refused a moment before, not a count of reads)
        int answered = drain();
        assertTrue(answered >= 5, "the burst is answered: " + answered);
        drain();
        given().when().get("/api/leaderboards/HARD").then()
                .statusCode(429).contentType("application/problem+json")
                .header("Retry-After", equalTo("1"))
                .body("status", equalTo(429))
                .body("detail", startsWith("Too many reads of the boards: at most 1 a second for one client"));
        // the same resource whatever the spelling of its path: a matrix parameter is still this client's read
        drain();
        given().when().get("/api/leaderboards/HARD;x=1").then().statusCode(429);
        drain();
        given().when().get("/api/leaderboards/EASY/players/anyone").then().statusCode(429);
        assertTrue(PrometheusText.value(REFUSED) - before >= 3);

        // another client (a player, by token) has a bucket of its own; an admin's audits are not the boards' reads
        given().auth().oauth2(Tokens.player("reader")).when().get("/api/leaderboards/HARD").then().statusCode(200);
        String admin = Tokens.admin("auditor");
        for (int i = 0; i < 8; i++) {
            given().auth().oauth2(admin).when().get("/api/leaderboards/admin/audits").then().statusCode(200);
        }

        Thread.sleep(1_100); // one read a second comes back
        assertEquals(200, given().when().get("/api/leaderboards/HARD").statusCode());
    }

    /** Reads the board as the anonymous client until a read is refused; answers how many were answered first. */
    private static int drain() {
        int answered = 0;
        while (given().when().get("/api/leaderboards/HARD").statusCode() == 200) {
            answered++;
            assertTrue(answered < 20, "never refused");
        }
        return answered;
    }
}
