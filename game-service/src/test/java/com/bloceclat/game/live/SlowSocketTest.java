package com.bloceclat.game.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ContextNotActiveException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameChanged;
import com.bloceclat.common.events.GameFinished;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.Requester;
import com.fasterxml.jackson.databind.JsonNode;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.arc.ClientProxy;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;

/**
 * A socket whose client stops reading (its send never completes, as a write waits while the peer's window is full)
 * must not hold back the other sockets' updates: before, the live consumer waited on each send in turn, so one
 * stalled page froze every match's live updates on its replica.
 */
class SlowSocketTest {

    private static final List<String> BOARD = List.of("........", "........", "........", "........", "........",
            "........", "........", "........");

    private final List<String> ids = new CopyOnWriteArrayList<>();

    /** A socket of the match: {@code stalled} never completes a send (and so never a sendTextAndAwait). */
    private record Fake(WebSocketConnection connection, List<String> sent, AtomicBoolean closed) {
    }

    private static Fake socket(String id, boolean stalled) {
        List<String> sent = new CopyOnWriteArrayList<>();
        AtomicBoolean closed = new AtomicBoolean();
        InvocationHandler handler = (proxy, method, args) -> switch (method.getName()) {
            case "id" -> id;
            case "isClosed" -> closed.get();
            case "sendText" -> {
                if (stalled) {
                    yield Uni.createFrom().emitter(e -> {
                    }); // a write the peer never takes
                }
                sent.add((String) args[0]);
                yield Uni.createFrom().voidItem();
            }
            case "close" -> {
                closed.set(true);
                // the close frame goes out a moment later, after the callback that closed it has returned
                yield Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(50));
            }
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            case "toString" -> "socket " + id;
            default -> {
                if (method.isDefault()) {
                    yield InvocationHandler.invokeDefault(proxy, method, args); // sendTextAndAwait: sendText, awaited
                }
                throw new UnsupportedOperationException(method.getName());
            }
        };
        WebSocketConnection c = (WebSocketConnection) Proxy.newProxyInstance(SlowSocketTest.class.getClassLoader(),
                new Class<?>[] {WebSocketConnection.class}, handler);
        return new Fake(c, sent, closed);
    }

    @AfterEach
    void forgetSeats() {
        ids.forEach(LiveSockets::unseat);
    }

    private void seat(WebSocketConnection connection, UUID match) {
        ids.add(connection.id());
        LiveSockets.seat(connection, new LiveSockets.Seat(match, "VERSUS_AI", 0, UUID.randomUUID(), List.of(),
                new Requester(null, null, "t")));
    }

    /**
     * A change goes to its match's sockets without the live consumer visiting the replica's other sockets: before, it
     * went through every open connection of the replica for each record of a watched match.
     */
    @Test
    void aChangeVisitsOnlyItsOwnMatchsSockets() {
        UUID match = UUID.randomUUID();
        Fake watcher = socket("watcher-" + UUID.randomUUID(), false);
        seat(watcher.connection(), match);
        AtomicInteger visits = new AtomicInteger();
        AtomicBoolean counting = new AtomicBoolean();
        for (int i = 0; i < 200; i++) {
            String id = "other-" + i + "-" + UUID.randomUUID();
            WebSocketConnection other = (WebSocketConnection) Proxy.newProxyInstance(
                    SlowSocketTest.class.getClassLoader(), new Class<?>[] {WebSocketConnection.class},
                    (proxy, method, args) -> {
                        if (counting.get()) {
                            visits.incrementAndGet();
                        }
                        return switch (method.getName()) {
                            case "id" -> id;
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            case "isOpen" -> true;
                            default -> throw new UnsupportedOperationException(method.getName());
                        };
                    });
            seat(other, UUID.randomUUID());
        }
        LiveUpdates live = newLiveUpdates();
        counting.set(true);
        live.onEvents(records(change(match), change(match)));
        assertEquals(2, watcher.sent().size(), "the match's socket got both updates");
        assertEquals(0, visits.get(), "no other match's socket was asked anything");
    }

    private static String change(UUID match) {
        return GameChanged.of(UUID.randomUUID(), 1, GameChanged.Type.PLACE,
                new GameChanged.Placement(1, 0, 0, 0, "DOT"), GameFinished.Mode.VERSUS_AI, match, 1, "EASY",
                GameChanged.Status.PLAYING, 1, 0, 0, false, BOARD, Instant.now()).toJson();
    }

    @Test
    void aSocketThatStopsReadingHoldsBackNobodyElsesUpdatesAndIsClosed() throws Exception {
        UUID match = UUID.randomUUID();
        Fake stalled = socket("stalled-" + UUID.randomUUID(), true);
        Fake reading = socket("reading-" + UUID.randomUUID(), false);
        for (Fake f : List.of(stalled, reading)) {
            seat(f.connection(), match);
        }
        LiveUpdates live = newLiveUpdates();
        String change = change(match);

        // the stalled socket comes first: the consumer must get past it
        CompletableFuture<Void> delivered = CompletableFuture.runAsync(() -> live.onEvents(records(change, change)));
        delivered.get(10, TimeUnit.SECONDS);
        assertEquals(2, reading.sent().size(), "the reading socket got both updates");
        assertTrue(reading.sent().get(0).contains("\"type\":\"update\""), reading.sent().get(0));
        // and the stalled one is let go once its send has waited longer than the timeout (its page reconnects)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!stalled.closed().get() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(stalled.closed().get(), "the stalled socket is closed");
        assertTrue(!reading.closed().get(), "the reading socket stays open");
        // closed and counted once, though both its frames timed out; a later record sends it nothing
        Thread.sleep(500);
        live.onEvents(records(change));
        assertEquals(3, reading.sent().size());
        assertEquals(1.0, live.metrics.counter("game.live.closed", "reason", "stalled").count());
    }

    /**
     * As a socket endpoint's injected connection is: a proxy of the session-scoped bean, whose calls reach the
     * connection only while that socket's callback runs ({@code inCallback}).
     */
    private static WebSocketConnection sessionProxy(WebSocketConnection connection, AtomicBoolean inCallback) {
        return (WebSocketConnection) Proxy.newProxyInstance(SlowSocketTest.class.getClassLoader(),
                new Class<?>[] {WebSocketConnection.class, ClientProxy.class}, (proxy, method, args) -> {
                    if (!inCallback.get()) {
                        throw new ContextNotActiveException("the socket's session is not active");
                    }
                    if (method.getName().equals("arc_contextualInstance")) {
                        return connection;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * An endpoint hands {@link Frames} its injected connection, a session-scoped proxy: before, the send's timeout
     * asked that proxy whether it was closed, outside the socket's callback, which threw, so a client that read no
     * answer was never closed; and a close's completion left the socket counted as closing for good.
     */
    @Test
    void aSocketReachedThroughItsEndpointsSessionProxyIsClosedWhenItStopsReading() throws Exception {
        LiveUpdates live = newLiveUpdates();
        Fake stalled = socket("stalled-" + UUID.randomUUID(), true);
        AtomicBoolean inCallback = new AtomicBoolean(true);
        live.frames.send(sessionProxy(stalled.connection(), inCallback), "{\"type\":\"pong\"}");
        inCallback.set(false); // the callback has returned
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!stalled.closed().get() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(stalled.closed().get(), "the socket that took no frame is closed");

        Fake flooding = socket("flooding-" + UUID.randomUUID(), false);
        inCallback.set(true);
        live.frames.close(sessionProxy(flooding.connection(), inCallback), "flooding", CloseReason.NORMAL);
        inCallback.set(false);
        assertTrue(flooding.closed().get());
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (live.frames.closing(flooding.connection().id()) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(live.frames.closing(flooding.connection().id()), "its close has ended");
    }

    /** A live consumer whose match service shows every seat every change. */
    private static LiveUpdates newLiveUpdates() {
        LiveUpdates live = new LiveUpdates();
        live.matches = new MatchService() {
            @Override
            public Optional<JsonNode> liveUpdateFor(UUID matchId, int viewerSeat, JsonNode event) {
                return Optional.of(event);
            }
        };
        live.metrics = new SimpleMeterRegistry();
        GameConfig.Live config = new GameConfig.Live() {
            @Override
            public double framesPerSecond() {
                return 10;
            }

            @Override
            public int burst() {
                return 20;
            }

            @Override
            public Duration sendTimeout() {
                return Duration.ofMillis(200);
            }

            @Override
            public Duration silentAfter() {
                return Duration.ofSeconds(30);
            }

            @Override
            public Duration pingEvery() {
                return Duration.ofSeconds(10);
            }

            @Override
            public int refusedBeforeClose() {
                return 50;
            }

            @Override
            public int maxSocketsPerSeat() {
                return 4;
            }

            @Override
            public int maxSocketsPerClient() {
                return 64;
            }
        };
        live.frames = new Frames(live.metrics, config);
        return live;
    }

    /** One poll's records, without the bloc-match header: read in full, as a producer that does not set it sends them. */
    static ConsumerRecords<String, String> records(String... values) {
        TopicPartition partition = new TopicPartition(GameChanged.CHANNEL, 0);
        List<ConsumerRecord<String, String>> list = new ArrayList<>();
        for (String value : values) {
            list.add(new ConsumerRecord<>(partition.topic(), 0, list.size(), "key", value));
        }
        return new ConsumerRecords<>(Map.of(partition, list), Map.of());
    }
}
