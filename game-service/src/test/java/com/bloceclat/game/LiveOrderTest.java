package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Level;
import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.MatchView;
import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ClientProxy;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * A socket's {@code state} frame is read on the socket's thread while the live consumer sends {@code update} frames
 * from its own: a state read just before the other seat's change must not reach the page after that change's update
 * (it showed the other seat one change behind), nor be the only frame of a socket seated after the consumer passed
 * (the change reached no one; when it ended the match, the page never saw the result). Each test holds the state read
 * of one socket ({@link HeldMatches}) while the other seat moves, then lets it go.
 */
@QuarkusTest
class LiveOrderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    /** The real match service, but the first state read after {@link #armed} waits, once read, until released. */
    static final class HeldMatches extends MatchService {
        final MatchService real;
        final AtomicBoolean armed = new AtomicBoolean(true);
        final CountDownLatch read = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        HeldMatches(MatchService real) {
            this.real = real;
        }

        @Override
        public MatchView state(UUID id, Requester requester) {
            MatchView view = real.state(id, requester);
            if (armed.compareAndSet(true, false)) {
                read.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return view;
        }

        @Override
        public Optional<JsonNode> liveUpdateFor(UUID matchId, int viewerSeat, JsonNode event) {
            return real.liveUpdateFor(matchId, viewerSeat, event);
        }

        @Override
        public MatchView versusAi(Level level, int strength, Requester requester) {
            return real.versusAi(level, strength, requester);
        }

        @Override
        public MatchView twoPlayers(Level level, Requester requester) {
            return real.twoPlayers(level, requester);
        }

        @Override
        public MatchView raceBetween(Level level, Requester host, Requester guest) {
            return real.raceBetween(level, host, guest);
        }

        @Override
        public void endDecidedAiGame(UUID gameId) {
            real.endDecidedAiGame(gameId);
        }
    }

    private static HeldMatches holdTheNextStateRead() {
        MatchService real = ClientProxy.unwrap(Arc.container().instance(MatchService.class).get());
        HeldMatches held = new HeldMatches(real);
        QuarkusMock.installMockForType(held, MatchService.class);
        return held;
    }

    /** A private race between two new players (no queue: no other test's ticket can take a seat): its match view. */
    private static JsonNode race(String host, String guest) throws Exception {
        String code = given().auth().oauth2(host).contentType(ContentType.JSON).body(Map.of("level", "EXPERT"))
                .when().post("/api/races/private").then().statusCode(201).extract().path("code");
        return JSON.readTree(given().auth().oauth2(guest).when().post("/api/races/private/" + code + "/join")
                .then().statusCode(200).extract().asString());
    }

    /** Seat 1 places its first legal piece over REST; the version its game is at after it. */
    private static int seatOneMoves(String bearer, JsonNode match) {
        JsonNode game = match.path("games").path(1);
        int[] m = MatchSocketTest.firstLegal(game);
        return given().auth().oauth2(bearer).contentType(ContentType.JSON)
                .body(Map.of("moveNumber", 1, "slot", m[0], "row", m[1], "col", m[2]))
                .when().post("/api/games/" + game.path("id").asText() + "/moves").then().statusCode(200).extract()
                .path("game.version");
    }

    private static boolean updateOfSeatOne(JsonNode frame, int version) {
        return "update".equals(frame.path("type").asText()) && frame.path("game").path("seat").asInt() == 1
                && frame.path("game").path("version").asInt() == version;
    }

    @Test
    void aSyncAnsweredWithAStateReadBeforeTheOtherSeatsChangeIsReadAgainNotSentAfterItsUpdate() throws Exception {
        String alice = Tokens.player("order-a");
        String bob = Tokens.player("order-b");
        JsonNode match = race(alice, bob);
        String id = match.path("id").asText();
        LiveSocket socket = LiveSocket.asPlayer(base, id, alice);
        socket.next("state");

        HeldMatches held = holdTheNextStateRead();
        try {
            socket.send("{\"type\": \"sync\"}");
            assertTrue(held.read.await(30, TimeUnit.SECONDS), "the sync's state read");
            int version = seatOneMoves(bob, match);
            socket.next(f -> updateOfSeatOne(f, version));
            held.release.countDown();
            JsonNode state = socket.next("state");
            int shown = state.path("match").path("games").path(1).path("version").asInt();
            assertTrue(shown >= version, "the state after bob's update shows his game at version " + shown
                    + ", behind the update's " + version);
        } finally {
            held.release.countDown();
            socket.connection().closeAndAwait();
        }
    }

    @Test
    void aSocketWhoseStateWasReadBeforeAChangeTheConsumerSentBeforeItWasSeatedGetsTheStateAfterIt() throws Exception {
        String alice = Tokens.player("order-c");
        String bob = Tokens.player("order-d");
        JsonNode match = race(alice, bob);
        String id = match.path("id").asText();
        LiveSocket bobs = LiveSocket.asPlayer(base, id, bob);
        bobs.next("state");

        HeldMatches held = holdTheNextStateRead();
        CompletableFuture<LiveSocket> opening = CompletableFuture.supplyAsync(() -> LiveSocket.asPlayer(base, id, alice));
        LiveSocket alices = null;
        try {
            assertTrue(held.read.await(30, TimeUnit.SECONDS), "alice's socket's state read");
            int version = seatOneMoves(bob, match);
            // the consumer has passed: bob's own socket got the change, alice's, not yet seated, could not
            bobs.next(f -> updateOfSeatOne(f, version));
            held.release.countDown();
            alices = opening.get(30, TimeUnit.SECONDS);
            JsonNode state = alices.next("state");
            int shown = state.path("match").path("games").path(1).path("version").asInt();
            assertTrue(shown >= version, "alice's first state shows bob's game at version " + shown
                    + ", behind his change " + version + " that her socket was never sent");
        } finally {
            held.release.countDown();
            bobs.connection().closeAndAwait();
            if (alices != null) {
                alices.connection().closeAndAwait();
            }
        }
    }
}
