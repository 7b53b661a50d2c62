package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayValidator;
import com.bloceclat.game.messaging.GameMessages;
import com.bloceclat.testsupport.FlywaySchemas;
import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.restassured.http.ContentType;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * The packaged service as it runs in production: two replicas serving one online race over WebSockets, and a
 * replica killed in the middle of a game that the player then finishes on a new one.
 */
class ReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    static PackagedGameService stack;

    @BeforeAll
    static void infrastructure() {
        stack = new PackagedGameService(Path.of("target", "replicas-it"));
    }

    @AfterAll
    static void tearDown() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void anOnlineRaceBetweenPlayersOnTwoReplicasIsLiveForBoth() throws Exception {
        List<PackagedGameService.Replica> both = stack.start(2, Map.of());
        PackagedGameService.Replica one = both.get(0);
        PackagedGameService.Replica two = both.get(1);
        String alice = Tokens.player("alice");
        String bob = Tokens.player("bob");
        given().baseUri(one.http()).auth().oauth2(alice).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "HARD"))
                .when().post("/api/matches").then().statusCode(202);
        String id = given().baseUri(two.http()).auth().oauth2(bob).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "HARD"))
                .when().post("/api/matches").then().statusCode(201).extract().path("id");

        Socket aliceSocket = Socket.open(one.ws() + "/api/matches/" + id + "/live", alice);
        Socket bobSocket = Socket.open(two.ws() + "/api/matches/" + id + "/live", bob);
        JsonNode aliceState = aliceSocket.next(f -> "state".equals(f.path("type").asText()));
        JsonNode bobState = bobSocket.next(f -> "state".equals(f.path("type").asText()));
        assertEquals(0, aliceState.path("match").path("yourSeat").asInt());
        assertEquals(1, bobState.path("match").path("yourSeat").asInt());

        // bob plays over his socket on replica two: alice sees it on replica one, and the other way round
        int[] b = MatchSocketTest.firstLegal(bobState.path("match").path("games").path(1));
        bobSocket.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": " + b[0] + ", \"row\": " + b[1]
                + ", \"col\": " + b[2] + "}");
        JsonNode bobMoved = bobSocket.next(f -> "moved".equals(f.path("type").asText()));
        JsonNode seen = aliceSocket.next(f -> "update".equals(f.path("type").asText())
                && f.path("game").path("seat").asInt() == 1 && "PLACE".equals(f.path("game").path("type").asText()));
        assertEquals(bobMoved.path("result").path("game").path("board"), seen.path("game").path("board"));
        assertEquals(bobMoved.path("result").path("game").path("score").asInt(), seen.path("game").path("score").asInt());

        int[] a = MatchSocketTest.firstLegal(aliceState.path("match").path("games").path(0));
        aliceSocket.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": " + a[0] + ", \"row\": " + a[1]
                + ", \"col\": " + a[2] + "}");
        aliceSocket.next(f -> "moved".equals(f.path("type").asText()));
        bobSocket.next(f -> "update".equals(f.path("type").asText()) && f.path("game").path("seat").asInt() == 0
                && "PLACE".equals(f.path("game").path("type").asText()));

        // both resign: each socket gets the final state with the result
        aliceSocket.send("{\"type\": \"resign\"}");
        bobSocket.send("{\"type\": \"resign\"}");
        JsonNode aliceEnd = aliceSocket.next(f -> "state".equals(f.path("type").asText())
                && "FINISHED".equals(f.path("match").path("status").asText()));
        JsonNode bobEnd = bobSocket.next(f -> "state".equals(f.path("type").asText())
                && "FINISHED".equals(f.path("match").path("status").asText()));
        assertEquals(aliceEnd.path("match").path("result"), bobEnd.path("match").path("result"));
        aliceSocket.close();
        bobSocket.close();

        // a solo game played on both replicas in turn: each replica's cache of the game (GameCache) is behind after
        // the other's move, and every move still sees the one before it
        var created = given().baseUri(one.http()).contentType(ContentType.JSON)
                .body("{\"level\": \"MEDIUM\", \"seed\": 31}")
                .when().post("/api/games").then().statusCode(201).extract();
        String soloId = created.path("id");
        String token = created.path("gameToken");
        Game shadow = new Game(31, Level.MEDIUM);
        for (int n = 1; n <= 8 && !shadow.gameOver(); n++) {
            PackagedGameService.Replica on = n % 2 == 1 ? one : two;
            int[] m = Play.firstLegal(shadow);
            shadow.place(m[0], m[1], m[2]);
            var moved = given().baseUri(on.http()).header("X-Game-Token", token).contentType(ContentType.JSON)
                    .body(Map.of("moveNumber", n, "slot", m[0], "row", m[1], "col", m[2]))
                    .when().post("/api/games/" + soloId + "/moves").then().statusCode(200).extract();
            assertEquals(List.of(com.bloceclat.engine.Board.rows(shadow.board())), moved.path("game.board"));
            assertEquals(shadow.score(), (int) moved.path("game.score"));
            assertEquals(n, (int) moved.path("game.version"));
        }
        one.kill();
        two.kill();
    }

    @Test
    void aRacePlayerGoneIsResignedOnceWhileIdlePlayersWithSocketsOnEitherReplicaStay() throws Exception {
        Map<String, String> quick = Map.of("BLOC_RACE_HEARTBEAT", "1s", "BLOC_RACE_DISCONNECT_TIMEOUT", "5s");
        List<PackagedGameService.Replica> both = stack.start(2, quick);
        PackagedGameService.Replica one = both.get(0);
        PackagedGameService.Replica two = both.get(1);
        // a race whose seat 1 never connects; its seat 0 watches from replica two
        String stays = Tokens.player("stays");
        String gone = Tokens.player("gone");
        given().baseUri(one.http()).auth().oauth2(stays).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "EASY")).when().post("/api/matches").then()
                .statusCode(202);
        var left = given().baseUri(one.http()).auth().oauth2(gone).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "EASY")).when().post("/api/matches").then()
                .statusCode(201).extract();
        // a race between two idle players, each with a socket open on another replica
        String carol = Tokens.player("carol");
        String dan = Tokens.player("dan");
        given().baseUri(one.http()).auth().oauth2(carol).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "MEDIUM")).when().post("/api/matches").then()
                .statusCode(202);
        String idle = given().baseUri(two.http()).auth().oauth2(dan).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "MEDIUM")).when().post("/api/matches").then()
                .statusCode(201).extract().path("id");
        Socket carolSocket = Socket.open(one.ws() + "/api/matches/" + idle + "/live", carol);
        Socket danSocket = Socket.open(two.ws() + "/api/matches/" + idle + "/live", dan);
        Socket staysSocket = Socket.open(two.ws() + "/api/matches/" + left.path("id") + "/live", stays);
        JsonNode state = staysSocket.next(f -> "state".equals(f.path("type").asText()));
        int[] m = MatchSocketTest.firstLegal(state.path("match").path("games").path(0));
        staysSocket.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": " + m[0] + ", \"row\": " + m[1]
                + ", \"col\": " + m[2] + "}");

        JsonNode end = staysSocket.next(f -> "state".equals(f.path("type").asText())
                && "FINISHED".equals(f.path("match").path("status").asText()));
        assertEquals(0, end.path("match").path("winnerSeat").asInt());
        assertTrue(end.path("match").path("result").asText().endsWith("(seat 1 left the race)"), end.toString());
        String goneGame = left.path("games[1].id");
        given().baseUri(two.http()).auth().oauth2(gone).when().get("/api/games/" + goneGame).then().statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("RESIGNED"))
                .body("version", org.hamcrest.Matchers.equalTo(1));

        // two more timeouts: the heartbeats of both replicas keep the idle players there. An update frame may
        // still come (the games' CREATED changes reach the live consumer after the sockets opened; the page drops
        // them, their version is not newer), but none may show a game that stopped
        Thread.sleep(10_000);
        for (Socket s : List.of(carolSocket, danSocket)) {
            for (JsonNode f : s.frames()) {
                boolean stopped = "update".equals(f.path("type").asText())
                        && !"PLAYING".equals(f.path("game").path("status").asText());
                assertTrue(!stopped, "an idle player was resigned: " + f);
            }
        }
        given().baseUri(one.http()).auth().oauth2(carol).when().get("/api/matches/" + idle).then()
                .body("status", org.hamcrest.Matchers.equalTo("PLAYING"))
                .body("games.status", org.hamcrest.Matchers.everyItem(org.hamcrest.Matchers.equalTo("PLAYING")));
        carolSocket.close();
        danSocket.close();
        staysSocket.close();
        one.kill();
        two.kill();
    }

    @Test
    void aReplicaKilledInTheMiddleOfAGameLosesNothingAndThePlayerFinishesItOnAnother() throws Exception {
        // started together (one start's time): the second has never seen the game when the first is killed
        List<PackagedGameService.Replica> both = stack.start(2, Map.of());
        PackagedGameService.Replica first = both.get(0);
        PackagedGameService.Replica second = both.get(1);
        var created = given().baseUri(first.http()).contentType(ContentType.JSON)
                .body("{\"level\": \"DIABOLICAL\", \"seed\": 77}")
                .when().post("/api/games").then().statusCode(201).extract();
        String id = created.path("id");
        String token = created.path("gameToken");
        Game shadow = new Game(77, Level.DIABOLICAL);
        int n = 1;
        for (; n <= 4; n++) {
            int[] m = Play.firstLegal(shadow);
            shadow.place(m[0], m[1], m[2]);
            given().baseUri(first.http()).header("X-Game-Token", token).contentType(ContentType.JSON)
                    .body(Map.of("moveNumber", n, "slot", m[0], "row", m[1], "col", m[2]))
                    .when().post("/api/games/" + id + "/moves").then().statusCode(200);
        }
        first.kill();

        var state = given().baseUri(second.http()).header("X-Game-Token", token)
                .when().get("/api/games/" + id).then().statusCode(200).extract();
        assertEquals(shadow.score(), (int) state.path("score"));
        assertEquals(5, (int) state.path("nextMoveNumber"));
        assertEquals(List.of(com.bloceclat.engine.Board.rows(shadow.board())), state.path("board"));
        while (!shadow.gameOver()) {
            int[] m = Play.firstLegal(shadow);
            shadow.place(m[0], m[1], m[2]);
            given().baseUri(second.http()).header("X-Game-Token", token).contentType(ContentType.JSON)
                    .body(Map.of("moveNumber", n++, "slot", m[0], "row", m[1], "col", m[2]))
                    .when().post("/api/games/" + id + "/moves").then().statusCode(200);
        }

        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameFinished.CHANNEL);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> task.getRecords().stream().anyMatch(r -> id.equals(r.key())));
            // the game's last event is on game-events too, so everything before it has been relayed
            ConsumerTask<String, String> events = companion.consumeStrings().fromTopics(GameMessages.EVENTS_CHANNEL);
            await().atMost(Duration.ofSeconds(60)).until(() -> events.getRecords().stream()
                    .anyMatch(r -> id.equals(r.key()) && r.value().contains("\"status\":\"OVER\"")));
            List<ConsumerRecord<String, String>> finished = task.getRecords().stream()
                    .filter(r -> id.equals(r.key())).toList();
            task.close();
            events.close();
            assertEquals(1, finished.size());
            GameFinished message = GameFinished.fromJson(TestKeys.open(finished.get(0).value()));
            ReplayValidator.Result result = ReplayValidator.validate(Replay.fromJson(message.replayJson()));
            assertTrue(result.valid(), result.error());
            assertTrue(result.gameOver());
            assertEquals(shadow.score(), result.score());
        }
        second.kill();
    }

    /**
     * A rolling restart under load: SIGTERM while players' moves are in flight. Every move is answered 200 or 503
     * (or finds the port closed), never 500, and every move answered 200 is in the game the next replica serves.
     */
    @Test
    void aReplicaStoppedUnderLoadAnswersNoMoveWith500AndLosesNoneItAccepted() throws Exception {
        Instant began = Instant.now().minusSeconds(1);
        // the players are guests on one address: more open games than the production limit of 10, and maybe more
        // started in a minute than its 60
        PackagedGameService.Replica first = stack.start(Map.of("BLOC_LIMITS_GAMES_PER_CLIENT", "100000",
                "BLOC_LIMITS_STARTS_PER_CLIENT", "100000"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        List<StoppedPlayer> players = new CopyOnWriteArrayList<>();
        AtomicBoolean go = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < 12; p++) {
            long seed = 9100 + p;
            Thread thread = new Thread(() -> {
                while (go.get()) {
                    // a new game whenever one ends, so that moves are in flight whenever the stop comes
                    StoppedPlayer player = StoppedPlayer.create(http, first.http(), seed + 100L * players.size());
                    if (player == null) {
                        return;
                    }
                    players.add(player);
                    if (!player.playUntilRefused(http, first.http(), statuses)) {
                        return;
                    }
                }
            }, "player-" + p);
            thread.start();
            threads.add(thread);
        }
        Thread.sleep(2000);
        first.stop();
        go.set(false);
        for (Thread t : threads) {
            t.join(60_000);
        }
        try {
            checkStoppedUnderLoad(statuses, players);
        } finally {
            // the players' games left open count against this address (guests, games-per-client 10 in production):
            // they must not refuse the other tests' games
            // (and those whose creation the stop cut off: made while this test ran, which no other test does)
            try (var db = stack.db(); var forget = db.prepareStatement(
                    "UPDATE game SET client_key = NULL WHERE id = ANY (?) OR created_at >= ?")) {
                forget.setArray(1, db.createArrayOf("uuid",
                        players.stream().map(p -> UUID.fromString(p.id)).toArray()));
                forget.setObject(2, began.atOffset(ZoneOffset.UTC));
                forget.executeUpdate();
            }
        }
    }

    private void checkStoppedUnderLoad(Map<Integer, Integer> statuses, List<StoppedPlayer> players) throws Exception {
        System.out.printf("ReplicasIT stop under load: statuses %s%n", statuses);
        Map<Integer, Integer> unexpected = new TreeMap<>(statuses);
        unexpected.keySet().removeAll(List.of(200, 503));
        assertEquals(Map.of(), unexpected, "statuses other than 200 and 503 while stopping (all: " + statuses + ")");
        assertTrue(statuses.getOrDefault(200, 0) > 12, "the players played before the stop: " + statuses);

        PackagedGameService.Replica next = stack.start();
        Map<String, Integer> expected = new HashMap<>();
        for (StoppedPlayer player : players) {
            var state = given().baseUri(next.http()).header("X-Game-Token", player.token)
                    .when().get("/api/games/" + player.id).then().statusCode(200).extract();
            int played = (int) state.path("nextMoveNumber") - 1;
            assertTrue(played >= player.accepted, "game " + player.id + ": move " + player.accepted
                    + " was answered 200, the game has " + played + " moves");
            assertTrue(played <= player.accepted + 1, "game " + player.id + ": " + played + " moves, "
                    + player.accepted + " answered 200, one more at most was in flight");
            expected.put(player.id, played + 1); // its creation and each move: versions 0 to played
        }
        // every change of those games on game-events once: the stop let the relay's pass in flight finish (its
        // acknowledged rows deleted), so the next replica sent none of them again
        await().atMost(Duration.ofSeconds(60)).until(() -> stack.unsentRows() == 0);
        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> events = companion.consumeStrings().fromTopics(GameMessages.EVENTS_CHANNEL);
            Map<String, List<String>> changes = new HashMap<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                changes.clear();
                for (ConsumerRecord<String, String> r : events.getRecords()) {
                    if (expected.containsKey(r.key())) {
                        changes.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(JSON.readTree(r.value())
                                .get("eventId").asText());
                    }
                }
                return expected.entrySet().stream().allMatch(e -> changes.getOrDefault(e.getKey(), List.of())
                        .stream().distinct().count() == e.getValue());
            });
            events.close();
            Map<String, Integer> twice = new TreeMap<>();
            changes.forEach((game, ids) -> {
                if (ids.size() != new HashSet<>(ids).size()) {
                    twice.put(game, ids.size() - new HashSet<>(ids).size());
                }
            });
            assertEquals(Map.of(), twice, "changes published twice, by game");
        }
        next.kill();
    }

    /** A guest playing the first legal placement of each round until the game ends or a move is not answered 200. */
    static final class StoppedPlayer {
        final String id;
        final String token;
        final Game shadow;
        int accepted;

        private StoppedPlayer(String id, String token, Game shadow) {
            this.id = id;
            this.token = token;
            this.shadow = shadow;
        }

        /** A new game on the replica, or null when it no longer answers (stopping). */
        static StoppedPlayer create(HttpClient http, String base, long seed) {
            try {
                var answer = http.send(HttpRequest.newBuilder(URI.create(base + "/api/games"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"level\": \"EASY\", \"seed\": " + seed + "}"))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() != 201) {
                    return null;
                }
                JsonNode game = JSON.readTree(answer.body());
                return new StoppedPlayer(game.get("id").asText(), game.get("gameToken").asText(),
                        new Game(seed, Level.EASY));
            } catch (IOException e) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        /** True when the game ended with every move answered 200; false once one was not. */
        boolean playUntilRefused(HttpClient http, String base, Map<Integer, Integer> statuses) {
            while (!shadow.gameOver()) {
                int[] m = Play.firstLegal(shadow);
                String body = "{\"moveNumber\": " + (accepted + 1) + ", \"slot\": " + m[0] + ", \"row\": " + m[1]
                        + ", \"col\": " + m[2] + "}";
                int status;
                try {
                    status = http.send(HttpRequest.newBuilder(
                            URI.create(base + "/api/games/" + id + "/moves"))
                            .header("Content-Type", "application/json").header("X-Game-Token", token)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .timeout(Duration.ofSeconds(30)).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode();
                } catch (IOException e) {
                    return false; // the port closed under the request or before it: nothing was answered
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                statuses.merge(status, 1, Integer::sum);
                if (status != 200) {
                    return false;
                }
                shadow.place(m[0], m[1], m[2]);
                accepted++;
            }
            return true;
        }
    }

    /**
     * A rollout's SIGTERM first takes the replica out of its Service (readiness DOWN) while it goes on answering for
     * quarkus.shutdown.delay (k8s/config.yaml), so requests routed to it before the endpoints changed everywhere are
     * still served; only then does it stop. Before, it stopped taking requests at once.
     */
    @Test
    void aReplicaToldToStopIsNotReadyButServesForItsShutdownDelayThenStops() {
        PackagedGameService.Replica replica = stack.start(Map.of("QUARKUS_SHUTDOWN_DELAY", "15s"));
        long told = System.nanoTime();
        replica.signalStop();
        // a JVM just started (its JIT busy) may take a few seconds to act on the signal
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                given().baseUri(replica.http()).when().get("/q/health/ready").then().statusCode(503));
        given().baseUri(replica.http()).when().get("/api/games/info").then().statusCode(200);
        given().baseUri(replica.http()).contentType(ContentType.JSON).body("{\"level\": \"EASY\"}")
                .when().post("/api/games").then().statusCode(201);
        assertTrue(Duration.ofNanos(System.nanoTime() - told).toSeconds() < 15, "served within the delay");
        await().atMost(Duration.ofSeconds(60)).until(() -> !replica.alive());
    }

    @Test
    void gamesFinishedWhileKafkaIsDownArePublishedOnceItIsBack() throws Exception {
        // the outbox's backlog read every second and late after 2 s, so that the test sees its wellness check go DOWN
        PackagedGameService.Replica replica = stack.start(
                Map.of("BLOC_OUTBOX_BACKLOG_INTERVAL", "1s", "BLOC_OUTBOX_LATE_AFTER", "2s"));
        stack.stopKafka();
        String id;
        Game shadow;
        try {
            // Kafka is not on the request path: the game is played to the end while the broker is gone
            Played game = playToTheEnd(replica, 5);
            id = game.id();
            shadow = game.shadow();
            int n = game.moves() + 1;
            assertTrue(stack.unsent(id) >= n, "every change waits in the outbox while Kafka is down");
            // a broker that is down takes no replica out of its Service (readiness) nor restarts it (liveness), and a
            // replica started meanwhile passes its startup probe: every channel is left out of readiness and startup
            PackagedGameService.Replica startedMeanwhile = stack.start();
            for (PackagedGameService.Replica r : List.of(replica, startedMeanwhile)) {
                for (String probe : List.of("/q/health/started", "/q/health/ready", "/q/health/live")) {
                    given().baseUri(r.http()).when().get(probe).then().statusCode(200).body("status", equalTo("UP"));
                }
            }
            startedMeanwhile.kill();
            // ...it shows to operators as the outbox's backlog
            int played = n;
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().baseUri(replica.http())
                    .when().get("/q/health/well").then().statusCode(503)
                    .body("checks.find { it.name == 'outbox' }.status", equalTo("DOWN"))
                    .body("checks.find { it.name == 'outbox' }.data.pending", greaterThanOrEqualTo(played)));
            String metrics = given().baseUri(replica.http()).accept("text/plain").when().get("/q/metrics").asString();
            Matcher pending = Pattern.compile("(?m)^outbox_pending (\\S+)$").matcher(metrics);
            assertTrue(pending.find(), "the gauge outbox_pending");
            assertTrue(Double.parseDouble(pending.group(1)) >= played, pending.group());
            assertTrue(metrics.contains("\noutbox_oldest_seconds "), "the gauge outbox_oldest_seconds");
        } finally {
            replica.kill();
            stack.startKafka();
        }
        PackagedGameService.Replica next = stack.start();
        String gameId = id;
        await().atMost(Duration.ofSeconds(60)).until(() -> stack.unsent(gameId) == 0);
        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameFinished.CHANNEL);
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> task.getRecords().stream().anyMatch(r -> gameId.equals(r.key())));
            List<ConsumerRecord<String, String>> finished = task.getRecords().stream()
                    .filter(r -> gameId.equals(r.key())).toList();
            task.close();
            assertEquals(1, finished.size());
            ReplayValidator.Result result = ReplayValidator.validate(
                    Replay.fromJson(GameFinished.fromJson(TestKeys.open(finished.get(0).value())).replayJson()));
            assertTrue(result.valid(), result.error());
            assertEquals(shadow.score(), result.score());
        }
        next.kill();
    }

    /**
     * While the broker is away, a replica that stays up passes over its kept rows again and again; its producer holds
     * every record it could not deliver, retrying, for up to its delivery.timeout.ms (two minutes). Before, each pass
     * sent the kept rows again and every copy reached the topic once the broker was back (5 copies of the
     * game-finished here): the relay now sends a row again only once its earlier send failed.
     */
    @Test
    void aBrokerAwayForManyPassesGetsOneCopyOfEachMessageFromAReplicaThatStaysUp() throws Exception {
        // passes close together: a send unsettled after 1 s is kept, and due again 0.5 to 1 s later
        PackagedGameService.Replica replica = stack.start(Map.of("BLOC_OUTBOX_SEND_TIMEOUT", "1s",
                "BLOC_OUTBOX_POLL_INTERVAL", "500ms", "BLOC_OUTBOX_RETRY_MAX", "1s"));
        String id;
        long written;
        try {
            // a game finished with the broker there: the producer knows both topics' partitions
            String before = playToTheEnd(replica, 7).id();
            await().atMost(Duration.ofSeconds(60)).until(() -> stack.unsent(before) == 0);
            stack.kafkaAway();
            try {
                id = playToTheEnd(replica, 5).id();
                String gameId = id;
                // four passes, or more, kept the game's rows, each with its send unsettled
                await().atMost(Duration.ofSeconds(60)).until(() -> stack.keptSends(gameId) >= 4);
                written = stack.unsent(gameId, GameMessages.EVENTS_CHANNEL);
            } finally {
                stack.kafkaBack();
            }
            String gameId = id;
            await().atMost(Duration.ofSeconds(120)).until(() -> stack.unsent(gameId) == 0);
            // a game finished after the outage's: its messages come after every copy of the first's (one partition)
            String after = playToTheEnd(replica, 9).id();
            try (KafkaCompanion companion = KafkaResource.companion()) {
                ConsumerTask<String, String> finished = companion.consumeStrings().fromTopics(GameFinished.CHANNEL);
                ConsumerTask<String, String> events = companion.consumeStrings().fromTopics(GameMessages.EVENTS_CHANNEL);
                await().atMost(Duration.ofSeconds(60)).until(() -> finished.getRecords().stream()
                        .anyMatch(r -> after.equals(r.key())) && events.getRecords().stream()
                        .anyMatch(r -> after.equals(r.key())));
                finished.close();
                events.close();
                assertEquals(1, finished.getRecords().stream().filter(r -> gameId.equals(r.key())).count(),
                        "copies of the game-finished");
                List<String> changes = events.getRecords().stream().filter(r -> gameId.equals(r.key()))
                        .map(ConsumerRecord::value).toList();
                assertEquals(written, new HashSet<>(changes).size(), "every change of the game reached game-events");
                assertEquals(written, changes.size(), "no change of the game came twice");
            }
        } finally {
            replica.kill();
        }
    }

    /** A game played to its end: its id, the engine's copy of it, and the placements made. */
    private record Played(String id, Game shadow, int moves) {
    }

    /** Plays a solo EXPERT game of this seed to its end on a replica, with the first legal placement. */
    private static Played playToTheEnd(PackagedGameService.Replica replica, long seed) {
        var created = given().baseUri(replica.http()).contentType(ContentType.JSON)
                .body("{\"level\": \"EXPERT\", \"seed\": " + seed + "}")
                .when().post("/api/games").then().statusCode(201).extract();
        String id = created.path("id");
        String token = created.path("gameToken");
        Game shadow = new Game(seed, Level.EXPERT);
        int n = 1;
        while (!shadow.gameOver()) {
            int[] m = Play.firstLegal(shadow);
            shadow.place(m[0], m[1], m[2]);
            given().baseUri(replica.http()).header("X-Game-Token", token).contentType(ContentType.JSON)
                    .body(Map.of("moveNumber", n++, "slot", m[0], "row", m[1], "col", m[2]))
                    .when().post("/api/games/" + id + "/moves").then().statusCode(200);
        }
        return new Played(id, shadow, n - 1);
    }

    @Test
    void aReplicaWithoutAGoodSigningKeyOrDailySecretDoesNotStartAndSaysWhy() {
        // the four at once: each replica stops at its configuration check, on its own
        var missing = stack.failToStart(Map.of(), "BLOC_SIGNING_PRIVATE_KEY");
        var malformed = stack.failToStart(Map.of("BLOC_SIGNING_PRIVATE_KEY", "bm90IGEga2V5"));
        var noSecret = stack.failToStart(Map.of(), "BLOC_DAILY_SECRET");
        var shortSecret = stack.failToStart(Map.of("BLOC_DAILY_SECRET", "guessable"));
        // read at start-up too, not at the first hint or AI turn (before, such a replica started and was ready)
        var badDiscovery = stack.failToStart(Map.of("SOLVER_DISCOVERY", "dnss"));
        // a disconnect timeout under two heartbeats would resign players whose pings are merely late
        var shortTimeout = stack.failToStart(Map.of("BLOC_RACE_HEARTBEAT", "5s", "BLOC_RACE_DISCONNECT_TIMEOUT", "8s"));
        assertTrue(missing.join().contains("bloc.signing.private-key"), missing.join());
        assertTrue(malformed.join().contains("BLOC_SIGNING_PRIVATE_KEY): not a base64 PKCS#8 Ed25519 private key"),
                malformed.join());
        assertTrue(noSecret.join().contains("bloc.daily.secret"), noSecret.join());
        assertTrue(shortSecret.join().contains(
                "bloc.daily.secret (BLOC_DAILY_SECRET) must be at least 16 characters"), shortSecret.join());
        assertTrue(badDiscovery.join().contains("bloc.solver.discovery is static or dns, got 'dnss'"),
                badDiscovery.join());
        assertTrue(shortTimeout.join().contains("bloc.race.disconnect-timeout (PT8S) must be at least twice "
                + "bloc.race.heartbeat (PT5S)"), shortTimeout.join());
    }

    /**
     * k8s migrates the database in an init container (k8s/game-service.yaml): the service's own image with
     * {@code QUARKUS_INIT_AND_EXIT=true} runs the Flyway migrations and exits 0, before the service's container starts
     * and outside its startup probe (a long migration inside the probe's 3 minutes was killed and started again),
     * given the database's settings and the keys its configuration requires, without Kafka, the OIDC server or the
     * solver. Here into a schema of its own, so that the migrations run from the first.
     */
    @Test
    void initAndExitMigratesTheDatabaseAndExitsWithoutKafkaOidcOrTheSolver() throws Exception {
        String schema = FlywaySchemas.fresh();
        // as k8s/game-service.yaml's init container: a pool of 2
        var run = stack.runToExit(Map.of("QUARKUS_INIT_AND_EXIT", "true", "QUARKUS_DATASOURCE_JDBC_MAX_SIZE", "2",
                "QUARKUS_FLYWAY_SCHEMAS", schema),
                "KAFKA_BOOTSTRAP_SERVERS", "QUARKUS_OIDC_AUTH_SERVER_URL", "QUARKUS_OIDC_CLIENT_ID",
                "QUARKUS_OIDC_CREDENTIALS_SECRET", "SOLVER_URLS").join();
        assertEquals(0, run.code(), run.log());
        try (Connection c = stack.db()) {
            FlywaySchemas.assertMigratedThenDrop(c, schema);
        }
    }

    /** A JDK WebSocket client collecting frames. */
    record Socket(WebSocket socket, BlockingQueue<JsonNode> frames) {

        static Socket open(String url, String bearer) {
            BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
            WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
                    .header("Authorization", "Bearer " + bearer)
                    .buildAsync(URI.create(url), new WebSocket.Listener() {
                        private final StringBuilder text = new StringBuilder();

                        @Override
                        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                            text.append(data);
                            if (last) {
                                try {
                                    frames.add(JSON.readTree(text.toString()));
                                } catch (Exception e) {
                                    throw new AssertionError(e);
                                }
                                text.setLength(0);
                            }
                            webSocket.request(1);
                            return null;
                        }
                    }).join();
            return new Socket(ws, frames);
        }

        void send(String text) {
            socket.sendText(text, true).join();
        }

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

        void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
        }
    }
}
