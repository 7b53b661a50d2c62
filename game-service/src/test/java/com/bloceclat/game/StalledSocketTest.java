package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

/**
 * A match socket whose client reads nothing is closed, and its TCP connection dropped, though its close frame can never
 * go out (docs/game-service.md "Live updates", {@code Frames}): its states pile up until the server's buffers are
 * full, a frame not taken within {@code bloc.live.send-timeout} finds it stalled, the close frame waits behind the
 * rest, and the connection is closed under it ({@code SocketClients.drop}). SlowSocketTest shows the same with fake
 * connections; this is a real client over TCP, with a small receive buffer and nothing read. A profile of its own:
 * the test profile's frame rate (1 a second) would take minutes to fill the buffers, so here the rate is high and the
 * send timeout short.
 */
@QuarkusTest
@TestProfile(StalledSocketTest.FastFrames.class)
class StalledSocketTest {

    public static class FastFrames implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> live = Map.of("bloc.live.frames-per-second", "100000", "bloc.live.burst", "100000",
                    "bloc.live.send-timeout", "1s", "bloc.live.silent-after", "30s");
            Map<String, String> both = new HashMap<>(live);
            live.forEach((k, v) -> both.put("%test." + k, v)); // over the %test values of application.properties
            return both;
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    MeterRegistry metrics;

    @Test
    void aClientThatReadsNothingIsDroppedThoughItsCloseFrameCannotGoOut() throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        double stalled = metrics.counter("game.live.closed", "reason", "stalled").count();
        RawUpgrade raw = RawUpgrade.send(base, "/api/matches/" + match.path("id") + "/live",
                List.of("X-Game-Token: " + match.path("gameToken")), 4096);
        assertTrue(raw.status().startsWith("HTTP/1.1 101"), raw.head());
        try (Socket s = raw.socket()) {
            OutputStream out = s.getOutputStream();
            byte[] sync = SocketFloodTest.frame("{\"type\":\"sync\"}"); // each answered with the whole state
            long sent = 0;
            long deadline = System.nanoTime() + 60_000_000_000L;
            try {
                while (System.nanoTime() < deadline) {
                    out.write(sync);
                    sent++;
                    if (sent % 100 == 0) {
                        out.flush();
                        Thread.sleep(20);
                    }
                }
            } catch (IOException dropped) {
                assertTrue(metrics.counter("game.live.closed", "reason", "stalled").count() > stalled,
                        "closed as stalled, after " + sent + " frames");
                return;
            }
            fail("the socket was still open after " + sent + " frames in 60 s, none of whose answers was read");
        }
    }
}
