package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * A match socket's client that sends frames and reads nothing, as an attacker's would: its answers stop being taken
 * once the network's buffers are full. Before, each answer was written before the socket's next frame was handled, so
 * the next frames waited in a queue without bound (the server went on reading them) and one such socket could fill a
 * replica's memory. A raw TCP client, since a WebSocket library reads whatever comes.
 */
@QuarkusTest
class SocketFloodTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    MeterRegistry metrics;

    /** A socket upgraded by hand, with a small receive buffer (it fills with few answers): nothing more read. */
    private Socket upgrade(String matchId, String gameToken) throws IOException {
        RawUpgrade raw = RawUpgrade.send(base, "/api/matches/" + matchId + "/live",
                List.of("X-Game-Token: " + gameToken), 4096);
        assertTrue(raw.status().startsWith("HTTP/1.1 101"), raw.head());
        return raw.socket();
    }

    /** A masked text frame, as a client must send it. */
    static byte[] frame(String text) {
        return frame(0x81, text);
    }

    /** A masked frame of the given first byte (FIN and opcode: 0x81 text, 0x89 ping), as a client must send it. */
    static byte[] frame(int finAndOpcode, String text) {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        byte[] mask = {1, 2, 3, 4};
        int header = payload.length < 126 ? 2 : 4;
        byte[] f = new byte[header + 4 + payload.length];
        f[0] = (byte) finAndOpcode;
        if (payload.length < 126) {
            f[1] = (byte) (0x80 | payload.length);
        } else {
            f[1] = (byte) (0x80 | 126);
            f[2] = (byte) (payload.length >> 8);
            f[3] = (byte) payload.length;
        }
        System.arraycopy(mask, 0, f, header, 4);
        for (int i = 0; i < payload.length; i++) {
            f[header + 4 + i] = (byte) (payload[i] ^ mask[i % 4]);
        }
        return f;
    }

    @Test
    void aFrameLargerThanAnyClientFrameClosesTheSocket() throws Exception {
        // a client's frame is a few hundred bytes; the server took frames of up to 256 KiB (more, inflated)
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        try (Socket s = upgrade(match.path("id"), match.path("gameToken"))) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(frame("{\"type\":\"ping\",\"pad\":\"" + "x".repeat(5000) + "\"}"));
            InputStream in = s.getInputStream();
            // the frames before (the state), then the connection closed (by Vert.x, without a close frame); before,
            // the frame was answered and the socket stayed open (the read timed out)
            while (true) {
                int first = in.read();
                if (first < 0 || (first & 0x0f) == 8) {
                    return;
                }
                int length = in.read() & 0x7f;
                if (length == 126) {
                    length = (in.read() << 8) | in.read();
                }
                String text = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                assertFalse(text.contains("\"pong\""), "answered: " + text);
            }
        }
    }

    /**
     * The flood rule alone (docs/game-service.md "Live"): a client that reads every answer but goes on sending past its
     * rate gets a 429 for each frame over it, then, {@code bloc.live.refused-before-close} (50) refused in a row, a
     * last 429 saying the socket is closed, a close with 1008, and the close counted as flooding. The test above
     * cannot tell this rule from the send timeout's, which closes a client that reads nothing whatever it sends.
     */
    @Test
    void aClientThatReadsEveryAnswerButGoesOnSendingTooFastIsToldAndClosedWith1008() throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        double before = flooding();
        LiveSocket socket = LiveSocket.asGuest(base, match.path("id"), match.path("gameToken"));
        socket.next("state");
        int sent = 0;
        // the burst (5 in the test profile) then 50 refusals: fast enough that the rate gives back none meanwhile
        try {
            while (sent < 80 && !socket.connection().isClosed()) {
                socket.send("{\"type\": \"ping\"}");
                sent++;
            }
        } catch (RuntimeException closedMeanwhile) {
            // the server's close crossed this frame
        }
        // the client's text callbacks may run after it has seen the close: wait for the last frame too
        await().atMost(Duration.ofSeconds(10)).until(() -> socket.connection().isClosed() && socket.frames().stream()
                .anyMatch(f -> f.path("message").asText().endsWith("this socket is closed.")));
        List<JsonNode> frames = new ArrayList<>(socket.frames());
        List<JsonNode> refused = frames.stream().filter(f -> "error".equals(f.path("type").asText())).toList();
        assertTrue(refused.size() >= 50, "refused: " + refused.size() + " of " + sent + " frames");
        refused.forEach(f -> assertEquals(429, f.path("status").asInt(), f.toString()));
        // one last refusal saying so, the others each ignored (the test client's callbacks may take them in another
        // order than sent: counted, not read in order)
        assertEquals(1, refused.stream().filter(f -> f.path("message").asText().endsWith("this socket is closed."))
                .count(), refused.toString());
        assertEquals(refused.size() - 1, refused.stream()
                .filter(f -> f.path("message").asText().endsWith("this one was ignored.")).count(), refused.toString());
        assertEquals(1008, socket.connection().closeReason().getCode());
        assertEquals(before + 1, flooding());
    }

    /** Binary frames count as frames: a flood of them is closed as any other (before, each was dropped unanswered). */
    @Test
    void aClientFloodingBinaryFramesIsClosedWith1008() throws Exception {
        closedAfterAFloodOf(socket -> socket.connection()
                .sendBinaryAndAwait(io.vertx.core.buffer.Buffer.buffer(new byte[] {0, 1, 2})));
    }

    /**
     * A flood read while the socket's state is being read (here from a table another transaction holds locked) is
     * counted as it is read, and closed before that read ends. Before, Quarkus held every frame in its queue behind
     * {@code @OnOpen}, uncounted and without bound, until the read ended: the socket was not closed while the lock was
     * held (nor would it be while a busy database made the read wait).
     */
    @Test
    void aFloodWhileTheSocketsStateIsReadIsClosedBeforeThatReadEnds() throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        double before = flooding();
        try (Connection lock = matchTableLocked()) {
            try (Socket s = upgrade(match.path("id"), match.path("gameToken"))) {
                OutputStream out = s.getOutputStream();
                byte[] ping = frame("{\"type\":\"ping\"}");
                // the burst (5 in the test profile), then 50 refused in a row close it; a few more
                for (int i = 0; i < 100; i++) {
                    out.write(ping);
                }
                out.flush();
                await().atMost(Duration.ofSeconds(10)).until(() -> flooding() > before);
            } finally {
                lock.rollback(); // the state's read goes on, and finds its socket closed
            }
        }
        assertEquals(before + 1, flooding());
    }

    /**
     * A frame within the rate that finds the socket's inbox full (its state is being read from a table another
     * transaction holds locked, so none of the burst before it has been handled) is refused as waiting, and is no
     * flood: it takes from the rate like any frame let through, so it ends a run of refusals instead of counting toward
     * a close (docs/game-service.md "What a socket holds in memory, bounded"); a client the server keeps waiting is not
     * closed for it. The burst is answered once the state has been sent.
     */
    @Test
    void aFrameWithinTheRateThatFindsTheInboxFullIsRefusedAsWaitingAndCountsTowardNoClose() throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        double before = flooding();
        var config = ConfigProvider.getConfig();
        int burst = config.getValue("bloc.live.burst", Integer.class);
        int refusedBeforeClose = config.getValue("bloc.live.refused-before-close", Integer.class);
        String ping = "{\"type\": \"ping\"}";
        LiveSocket socket;
        try (Connection lock = matchTableLocked()) {
            socket = LiveSocket.asGuest(base, match.path("id"), match.path("gameToken"));
            for (int i = 0; i < burst; i++) {
                socket.send(ping); // let through, and waiting: the inbox is full
            }
            for (int run = 0; run < 2; run++) {
                for (int i = 0; i < refusedBeforeClose - 1; i++) {
                    socket.send(ping); // over the rate: one refusal short of a close
                }
                // each answered at once: the server has counted them all (it may read them later than they were
                // sent, and the rate runs on its clock, not on this test's)
                for (int i = 0; i < refusedBeforeClose - 1; i++) {
                    assertEquals(429, socket.next("error").path("status").asInt());
                }
                if (run == 0) {
                    Thread.sleep(1100); // the rate gives one back (one a second in tests)
                    socket.send(ping); // within the rate: refused as waiting
                    JsonNode waiting = socket.next("error");
                    assertTrue(waiting.path("message").asText().startsWith("Too many frames waiting"),
                            waiting.toString());
                    assertEquals(429, waiting.path("status").asInt(), waiting.toString());
                }
            }
            assertFalse(socket.connection().isClosed(), "99 refusals, never 50 in a row");
            lock.rollback(); // the state is read, sent, and the burst handled
        }
        socket.next("state");
        for (int i = 0; i < burst; i++) {
            socket.next("pong");
        }
        assertFalse(socket.connection().isClosed());
        assertEquals(before, flooding());
        socket.connection().closeAndAwait();
    }

    /** A connection of its own holding the {@code match} table locked: a socket's opening waits until rollback. */
    private static Connection matchTableLocked() throws java.sql.SQLException {
        var config = ConfigProvider.getConfig();
        Connection lock = DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
        lock.setAutoCommit(false);
        try (var st = lock.createStatement()) {
            st.execute("LOCK TABLE match IN ACCESS EXCLUSIVE MODE");
        }
        return lock;
    }

    /**
     * Pings from a client that reads nothing. The WebSocket layer answers each ping with a pong, written whether or not
     * the client reads, so the pongs piled up in the replica's memory, counted nowhere, for as long as the client went
     * on (a browser sends no ping of its own). Now pings are counted with the pongs, and a client going on past their
     * rate has its connection dropped at once (a close frame would wait behind the pongs).
     */
    @Test
    void aClientFloodingPingsAndReadingNothingIsDropped() throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        double before = flooding();
        // at most 100,000 pings (13 MB of pongs the server would hold: a bound for this test's own sake)
        floodUntilDropped(match.path("id"), match.path("gameToken"), frame(0x89, "x".repeat(125)), 100_000, 15,
                "pings, none of whose pongs was read"); // 125 bytes: the most a control frame may carry
        await().atMost(Duration.ofSeconds(5)).until(() -> flooding() == before + 1);
    }

    /** So do pongs the client sends of its own (before, each took a worker thread, uncounted, without end). */
    @Test
    void aClientFloodingPongsIsClosedWith1008() throws Exception {
        closedAfterAFloodOf(socket -> socket.connection()
                .sendPongAndAwait(io.vertx.core.buffer.Buffer.buffer(new byte[] {0, 1, 2})));
    }

    private void closedAfterAFloodOf(java.util.function.Consumer<LiveSocket> send) throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        double before = flooding();
        LiveSocket socket = LiveSocket.asGuest(base, match.path("id"), match.path("gameToken"));
        socket.next("state");
        try {
            for (int sent = 0; sent < 80 && !socket.connection().isClosed(); sent++) {
                send.accept(socket);
            }
        } catch (RuntimeException closedMeanwhile) {
            // the server's close crossed this frame
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> socket.connection().isClosed());
        assertEquals(1008, socket.connection().closeReason().getCode());
        assertEquals(before + 1, flooding());
    }

    private double flooding() {
        Counter c = metrics.find("game.live.closed").tag("reason", "flooding").counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aClientThatFloodsFramesAndReadsNoAnswerIsClosed() throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
        // at most ~20 MB of pings (a bound for this test's own sake: before, the server queued them all)
        floodUntilDropped(match.path("id"), match.path("gameToken"), frame("{\"type\":\"ping\"}"), 1_000_000, 30,
                "frames, none of whose answers was read");
    }

    /**
     * Sends the frame at most {@code most} times as fast as the connection takes it, reading nothing, then once every
     * 50 ms, until the server has let the connection go; fails if it has not within {@code seconds}.
     */
    private void floodUntilDropped(String matchId, String gameToken, byte[] frame, long most, int seconds, String what)
            throws Exception {
        try (Socket s = upgrade(matchId, gameToken)) {
            OutputStream out = s.getOutputStream();
            long sent = 0;
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            try {
                for (; sent < most && System.nanoTime() < deadline; sent++) {
                    out.write(frame);
                }
                while (System.nanoTime() < deadline) {
                    out.write(frame);
                    out.flush();
                    sent++;
                    Thread.sleep(50);
                }
            } catch (IOException dropped) {
                return; // the server let it go
            }
            fail("the socket was still open after " + sent + " " + what);
        }
    }
}
