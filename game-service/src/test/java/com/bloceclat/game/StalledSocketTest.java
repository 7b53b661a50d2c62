package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        double stalled = stalled();
        // each answered with the whole state
        writeUntilDropped(SocketFloodTest.frame("{\"type\":\"sync\"}"), "frames, none of whose answers was read");
        assertTrue(stalled() > stalled, "closed as stalled");
    }

    /**
     * A client that sends only pings, within its rate (here a high one), and reads nothing. The WebSocket layer answers
     * each ping with a pong, written whether or not it is read, and nothing of the service's sees those writes: the
     * socket stayed open while its pongs piled up without end. The server's own ping goes through {@code Frames}
     * ({@code SocketPings}), behind the pongs, and is not taken within the send timeout: the socket is closed as
     * stalled. With Quarkus's auto-ping instead (no timeout), it stayed open.
     */
    @Test
    void aClientSendingPingsWithinItsRateAndReadingNothingIsDroppedAsStalled() throws Exception {
        double stalled = stalled();
        double flooding = metrics.counter("game.live.closed", "reason", "flooding").count();
        writeUntilDropped(SocketFloodTest.frame(0x89, "x".repeat(125)), "pings, none of whose pongs was read");
        assertTrue(stalled() > stalled, "closed as stalled");
        assertEquals(flooding, metrics.counter("game.live.closed", "reason", "flooding").count(),
                "within its rate: no flood");
    }

    private double stalled() {
        return metrics.counter("game.live.closed", "reason", "stalled").count();
    }

    /**
     * Opens a socket to a new match with a 4 KB receive buffer, reads nothing, and writes the frame over and over (a
     * pause of 20 ms every 100) until the server drops the connection; fails if it has not within 60 s.
     */
    private void writeUntilDropped(byte[] frame, String what) throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        RawUpgrade raw = RawUpgrade.send(base, "/api/matches/" + match.path("id") + "/live",
                List.of("X-Game-Token: " + match.path("gameToken")), 4096);
        assertTrue(raw.status().startsWith("HTTP/1.1 101"), raw.head());
        try (Socket s = raw.socket()) {
            OutputStream out = s.getOutputStream();
            long sent = 0;
            long deadline = System.nanoTime() + 60_000_000_000L;
            try {
                while (System.nanoTime() < deadline) {
                    out.write(frame);
                    sent++;
                    if (sent % 100 == 0) {
                        out.flush();
                        Thread.sleep(20);
                    }
                }
            } catch (IOException dropped) {
                return;
            }
            fail("the socket was still open after " + sent + " " + what + " in 60 s");
        }
    }
}
