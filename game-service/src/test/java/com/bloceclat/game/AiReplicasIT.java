package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.restassured.http.ContentType;

/**
 * AI opponents on packaged game-service replicas (each its own process, as in production) sharing one PostgreSQL,
 * with a real packaged solver-service: two replicas play the same AI matches and no AI turn is asked twice (each
 * placement not played from its round's plan costs one search, counted by solver-service itself); a replica killed
 * in the middle of an AI turn (its lease taken, its solver call hanging) leaves the turn to another replica once its
 * lease has run out.
 */
class AiReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    static PackagedGameService stack;
    static PackagedSolver solver;

    @BeforeAll
    static void infrastructure() {
        Path logs = Path.of("target", "ai-replicas-it");
        stack = new PackagedGameService(logs);
        // game-service's solver client gets its service token from the OIDC server, as from Keycloak
        Tokens.serveServiceGrant(stack.oidcUrl(), List.of("player", "service"));
        solver = PackagedSolver.start(stack.oidcUrl() + "/realms/quarkus", logs.resolve("solver-service.log"));
    }

    @AfterAll
    static void tearDown() {
        if (solver != null) {
            solver.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void twoReplicasPlayTheSameAiMatchesAndAskNoTurnTwice() throws Exception {
        // each replica holds at most 6 AI games: the 12 matches cannot all be one replica's
        Map<String, String> env = Map.of("SOLVER_URLS", solver.url(), "BLOC_AI_PACE", "200ms",
                "BLOC_AI_MAX_GAMES", "6");
        List<PackagedGameService.Replica> both = stack.start(2, env);
        PackagedGameService.Replica one = both.get(0);
        PackagedGameService.Replica two = both.get(1);
        long searchesBefore = solver.aiSearches();
        int rounds = 3;
        List<String> matchIds = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String token = Tokens.player("ai-twice-" + i);
            PackagedGameService.Replica on = i % 2 == 0 ? one : two;
            var match = given().baseUri(on.http()).auth().oauth2(token).contentType(ContentType.JSON)
                    .body(Map.of("mode", "VERSUS_AI", "level", "EASY", "strength", 5))
                    .when().post("/api/matches").then().statusCode(201).extract();
            matchIds.add(match.path("id"));
            // the person plays a few rounds ahead (moves on both replicas in turn), so that the AI has turns to play
            String person = match.path("games[0].id");
            JsonNode game = JSON.valueToTree(match.path("games[0]"));
            for (int n = 1; n <= 3 * rounds && !game.path("gameOver").asBoolean(); n++) {
                int[] m = MatchSocketTest.firstLegal(game);
                PackagedGameService.Replica at = n % 2 == 0 ? one : two;
                game = JSON.valueToTree(given().baseUri(at.http()).auth().oauth2(token).contentType(ContentType.JSON)
                        .body(Map.of("moveNumber", n, "slot", m[0], "row", m[1], "col", m[2]))
                        .when().post("/api/games/" + person + "/moves").then().statusCode(200).extract()
                        .path("game"));
            }
        }
        // every AI game reaches the end of the person's round (where it waits) or ends
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1))
                .until(() -> aiGamesSettled(matchIds, rounds));

        long placements = aiPlacements(matchIds);
        long searches = solver.aiSearches() - searchesBefore;
        long callsOne = metric(one, "bloc_ai_solver_calls_total");
        long callsTwo = metric(two, "bloc_ai_solver_calls_total");
        long placedOne = metric(one, "bloc_ai_placements_total");
        long placedTwo = metric(two, "bloc_ai_placements_total");
        long planned = metric(one, "bloc_ai_placements_planned_total")
                + metric(two, "bloc_ai_placements_planned_total");
        System.out.printf("AI placements %d (%d from a plan), solver searches %d; replica one: %d calls %d placements, "
                + "two: %d / %d%n", placements, planned, searches, callsOne, placedOne, callsTwo, placedTwo);
        assertTrue(placements >= 12 * 2, "the AI played: " + placements);
        assertEquals(placements, placedOne + placedTwo);
        assertEquals(placements - planned, searches,
                "one solver search per AI placement not played from its round's plan, across both replicas");
        assertEquals(searches, callsOne + callsTwo, "every search was one of the drivers' calls");
        assertTrue(planned > 0 && searches < placements, "rounds were played from their plan: " + planned);
        assertTrue(placedOne > 0 && placedTwo > 0, "both replicas played AI turns: " + placedOne + ", " + placedTwo);
        // lateness: one sample per placement whose turn did not wait for its person, the objectives as buckets
        long late = metric(one, "bloc_ai_lateness_seconds_count") + metric(two, "bloc_ai_lateness_seconds_count");
        assertTrue(late > 0 && late <= placements, "lateness samples " + late + " for " + placements + " placements");
        String text = metrics(one);
        for (String objective : List.of("0.1", "0.25")) {
            assertTrue(text.contains("bloc_ai_lateness_seconds_bucket{le=\"" + objective + "\"}"),
                    "a bucket at the " + objective + " s objective");
        }
        one.kill();
        two.kill();
    }

    @Test
    void aReplicaKilledMidTurnLeavesTheTurnToAnotherOnceItsLeaseRunsOut() throws Exception {
        try (BlackHole hole = new BlackHole()) {
            // replica A's only solver takes the connection and never answers: its AI turn hangs in the solver call
            PackagedGameService.Replica a = stack.start(Map.of("SOLVER_URLS", hole.url(), "BLOC_AI_LEASE", "16s"));
            String token = Tokens.player("ai-orphan");
            var match = given().baseUri(a.http()).auth().oauth2(token).contentType(ContentType.JSON)
                    .body(Map.of("mode", "VERSUS_AI", "level", "EASY", "strength", 5))
                    .when().post("/api/matches").then().statusCode(201).extract();
            UUID aiGame = UUID.fromString(match.path("games[1].id"));
            await().atMost(Duration.ofSeconds(60)).until(() -> hole.accepted.get() > 0);
            Lease held = lease(aiGame);
            assertNotNull(held.holder(), "replica A holds the AI game while it asks");
            // B starts while A still holds the lease, so that its placement coming only after the lease ran out
            // shows that it waited for it (a B started after that would prove nothing)
            PackagedGameService.Replica b = stack.start(Map.of("SOLVER_URLS", solver.url(), "BLOC_AI_LEASE", "16s"));
            OffsetDateTime bUp = OffsetDateTime.now();
            a.kill();
            assertEquals(0, aiEvents(aiGame), "nothing was played: A died mid-turn, B waits for its lease");
            assertTrue(bUp.isBefore(held.until()), "B was up before A's lease ran out: " + bUp + ", " + held.until());

            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> aiEvents(aiGame) >= 1);
            OffsetDateTime firstPlacement = firstEventAt(aiGame);
            assertFalse(firstPlacement.isBefore(held.until()),
                    "B played the turn only once A's lease had run out: " + firstPlacement + " < " + held.until());
            // and B goes on playing the game, turn after turn (the person is not ahead: two pieces, then it waits)
            await().atMost(Duration.ofSeconds(60)).until(() -> aiEvents(aiGame) >= 2);
            b.kill();
        }
    }

    /** Whether each AI game has reached the end of its person's round, or ended. */
    private static boolean aiGamesSettled(List<String> matchIds, int rounds) throws SQLException {
        try (Connection c = stack.db(); PreparedStatement q = c.prepareStatement(
                "SELECT p.status, p.event_count, a.status, a.event_count, a.ai_lease_until > now() "
                        + "FROM game p JOIN game a ON a.match_id = p.match_id AND a.seat = 1 "
                        + "WHERE p.seat = 0 AND p.match_id = ?")) {
            for (String id : matchIds) {
                q.setObject(1, UUID.fromString(id));
                try (ResultSet r = q.executeQuery()) {
                    r.next();
                    boolean personPlaying = "PLAYING".equals(r.getString(1));
                    int personEvents = r.getInt(2);
                    boolean aiPlaying = "PLAYING".equals(r.getString(3));
                    int aiEvents = r.getInt(4);
                    if (aiPlaying && (!personPlaying || aiEvents < 3 * (personEvents / 3) + 2)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static long aiPlacements(List<String> matchIds) throws SQLException {
        long n = 0;
        try (Connection c = stack.db(); PreparedStatement q = c.prepareStatement(
                "SELECT count(*) FROM game_event e JOIN game g ON g.id = e.game_id "
                        + "WHERE g.match_id = ? AND g.seat = 1 AND e.type = 'PLACE'")) {
            for (String id : matchIds) {
                q.setObject(1, UUID.fromString(id));
                try (ResultSet r = q.executeQuery()) {
                    r.next();
                    n += r.getLong(1);
                }
            }
        }
        return n;
    }

    private record Lease(UUID holder, OffsetDateTime until) {
    }

    private static Lease lease(UUID game) throws SQLException {
        try (Connection c = stack.db(); PreparedStatement q = c.prepareStatement(
                "SELECT ai_lease_holder, ai_lease_until FROM game WHERE id = ?")) {
            q.setObject(1, game);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return new Lease(r.getObject(1, UUID.class), r.getObject(2, OffsetDateTime.class));
            }
        }
    }

    private static long aiEvents(UUID game) throws SQLException {
        try (Connection c = stack.db(); PreparedStatement q = c.prepareStatement(
                "SELECT count(*) FROM game_event WHERE game_id = ? AND type = 'PLACE'")) {
            q.setObject(1, game);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static OffsetDateTime firstEventAt(UUID game) throws SQLException {
        try (Connection c = stack.db(); PreparedStatement q = c.prepareStatement(
                "SELECT min(created_at) FROM game_event WHERE game_id = ?")) {
            q.setObject(1, game);
            try (ResultSet r = q.executeQuery()) {
                r.next();
                return r.getObject(1, OffsetDateTime.class);
            }
        }
    }

    /** A counter of a replica's {@code /q/metrics}, 0 when absent. */
    static long metric(PackagedGameService.Replica replica, String name) throws IOException, InterruptedException {
        String text = metrics(replica);
        Matcher m = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*\\})?\\s+([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(text);
        return m.find() ? (long) Double.parseDouble(m.group(2)) : 0;
    }

    /** A replica's {@code /q/metrics}, Prometheus text. */
    static String metrics(PackagedGameService.Replica replica) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(replica.http() + "/q/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** A "solver" that takes connections and never answers. */
    static final class BlackHole implements AutoCloseable {
        final ServerSocket server;
        final AtomicInteger accepted = new AtomicInteger();
        private final List<Socket> held = new CopyOnWriteArrayList<>();

        BlackHole() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        held.add(server.accept());
                        accepted.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "black-hole");
            t.setDaemon(true);
            t.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
