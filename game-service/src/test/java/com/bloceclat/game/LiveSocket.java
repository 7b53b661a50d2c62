package com.bloceclat.game;

import java.net.URI;
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

    private static LiveSocket open(URI base, String matchId, String header, String value) {
        BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
        BasicWebSocketConnector connector = BasicWebSocketConnector.create().baseUri(base)
                .path("/api/matches/" + matchId + "/live")
                .onTextMessage((c, m) -> {
                    try {
                        frames.add(JSON.readTree(m));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
        if (header != null) {
            connector = connector.addHeader(header, value);
        }
        return new LiveSocket(connector.connectAndAwait(), frames);
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
