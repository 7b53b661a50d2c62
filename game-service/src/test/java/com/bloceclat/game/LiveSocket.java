package com.bloceclat.game;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.WebSocketClientConnection;

/** A test's socket on a match's live endpoint and the frames it received, in order. */
record LiveSocket(WebSocketClientConnection connection, BlockingQueue<JsonNode> frames) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A player's socket (their bearer token). */
    static LiveSocket asPlayer(URI base, String matchId, String bearer) {
        return open(base, matchId, "Authorization", "Bearer " + bearer);
    }

    /** A guest's socket (their game token; none when null). */
    static LiveSocket asGuest(URI base, String matchId, String gameToken) {
        return open(base, matchId, gameToken == null ? null : "X-Game-Token", gameToken);
    }

    /**
     * A guest's socket as the web UI opens it: a browser sets no header on a socket, so the game token goes as a
     * subprotocol Quarkus turns into the header (never in the address, which access logs keep).
     */
    static LiveSocket asGuestInABrowser(URI base, String matchId, String gameToken) {
        BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
        BasicWebSocketConnector connector = connector(base, matchId, frames).addSubprotocol("bearer-token-carrier")
                .addSubprotocol(URLEncoder.encode("quarkus-http-upgrade#X-Game-Token#" + gameToken,
                        StandardCharsets.UTF_8));
        return new LiveSocket(connector.connectAndAwait(), frames);
    }

    private static LiveSocket open(URI base, String matchId, String header, String value) {
        BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
        BasicWebSocketConnector connector = connector(base, matchId, frames);
        if (header != null) {
            connector = connector.addHeader(header, value);
        }
        return new LiveSocket(connector.connectAndAwait(), frames);
    }

    /**
     * Frames are queued in the order they arrive: on the connection's event loop (the callback only parses and
     * queues). The connector's default runs each callback as a task on a worker thread, which took frames out of order
     * under load (answers before the state that was sent before them).
     */
    private static BasicWebSocketConnector connector(URI base, String matchId, BlockingQueue<JsonNode> frames) {
        return BasicWebSocketConnector.create().baseUri(base)
                .path("/api/matches/" + matchId + "/live")
                .executionModel(BasicWebSocketConnector.ExecutionModel.NON_BLOCKING)
                .onTextMessage((c, m) -> {
                    try {
                        frames.add(JSON.readTree(m));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
    }

    void send(String text) {
        connection.sendTextAndAwait(text);
    }

    /** The next frame that matches, skipping others (AI updates arrive at any time). */
    JsonNode next(Predicate<JsonNode> wanted) throws InterruptedException {
        while (true) {
            JsonNode frame = frames.poll(60, TimeUnit.SECONDS);
            if (frame == null) {
                throw new AssertionError("no matching frame within 60 s");
            }
            if (wanted.test(frame)) {
                return frame;
            }
        }
    }

    /** The next frame of that type. */
    JsonNode next(String type) throws InterruptedException {
        return next(f -> type.equals(f.path("type").asText()));
    }
}
